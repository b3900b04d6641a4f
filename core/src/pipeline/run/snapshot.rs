//! Snapshots of a streaming run (feature `snapshot`): the samplers' buckets and the reducers'
//! patterns and open windows, as CBOR, so that a service can checkpoint a running job and
//! resume it, after a restart or on another replica, where it stopped.
//!
//! Each stateful vertex is kept under its name with a fingerprint of its type and fields: a
//! snapshot resumes into a pipeline whose vertex of that name has the same fingerprint (the
//! same graph, or an update that left that vertex alone); any other vertex starts fresh. That
//! is what an update needs: an unchanged reducer keeps its open window across versions.
//!
//! ```
//! use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
//! let graph = serde_json::from_value(serde_json::json!({
//!     "vertices": [
//!         {"type": "logs-iceberg-table-source", "name": "in"},
//!         {"type": "logs-event-sampler", "name": "s", "maxAllowedRate": 1, "maxBurstLimit": 2},
//!         {"type": "logs-sync-sink", "name": "out"}],
//!     "edges": ["in -> s", "s -> out"]})).unwrap();
//! let pipeline = Pipeline::compile(&graph).unwrap();
//! let batch = |text: &str| RunInput { events: read_events(text).unwrap(), ..Default::default() };
//! let mut running = pipeline.start(RunOptions::default());
//! running.push(batch(r#"{"eventTimestamp": 1000}
//! {"eventTimestamp": 1000}"#)).unwrap();
//! // The bucket is empty: a resumed run knows it.
//! let mut resumed = pipeline.resume(RunOptions::default(), &running.snapshot()).unwrap();
//! assert_eq!(resumed.carried(), ["s"]);
//! let run = resumed.push(batch(r#"{"eventTimestamp": 1000}"#)).unwrap();
//! assert!(run.sinks["out"].is_empty());
//! ```

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Pipeline, Running, StageState};
use crate::pipeline::reduce::{Saved, SavedRef};
use crate::pipeline::report::RunOptions;
use crate::pipeline::sampler::Level;
use crate::pipeline::stages::Stage;

/// The snapshot's format: a snapshot of another format is refused.
const FORMAT: u32 = 1;

/// Why a snapshot cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Snapshot refused: {0} (start the job from its sources' positions without it)")]
pub struct SnapshotError(String);

#[derive(Serialize)]
struct SnapshotRef<'a> {
    format: u32,
    batches: u64,
    vertices: Vec<VertexRef<'a>>,
}

#[derive(Serialize)]
struct VertexRef<'a> {
    name: &'a str,
    fingerprint: &'a str,
    state: StateRef<'a>,
}

#[derive(Serialize)]
enum StateRef<'a> {
    Sampled(Level),
    Reducing { pushed: u64, state: SavedRef<'a> },
}

#[derive(Deserialize)]
struct Snapshot {
    format: u32,
    batches: u64,
    vertices: Vec<SavedVertex>,
}

#[derive(Deserialize)]
struct SavedVertex {
    name: String,
    fingerprint: String,
    state: SavedState,
}

#[derive(Deserialize)]
enum SavedState {
    Sampled(Level),
    Reducing { pushed: u64, state: Box<Saved> },
}

/// A vertex's fingerprint: its type and fields, hashed (16 bytes, hexadecimal).
pub(super) fn fingerprint(
    vertex_type: &str,
    fields: &serde_json::Map<String, serde_json::Value>,
) -> String {
    let mut hash = Sha256::new();
    hash.update(vertex_type.as_bytes());
    hash.update([0]);
    // Serializing a map of JSON values cannot fail.
    hash.update(serde_json::to_vec(fields).unwrap_or_default());
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Running {
    /// The run's state between two batches, to [`Pipeline::resume`] later: every sampler's
    /// bucket and every reducer's patterns and open window (a few bytes per pattern and per
    /// held attribute). The run goes on.
    pub fn snapshot(&self) -> Vec<u8> {
        let p = &self.pipeline;
        let vertices = self
            .states
            .iter()
            .enumerate()
            .filter_map(|(v, state)| {
                let state = match state {
                    StageState::Idle => return None,
                    StageState::Sampled(level) => StateRef::Sampled(*level),
                    StageState::Reducing(streaming) => {
                        let (pushed, state) = streaming.saved();
                        StateRef::Reducing { pushed, state }
                    }
                };
                Some(VertexRef {
                    name: &p.names[v],
                    fingerprint: &p.fingerprints[v],
                    state,
                })
            })
            .collect();
        let snapshot = SnapshotRef {
            format: FORMAT,
            batches: self.batches,
            vertices,
        };
        let mut out = Vec::new();
        // Writing into a Vec cannot fail, and every value kept serializes.
        ciborium::into_writer(&snapshot, &mut out).expect("a snapshot serializes into memory");
        out
    }

    /// The vertices whose state came from the snapshot this run resumed (none for a run
    /// started fresh), in graph order.
    pub fn carried(&self) -> &[String] {
        &self.carried
    }

    /// The stateful vertices of this run that `next` would carry on from a snapshot of it:
    /// same name, same type and fields. A service closes the others' windows before it hands
    /// a job over to `next` (an update), so that nothing they hold is lost.
    pub fn carried_by(&self, next: &Pipeline) -> Vec<String> {
        let p = &self.pipeline;
        p.names
            .iter()
            .zip(&p.fingerprints)
            .zip(&self.states)
            .filter(|(_, state)| !matches!(state, StageState::Idle))
            .filter(|((name, fingerprint), _)| {
                next.names
                    .iter()
                    .position(|n| n == *name)
                    .is_some_and(|w| next.fingerprints[w] == **fingerprint)
            })
            .map(|((name, _), _)| name.clone())
            .collect()
    }
}

impl Pipeline {
    /// A streaming run resumed from `snapshot` ([`Running::snapshot`] of this pipeline, or of
    /// an earlier version of the job): each stateful vertex of the same name, type and fields
    /// takes its state back ([`Running::carried`]); the others start fresh. Fails on bytes
    /// that are not a snapshot of this format, or whose state does not fit its vertex.
    pub fn resume(&self, options: RunOptions, snapshot: &[u8]) -> Result<Running, SnapshotError> {
        let saved: Snapshot = ciborium::from_reader(snapshot)
            .map_err(|e| SnapshotError(format!("not a pipeline snapshot: {e}")))?;
        if saved.format != FORMAT {
            return Err(SnapshotError(format!(
                "format {} (this build reads format {FORMAT})",
                saved.format
            )));
        }
        let mut running = self.start(options);
        running.batches = saved.batches;
        for vertex in saved.vertices {
            let Some(v) = self.names.iter().position(|n| *n == vertex.name) else {
                continue;
            };
            if self.fingerprints[v] != vertex.fingerprint {
                continue;
            }
            let refuse = |what: &str| SnapshotError(format!("vertex {}: {what}", vertex.name));
            running.states[v] = match (vertex.state, &self.stages[v]) {
                (SavedState::Sampled(level), Stage::Sampler(_)) => StageState::Sampled(level),
                (SavedState::Reducing { pushed, state }, Stage::Reduce(reducer)) => {
                    let streaming = reducer.resume(pushed, *state).map_err(|e| refuse(&e))?;
                    StageState::Reducing(Box::new(streaming))
                }
                _ => return Err(refuse("its state is of another kind of operation")),
            };
            running.carried.push(vertex.name);
        }
        let order: Vec<&String> = self.names.iter().collect();
        running
            .carried
            .sort_by_key(|name| order.iter().position(|n| *n == name));
        Ok(running)
    }
}

#[cfg(test)]
mod tests;
