//! Times pattern mining and the whole `log-reducer` stage on a file of log lines, on one
//! core: `cargo run --release -p jobgraph-core --example patterns_speed -- FILE [SETTINGS_JSON]`.
//! Prints lines/s of each (bench/patterns/README.md runs it beside drain3).

use std::time::Instant;

use jobgraph_core::JobGraph;
use jobgraph_core::pipeline::{LogEvent, PatternMiner, Pipeline, RunInput, RunOptions};
use serde_json::{Map, Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: patterns_speed FILE [SETTINGS_JSON]");
        std::process::exit(2);
    };
    let settings: Map<String, Value> = args
        .next()
        .map(|s| serde_json::from_str(&s).expect("settings: a JSON object"))
        .unwrap_or_default();
    let text = std::fs::read_to_string(&file).expect("a readable UTF-8 file");
    let lines: Vec<&str> = text.lines().collect();

    let started = Instant::now();
    let mut miner = PatternMiner::new(&settings).expect("valid settings");
    for line in &lines {
        miner.add(line).expect("no mask time-out");
    }
    let mine = started.elapsed().as_secs_f64();
    println!(
        "mine: {} lines, {} patterns, {:.3} s, {:.0} lines/s",
        lines.len(),
        miner.pattern_count(),
        mine,
        lines.len() as f64 / mine
    );

    // The reducer stage: events with a message and a time, one per line, 1 ms apart.
    let events: Vec<LogEvent> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut e = LogEvent::default();
            e.message = Some((*line).to_owned());
            e.event_timestamp = Some(json!(i as i64));
            e
        })
        .collect();
    let mut reducer = settings.clone();
    reducer.insert("type".into(), json!("log-reducer"));
    reducer.insert("name".into(), json!("reduce"));
    let graph: JobGraph = serde_json::from_value(json!({
        "vertices": [
            {"type": "logs-iceberg-table-source", "name": "in"},
            Value::Object(reducer),
            {"type": "logs-sync-sink", "name": "out"}],
        "edges": ["in -> reduce", "reduce -> out"]}))
    .expect("a graph");
    let pipeline = Pipeline::compile(&graph).expect("compiles");
    let options = RunOptions {
        keep: 0,
        max_events: usize::MAX,
        max_handled: usize::MAX,
        timeout_ms: 600_000,
    };
    let started = Instant::now();
    let run = pipeline
        .run(
            RunInput {
                events,
                ..Default::default()
            },
            &options,
        )
        .expect("runs");
    let reduce = started.elapsed().as_secs_f64();
    println!(
        "reduce: {} events in, {} out, {:.3} s, {:.0} events/s",
        lines.len(),
        run.sinks["out"].len(),
        reduce,
        lines.len() as f64 / reduce
    );
}
