//! `template-operation`: a vertex replaced by a template's subgraph when the job is resolved
//! (`docs/resolution.md`). Its ports are the template's `inputs` and `outputs`.

use serde_json::{Map, Value};

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `template-operation`: a vertex replaced by a template's subgraph at resolution time.
    pub struct TemplateOperation {
        /// Template to use.
        "templateId" [required] => template_id: String,
        /// Exact version; the latest when absent.
        "templateVersion" [min(1.0)] => template_version: Option<u64>,
        /// Values for the template's parameters.
        "templateInputs" [default("{}")] => template_inputs: Map<String, Value>,
        /// Draft mode for this operation (and every operation nested in it).
        "draftMode" [default("false")] => draft_mode: bool,
    }
}

/// `template-operation` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "template-operation",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Replaced, when the job is resolved, by the subgraph its template's script returns for `templateInputs`; its ports are the template's `inputs` and `outputs`."
    ),
    example: crate::doc_text!(
        r#"{"type": "template-operation", "name": "errors", "templateId": "error-filter", "templateVersion": 2, "templateInputs": {"level": "error"}}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <TemplateOperation as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        let op: TemplateOperation = serde_json::from_str(OPERATION.example).unwrap();
        assert_eq!(op.template_id, "error-filter");
        assert_eq!(op.template_version, Some(2));
        assert!(!op.draft_mode);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
