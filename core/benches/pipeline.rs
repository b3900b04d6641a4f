//! Pipeline throughput: events already parsed through
//! `filter((level:warn OR level:error) AND NOT service:healthcheck) -> log-transform (3 tag
//! actions) -> sink`, one core. The goal (issue 21) is >= 3 million events/s; the figure and
//! the command are in bench/RESULTS.md.

/// The allocator the `jobgraph` binary uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Instant;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{LogEvent, Pipeline, RunInput, RunOptions};
use serde_json::json;

/// `n` events like scripts/sample-events.mjs makes: levels, services (some healthcheck), hosts.
fn events(n: usize) -> Vec<LogEvent> {
    let levels = ["debug", "info", "info", "info", "warn", "error"];
    let services = [
        "checkout",
        "payments",
        "search",
        "auth",
        "healthcheck",
        "web-app",
    ];
    let hosts = ["ip-10-0-1-17", "ip-10-0-1-42", "web-1", "web-2"];
    let mut state = 1u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as usize
    };
    (0..n)
        .map(|i| {
            let value = json!({
                "id": format!("evt-{i:07}"),
                "eventTimestamp": 1_764_072_000_000u64 + i as u64 * 250,
                "message": format!("request {} took {} ms", next() % 100_000, next() % 5000),
                "severity": 9,
                "tags": {"level": [levels[next() % levels.len()]], "service": [services[next() % services.len()]],
                         "host": [hosts[next() % hosts.len()]], "region": ["us-east-1"]},
                "attributes": {"http": {"status": 200}}
            });
            LogEvent::from_value(value).expect("a valid event")
        })
        .collect()
}

fn pipeline() -> Pipeline {
    let graph: JobGraph = serde_json::from_value(json!({
        "vertices": [
            {"type": "logs-iceberg-table-source", "name": "in", "table": "logs"},
            {"type": "logs-filter", "name": "f", "query": {"type": "simple-query",
                "query": "(level:warn OR level:error) AND NOT service:healthcheck"}},
            {"type": "log-transform", "name": "t", "transforms": [
                {"type": "tag-action", "order": 1, "modification": "SET", "tagKey": "env", "values": ["production"]},
                {"type": "tag-action", "order": 2, "modification": "ADD", "tagKey": "pipeline", "values": ["vendor-export"]},
                {"type": "tag-action", "order": 3, "modification": "REMOVE", "tagKey": "region", "values": []}]},
            {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> f", "f -> t", "t -> out"]
    }))
    .expect("graph");
    Pipeline::compile(&graph).expect("compiles")
}

fn throughput(c: &mut Criterion) {
    let pipeline = pipeline();
    let options = RunOptions {
        keep: 0,
        ..RunOptions::default()
    };
    let input = events(100_000);
    let mut group = c.benchmark_group("pipeline");
    group.sample_size(20);
    group.throughput(Throughput::Elements(input.len() as u64));
    group.bench_function("filter-transform-sink/100k", |b| {
        b.iter_batched(
            || RunInput {
                events: input.clone(),
                ..Default::default()
            },
            |run_input| black_box(pipeline.run(run_input, &options).expect("runs")),
            BatchSize::LargeInput,
        )
    });
    group.finish();

    // The figure: one pass over 1,000,000 events, printed.
    let million = events(1_000_000);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let run_input = RunInput {
            events: million.clone(),
            ..Default::default()
        };
        let started = Instant::now();
        let run = pipeline.run(run_input, &options).expect("runs");
        let seconds = started.elapsed().as_secs_f64();
        best = best.min(seconds);
        black_box(run);
    }
    println!(
        "pipeline/1M events: best of 5 {:.1} ms, {:.2} million events/s",
        best * 1000.0,
        1.0 / best
    );
}

criterion_group!(benches, throughput);
criterion_main!(benches);
