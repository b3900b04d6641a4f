//! `log-reducer`: Groups events per tumbling window (reductionTimeWindow) and per partition into
//! message patterns (masking, tokenizing on delimiters, similarity >= similarityThreshold). Passes
//! the first dedupThreshold events of a pattern as samples, then holds the pattern and emits one
//! summary at window end (plus logarithmic extra samples if configured). Every output carries tag
//! grepr.messagetype = sample|summary|passthrough|exception; summaries carry grepr.patternId,
//! grepr.repeatCount, grepr.firstTimeTimestamp, grepr.lastTimeTimestamp, grepr.receivedTimestamp,
//! grepr.rawLogsUrl and attributes merged per strategy.
//!
//! Fields as the public service documents them (grepr/cli
//! src/main/typescript/openapi/openApiTypes.ts (newest stored version, 802,951 chars):
//! components.schemas.LogReducer; enum values at end of file, AttributesMergeStrategy*,
//! SamplingConfig, IntegrationExceptionConfig; DEFAULT_LOG_REDUCER_MASKS; grepr/cli
//! docs-index-source/app/transforms/reducer/page.mdx; grepr/cli
//! docs-index-source/app/transforms/reducer/configuration/page.mdx).
//!
//! Decisions where the sources are silent or disagree:
//! - masks/enabledMasks/delimiters are non-optional in the TS type but carry full defaults; the
//!   docs say the reducer is created 'with default settings'. Treat all three as optional with the
//!   schema defaults.
//! - Delimiter default conflict: client schema default has 30 characters (adds & = ? ! + * / < > %
//!   ^ ~ `); the reducer docs page and the wire-notes list 17 (: # \[ \] ( ) { } | , ; " ' space tab
//!   LF CR). Follow the docs page (the newer source, which states the default in words; with it
//!   pattern grouping on Loghub's labelled logs is 0.74 against 0.71 with the 30: bench/RESULTS.md);
//!   both exclude @ and '.'.
//! - similarityThreshold bounds 20..100 and dedupThreshold >= 2, logarithmBase >= 2,
//!   sample/preserve limit >= 1 come from the UI docs, not the schema. Enforce them (server
//!   validation unknown).
//! - tokenizationInput/attributeTokenization/includedAttributePrefixes/excludedAttributePrefixes
//!   exist only in the newest docs (reducer configuration page, with a JSON example); not in any
//!   stored client types. Enum spellings MESSAGE_ONLY, ATTRIBUTES_ONLY, KEYS_AND_VALUES, KEYS_ONLY
//!   are documented; the two others ('Message, or attributes when empty', 'Message and attributes')
//!   have no public spelling — we use MESSAGE_OR_ATTRIBUTES and MESSAGE_AND_ATTRIBUTES; revisit if
//!   a newer client shows them.
//! - Merge strategy type strings are lowercase: exact, sample, preserve, sum, min, max, avg,
//!   composite, ignore (enum values in the client types). The skills' patch vocabulary uses 'avg'
//!   not 'average'.
//! - Custom mask name rule (lowercase letters only, <= 50 chars, unique) is a UI rule; apply it to
//!   names not among the six built-ins.
//! - reductionTimeWindow: examples use PT120S and PT2M; must parse as a positive ISO-8601 duration.

use crate::ops::{Describe, Operation, PredicateUse, Role};
use crate::{config, tagged, wire_enum};
use serde_json::{Map, Value};

config! {
    /// No additional sampling: after dedupThreshold samples the pattern is held until the window
    /// ends (default).
    pub struct ConstantSampling {
    }
}

config! {
    /// One more sample each time the window count passes base^(dedupThreshold+1),
    /// base^(dedupThreshold+2), ...
    pub struct WindowBasedLogarithmicSampling {
        /// Logarithm base (docs: whole number >= 2).
        "logarithmBase" [min(2.0), default("2")] => logarithm_base: Option<u64>,
    }
}

tagged! {
    /// Sampling after dedupThreshold.
    pub enum SamplingConfig ("a samplingConfig") {
        ConstantSampling = "constant-sampling" (ConstantSampling),
        WindowBasedLogarithmicSampling = "window-based-logarithmic-sampling" (WindowBasedLogarithmicSampling),
    }
}

config! {
    /// Keep the value if all merged events agree (deep equality for maps), else the wildcard string
    /// "*". The default.
    pub struct Exact {
    }
}

config! {
    /// Collect up to `limit` values; extra values are dropped.
    pub struct Sample {
        /// Max values kept (UI default 10).
        "limit" [min(1.0), default("10")] => limit: Option<u64>,
        /// Store as a set (discard duplicates) instead of a list.
        "unique" [] => unique: Option<bool>,
    }
}

config! {
    /// Collect every value; when the collection would exceed `limit` the current summary is emitted
    /// and a new cluster starts (no value dropped).
    pub struct Preserve {
        /// Collection size that forces a summary (UI default 1000).
        "limit" [min(1.0), default("1000")] => limit: Option<u64>,
        /// Set (true) or list (false) semantics.
        "unique" [] => unique: Option<bool>,
    }
}

config! {
    /// Sum of numeric values (collections summed element-wise), stored as a double; non-numeric
    /// ignored.
    pub struct Sum {
    }
}

config! {
    /// Minimum numeric value (double).
    pub struct Min {
    }
}

config! {
    /// Maximum numeric value (double).
    pub struct Max {
    }
}

config! {
    /// Arithmetic mean of numeric observations (collections contribute each element).
    pub struct Avg {
    }
}

config! {
    /// Several strategies on one path: each writes `<path>_<suffix>` (`_sum`, `_avg`, `_min`,
    /// `_max`, ...); the first also writes the base name. Each strategy type at most once.
    pub struct Composite {
        /// Strategies, in order.
        "strategies" [default("[]")] => strategies: Option<Vec<Map<String, Value>>>,
    }
}

config! {
    /// Internal: leaves the value unchanged (used for suffixed keys of composite). Accept but never
    /// needed in input.
    pub struct Ignore {
    }
}

tagged! {
    /// How the values of an attribute path are merged into a summary (`composite` for several
    /// strategies on one path).
    pub enum MergeStrategy ("a merge strategy") {
        Exact = "exact" (Exact),
        Sample = "sample" (Sample),
        Preserve = "preserve" (Preserve),
        Sum = "sum" (Sum),
        Min = "min" (Min),
        Max = "max" (Max),
        Avg = "avg" (Avg),
        Composite = "composite" (Composite),
        Ignore = "ignore" (Ignore),
    }
}

config! {
    /// The merge strategy of one attribute path.
    pub struct AttributeMergeStrategyEntriesItem {
        /// Path segments, e.g. \["http","response","bytes"\].
        "attributePath" [required, min(1.0)] => attribute_path: Vec<String>,
        /// Strategy for this path.
        "strategy" [required] => strategy: MergeStrategy,
    }
}

config! {
    /// integrationExceptionConfigsItem
    pub struct IntegrationExceptionConfigsItem {
        /// Integration whose imported (vendor) exceptions are used.
        "integrationId" [required] => integration_id: String,
        /// Selected imported-exception ids.
        "ids" [default("[]")] => ids: Option<Vec<String>>,
        /// Follow the integration's exceptions automatically.
        "autoSync" [default("false")] => auto_sync: Option<bool>,
        /// Max estimated passthrough % for auto-synced exceptions.
        "autosyncPassthroughRateThreshold" [min(0.0), max(100.0)] => autosync_passthrough_rate_threshold: Option<f64>,
        /// Dataset against which the auto-sync threshold is evaluated (required for the threshold
        /// to apply).
        "datasetId" [] => dataset_id: Option<String>,
    }
}

wire_enum! {
    /// What builds the pattern (docs only, newer than stored client types): MESSAGE_ONLY (default;
    /// empty messages pass through), message-or-attributes-when-empty, ATTRIBUTES_ONLY,
    /// message-and-attributes. The two middle enum spellings are not shown in any public source —
    /// see decisions.
    pub enum TokenizationInput { MessageOnly = "MESSAGE_ONLY", MessageOrAttributes = "MESSAGE_OR_ATTRIBUTES", AttributesOnly = "ATTRIBUTES_ONLY", MessageAndAttributes = "MESSAGE_AND_ATTRIBUTES" }
}

wire_enum! {
    /// When attributes participate: KEYS_AND_VALUES (compare values, default) or KEYS_ONLY.
    pub enum AttributeTokenization { KeysAndValues = "KEYS_AND_VALUES", KeysOnly = "KEYS_ONLY" }
}

config! {
    /// The configuration of a `log-reducer` vertex.
    pub struct LogReducer {
        /// Percent of equal tokens needed to join a pattern. Docs (UI): whole number 20–100.
        "similarityThreshold" [min(20.0), max(100.0), default("70")] => similarity_threshold: Option<f64>,
        /// Tag keys; patterns are built independently per combination of values.
        "partitionByTags" [default("[]")] => partition_by_tags: Option<Vec<String>>,
        /// Dotted attribute paths to partition by.
        "partitionByAttributes" [default("[]")] => partition_by_attributes: Option<Vec<String>>,
        /// Attribute paths as segment arrays (\[\["user","id"\]\] nested vs \[\["user.id"\]\] flat key).
        "partitionByAttributePaths" [default("[]")] => partition_by_attribute_paths: Option<Vec<Vec<String>>>,
        /// Tumbling aggregation window. ISO-8601 duration string (e.g. PT2M, PT120S, PT20.345S).
        /// Must be > 0.
        "reductionTimeWindow" [format("duration"), default("\"PT2M\"")] => reduction_time_window: Option<String>,
        /// Samples passed per pattern per window before holding (docs: whole number >= 2).
        "dedupThreshold" [min(2.0), default("4")] => dedup_threshold: Option<u64>,
        /// Sampling after dedupThreshold.
        "samplingConfig" [default("{\"type\": \"constant-sampling\"}")] => sampling_config: Option<SamplingConfig>,
        /// Prefix summary messages with the repeat count/period.
        "repeatCountInSummaryMessageEnabled" [default("true")] => repeat_count_in_summary_message_enabled: Option<bool>,
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
        /// Strategy for attribute paths without an entry (use `composite` for several).
        "defaultAttributesMergeStrategy" [default("{\"type\": \"exact\"}")] => default_attributes_merge_strategy: Option<MergeStrategy>,
        /// Per-path strategies. Paths non-empty and unique (server error 'Duplicate attribute paths
        /// in merge strategies are not allowed').
        "attributeMergeStrategyEntries" [default("[]")] => attribute_merge_strategy_entries: Option<Vec<AttributeMergeStrategyEntriesItem>>,
        /// EventPredicates; matching events bypass aggregation and leave tagged
        /// grepr.messagetype=exception.
        "logReducerExceptions" [default("[]")] => log_reducer_exceptions: Option<Vec<Value>>,
        /// Use exceptions imported from vendor integrations (monitors, dashboards).
        "integrationExceptionConfigs" [default("[]")] => integration_exception_configs: Option<Vec<IntegrationExceptionConfigsItem>>,
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

/// The default mask catalogue, in order: the `masks` field's default (a test keeps the two
/// equal). `ipport`, `timestamp`, `uuid` and `number` are enabled by default.
pub const DEFAULT_MASKS: &[(&str, &str)] = &[
    ("ipport", r#"(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?"#),
    (
        "timestamp",
        r#"(?:(?:\d{4}-\d{2}-\d{2}(?:T|\s)\d{2}:\d{2}:\d{2}(?:[.,]\d{1,12})?(?:Z|(?:[\+\-]\d{2}:?\d{2})|\sUTC)?)|(?:\d{1,4}/\d{1,2}/\d{1,4}(,?\s\d{1,2}:\d{2}:\d{1,2}(?:[.,]\d{1,12})?(?:\s?(?:[AP]M))?)?)|(?:\d{1,2}:\d{2}:\d{1,2}(?:[.,]\d{1,12})?(?:\s?(?:[AP]M))?)|(?:\d{2}/[A-Za-z]{3}/\d{4}(?:[:\s]\d{2}:\d{2}:\d{2}(?:\s\+[0-9]{4})?)?))"#,
    ),
    (
        "uuid",
        r#"(?:^|(?<!\w))(?:[a-fA-F0-9]{8}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{12})(?:(?!\w)|$)"#,
    ),
    (
        "number",
        r#"(?:^|(?<!\w))(?:(?:0x[a-fA-F0-9]{1,100})|(?:[\-\+]?(?>(?:(?:\d{1,100})?(?:\.\d{1,100})(?:[eE][\-\+]?\d{1,100}))|(?:(?:\d{1,100})?(?:\.\d{1,100}))|(?:\d{1,100}))))(?:(?!\w)|$)"#,
    ),
    (
        "awsarn",
        r#"arn:aws(?:-[a-z]+-[a-z]+)?:[a-zA-Z0-9-]+:(?:[a-z0-9-]+:)?(?:[0-9]{12})?:[a-zA-Z0-9-_./]+(?::[a-zA-Z0-9-_./]+)*"#,
    ),
    (
        "awstoken",
        r#"(?:IQoJb3JpZ2luX[A-Za-z0-9+/]{10,20})[A-Za-z0-9+/]{800,1100}"#,
    ),
];

/// The masks enabled by default (`enabledMasks`).
pub const DEFAULT_ENABLED_MASKS: &[&str] = &["ipport", "timestamp", "uuid", "number"];

/// The default delimiters (`delimiters`), one character each.
pub const DEFAULT_DELIMITERS: &[&str] = &[
    ":", "#", "[", "]", "(", ")", "{", "}", "|", ",", ";", "\"", "'", " ", "\t", "\n", "\r",
];

impl LogReducer {
    /// [`DEFAULT_MASKS`] as owned pairs.
    pub fn default_masks() -> Vec<(String, String)> {
        DEFAULT_MASKS
            .iter()
            .map(|(n, r)| ((*n).to_owned(), (*r).to_owned()))
            .collect()
    }
}

/// `log-reducer` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "log-reducer",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Groups events per tumbling window (reductionTimeWindow) and per partition into message patterns (masking, tokenizing on delimiters, similarity >= similarityThreshold). Passes the first dedupThreshold events of a pattern as samples, then holds the pattern and emits one summary at window end (plus logarithmic extra samples if configured). Every output carries tag grepr.messagetype = sample|summary|passthrough|exception; summaries carry grepr.patternId, grepr.repeatCount, grepr.firstTimeTimestamp, grepr.lastTimeTimestamp, grepr.receivedTimestamp, grepr.rawLogsUrl and attributes merged per strategy."
    ),
    example: crate::doc_text!(r#"{"type": "log-reducer", "name": "log_reducer"}"#),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogReducer as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Shape;

    #[test]
    fn the_example_reads_as_the_config() {
        crate::ops::testing::example_reads_as_the_config::<LogReducer>(&OPERATION);
    }

    #[test]
    fn the_default_constants_are_the_fields_defaults() {
        let Shape::Object(fields) = (OPERATION.config)() else {
            panic!("an object")
        };
        let default = |name: &str| -> Value {
            let field = fields.iter().find(|f| f.name == name).unwrap();
            serde_json::from_str(field.extra.default.unwrap()).unwrap()
        };
        let masks: Vec<Vec<String>> = serde_json::from_value(default("masks")).unwrap();
        let constant: Vec<Vec<String>> = DEFAULT_MASKS
            .iter()
            .map(|(n, r)| vec![(*n).to_owned(), (*r).to_owned()])
            .collect();
        assert_eq!(masks, constant);
        assert_eq!(
            default("enabledMasks"),
            serde_json::json!(DEFAULT_ENABLED_MASKS)
        );
        assert_eq!(default("delimiters"), serde_json::json!(DEFAULT_DELIMITERS));
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
