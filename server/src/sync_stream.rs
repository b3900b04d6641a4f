//! The answer of `POST /v1/jobs/sync` as it is produced: JSON records separated by `\r\n`
//! (`{jobState, data?, message?, heartbeatToken?, scan?}`), sent through a bounded channel so a
//! slow reader slows the run instead of growing memory; and the heartbeats that keep a long
//! run alive (`HEARTBEAT` records whose token the client posts back to
//! `POST /v1/jobs/sync/heartbeat`; a run without one for [`SyncRunConfig::heartbeat_timeout_ms`]
//! ends `CANCELLED`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use jobgraph_core::pipeline::RunInput;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::error::ApiError;
use super::ids::random_token;

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
        self.tx
            .send(Ok(record(state, fields)))
            .await
            .map_err(|_| Gone)
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
        let r = record("RUNNING", json!({"data": [1]}));
        assert_eq!(&r[..], b"{\"jobState\":\"RUNNING\",\"data\":[1]}\r\n");
        assert_eq!(
            &record("FINISHED", Value::Null)[..],
            b"{\"jobState\":\"FINISHED\"}\r\n"
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
