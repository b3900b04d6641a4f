pub(crate) mod getter;
pub(crate) mod method;
pub(crate) mod setter;

pub(crate) use getter::*;
pub(crate) use method::*;
pub(crate) use setter::*;
