//! The runs' counters in the Prometheus text format (`GET /metrics`, version 0.0.4): per job
//! and per vertex, events and bytes in and out, errors, checkpoints, lag, and each run's
//! state, of the runs this replica drives for the caller's organization; per vendor sink, what
//! it delivered, retried and dead-lettered; per integration the organization sees, what this
//! replica's intake took and refused and what the intake log holds (scrape every replica and
//! sum).

use prometheus::core::Collector;
use prometheus::{Encoder, GaugeVec, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};

use crate::ids::now_ms;
use crate::state::AppState;

const JOB: &[&str] = &["job_id", "job_name", "version"];
const VERTEX: &[&str] = &["job_id", "job_name", "version", "vertex", "vertex_type"];
const STATE: &[&str] = &["job_id", "job_name", "version", "state"];
const SINK: &[&str] = &["job_id", "job_name", "version", "vertex"];
const INTEGRATION: &[&str] = &["integration"];

fn counter(name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    IntCounterVec::new(Opts::new(name, help).namespace("jobgraph"), labels)
        .expect("a valid metric name and labels")
}

fn gauge(name: &str, help: &str, labels: &[&str]) -> GaugeVec {
    GaugeVec::new(Opts::new(name, help).namespace("jobgraph"), labels)
        .expect("a valid metric name and labels")
}

/// The metrics of `organization`'s runs and integrations on this replica, as Prometheus text.
pub(crate) fn render(app: &AppState, organization: &str) -> String {
    let runs = &app.runs;
    let running = IntGauge::with_opts(
        Opts::new(
            "runs",
            "Runs of the organization's asynchronous jobs this replica drives",
        )
        .namespace("jobgraph"),
    )
    .expect("a valid metric name");
    let state = gauge(
        "job_state",
        "A run's state (1 for the state it is in)",
        STATE,
    );
    let source_events = counter(
        "job_source_events_total",
        "Events the run's source read since this replica took it",
        JOB,
    );
    let source_bytes = counter(
        "job_source_bytes_total",
        "Bytes of events (message, attributes, tags) the run's source read",
        JOB,
    );
    let sink_events = counter(
        "job_sink_events_total",
        "Events the run's sinks wrote since this replica took it",
        JOB,
    );
    let sink_bytes = counter(
        "job_sink_bytes_total",
        "Bytes of events (message, attributes, tags) the run's sinks wrote",
        JOB,
    );
    let errors = counter("job_errors_total", "Batches of the run that failed", JOB);
    let checkpoints = counter(
        "job_checkpoints_total",
        "Checkpoints the run wrote (its files, positions and state, committed together)",
        JOB,
    );
    let lag_event = gauge(
        "job_event_time_lag_seconds",
        "Now minus the newest event time the run read",
        JOB,
    );
    let lag_processing = gauge(
        "job_processing_lag_seconds",
        "How long the run's source has had committed data waiting (0 when caught up)",
        JOB,
    );
    let vertex_in = counter(
        "vertex_events_in_total",
        "Events that reached a vertex of the run",
        VERTEX,
    );
    let vertex_out = counter(
        "vertex_events_out_total",
        "Events a vertex of the run sent on",
        VERTEX,
    );
    let vertex_bytes = counter(
        "vertex_bytes_in_total",
        "Bytes of events (message, attributes, tags) that reached a sink of the run",
        VERTEX,
    );
    let delivered = counter(
        "delivery_events_total",
        "Events a vendor sink of the run delivered (the vendor answered 2xx)",
        SINK,
    );
    let retries = counter(
        "delivery_retries_total",
        "Requests of a vendor sink of the run that failed and were sent again",
        SINK,
    );
    let dead_letters = counter(
        "delivery_dead_letters_total",
        "Events a vendor refused for good (written to the dead-letters dataset)",
        SINK,
    );
    let failing = gauge(
        "delivery_failing",
        "1 while a vendor sink of the run is failing to deliver, else 0",
        SINK,
    );
    let now = now_ms();
    let mut driven = runs.driven();
    driven.sort_by(|a, b| a.0.cmp(&b.0));
    for ((job, version, _), run) in driven {
        if run.organization != organization {
            continue;
        }
        let Ok(status) = run.status.lock().map(|s| s.clone()) else {
            continue;
        };
        running.inc();
        let version = version.to_string();
        let labels = [job.as_str(), status.name.as_str(), version.as_str()];
        source_events
            .with_label_values(&labels)
            .inc_by(status.events_in);
        source_bytes
            .with_label_values(&labels)
            .inc_by(status.bytes_in);
        sink_events
            .with_label_values(&labels)
            .inc_by(status.events_out);
        sink_bytes
            .with_label_values(&labels)
            .inc_by(status.bytes_out);
        errors.with_label_values(&labels).inc_by(status.errors);
        checkpoints
            .with_label_values(&labels)
            .inc_by(status.checkpoints);
        if let Some(t) = status.newest_event_ms {
            lag_event
                .with_label_values(&labels)
                .set((now - t).max(0) as f64 / 1000.0);
        }
        lag_processing.with_label_values(&labels).set(
            status
                .behind_since_ms
                .map_or(0.0, |t| (now - t).max(0) as f64 / 1000.0),
        );
        state
            .with_label_values(&[labels[0], labels[1], labels[2], status.state.as_str()])
            .set(1.0);
        for (vertex, d) in &status.delivery {
            let labels = [labels[0], labels[1], labels[2], vertex.as_str()];
            delivered.with_label_values(&labels).inc_by(d.delivered);
            retries.with_label_values(&labels).inc_by(d.retries);
            dead_letters
                .with_label_values(&labels)
                .inc_by(d.dead_letters);
            failing
                .with_label_values(&labels)
                .set(if d.failing_since_ms.is_some() {
                    1.0
                } else {
                    0.0
                });
        }
        for (vertex, counts) in &status.vertices {
            let labels = [
                labels[0],
                labels[1],
                labels[2],
                vertex.as_str(),
                counts.type_name.as_str(),
            ];
            vertex_in
                .with_label_values(&labels)
                .inc_by(counts.events_in);
            vertex_out
                .with_label_values(&labels)
                .inc_by(counts.events_out);
            if counts.bytes_in > 0 {
                vertex_bytes
                    .with_label_values(&labels)
                    .inc_by(counts.bytes_in);
            }
        }
    }
    let intake = intake_metrics(app, organization);
    let registry = Registry::new();
    let mut collectors: Vec<Box<dyn Collector>> = vec![
        Box::new(running),
        Box::new(state),
        Box::new(source_events),
        Box::new(source_bytes),
        Box::new(sink_events),
        Box::new(sink_bytes),
        Box::new(errors),
        Box::new(checkpoints),
        Box::new(lag_event),
        Box::new(lag_processing),
        Box::new(vertex_in),
        Box::new(vertex_out),
        Box::new(vertex_bytes),
        Box::new(delivered),
        Box::new(retries),
        Box::new(dead_letters),
        Box::new(failing),
    ];
    collectors.extend(intake);
    for collector in collectors {
        // Each name is registered once.
        let _ = registry.register(collector);
    }
    let mut out = Vec::new();
    // Encoding into memory cannot fail.
    let _ = TextEncoder::new().encode(&registry.gather(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Per integration the organization sees that takes agents' logs: this replica's intake
/// counters and what the intake log holds.
fn intake_metrics(state: &AppState, organization: &str) -> Vec<Box<dyn Collector>> {
    let taken = counter(
        "intake_events_total",
        "Events this replica's intake took for the integration (2xx answered)",
        INTEGRATION,
    );
    let refused = counter(
        "intake_requests_refused_total",
        "Requests this replica's intake refused for the integration (any 4xx or 5xx)",
        INTEGRATION,
    );
    let buffered_events = gauge(
        "intake_buffered_events",
        "Events the intake log holds for the integration (JetStream: messages)",
        INTEGRATION,
    );
    let buffered_bytes = gauge(
        "intake_buffered_bytes",
        "Bytes the intake log holds for the integration",
        INTEGRATION,
    );
    for spec in &state.config.integrations {
        if spec.ingest_key.is_none() || !spec.visible_to(organization) {
            continue;
        }
        let labels = [spec.id.as_str()];
        let counts = state.intake_stats.of(&spec.id);
        taken.with_label_values(&labels).inc_by(counts.events);
        refused.with_label_values(&labels).inc_by(counts.refused);
        if let Some(log) = &state.intake {
            let info = log.info(&spec.id);
            buffered_events
                .with_label_values(&labels)
                .set(info.events as f64);
            buffered_bytes
                .with_label_values(&labels)
                .set(info.bytes as f64);
        }
    }
    vec![
        Box::new(taken),
        Box::new(refused),
        Box::new(buffered_events),
        Box::new(buffered_bytes),
    ]
}
