//! The batch API the service (`POST /v1/grok/parse/batch`), the CLI (`grok:parse`) and the npm
//! package (`grokParseBatch`) share, so all three answer identically.

use std::time::Duration;

use web_time::Instant;

pub use jobgraph_model::grok_wire::{
    GrokBatchRequest, GrokBatchResponse, GrokParserSpec, GrokSampleResult,
};

use super::{DEFAULT_LINE_TIME_LIMIT, GrokError, GrokParser, GrokRules};

/// Time limits of [`parse_batch_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLimits {
    /// How long one sample may take across every rule.
    pub line_time_limit: Duration,
    /// How long all the samples may take together (`None`: no limit beyond each line's).
    /// Samples after it are answered with an error; a sample's own limit is cut to what is
    /// left.
    pub batch_time_limit: Option<Duration>,
}

impl Default for BatchLimits {
    fn default() -> Self {
        BatchLimits {
            line_time_limit: DEFAULT_LINE_TIME_LIMIT,
            batch_time_limit: None,
        }
    }
}

/// Compiles the parser once and parses every sample, each within
/// [`DEFAULT_LINE_TIME_LIMIT`].
///
/// # Errors
/// [`GrokError::Rule`] when a rule does not compile. A sample that hits the time limit gets
/// `match: false` and its `error`; later samples still run.
pub fn parse_batch(request: &GrokBatchRequest) -> Result<GrokBatchResponse, GrokError> {
    parse_batch_with(request, &BatchLimits::default())
}

/// [`parse_batch`] with other time limits.
///
/// # Errors
/// [`GrokError::Rule`] when a rule does not compile.
pub fn parse_batch_with(
    request: &GrokBatchRequest,
    limits: &BatchLimits,
) -> Result<GrokBatchResponse, GrokError> {
    let spec = &request.grok_parser;
    let parser = GrokParser::from_rules(
        &spec.grok_parsing_rules,
        spec.grok_helper_rules
            .as_ref()
            .unwrap_or(&GrokRules::default()),
    )?;
    let start = Instant::now();
    let results = request
        .log_samples
        .iter()
        .map(|line| {
            let limit = match limits.batch_time_limit {
                Some(batch) => {
                    let left = batch.saturating_sub(start.elapsed());
                    if left.is_zero() {
                        return GrokSampleResult {
                            error: Some(format!(
                                "Grok time limit exceeded: the batch's {} ms were spent before this sample; send fewer samples or simpler rules",
                                batch.as_millis()
                            )),
                            ..GrokSampleResult::default()
                        };
                    }
                    left.min(limits.line_time_limit)
                }
                None => limits.line_time_limit,
            };
            let parsed = if limit == parser.time_limit() {
                parser.parse(line)
            } else {
                parser.clone().with_time_limit(limit).parse(line)
            };
            match parsed {
                Ok(Some(m)) => GrokSampleResult {
                    matched: true,
                    matching_rule_name: Some(m.matching_rule_name),
                    attributes: m.attributes,
                    tags: m.tags,
                    top_level_fields: m.top_level_fields,
                    error: None,
                },
                Ok(None) => GrokSampleResult::default(),
                Err(e) => GrokSampleResult {
                    error: Some(e.to_string()),
                    ..GrokSampleResult::default()
                },
            }
        })
        .collect();
    Ok(GrokBatchResponse { results })
}
