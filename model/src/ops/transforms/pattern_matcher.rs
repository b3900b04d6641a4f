//! `pattern-matcher`: Assigns each event its message pattern (same masking/tokenizing/similarity
//! machinery as the reducer) and forwards every event with its message preserved; events with known
//! patterns can skip a downstream global reducer. Does not aggregate, sample or summarize.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.PatternMatcher; enum values at end of file; grepr/cli
//! docs-index-source/app/transforms/reducer/configuration/page.mdx ('The pattern-matcher operation
//! supports the same API settings and preserves the messages of forwarded events'); grepr/cli
//! openApiTypes.ts AiPipelineTemplateInput.patternMatcher).
//!
//! Decisions where the sources are silent or disagree:
//! - Fields = the PatternMatcher schema (no dedupThreshold, reductionTimeWindow, samplingConfig,
//!   merge strategies or exceptions) + the docs' tokenization settings. Reject reducer-only fields.
//! - Which tag/attribute carries the pattern id is not documented; we tag grepr.patternId (the
//!   reducer's summary key) — internal decision.

use crate::config;
use crate::ops::{Describe, Operation, PredicateUse, Role};

use super::log_reducer::{AttributeTokenization, TokenizationInput};

config! {
    /// The configuration of a `pattern-matcher` vertex.
    pub struct PatternMatcher {
        /// Percent of equal tokens needed to join a pattern. Docs (UI): whole number 20–100.
        "similarityThreshold" [min(20.0), max(100.0), default("70")] => similarity_threshold: Option<f64>,
        /// Tag keys; patterns are built independently per combination of values.
        "partitionByTags" [default("[]")] => partition_by_tags: Option<Vec<String>>,
        /// Dotted attribute paths to partition by.
        "partitionByAttributes" [default("[]")] => partition_by_attributes: Option<Vec<String>>,
        /// Attribute paths as segment arrays (\[\["user","id"\]\] nested vs \[\["user.id"\]\] flat key).
        "partitionByAttributePaths" [default("[]")] => partition_by_attribute_paths: Option<Vec<Vec<String>>>,
        /// Mask catalogue as \[name, regex\] pairs. Non-optional in the TS type but has a full
        /// default (the six built-ins); custom names: lowercase letters only, <= 50 chars, unique;
        /// regex without lookaround/backreferences (Hyperscan). Replacing the array replaces the
        /// catalogue.
        "masks" [default("[[\"ipport\", \"(?:\\\\d{1,3}\\\\.){3}\\\\d{1,3}(?::\\\\d{1,5})?\"], [\"timestamp\", \"(?:(?:\\\\d{4}-\\\\d{2}-\\\\d{2}(?:T|\\\\s)\\\\d{2}:\\\\d{2}:\\\\d{2}(?:[.,]\\\\d{1,12})?(?:Z|(?:[\\\\+\\\\-]\\\\d{2}:?\\\\d{2})|\\\\sUTC)?)|(?:\\\\d{1,4}/\\\\d{1,2}/\\\\d{1,4}(,?\\\\s\\\\d{1,2}:\\\\d{2}:\\\\d{1,2}(?:[.,]\\\\d{1,12})?(?:\\\\s?(?:[AP]M))?)?)|(?:\\\\d{1,2}:\\\\d{2}:\\\\d{1,2}(?:[.,]\\\\d{1,12})?(?:\\\\s?(?:[AP]M))?)|(?:\\\\d{2}/[A-Za-z]{3}/\\\\d{4}(?:[:\\\\s]\\\\d{2}:\\\\d{2}:\\\\d{2}(?:\\\\s\\\\+[0-9]{4})?)?))\"], [\"uuid\", \"(?:^|(?<!\\\\w))(?:[a-fA-F0-9]{8}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{12})(?:(?!\\\\w)|$)\"], [\"number\", \"(?:^|(?<!\\\\w))(?:(?:0x[a-fA-F0-9]{1,100})|(?:[\\\\-\\\\+]?(?>(?:(?:\\\\d{1,100})?(?:\\\\.\\\\d{1,100})(?:[eE][\\\\-\\\\+]?\\\\d{1,100}))|(?:(?:\\\\d{1,100})?(?:\\\\.\\\\d{1,100}))|(?:\\\\d{1,100}))))(?:(?!\\\\w)|$)\"], [\"awsarn\", \"arn:aws(?:-[a-z]+-[a-z]+)?:[a-zA-Z0-9-]+:(?:[a-z0-9-]+:)?(?:[0-9]{12})?:[a-zA-Z0-9-_./]+(?::[a-zA-Z0-9-_./]+)*\"], [\"awstoken\", \"(?:IQoJb3JpZ2luX[A-Za-z0-9+/]{10,20})[A-Za-z0-9+/]{800,1100}\"]]")] => masks: Option<Vec<Vec<String>>>,
        /// Names (from `masks`) applied before tokenizing. Non-optional in TS; default
        /// ipport,timestamp,uuid,number (awsarn, awstoken off).
        "enabledMasks" [default("[\"ipport\", \"timestamp\", \"uuid\", \"number\"]")] => enabled_masks: Option<Vec<String>>,
        /// Single-character token separators. Non-optional in TS. Default: the 17 of the reducer
        /// docs page (no '@' nor '.'); an older client schema adds & = ? ! + * / < > % ^ ~ `.
        /// Duplicates rejected; control chars given as JSON escapes.
        "delimiters" [default("[\":\", \"#\", \"[\", \"]\", \"(\", \")\", \"{\", \"}\", \"|\", \",\", \";\", \"\\\"\", \"'\", \" \", \"\\t\", \"\\n\", \"\\r\"]")] => delimiters: Option<Vec<String>>,
        /// May emit new-pattern signals to subscribed AI agents.
        "emitNewPatternSignals" [default("false")] => emit_new_pattern_signals: Option<bool>,
        /// What builds the pattern (docs only, newer than stored client types): MESSAGE_ONLY
        /// (default; empty messages pass through), message-or-attributes-when-empty,
        /// ATTRIBUTES_ONLY, message-and-attributes. The two middle enum spellings are not shown in
        /// any public source — see decisions.
        "tokenizationInput" [default("\"MESSAGE_ONLY\"")] => tokenization_input: Option<TokenizationInput>,
        /// When attributes participate: KEYS_AND_VALUES (compare values, default) or KEYS_ONLY.
        "attributeTokenization" [default("\"KEYS_AND_VALUES\"")] => attribute_tokenization: Option<AttributeTokenization>,
        /// Attribute subtrees that participate (segment arrays); empty = all.
        "includedAttributePrefixes" [default("[]")] => included_attribute_prefixes: Option<Vec<Vec<String>>>,
        /// Attribute subtrees excluded (wins over include).
        "excludedAttributePrefixes" [default("[]")] => excluded_attribute_prefixes: Option<Vec<Vec<String>>>,
    }
}

/// `pattern-matcher` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "pattern-matcher",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Assigns each event its message pattern (same masking/tokenizing/similarity machinery as the reducer) and forwards every event with its message preserved; events with known patterns can skip a downstream global reducer. Does not aggregate, sample or summarize."
    ),
    example: crate::doc_text!(r#"{"type": "pattern-matcher", "name": "pattern_matcher"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <PatternMatcher as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<PatternMatcher>(&OPERATION);
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
