//! The bodies of the grok batch API (`POST /v1/grok/parse/batch`, `grok:parse`, the npm
//! package's `grokParseBatch`); `jobgraph_core::grok::parse_batch` answers them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::GrokRules;

/// The body of a batch parse: a parser and the lines to run through it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokBatchRequest {
    /// The rules.
    pub grok_parser: GrokParserSpec,
    /// The lines to parse, in order.
    pub log_samples: Vec<String>,
}

/// A grok parser as the public client sends it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokParserSpec {
    /// A display name (not used for parsing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The parsing rules: an array of `Name pattern` strings (one rule per item, as the public
    /// service has them) or one string with a rule per line.
    pub grok_parsing_rules: GrokRules,
    /// The helper rules, same forms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grok_helper_rules: Option<GrokRules>,
    /// The attribute holding the raw line in a pipeline (informative here: samples are lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract_attribute: Option<String>,
    /// The processor type (`grok-parser`; informative).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
}

/// One result per sample, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokBatchResponse {
    /// The samples' results.
    pub results: Vec<GrokSampleResult>,
}

/// What one sample gave.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokSampleResult {
    /// Whether a rule matched.
    #[serde(rename = "match")]
    pub matched: bool,
    /// The rule that matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matching_rule_name: Option<String>,
    /// Extracted attributes (empty without a match).
    #[serde(default)]
    pub attributes: Map<String, Value>,
    /// Extracted tags.
    #[serde(default)]
    pub tags: Map<String, Value>,
    /// `severity`, `eventTimestamp`.
    #[serde(default)]
    pub top_level_fields: Map<String, Value>,
    /// Why the sample could not be parsed (the time limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
