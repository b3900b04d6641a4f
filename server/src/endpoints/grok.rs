//! `POST /v1/grok/parse/batch`: grok rules tried on sample lines, as the public client's
//! `grok:parse` and the draft-preview page's grok panel ask (docs/api.md, "Grok"). The rules
//! are compiled once per request and matched by the core engine on tokio's blocking pool,
//! holding one of the organization's script slots: a hostile rule costs at most
//! [`LINE_TIME_LIMIT`] per sample and [`BATCH_TIME_LIMIT`] per request.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use jobgraph_core::GrokRules;
use jobgraph_core::grok::{BatchLimits, GrokBatchRequest, GrokBatchResponse, GrokError};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, Object, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::auth::Caller;
use crate::body::JsonBody;
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

/// Most samples in one request.
pub const MAX_SAMPLES: usize = 1000;
/// Longest sample, in bytes.
pub const MAX_SAMPLE_BYTES: usize = 64 * 1024;
/// Longest rules text (parsing and helper rules each), in bytes.
pub const MAX_RULES_BYTES: usize = 64 * 1024;
/// How long one sample may take to match every rule.
pub const LINE_TIME_LIMIT: Duration = Duration::from_millis(100);
/// How long one request may spend matching; samples after it are answered with an error.
pub const BATCH_TIME_LIMIT: Duration = Duration::from_secs(5);

/// Grok parsing rules in the OpenAPI document: an array of strings, one `RuleName pattern`
/// per item (the public service's shape), or one string with a rule per line; not empty; at
/// most 64 KiB of text.
#[derive(Serialize)]
pub struct GrokRulesDoc;

/// Grok helper rules in the OpenAPI document: the same forms, possibly empty.
#[derive(Serialize)]
pub struct GrokHelperRulesDoc;

/// The schema of rules: `oneOf` an array of strings (at least `min` items) and a string (at
/// least `min` characters, at most [`MAX_RULES_BYTES`]); `min` 0 states no minimum.
fn rules_schema(min: usize, description: &str) -> RefOr<Schema> {
    let min = (min > 0).then_some(min);
    let list = ArrayBuilder::new()
        .items(Object::with_type(Type::String))
        .min_items(min)
        .description(Some("One rule per item."));
    let text = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(min)
        .max_length(Some(MAX_RULES_BYTES))
        .description(Some("One rule per line."));
    OneOfBuilder::new()
        .item(list)
        .item(text)
        .description(Some(description))
        .into()
}

impl PartialSchema for GrokRulesDoc {
    fn schema() -> RefOr<Schema> {
        rules_schema(
            1,
            "Grok parsing rules: an array of strings, one `RuleName pattern` per item (the public service's shape), or one string with a rule per line; at most 64 KiB of text in all.",
        )
    }
}
impl ToSchema for GrokRulesDoc {}

impl PartialSchema for GrokHelperRulesDoc {
    fn schema() -> RefOr<Schema> {
        rules_schema(
            0,
            "Grok helper rules (`name pattern`), usable as `%{name}` in the parsing rules: an array of strings or one string, as the parsing rules; may be empty.",
        )
    }
}
impl ToSchema for GrokHelperRulesDoc {}

/// The grok parser to try (the fields of a `grok-parser` vertex).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GrokParserDoc {
    /// A name for the parser (not used to parse).
    name: Option<String>,
    /// The parsing rules; the first rule that matches the whole line wins.
    grok_parsing_rules: GrokRulesDoc,
    /// Helper rules (`name pattern`), usable as `%{name}` in the parsing rules.
    grok_helper_rules: Option<GrokHelperRulesDoc>,
    /// The attribute a pipeline reads the line from (default: `message`); not used here.
    extract_attribute: Option<String>,
    /// `grok-parser`.
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// `POST /v1/grok/parse/batch` body.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GrokBatchRequestDoc {
    /// The rules.
    grok_parser: GrokParserDoc,
    /// The lines to parse (at most 1000, each at most 64 KiB).
    #[schema(max_items = 1000)]
    log_samples: Vec<String>,
}

/// What the rules made of one sample.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GrokSampleResultDoc {
    /// Whether a rule matched the whole line.
    #[serde(rename = "match")]
    matched: bool,
    /// The rule that matched.
    matching_rule_name: Option<String>,
    /// Extracted attributes (`a.b` extractors nest).
    attributes: Map<String, Value>,
    /// Extracted tags: key → values.
    tags: Map<String, Value>,
    /// `severity` and `eventTimestamp` when extracted.
    top_level_fields: Map<String, Value>,
    /// Why the sample could not be parsed (time limit), when it could not.
    error: Option<String>,
}

/// `POST /v1/grok/parse/batch` answer: one result per sample, in order.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct GrokBatchResponseDoc {
    /// One result per sample.
    results: Vec<GrokSampleResultDoc>,
}

/// Reads and bounds the request body; a 400 names the field.
fn read_request(body: Value) -> Result<GrokBatchRequest, ApiError> {
    let request: GrokBatchRequest = serde_json::from_value(body)
        .map_err(|e| ApiError::BadRequest(format!("invalid grok request: {e}")))?;
    let parser = &request.grok_parser;
    if parser.grok_parsing_rules.is_blank() {
        return Err(ApiError::BadRequest(
            "grokParser.grokParsingRules is empty: give at least one rule, `RuleName pattern`"
                .into(),
        ));
    }
    let no_helpers = GrokRules::default();
    let helper = parser.grok_helper_rules.as_ref().unwrap_or(&no_helpers);
    for (field, rules) in [
        ("grokParsingRules", &parser.grok_parsing_rules),
        ("grokHelperRules", helper),
    ] {
        if rules.len_bytes() > MAX_RULES_BYTES {
            return Err(ApiError::BadRequest(format!(
                "grokParser.{field} has {} bytes of rules, over the limit of {MAX_RULES_BYTES}",
                rules.len_bytes()
            )));
        }
    }
    if request.log_samples.len() > MAX_SAMPLES {
        return Err(ApiError::BadRequest(format!(
            "logSamples has {} samples, over the limit of {MAX_SAMPLES}: send them in several requests",
            request.log_samples.len()
        )));
    }
    if let Some(i) = request
        .log_samples
        .iter()
        .position(|s| s.len() > MAX_SAMPLE_BYTES)
    {
        return Err(ApiError::BadRequest(format!(
            "logSamples/{i} is {} bytes, over the limit of {MAX_SAMPLE_BYTES}",
            request.log_samples[i].len()
        )));
    }
    Ok(request)
}

/// Try grok parsing rules on sample lines: per sample, whether a rule matched, which, and what
/// it extracted.
#[utoipa::path(
    post, path = "/v1/grok/parse/batch", operation_id = "parseGrokBatch", tag = "grok",
    request_body = GrokBatchRequestDoc,
    responses(
        (status = 200, description = "One result per sample, in order; a sample that took over 100 ms (or came after the request's 5 s) has `match: false` and `error`", body = GrokBatchResponseDoc),
        (status = 400, description = "Invalid request, or a rule does not compile: `error` starts with `Invalid grok rule NAME at LINE:COLUMN (POINTER)`, POINTER the rule's field and array item (`/grokParsingRules/2`)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization has too many script runs in flight (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn parse_batch(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<GrokBatchResponse>, ApiError> {
    let request = read_request(body)?;
    // Matching is CPU work bounded by time limits, like a script: it takes one of the
    // organization's script slots and runs off the async workers.
    let slot = state.script_slot(&caller.organization).await?;
    caller.leave_line();
    let limits = BatchLimits {
        line_time_limit: LINE_TIME_LIMIT,
        batch_time_limit: Some(BATCH_TIME_LIMIT),
    };
    let outcome = tokio::task::spawn_blocking(move || {
        let outcome = jobgraph_core::grok::parse_batch_with(&request, &limits);
        drop(slot);
        outcome
    })
    .await
    .map_err(|e| ApiError::Internal(format!("grok task failed: {e}")))?;
    outcome.map(Json).map_err(|e| match e {
        GrokError::Rule { .. } => ApiError::BadRequest(e.to_string()),
        other => ApiError::BadRequest(other.to_string()),
    })
}
