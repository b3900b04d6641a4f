//! The grok conformance cases of `tests/conformance/grok/*.json`: rules (and helper rules, each
//! an array of strings or a string), one sample, the `source` address of a case transcribed
//! from public documentation, and either the sample's result (`{match, matchingRuleName?,
//! attributes, tags, topLevelFields}`) or the compile error's prefix and fragments. A case's outcome is the same
//! JSON natively, in Node and in Chromium: the sample's result as the batch API gives it, or
//! `{"error": {"message"}}`.

use std::path::{Path, PathBuf};

use jobgraph_core::GrokRules;
use jobgraph_core::grok::{GrokBatchRequest, GrokParserSpec, parse_batch};
use serde::Deserialize;
use serde_json::{Value, json};

/// A grok case file.
#[derive(Debug, Clone, Deserialize)]
pub struct GrokFile {
    /// What the file covers.
    #[serde(default)]
    pub description: String,
    /// The cases.
    pub cases: Vec<GrokCase>,
}

/// One grok case.
#[derive(Debug, Clone, Deserialize)]
pub struct GrokCase {
    /// What it checks (and why the expectation is right).
    #[serde(default)]
    pub why: String,
    /// The parsing rules: an array of strings (one rule per item) or one string.
    pub rules: GrokRules,
    /// The helper rules, same forms.
    #[serde(default)]
    pub helpers: Option<GrokRules>,
    /// Where the case comes from, when it is transcribed from public documentation.
    #[serde(default)]
    pub source: Option<String>,
    /// The line to parse.
    pub sample: String,
    /// The expected result, or `{"error": {"prefix", "contains"}}`.
    pub expect: Value,
}

/// The folder of the grok case files.
pub fn grok_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/grok")
}

/// Every grok case keyed `file#index`, in file-name order.
pub fn load_grok_cases(dir: &Path) -> Result<Vec<(String, GrokCase)>, String> {
    let files: Vec<(String, GrokFile)> = crate::read_json_files(dir)?;
    Ok(files
        .into_iter()
        .flat_map(|(name, file)| {
            file.cases
                .into_iter()
                .enumerate()
                .map(move |(i, c)| (format!("{name}#{i}"), c))
        })
        .collect())
}

impl GrokCase {
    /// The batch request of the case: its rules, its helpers, its one sample.
    pub fn request(&self) -> GrokBatchRequest {
        GrokBatchRequest {
            grok_parser: GrokParserSpec {
                grok_parsing_rules: self.rules.clone(),
                grok_helper_rules: self.helpers.clone(),
                ..GrokParserSpec::default()
            },
            log_samples: vec![self.sample.clone()],
        }
    }
}

/// The case's outcome through the batch API (one sample).
pub fn grok_outcome(case: &GrokCase) -> Value {
    match parse_batch(&case.request()) {
        Ok(response) => response
            .results
            .first()
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null),
        Err(e) => json!({"error": {"message": e.to_string()}}),
    }
}

/// Compares an outcome with the case's expectation; `Err` says how they differ.
pub fn check_grok(case: &GrokCase, outcome: &Value) -> Result<(), String> {
    let Some(want) = case.expect.get("error") else {
        return if *outcome == case.expect {
            Ok(())
        } else {
            Err(format!("expected {}\n     got {}", case.expect, outcome))
        };
    };
    let Some(message) = outcome.pointer("/error/message").and_then(Value::as_str) else {
        return Err(format!("expected an error, got {outcome}"));
    };
    if let Some(prefix) = want.get("prefix").and_then(Value::as_str)
        && !message
            .strip_prefix(prefix)
            .is_some_and(|r| r.is_empty() || r.starts_with(':') || r.starts_with(" ("))
    {
        return Err(format!(
            "message {message:?} does not start with {prefix:?}"
        ));
    }
    for needle in want
        .get("contains")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !message.contains(needle) {
            return Err(format!("message {message:?} lacks {needle:?}"));
        }
    }
    Ok(())
}
