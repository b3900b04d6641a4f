//! What a request must pass and what bounds a caller, below the shared state that holds them:
//! client secrets and the threads that verify them, the cache of checked tokens, the token
//! endpoint's throttle, fairness between organizations, the budgets of request bodies and of
//! triggers, and the sizes of stored fields and listing pages.

pub(crate) mod body_budget;
pub mod fair;
pub mod field_limits;
pub(crate) mod hash_pool;
pub(crate) mod secrets;
pub mod throttle;
pub(crate) mod token_cache;
pub(crate) mod trigger_budget;
