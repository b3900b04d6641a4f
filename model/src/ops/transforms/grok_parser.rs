//! `grok-parser`: parses each event's `message` (or the string attribute `extractAttribute`)
//! with Datadog-style grok rules (`docs/grok.md`); the first matching rule wins. Events its
//! optional predicate does not match, or that no rule matches, pass unchanged.

use serde_json::Value;

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

config! {
    /// `grok-parser`: parses each event's raw line with grok rules (`docs/pipeline.md`).
    pub struct GrokParserVertex {
        /// The parsing rules: an array of `RuleName pattern` strings, or one string with a
        /// rule per line (`docs/grok.md`).
        "grokParsingRules" [required] => grok_parsing_rules: crate::GrokRules,
        /// Helper rules, same forms.
        "grokHelperRules" [] => grok_helper_rules: Option<crate::GrokRules>,
        /// The attribute holding the raw line; the event's `message` when absent.
        "extractAttribute" [] => extract_attribute: Option<String>,
        /// Only the events it matches are parsed (the public service's name).
        "predicate" [predicate] => predicate: Option<Value>,
        /// Only the events it matches are parsed (the interface document's name).
        "query" [predicate] => query: Option<Value>,
    }
}

/// `grok-parser` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "grok-parser",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Parses each event's message (or `extractAttribute`) with grok rules into attributes, tags and top-level fields; the first matching rule wins."
    ),
    example: crate::doc_text!(
        r#"{"type": "grok-parser", "name": "parse", "grokParsingRules": ["access %{ip:client} %{word:method} %{notSpace:path}"], "grokHelperRules": []}"#
    ),
    outputs: &[],
    predicate: PredicateUse::Optional,
    config: <GrokParserVertex as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_an_array_or_a_string() {
        let config: GrokParserVertex = serde_json::from_str(OPERATION.example).unwrap();
        assert_eq!(
            config.grok_parsing_rules,
            crate::GrokRules::List(vec![
                "access %{ip:client} %{word:method} %{notSpace:path}".into()
            ])
        );
        let config: GrokParserVertex =
            serde_json::from_str(r#"{"grokParsingRules": "R %{word:w}"}"#).unwrap();
        assert_eq!(config.grok_parsing_rules, "R %{word:w}".into());
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
