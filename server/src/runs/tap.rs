//! Live taps of a running job (`GET /v1/jobs/{id}/tap`): a bounded sample of the events that
//! pass one vertex, copied from the engine's report of each batch while someone listens. A
//! tap never slows the run: a listener that reads slowly misses events (the sample is what
//! fitted), and a run without a tap keeps no events at all.

use std::convert::Infallible;
use std::sync::Mutex;

use axum::body::Bytes;
use jobgraph_core::pipeline::Run;
use tokio::sync::mpsc;

/// Events a batch keeps per vertex for the taps at most.
const KEPT_PER_BATCH: usize = 1000;

/// What a tap's listener receives: NDJSON lines, a batch's at a time.
pub(crate) type TapReceiver = mpsc::Receiver<Result<Bytes, Infallible>>;

struct Tap {
    vertex: String,
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
    remaining: usize,
}

/// The taps of one run.
#[derive(Default)]
pub(crate) struct Taps(Mutex<Vec<Tap>>);

impl std::fmt::Debug for Taps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Taps").finish_non_exhaustive()
    }
}

impl Taps {
    /// A new tap of up to `limit` events passing `vertex`.
    pub(crate) fn add(&self, vertex: &str, limit: usize) -> TapReceiver {
        let (tx, rx) = mpsc::channel(64);
        if let Ok(mut taps) = self.0.lock() {
            taps.push(Tap {
                vertex: vertex.to_owned(),
                tx,
                remaining: limit,
            });
        }
        rx
    }

    /// Events the next batch should keep per vertex (0: no one listens).
    pub(crate) fn wanted(&self) -> usize {
        let Ok(mut taps) = self.0.lock() else {
            return 0;
        };
        taps.retain(|t| t.remaining > 0 && !t.tx.is_closed());
        taps.iter()
            .map(|t| t.remaining)
            .max()
            .unwrap_or(0)
            .min(KEPT_PER_BATCH)
    }

    /// Hands each tap the events of its vertex in `run`'s report.
    pub(crate) fn feed(&self, run: &Run) {
        let Ok(mut taps) = self.0.lock() else {
            return;
        };
        for tap in taps.iter_mut() {
            let Some(vertex) = run.vertices.iter().find(|v| v.name == tap.vertex) else {
                continue;
            };
            let mut lines = String::new();
            let mut n = 0;
            for kept in vertex.output.iter().take(tap.remaining) {
                if let Ok(line) = serde_json::to_string(&kept.event) {
                    lines.push_str(&line);
                    lines.push('\n');
                    n += 1;
                }
            }
            if n > 0 && tap.tx.try_send(Ok(Bytes::from(lines))).is_ok() {
                tap.remaining -= n;
            }
        }
        // A tap that has all it asked for ends: its sender is dropped.
        taps.retain(|t| t.remaining > 0 && !t.tx.is_closed());
    }
}
