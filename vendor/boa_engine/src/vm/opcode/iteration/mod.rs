pub(crate) mod for_in;
pub(crate) mod get;
pub(crate) mod iterator;
pub(crate) mod loop_ops;

pub(crate) use for_in::*;
pub(crate) use get::*;
pub(crate) use iterator::*;
pub(crate) use loop_ops::*;
