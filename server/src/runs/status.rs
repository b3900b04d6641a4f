//! The counters of a run: what `pipelineStatus` shows and `/metrics` exports.

use indexmap::IndexMap;
use jobgraph_core::pipeline::{LogEvent, Run};
use serde_json::{Value, json};

/// A vertex's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VertexCounts {
    pub type_name: String,
    pub events_in: u64,
    pub events_out: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

/// A vendor sink's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DeliveryCounts {
    /// Events the vendor took.
    pub delivered: u64,
    /// Requests the vendor took.
    pub requests: u64,
    /// Attempts that failed and were tried again.
    pub retries: u64,
    /// Events the vendor refused for good (in the `dead-letters` dataset).
    pub dead_letters: u64,
    /// Since when delivery has been failing (ms since the epoch; `None`: it is not).
    pub failing_since_ms: Option<i64>,
    /// The last failure, as the vendor answered it.
    pub last_error: Option<String>,
}

/// A run's counters, since this owner started it (a takeover starts them again).
#[derive(Debug, Clone, Default)]
pub(crate) struct RunStatus {
    pub state: String,
    /// The job's name.
    pub name: String,
    /// The replica driving it (its runner's id, logged when it starts).
    pub replica: String,
    /// The partition it reads, when the run is partitioned (one shard of several).
    pub partition: Option<u32>,
    pub vertices: IndexMap<String, VertexCounts>,
    /// Events read by the sources.
    pub events_in: u64,
    pub bytes_in: u64,
    /// Events written by the sinks.
    pub events_out: u64,
    pub bytes_out: u64,
    /// Batches that failed.
    pub errors: u64,
    pub checkpoints: u64,
    pub last_checkpoint_ms: Option<i64>,
    /// The newest event time read (ms since the epoch).
    pub newest_event_ms: Option<i64>,
    /// Since when the sources have had data waiting (ms since the epoch; `None`: caught up).
    pub behind_since_ms: Option<i64>,
    /// The vendor sinks' deliveries, by vertex.
    pub delivery: IndexMap<String, DeliveryCounts>,
}

/// The bytes an event stands for: its message, attributes and tags as text.
pub(crate) fn event_bytes(event: &LogEvent) -> u64 {
    let attributes = event.attributes.as_ref().map_or(0, |a| a.get().len());
    let tags: usize = event
        .tags
        .iter()
        .map(|(k, v)| k.len() + v.iter().map(String::len).sum::<usize>())
        .sum();
    (event.message().len() + attributes + tags) as u64
}

impl RunStatus {
    /// Counts one batch's run: every vertex's events in and out, bytes at the sinks.
    pub(crate) fn count(&mut self, run: &Run, sinks_bytes: &[(String, u64)]) {
        for vertex in &run.vertices {
            let counts = self.vertices.entry(vertex.name.clone()).or_default();
            if counts.type_name.is_empty() {
                counts.type_name = vertex.vertex_type.clone();
            }
            counts.events_in += vertex.events_in as u64;
            counts.events_out += vertex.events_out as u64;
        }
        for (sink, bytes) in sinks_bytes {
            if let Some(counts) = self.vertices.get_mut(sink) {
                counts.bytes_in += bytes;
            }
        }
    }

    /// The counters as `pipelineStatus` shows them (with `health` and `message` added by the
    /// answer).
    pub(crate) fn to_json(&self, now_ms: i64) -> Value {
        let vertices: Vec<Value> = self
            .vertices
            .iter()
            .map(|(name, c)| {
                json!({"name": name, "type": c.type_name, "eventsIn": c.events_in,
                       "eventsOut": c.events_out, "bytesIn": c.bytes_in, "bytesOut": c.bytes_out})
            })
            .collect();
        let mut out = json!({
            "replica": self.replica,
            "eventsIn": self.events_in,
            "bytesIn": self.bytes_in,
            "eventsOut": self.events_out,
            "bytesOut": self.bytes_out,
            "errors": self.errors,
            "checkpoints": self.checkpoints,
            "lastCheckpointAt": self.last_checkpoint_ms.map(crate::ids::iso8601),
            "lag": {
                "eventTimeMs": self.newest_event_ms.map(|t| (now_ms - t).max(0)),
                "processingTimeMs": self.behind_since_ms.map_or(0, |t| (now_ms - t).max(0)),
            },
            "vertices": vertices,
            "delivery": self.delivery.iter().map(|(vertex, d)| json!({
                "vertex": vertex, "delivered": d.delivered, "requests": d.requests,
                "retries": d.retries, "deadLetters": d.dead_letters,
                "failingSince": d.failing_since_ms.map(crate::ids::iso8601),
                "lastError": d.last_error,
            })).collect::<Vec<_>>(),
        });
        if let (Some(p), Value::Object(map)) = (self.partition, &mut out) {
            map.insert("partition".into(), p.into());
        }
        out
    }
}

/// The `pipelineStatus` counters of a run of several shards, from each shard's
/// ([`RunStatus::to_json`]): the counters summed, per vertex and per vendor sink too; the
/// times the latest, the lags the largest; and `partitions`, each shard's own summary.
pub(crate) fn merge_shards(shards: &[Value]) -> Value {
    let sum = |key: &str| -> u64 { shards.iter().filter_map(|s| s[key].as_u64()).sum() };
    let max_text = |get: &dyn Fn(&Value) -> &Value| -> Value {
        shards
            .iter()
            .filter_map(|s| get(s).as_str())
            .max()
            .map_or(Value::Null, |t| t.into())
    };
    let max_number = |get: &dyn Fn(&Value) -> &Value| -> Value {
        shards
            .iter()
            .filter_map(|s| get(s).as_i64())
            .max()
            .map_or(Value::Null, |t| t.into())
    };
    let mut vertices: IndexMap<String, Value> = IndexMap::new();
    let mut delivery: IndexMap<String, Value> = IndexMap::new();
    for shard in shards {
        for vertex in shard["vertices"].as_array().into_iter().flatten() {
            let name = vertex["name"].as_str().unwrap_or_default().to_owned();
            match vertices.get_mut(&name) {
                None => {
                    vertices.insert(name, vertex.clone());
                }
                Some(entry) => add(
                    entry,
                    vertex,
                    &["eventsIn", "eventsOut", "bytesIn", "bytesOut"],
                ),
            }
        }
        for sink in shard["delivery"].as_array().into_iter().flatten() {
            let name = sink["vertex"].as_str().unwrap_or_default().to_owned();
            match delivery.get_mut(&name) {
                None => {
                    delivery.insert(name, sink.clone());
                }
                Some(entry) => {
                    add(
                        entry,
                        sink,
                        &["delivered", "requests", "retries", "deadLetters"],
                    );
                    for (key, pick_min) in [("failingSince", true), ("lastError", false)] {
                        let (kept, other) = (&entry[key], &sink[key]);
                        let take = match (kept.as_str(), other.as_str()) {
                            (None, Some(_)) => true,
                            (Some(a), Some(b)) => pick_min && b < a,
                            _ => false,
                        };
                        if take {
                            entry[key] = other.clone();
                        }
                    }
                }
            }
        }
    }
    let mut partitions: Vec<Value> = shards
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "partition": s["partition"].as_u64().unwrap_or(i as u64),
                "replica": s["replica"],
                "eventsIn": s["eventsIn"].as_u64().unwrap_or(0),
                "eventsOut": s["eventsOut"].as_u64().unwrap_or(0),
                "checkpoints": s["checkpoints"].as_u64().unwrap_or(0),
                "lastCheckpointAt": s["lastCheckpointAt"],
            })
        })
        .collect();
    partitions.sort_by_key(|p| p["partition"].as_u64());
    json!({
        "replica": partitions.first().map_or(Value::Null, |p| p["replica"].clone()),
        "eventsIn": sum("eventsIn"),
        "bytesIn": sum("bytesIn"),
        "eventsOut": sum("eventsOut"),
        "bytesOut": sum("bytesOut"),
        "errors": sum("errors"),
        "checkpoints": sum("checkpoints"),
        "lastCheckpointAt": max_text(&|s| &s["lastCheckpointAt"]),
        "lag": {
            "eventTimeMs": max_number(&|s| &s["lag"]["eventTimeMs"]),
            "processingTimeMs": max_number(&|s| &s["lag"]["processingTimeMs"]),
        },
        "vertices": vertices.into_values().collect::<Vec<_>>(),
        "delivery": delivery.into_values().collect::<Vec<_>>(),
        "partitions": partitions,
    })
}

/// Adds `other`'s counters `keys` to `into`'s.
fn add(into: &mut Value, other: &Value, keys: &[&str]) {
    for key in keys {
        let total = into[*key].as_u64().unwrap_or(0) + other[*key].as_u64().unwrap_or(0);
        into[*key] = total.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(partition: u32, events: u64, at: &str, lag: i64) -> Value {
        let status = RunStatus {
            replica: format!("replica-{partition}"),
            partition: Some(partition),
            events_in: events,
            events_out: events / 2,
            checkpoints: 3,
            vertices: IndexMap::from([(
                "r".to_owned(),
                VertexCounts {
                    type_name: "log-reducer".into(),
                    events_in: events,
                    ..VertexCounts::default()
                },
            )]),
            delivery: IndexMap::from([(
                "out".to_owned(),
                DeliveryCounts {
                    delivered: events / 2,
                    ..DeliveryCounts::default()
                },
            )]),
            newest_event_ms: Some(1_000 - lag),
            ..RunStatus::default()
        };
        let mut json = status.to_json(1_000);
        json["lastCheckpointAt"] = at.into();
        json
    }

    #[test]
    fn shards_counters_add_up_and_each_partition_is_listed() {
        let merged = merge_shards(&[
            shard(1, 40, "2026-11-28T00:00:02Z", 5),
            shard(0, 100, "2026-11-28T00:00:01Z", 9),
        ]);
        assert_eq!(merged["eventsIn"], 140);
        assert_eq!(merged["eventsOut"], 70);
        assert_eq!(merged["checkpoints"], 6);
        assert_eq!(merged["lastCheckpointAt"], "2026-11-28T00:00:02Z");
        assert_eq!(merged["lag"]["eventTimeMs"], 9);
        assert_eq!(merged["vertices"][0]["eventsIn"], 140);
        assert_eq!(merged["vertices"].as_array().map(Vec::len), Some(1));
        assert_eq!(merged["delivery"][0]["delivered"], 70);
        assert_eq!(merged["partitions"][0]["partition"], 0);
        assert_eq!(merged["partitions"][0]["replica"], "replica-0");
        assert_eq!(merged["partitions"][1]["eventsIn"], 40);
        assert_eq!(merged["replica"], "replica-0");
    }
}
