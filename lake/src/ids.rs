//! Ids that become object path components: the rule of [`jobgraph_model::names`], the same
//! one the service checks where each name enters (docs/lake.md, "Names").

use crate::LakeError;

/// Checks an id that becomes one path component (`what`: `organization`, `dataset id`,
/// `table`, `run id`).
pub(crate) fn check_id(what: &'static str, value: &str) -> Result<(), LakeError> {
    jobgraph_model::names::check_path_name(what, value).map_err(LakeError::InvalidId)
}
