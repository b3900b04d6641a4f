//! A synchronous job's answer read record by record from the response body, so a test decides
//! when (and whether) to read, as a slow or vanished client would.

use axum::body::Body;
use http_body_util::BodyExt;
use serde_json::Value;

use super::Server;
use crate::harness::rt;

/// An open answer of `POST /v1/jobs/sync`.
pub struct SyncStream {
    pub status: u16,
    body: Body,
    pending: Vec<u8>,
    /// Bytes of `pending` already read as records.
    read: usize,
    done: bool,
}

/// Sends the job and takes the answer's head.
pub fn open_sync(server: &Server, token: &str, job: &Value) -> SyncStream {
    let body = job.to_string();
    let response = server.send(
        "POST",
        "/v1/jobs/sync",
        &[
            ("Authorization".into(), format!("Bearer {token}")),
            ("Content-Type".into(), "application/json".into()),
        ],
        Some(body.as_bytes()),
    );
    SyncStream {
        status: response.status().as_u16(),
        body: response.into_body(),
        pending: Vec::new(),
        read: 0,
        done: false,
    }
}

impl SyncStream {
    /// The body of an error answer.
    pub fn error_body(&mut self) -> String {
        while self.fill() {}
        String::from_utf8_lossy(&self.pending[self.read..]).into_owned()
    }

    /// The next piece of the body; `false` at its end.
    fn fill(&mut self) -> bool {
        while !self.done {
            match rt().block_on(self.body.frame()) {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.pending.extend_from_slice(&data);
                        return true;
                    }
                }
                _ => self.done = true,
            }
        }
        false
    }

    /// The next record, `None` at the end.
    pub fn next_record(&mut self) -> Option<Value> {
        loop {
            let rest = &self.pending[self.read..];
            if let Some(i) = rest.windows(2).position(|w| w == b"\r\n") {
                let line = &rest[..i];
                self.read += i + 2;
                if !line.is_empty() {
                    return Some(serde_json::from_slice(line).expect("a JSON record"));
                }
                continue;
            }
            self.pending.drain(..self.read);
            self.read = 0;
            if !self.fill() {
                return None;
            }
        }
    }
}

/// Posts a heartbeat token, as the public client does.
pub fn heartbeat(server: &Server, token: &str, beat: &str) {
    let r = server.request(
        "POST",
        "/v1/jobs/sync/heartbeat",
        &[
            ("Authorization".into(), format!("Bearer {token}")),
            ("Content-Type".into(), "text/plain".into()),
        ],
        Some(beat.as_bytes()),
    );
    assert_eq!(r.status, 204, "{}", r.body);
}
