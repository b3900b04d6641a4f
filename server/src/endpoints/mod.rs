//! The handlers, one module per resource, over the request guards, the shared state and the
//! store: templates, jobs (and their synchronous runs: `sync_runs`, driven by `sync_driver`),
//! datasets, integrations, grok, the organization, token revocation and triggers; with what
//! they share: `listing` (pages of listings), `scripts` (running scripts for a request).

pub(crate) mod datasets;
pub(crate) mod grok;
pub(crate) mod intake;
pub(crate) mod integrations;
pub(crate) mod jobs;
pub(crate) mod listing;
pub(crate) mod metrics;
pub(crate) mod organization;
pub(crate) mod revoke;
pub(crate) mod scripts;
pub(crate) mod sync_driver;
pub(crate) mod sync_runs;
pub(crate) mod tap;
pub(crate) mod templates;
pub(crate) mod triggers;
