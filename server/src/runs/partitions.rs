//! Whether a job version runs as partitions (`docs/intake.md`, "Partitions"): its shards, one
//! per partition of its integration's events on JetStream, each claimed by a replica of its
//! own. A version is partitioned only when that cannot change what it outputs:
//!
//! - the intake log is JetStream with `intake.nats.partitions` above 1, and the job streams;
//! - its one source is an agent source (an integration's events);
//! - every stateful vertex keeps its state per key that the partition tags decide: each
//!   `log-reducer` and `pattern-matcher` partitions by (at least) every tag of
//!   `intake.nats.partitionByTags`; a `logs-event-sampler` (one bucket for all events) or a
//!   `sql-operation` (any state) makes the version whole;
//! - when it has a stateful vertex, no vertex that can write tags names a partition tag in
//!   its settings (a remapped `service` would move events between a reducer's partitions).
//!
//! Otherwise it runs whole, as one shard reading every partition.
//!
//! For example, with `partitions: 4` and `partitionByTags: ["service"]`, a job
//! `datadog-log-agent-source → log-reducer (partitionByTags ["service", "host"]) →
//! datadog-log-sink` runs as 4 shards; with the reducer's `partitionByTags` left empty (one
//! pattern table for all services) it runs whole (the tests below).

use jobgraph_model::JobGraph;
use serde_json::Value;

/// A version's shards, and why it has that many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shards {
    /// How many (1: whole).
    pub count: u32,
    /// Why (for the log and the docs' examples).
    pub why: String,
}

/// The agent sources (they read an integration's events).
const AGENT_SOURCE_SUFFIX: &str = "-agent-source";
const OTEL_SOURCE: &str = "otel-log-source";
/// Vertices whose state is per key of their `partitionByTags`.
const KEYED: &[&str] = &["log-reducer", "pattern-matcher"];
/// Vertices whose state is not per key.
const UNKEYED: &[&str] = &["logs-event-sampler", "sql-operation"];
/// Vertices that can write tags.
const TAG_WRITERS: &[&str] = &[
    "log-transform",
    "log-attributes-remapper",
    "grok-parser",
    "json-log-processor",
    "keyvalue-processor",
];

/// The shards of a version of `execution` and `processing` with `resolved` on the service's
/// intake log `intake` (none: one shard).
pub(crate) fn of_version(
    intake: Option<&crate::intake_log::Intake>,
    execution: &str,
    processing: &str,
    resolved: &JobGraph,
) -> Shards {
    match intake {
        Some(log) if execution == "ASYNCHRONOUS" => {
            shards(resolved, processing, log.partitions(), log.partition_tags())
        }
        _ => whole("it reads no partitioned intake"),
    }
}

fn whole(why: impl Into<String>) -> Shards {
    Shards {
        count: 1,
        why: why.into(),
    }
}

/// The shards of a version with `graph` (resolved) and `processing`, on an intake of
/// `partitions` partitions by `tags`.
pub(crate) fn shards(
    graph: &JobGraph,
    processing: &str,
    partitions: u32,
    tags: &[String],
) -> Shards {
    if partitions <= 1 {
        return whole("the intake has one partition");
    }
    if processing != "STREAMING" {
        return whole("only streaming jobs run as partitions");
    }
    let sources: Vec<_> = graph
        .vertices
        .iter()
        .filter(|v| v.vertex_type().ends_with("-source"))
        .collect();
    let [source] = sources.as_slice() else {
        return whole("it has more or fewer than one source");
    };
    let kind = source.vertex_type();
    if !kind.ends_with(AGENT_SOURCE_SUFFIX) && kind != OTEL_SOURCE {
        return whole(format!(
            "its source {} is not an agent source",
            source.name()
        ));
    }
    let mut stateful = false;
    for vertex in &graph.vertices {
        let kind = vertex.vertex_type();
        if UNKEYED.contains(&kind) {
            return whole(format!(
                "vertex {} ({kind}) keeps one state for all events",
                vertex.name()
            ));
        }
        if KEYED.contains(&kind) {
            stateful = true;
            let by: Vec<&str> = vertex
                .fields()
                .get("partitionByTags")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(missing) = tags.iter().find(|t| !by.contains(&t.as_str())) {
                return whole(format!(
                    "vertex {} ({kind}) does not partition by the tag {missing:?} (its partitionByTags)",
                    vertex.name()
                ));
            }
        }
    }
    if stateful {
        for vertex in &graph.vertices {
            let kind = vertex.vertex_type();
            if !TAG_WRITERS.contains(&kind) {
                continue;
            }
            let settings = Value::Object(vertex.fields().clone()).to_string();
            if let Some(tag) = tags.iter().find(|t| settings.contains(&format!("\"{t}"))) {
                return whole(format!(
                    "vertex {} ({kind}) may write the partition tag {tag:?}",
                    vertex.name()
                ));
            }
        }
    }
    Shards {
        count: partitions,
        why: format!("its stateful vertices partition by {}", tags.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn graph(middle: Value) -> JobGraph {
        serde_json::from_value(json!({
            "vertices": [
                {"type": "otel-log-source", "name": "in", "integrationId": "otel"},
                middle,
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": "d"}],
            "edges": ["in -> m", "m -> out"]}))
        .expect("a graph")
    }

    fn count(middle: Value) -> (u32, String) {
        let s = shards(&graph(middle), "STREAMING", 3, &["service".to_owned()]);
        (s.count, s.why)
    }

    #[test]
    fn a_reducer_by_the_partition_tags_runs_as_partitions_and_any_other_runs_whole() {
        let by = |tags: Value| json!({"type": "log-reducer", "name": "m", "partitionByTags": tags});
        assert_eq!(count(by(json!(["service"]))).0, 3);
        assert_eq!(count(by(json!(["host", "service"]))).0, 3);
        let (n, why) = count(by(json!(["host"])));
        assert_eq!(n, 1);
        assert!(why.contains("\"service\""), "{why}");
        assert_eq!(count(json!({"type": "log-reducer", "name": "m"})).0, 1);
        assert_eq!(
            count(json!({"type": "pattern-matcher", "name": "m", "partitionByTags": ["service"]}))
                .0,
            3
        );
    }

    #[test]
    fn stateless_pipelines_run_as_partitions_and_unkeyed_state_runs_whole() {
        assert_eq!(
            count(json!({"type": "logs-filter", "name": "m", "query": "x"})).0,
            3
        );
        let (n, why) = count(json!({"type": "logs-event-sampler", "name": "m",
            "maxAllowedRate": 1, "maxBurstLimit": 1}));
        assert_eq!(n, 1);
        assert!(why.contains("one state"), "{why}");
    }

    #[test]
    fn a_vertex_that_may_write_a_partition_tag_before_a_reducer_makes_it_whole() {
        let g: JobGraph = serde_json::from_value(json!({
            "vertices": [
                {"type": "otel-log-source", "name": "in", "integrationId": "otel"},
                {"type": "log-transform", "name": "t", "tagActions": [{"tag": "service", "action": "set", "value": "x"}]},
                {"type": "log-reducer", "name": "r", "partitionByTags": ["service"]},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": "d"}],
            "edges": ["in -> t", "t -> r", "r -> out"]}))
        .expect("a graph");
        let s = shards(&g, "STREAMING", 2, &["service".to_owned()]);
        assert_eq!(s.count, 1, "{}", s.why);
        assert!(s.why.contains("vertex t"), "{}", s.why);
    }

    #[test]
    fn batch_jobs_lake_sources_and_one_partition_run_whole() {
        let g = graph(json!({"type": "logs-filter", "name": "m", "query": "x"}));
        let tags = ["service".to_owned()];
        assert_eq!(shards(&g, "BATCH", 3, &tags).count, 1);
        assert_eq!(shards(&g, "STREAMING", 1, &tags).count, 1);
        let lake: JobGraph = serde_json::from_value(json!({
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "in", "datasetId": "d"},
                {"type": "logs-iceberg-table-sink", "name": "out", "datasetId": "e"}],
            "edges": ["in -> out"]}))
        .expect("a graph");
        assert_eq!(shards(&lake, "STREAMING", 3, &tags).count, 1);
    }
}
