//! Logs from agents (`docs/intake.md`): the Datadog HTTP log intake (`POST /api/v2/logs`),
//! OTLP/HTTP logs (`POST /v1/logs`) and the Splunk HTTP Event Collector
//! (`/services/collector/event`, `…/raw`, `…/health`), each answering in its protocol's own
//! words. The ingest key says which integration the logs are for (`ingestKey` of the
//! integration in `--config`); a key of another protocol's integration is refused.
//!
//! A request is answered 2xx only once its events are in the intake log, on disk: a crash
//! after the answer loses none. Nothing of a bad body is taken. When the pipelines fall
//! behind (the log holds `intake.maxBufferedBytes`), intake answers 429 (Splunk: 503) with
//! `Retry-After` instead of buffering without bound.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jobgraph_intake::{Event, datadog, otlp, splunk};
use serde::Deserialize;
use serde_json::Value;

use crate::ids::{new_id, now_ms};
use crate::intake_log::partition::{partition_of, stream_of};
use crate::integration_spec::IntegrationSpec;
use crate::state::AppState;

/// The intake's routes (no bearer token: the ingest key authenticates).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v2/logs", post(datadog_logs))
        .route("/v1/logs", post(otlp_logs))
        .route("/services/collector", post(hec_event))
        .route("/services/collector/event", post(hec_event))
        .route("/services/collector/event/1.0", post(hec_event))
        .route("/services/collector/raw", post(hec_raw))
        .route("/services/collector/raw/1.0", post(hec_raw))
        .route("/services/collector/health", get(hec_health))
        .route("/services/collector/health/1.0", get(hec_health))
}

/// The protocols, with the integration type each takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Datadog,
    Otlp,
    Splunk,
}

impl Protocol {
    fn integration_type(self) -> &'static str {
        match self {
            Protocol::Datadog => "datadog",
            Protocol::Otlp => "otlp",
            Protocol::Splunk => "splunk",
        }
    }

    fn path(self) -> &'static str {
        match self {
            Protocol::Datadog => "POST /api/v2/logs",
            Protocol::Otlp => "POST /v1/logs",
            Protocol::Splunk => "POST /services/collector/event",
        }
    }
}

/// Why a request is not taken, before its protocol words it.
#[derive(Debug)]
enum Refusal {
    /// No key.
    NoKey(String),
    /// A key no integration has, or one of another protocol's integration.
    BadKey(String),
    /// The body cannot be decompressed, or is too large once it is.
    Body(u16, String),
    /// The decoded events are not events (a decoder's mistake, or an event that breaks ours).
    Invalid(String),
    /// The pipelines are behind: try again later.
    Busy(String),
    /// The service cannot take logs now (no intake log, or it failed).
    Unavailable(String),
}

impl Refusal {
    fn status(&self) -> u16 {
        match self {
            Refusal::NoKey(_) => 401,
            Refusal::BadKey(_) => 403,
            Refusal::Body(status, _) => *status,
            Refusal::Invalid(_) => 400,
            Refusal::Busy(_) => 429,
            Refusal::Unavailable(_) => 503,
        }
    }

    fn message(&self) -> &str {
        match self {
            Refusal::NoKey(m)
            | Refusal::BadKey(m)
            | Refusal::Body(_, m)
            | Refusal::Invalid(m)
            | Refusal::Busy(m)
            | Refusal::Unavailable(m) => m,
        }
    }
}

/// The integration whose ingest key is `key`, if it takes `protocol`.
fn integration<'a>(
    state: &'a AppState,
    protocol: Protocol,
    key: Option<&str>,
) -> Result<&'a IntegrationSpec, Refusal> {
    let Some(key) = key.map(str::trim).filter(|k| !k.is_empty()) else {
        return Err(Refusal::NoKey(match protocol {
            Protocol::Datadog => "no API key: send the integration's ingest key in the DD-API-KEY header".into(),
            Protocol::Otlp => "no ingest key: send the integration's ingest key as `Authorization: Bearer KEY` (or the X-Api-Key header)".into(),
            Protocol::Splunk => "no token: send the integration's ingest key as `Authorization: Splunk KEY`".into(),
        }));
    };
    let found = state
        .config
        .integrations
        .iter()
        .find(|s| s.ingest_key.as_ref().is_some_and(|k| k.matches(key)));
    let Some(spec) = found else {
        return Err(Refusal::BadKey(
            "the key is not the ingest key of any integration of this service (`ingestKey` in its --config)".into(),
        ));
    };
    let wanted = protocol.integration_type();
    if spec.public_type() != Some(wanted) {
        let path = [Protocol::Datadog, Protocol::Otlp, Protocol::Splunk]
            .into_iter()
            .find(|p| spec.public_type() == Some(p.integration_type()))
            .map_or_else(
                || "no intake".to_owned(),
                |p| format!("its agents send to {}", p.path()),
            );
        return Err(Refusal::BadKey(format!(
            "the key is integration {:?}'s, of type {:?}, not {wanted} ({path})",
            spec.id, spec.kind
        )));
    }
    Ok(spec)
}

/// The body undone from its `Content-Encoding`, within `intake.maxDecodedBytes`.
fn decompressed(state: &AppState, headers: &HeaderMap, body: &[u8]) -> Result<Vec<u8>, Refusal> {
    let encoding = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok());
    jobgraph_intake::decompress(encoding, body, state.config.intake.max_decoded_bytes)
        .map_err(|e| Refusal::Body(e.status(), e.to_string()))
}

/// Takes `events` for `spec`'s stream: each gets an `id` (unless it has one), a
/// `receivedTimestamp` and an `eventTimestamp` (when it has none, the time it was received);
/// answers once they are on disk.
async fn take(
    state: &AppState,
    spec: &IntegrationSpec,
    events: Vec<Event>,
) -> Result<usize, Refusal> {
    let Some(log) = &state.intake else {
        return Err(Refusal::Unavailable(
            "this service takes no logs: it has no intake log".into(),
        ));
    };
    let limits = &state.config.intake;
    if events.len() > limits.max_events_per_request {
        return Err(Refusal::Body(
            413,
            format!(
                "the request has {} events, more than the {} one request may bring (intake.maxEventsPerRequest); send smaller batches",
                events.len(),
                limits.max_events_per_request
            ),
        ));
    }
    let n = events.len();
    if n == 0 {
        return Ok(0);
    }
    let batch = new_id().map_err(|e| Refusal::Unavailable(format!("no random id: {e}")))?;
    let now = now_ms();
    // One NDJSON text per partition of the integration (one, unless JetStream partitions it).
    let partitions = log.partitions();
    let mut parts: Vec<(Vec<u8>, u32)> = (0..partitions)
        .map(|_| (Vec::with_capacity(n * 256 / partitions as usize), 0))
        .collect();
    for (i, mut event) in events.into_iter().enumerate() {
        event
            .entry("id")
            .or_insert_with(|| Value::String(format!("{batch}-{i}")));
        event.entry("eventTimestamp").or_insert_with(|| now.into());
        event.insert("receivedTimestamp".into(), now.into());
        // What the runner reads back must be an event: read as one here, where the sender
        // hears of a problem, and written as read (the same JSON).
        let event = jobgraph_model::LogEvent::from_value(Value::Object(event))
            .map_err(|e| Refusal::Invalid(format!("event {i}: {e}")))?;
        let p = partition_of(&event, log.partition_tags(), partitions) as usize;
        let (ndjson, count) = &mut parts[p];
        serde_json::to_writer(&mut *ndjson, &event)
            .map_err(|e| Refusal::Invalid(format!("event {i}: {e}")))?;
        ndjson.push(b'\n');
        *count += 1;
    }
    let size: usize = parts.iter().map(|(ndjson, _)| ndjson.len()).sum();
    let kept = log.buffered_bytes();
    if kept.saturating_add(size as u64) > limits.max_buffered_bytes {
        return Err(Refusal::Busy(format!(
            "the pipelines are behind: the intake log holds {kept} bytes not yet read, its budget is {} (intake.maxBufferedBytes); retry later",
            limits.max_buffered_bytes
        )));
    }
    if let Some(share) = limits.max_buffered_bytes_per_integration {
        let mine = log.info(&spec.id).bytes;
        if mine.saturating_add(size as u64) > share {
            return Err(Refusal::Busy(format!(
                "the pipelines reading integration {:?} are behind: the intake log holds {mine} bytes of it not yet read, its share is {share} (intake.maxBufferedBytesPerIntegration); retry later",
                spec.id
            )));
        }
    }
    // Every partition's part is durable before the answer (concurrently: one round trip).
    let appends = parts
        .into_iter()
        .enumerate()
        .filter(|(_, (_, count))| *count > 0)
        .map(|(p, (ndjson, count))| {
            let (stream, batch) = if partitions > 1 {
                (stream_of(&spec.id, Some(p as u32)), format!("{batch}-p{p}"))
            } else {
                (spec.id.clone(), batch.clone())
            };
            async move { log.append(&stream, &batch, ndjson, count).await }
        });
    for result in futures_util::future::join_all(appends).await {
        result.map_err(|e| match e {
            crate::intake_log::IntakeLogError::Full => Refusal::Busy(format!(
                "the pipelines are behind: the intake stream is at its budget of {} bytes (intake.maxBufferedBytes); retry later",
                limits.max_buffered_bytes
            )),
            e => {
                tracing::warn!(integration = %spec.id, "intake: {e}");
                Refusal::Unavailable("the intake log could not keep the events; retry later".into())
            }
        })?;
    }
    let bytes = size;
    tracing::debug!(integration = %spec.id, events = n, bytes, "intake: taken");
    state.intake_stats.count(&spec.id, Some(n));
    Ok(n)
}

/// `work`'s outcome, a refusal counted against `spec`.
async fn counted(
    state: &AppState,
    spec: &IntegrationSpec,
    work: impl Future<Output = Result<usize, Refusal>>,
) -> Result<usize, Refusal> {
    let result = work.await;
    if result.is_err() {
        state.intake_stats.count(&spec.id, None);
    }
    result
}

fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn answer(status: u16, content_type: &'static str, body: Vec<u8>, retry: Option<u64>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, [(header::CONTENT_TYPE, content_type)], body).into_response();
    if let Some(seconds) = retry {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

fn retry_of(state: &AppState, refusal: &Refusal) -> Option<u64> {
    matches!(refusal, Refusal::Busy(_) | Refusal::Unavailable(_))
        .then_some(state.config.intake.retry_after_seconds)
}

#[derive(Debug, Default, Deserialize)]
struct DatadogQuery {
    #[serde(rename = "dd-api-key")]
    dd_api_key: Option<String>,
}

/// `POST /api/v2/logs`: the Datadog HTTP log intake.
async fn datadog_logs(
    State(state): State<AppState>,
    Query(query): Query<DatadogQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let result = async {
        let key = header_text(&headers, "dd-api-key").or(query.dd_api_key.as_deref());
        let spec = integration(&state, Protocol::Datadog, key)?;
        counted(&state, spec, async {
            let body = decompressed(&state, &headers, &body)?;
            let events =
                datadog::decode(&body).map_err(|e| Refusal::Body(e.status(), e.to_string()))?;
            take(&state, spec, events).await
        })
        .await
    }
    .await;
    match result {
        Ok(_) => answer(202, "application/json", datadog::success_body(), None),
        Err(refusal) => answer(
            refusal.status(),
            "application/json",
            datadog::error_body(refusal.status(), refusal.message()),
            retry_of(&state, &refusal),
        ),
    }
}

/// `POST /v1/logs`: OTLP/HTTP logs, protobuf or JSON.
async fn otlp_logs(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let Some(encoding) = otlp::Encoding::from_content_type(content_type) else {
        return answer(
            415,
            "application/json",
            otlp::error_body(
                otlp::Encoding::Json,
                &format!(
                    "Content-Type {:?} is not OTLP: send application/x-protobuf or application/json",
                    content_type.unwrap_or("")
                ),
            ),
            None,
        );
    };
    let result = async {
        let key = match header_text(&headers, "authorization") {
            Some(auth) => auth
                .strip_prefix("Bearer ")
                .or_else(|| auth.strip_prefix("bearer ")),
            None => header_text(&headers, "x-api-key"),
        };
        let spec = integration(&state, Protocol::Otlp, key)?;
        counted(&state, spec, async {
            let body = decompressed(&state, &headers, &body)?;
            let events = otlp::decode(&body, encoding)
                .map_err(|e| Refusal::Body(e.status(), e.to_string()))?;
            take(&state, spec, events).await
        })
        .await
    }
    .await;
    match result {
        Ok(_) => answer(
            otlp::SUCCESS_STATUS,
            encoding.content_type(),
            otlp::success_body(encoding, 0, ""),
            None,
        ),
        Err(refusal) => answer(
            refusal.status(),
            encoding.content_type(),
            otlp::error_body(encoding, refusal.message()),
            retry_of(&state, &refusal),
        ),
    }
}

/// The Splunk answer of a refusal.
fn hec_error(refusal: &Refusal) -> splunk::HecError {
    match refusal {
        Refusal::NoKey(_) => splunk::HecError::TokenRequired,
        Refusal::BadKey(_) => splunk::HecError::InvalidToken,
        Refusal::Busy(_) | Refusal::Unavailable(_) => splunk::HecError::ServerBusy,
        Refusal::Body(413, m) => splunk::HecError::TooLarge {
            event: 0,
            detail: m.clone(),
        },
        Refusal::Body(_, m) | Refusal::Invalid(m) => splunk::HecError::InvalidDataFormat {
            event: 0,
            detail: m.clone(),
        },
    }
}

fn hec_key(headers: &HeaderMap) -> Result<Option<&str>, splunk::HecError> {
    match header_text(headers, "authorization") {
        None => Ok(None),
        Some(auth) => auth
            .strip_prefix("Splunk ")
            .map(Some)
            .ok_or(splunk::HecError::InvalidAuthorization),
    }
}

fn hec_answer(
    state: &AppState,
    result: Result<Result<usize, Refusal>, splunk::HecError>,
) -> Response {
    match result {
        Ok(Ok(_)) => answer(200, "application/json", splunk::success_body(), None),
        Ok(Err(refusal)) => {
            let error = hec_error(&refusal);
            let retry = retry_of(state, &refusal);
            answer(error.status(), "application/json", error.body(), retry)
        }
        Err(error) => answer(error.status(), "application/json", error.body(), None),
    }
}

/// A HEC request: its token's integration, its body decoded by `decode` (a refusal after the
/// token is known is counted against it), its events taken.
async fn hec_take(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<Vec<Event>, splunk::HecError>,
) -> Result<Result<usize, Refusal>, splunk::HecError> {
    let key = hec_key(headers)?;
    let spec = match integration(state, Protocol::Splunk, key) {
        Ok(spec) => spec,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let body = match decompressed(state, headers, body) {
        Ok(body) => body,
        Err(refusal) => {
            state.intake_stats.count(&spec.id, None);
            return Ok(Err(refusal));
        }
    };
    let events = decode(&body).inspect_err(|_| state.intake_stats.count(&spec.id, None))?;
    Ok(counted(state, spec, take(state, spec, events)).await)
}

/// `POST /services/collector/event`: Splunk HEC events.
async fn hec_event(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let result = hec_take(&state, &headers, &body, splunk::decode_event).await;
    hec_answer(&state, result)
}

#[derive(Debug, Default, Deserialize)]
struct RawQuery {
    host: Option<String>,
    source: Option<String>,
    sourcetype: Option<String>,
    index: Option<String>,
    time: Option<String>,
}

/// `POST /services/collector/raw`: Splunk HEC raw lines, metadata in the query.
async fn hec_raw(
    State(state): State<AppState>,
    Query(query): Query<RawQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let meta = splunk::RawMeta {
        host: query.host,
        source: query.source,
        sourcetype: query.sourcetype,
        index: query.index,
        time: query.time,
    };
    let result = hec_take(&state, &headers, &body, |body| {
        splunk::decode_raw(body, &meta)
    })
    .await;
    hec_answer(&state, result)
}

/// `GET /services/collector/health`: whether HEC takes events now.
async fn hec_health(State(state): State<AppState>) -> Response {
    let limits = &state.config.intake;
    match &state.intake {
        Some(log) if log.buffered_bytes() < limits.max_buffered_bytes => answer(
            200,
            "application/json",
            br#"{"text":"HEC is healthy","code":17}"#.to_vec(),
            None,
        ),
        _ => answer(
            503,
            "application/json",
            br#"{"text":"HEC is unhealthy, queues are full","code":18}"#.to_vec(),
            Some(limits.retry_after_seconds),
        ),
    }
}

#[cfg(test)]
mod tests;
