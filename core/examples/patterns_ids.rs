//! Writes each line's pattern id, one a line, for the grouping-accuracy benchmark without the
//! command line's build: `cargo run -p jobgraph-core --example patterns_ids -- FILE OUT
//! [SETTINGS_JSON]`, the settings also from `PATTERNS_SETTINGS` (bench/patterns/README.md; `grouping_accuracy.py --run` takes it as
//! `… {} {out}`). A line with no pattern (an empty message) gets `-`.

use serde_json::{Map, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: patterns_ids FILE OUT [SETTINGS_JSON]");
        std::process::exit(2);
    };
    let settings: Map<String, Value> = args
        .get(2)
        .cloned()
        .or_else(|| std::env::var("PATTERNS_SETTINGS").ok())
        .map(|s| serde_json::from_str(&s).expect("settings: a JSON object"))
        .unwrap_or_default();
    let text = std::fs::read_to_string(file).expect("a readable UTF-8 file");
    let mut miner = jobgraph_core::pipeline::PatternMiner::new(&settings).expect("valid settings");
    let mut ids = String::new();
    for line in text.lines() {
        ids.push_str(miner.add(line).expect("no mask time-out").unwrap_or("-"));
        ids.push('\n');
    }
    std::fs::write(out, ids).expect("a writable output file");
}
