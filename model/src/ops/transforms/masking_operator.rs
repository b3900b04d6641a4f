//! `masking-operator`: replaces what its regular expressions match in each event's message,
//! and in string attributes at given paths, with a label (`\[label\]` unless a `replacement` is
//! given). Only the events its optional predicate matches are masked.
//!
//! Fields as the public client's OpenAPI types give them (`MaskingOperator`). A mask is a bare
//! regular expression or an object `{regex, replacement, preserveThrough}`; the catalog checks
//! that each is one of the two, and the engine (when it runs the type) checks the expressions.

use indexmap::IndexMap;
use serde_json::Value;

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// The masks of one attribute path.
    pub struct AttributeMasks {
        /// The attribute's path, one key per item (`\["http", "url"\]`).
        "path" [required, min(1.0)] => path: Vec<String>,
        /// Label → mask (a regular expression, or `{regex, replacement, preserveThrough}`).
        "masks" [required] => masks: IndexMap<String, Value>,
    }
}

config! {
    /// The configuration of a `masking-operator` vertex.
    pub struct MaskingOperator {
        /// Label (at most 64 characters) → mask applied to the message: a regular expression,
        /// or `{regex, replacement, preserveThrough}`. The leftmost longest match wins, then
        /// the order of declaration.
        "messageMasks" [default("{}")] => message_masks: Option<IndexMap<String, Value>>,
        /// Masks of string attributes, per path (each path once).
        "attributeMasks" [default("[]")] => attribute_masks: Option<Vec<AttributeMasks>>,
        /// Only the events it matches are masked (the public service's name).
        "predicate" [predicate] => predicate: Option<Value>,
        /// Only the events it matches are masked (the interface document's name).
        "query" [predicate] => query: Option<Value>,
    }
}

/// `masking-operator` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "masking-operator",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Replaces what its regular expressions match in the message, and in string attributes at given paths, with a label (`[label]` by default)."
    ),
    example: crate::doc_text!(
        r#"{"type": "masking-operator", "name": "mask", "messageMasks": {"email": "[\\w.+-]+@[\\w-]+\\.[\\w.]+", "card": {"regex": "\\d{12}(\\d{4})", "replacement": "[card]"}}, "attributeMasks": [{"path": ["http", "url"], "masks": {"token": "token=\\w+"}}]}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Optional,
    config: <MaskingOperator as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        let config: MaskingOperator = serde_json::from_str(OPERATION.example).unwrap();
        let masks = config.message_masks.unwrap();
        assert!(masks["email"].is_string() && masks["card"].is_object());
        assert_eq!(config.attribute_masks.unwrap()[0].path, ["http", "url"]);
    }

    #[test]
    fn an_attribute_mask_needs_a_path() {
        let vertex = serde_json::json!({"type": "masking-operator", "name": "m",
            "attributeMasks": [{"path": [], "masks": {}}]});
        let mut problems = Vec::new();
        crate::ops::check_config(
            &OPERATION,
            vertex.as_object().unwrap(),
            "/vertices/0",
            &mut |p, m| problems.push(format!("{p}: {m}")),
        );
        assert_eq!(
            problems,
            [
                "/vertices/0/attributeMasks/0/path: must be an array of strings with at least 1 item, found an array"
            ]
        );
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
