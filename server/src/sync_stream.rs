//! The answer of `POST /v1/jobs/sync` as it is produced: JSON records separated by `\r\n`
//! (`{jobState, data?, message?, heartbeatToken?, scan?}`; a `RUNNING` record's `data` is one
//! event, as the public client reads it), written by one writer (the run's driver) through a
//! bounded channel so a slow reader slows the run instead of growing memory — the records of a
//! batch of events serialized into one buffer, one channel send and one body chunk per batch;
//! and the heartbeats that keep a long run alive (`HEARTBEAT` records whose token the client posts back to
//! `POST /v1/jobs/sync/heartbeat`; a run without one for [`SyncRunConfig::heartbeat_timeout_ms`]
//! ends `CANCELLED`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use jobgraph_core::pipeline::{LogEvent, RunInput};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::ids::random_token;

/// How synchronous runs are kept alive (`syncRuns` in `--config`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SyncRunConfig {
    /// A `HEARTBEAT` record every this many milliseconds of a run. Default 5000.
    pub heartbeat_interval_ms: u64,
    /// A run whose client has posted no heartbeat token for this long ends `CANCELLED`.
    /// Default 20 000 (the public client's window).
    pub heartbeat_timeout_ms: u64,
}

impl Default for SyncRunConfig {
    fn default() -> Self {
        SyncRunConfig {
            heartbeat_interval_ms: 5_000,
            heartbeat_timeout_ms: 20_000,
        }
    }
}

/// The heartbeat tokens of the runs in progress and when each was last posted.
#[derive(Debug, Default)]
pub(crate) struct Heartbeats {
    last: Mutex<HashMap<String, Instant>>,
}

impl Heartbeats {
    /// A new token for a run, counted as posted now.
    pub(crate) fn register(&self) -> Result<String, ApiError> {
        let token = random_token(18).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
        if let Ok(mut last) = self.last.lock() {
            last.insert(token.clone(), Instant::now());
        }
        Ok(token)
    }

    /// The client posted `token`: its run lives on. `false` when no run of this replica has
    /// it (another replica's run, or one that ended).
    pub(crate) fn renew(&self, token: &str) -> bool {
        self.renew_aged(token, Duration::ZERO)
    }

    /// `token` was posted `age` ago (through another replica): its run lives on unless it
    /// has heard from its client since.
    pub(crate) fn renew_aged(&self, token: &str, age: Duration) -> bool {
        let Ok(mut last) = self.last.lock() else {
            return false;
        };
        let Some(at) = last.get_mut(token.trim()) else {
            return false;
        };
        if let Some(then) = Instant::now().checked_sub(age)
            && then > *at
        {
            *at = then;
        }
        true
    }

    /// How long ago `token` was last posted.
    pub(crate) fn silence(&self, token: &str) -> Duration {
        self.last
            .lock()
            .ok()
            .and_then(|last| last.get(token).map(Instant::elapsed))
            .unwrap_or(Duration::MAX)
    }

    /// The run of `token` ended.
    pub(crate) fn forget(&self, token: &str) {
        if let Ok(mut last) = self.last.lock() {
            last.remove(token);
        }
    }
}

/// What the source side of a run hands the driver.
pub(crate) enum Input {
    /// Run the pipeline on this.
    Run(RunInput),
    /// The source stopped the run: its final state and why.
    End(&'static str, String),
}

/// One record: `{jobState}` plus the given fields.
pub(crate) fn record(state: &str, fields: Value) -> Bytes {
    let mut r = json!({"jobState": state});
    if let (Value::Object(r), Value::Object(fields)) = (&mut r, fields) {
        r.extend(fields);
    }
    let mut bytes = serde_json::to_vec(&r).unwrap_or_default();
    bytes.extend_from_slice(b"\r\n");
    Bytes::from(bytes)
}

/// The `RUNNING` records of `events`, one event each (`{"jobState":"RUNNING","data":EVENT}`),
/// serialized into one buffer: what a batch of events costs is one allocation (grown as
/// needed) and one channel send, not one of each per event.
///
/// ```text
/// {"jobState":"RUNNING","data":{"id":"a",…}}\r\n{"jobState":"RUNNING","data":{"id":"b",…}}\r\n
/// ```
pub(crate) fn running_records(events: &[LogEvent]) -> Result<Bytes, serde_json::Error> {
    const HEAD: &[u8] = br#"{"jobState":"RUNNING","data":"#;
    let mut bytes = Vec::with_capacity(events.len() * 256);
    for event in events {
        bytes.extend_from_slice(HEAD);
        serde_json::to_writer(&mut bytes, event)?;
        bytes.extend_from_slice(b"}\r\n");
    }
    Ok(Bytes::from(bytes))
}

/// The fields of a final record: `message` for our own client, and the same reason as
/// `data: {"message": …}`, which the public client prints (it reads `data.message` of a
/// `FAILED`, `CANCELLED`, `TIMED_OUT` or `SCANNED_MAX` record). A `FINISHED` record never
/// carries `data`: the public client would take it for one more event.
pub(crate) fn final_fields(
    state: &str,
    message: Option<String>,
    mut fields: serde_json::Map<String, Value>,
) -> Value {
    if let Some(message) = message {
        if state != "FINISHED" {
            fields.insert("data".into(), json!({ "message": message }));
        }
        fields.insert("message".into(), Value::String(message));
    }
    Value::Object(fields)
}

/// The client went away: nothing more can be sent.
#[derive(Debug)]
pub(crate) struct Gone;

/// Where a run writes its records.
#[derive(Debug, Clone)]
pub(crate) struct Records {
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
}

impl Records {
    /// Sends one record, waiting while the client reads slowly.
    pub(crate) async fn send(&self, state: &str, fields: Value) -> Result<(), Gone> {
        self.send_bytes(record(state, fields)).await
    }

    /// Sends records already serialized (one or many, each ending in `\r\n`), waiting while
    /// the client reads slowly.
    pub(crate) async fn send_bytes(&self, bytes: Bytes) -> Result<(), Gone> {
        self.tx.send(Ok(bytes)).await.map_err(|_| Gone)
    }
}

/// A streamed `200 application/x-ndjson` answer and the sender of its records: the body ends
/// when every sender is dropped.
pub(crate) fn streamed() -> Result<(Records, Response), ApiError> {
    let (tx, rx) = mpsc::channel(16);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    let response = Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::from_stream(body))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok((Records { tx }, response))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_json_lines_ending_in_crlf() {
        let r = record("HEARTBEAT", json!({"heartbeatToken": "t"}));
        assert_eq!(
            &r[..],
            b"{\"jobState\":\"HEARTBEAT\",\"heartbeatToken\":\"t\"}\r\n"
        );
        assert_eq!(
            &record("FINISHED", Value::Null)[..],
            b"{\"jobState\":\"FINISHED\"}\r\n"
        );
    }

    #[test]
    fn each_running_record_carries_one_event() {
        let events: Vec<LogEvent> = (0..3)
            .map(|i| {
                LogEvent::from_value(json!({"id": format!("e{i}"), "message": "m \"q\"\r\n"}))
                    .unwrap()
            })
            .collect();
        let bytes = running_records(&events).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert!(text.ends_with("\r\n"));
        let lines: Vec<&str> = text.trim_end_matches("\r\n").split("\r\n").collect();
        assert_eq!(lines.len(), 3, "{text}");
        for (i, line) in lines.iter().enumerate() {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                record,
                json!({"jobState": "RUNNING", "data": {"id": format!("e{i}"), "message": "m \"q\"\r\n"}})
            );
        }
        assert!(running_records(&[]).unwrap().is_empty());
    }

    #[test]
    fn final_records_other_than_finished_carry_their_reason_as_data() {
        let failed = final_fields("FAILED", Some("bad file".into()), Default::default());
        assert_eq!(
            failed,
            json!({"message": "bad file", "data": {"message": "bad file"}})
        );
        let mut scan = serde_json::Map::new();
        scan.insert("scan".into(), json!({"files": 1}));
        let finished = final_fields("FINISHED", Some("note".into()), scan);
        assert_eq!(finished, json!({"message": "note", "scan": {"files": 1}}));
        assert_eq!(
            final_fields("CANCELLED", None, Default::default()),
            json!({})
        );
    }

    #[test]
    fn a_renewed_token_is_silent_for_less_than_an_unknown_one() {
        let beats = Heartbeats::default();
        let token = beats.register().unwrap();
        beats.renew(&format!("{token}\n"));
        assert!(beats.silence(&token) < Duration::from_secs(5));
        beats.forget(&token);
        assert_eq!(beats.silence(&token), Duration::MAX);
        beats.renew("unknown");
    }
}
