//! Replays the kept fuzz corpora (`fuzz/corpus/<target>/`) natively, without libFuzzer: every
//! file goes through the same check as its cargo-fuzz target, so crash reproducers that were
//! fixed (they are kept in the corpus) stay fixed, and the targets' properties hold on stable
//! Rust under plain `cargo test`.
//!
//! The checks themselves live in `fuzz/src/` (one file per target, re-exported by its
//! `lib.rs`), compiled in here through `#[path]` (the fuzz crate is its own workspace, so this
//! crate cannot depend on it); see docs/fuzzing.md.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[allow(dead_code, unreachable_pub, unused_imports)]
#[path = "../fuzz/src/lib.rs"]
mod checks;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "empty corpus {}", dir.display());
    files
}

/// Runs every corpus file of `target` through `check`; reports every failing file by name.
fn replay(target: &str, check: fn(&[u8])) {
    let started = Instant::now();
    let files = corpus(target);
    let mut failed = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    // FUZZ_REPLAY_VERBOSE=1 lists every file that takes more than 100 ms.
    let verbose = std::env::var_os("FUZZ_REPLAY_VERBOSE").is_some();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let one = Instant::now();
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(name.clone());
        }
        if verbose && one.elapsed() > Duration::from_millis(100) {
            eprintln!("{target}/{name}: {:.2?}", one.elapsed());
        }
        slowest = slowest.max((one.elapsed(), name));
    }
    eprintln!(
        "{target}: {} corpus files in {:.2?} (slowest {} in {:.2?})",
        files.len(),
        started.elapsed(),
        slowest.1,
        slowest.0
    );
    assert!(
        failed.is_empty(),
        "{target}: {} of {} corpus files fail (replay one with `cargo fuzz run {target} fuzz/corpus/{target}/<file>`): {failed:?}",
        failed.len(),
        files.len()
    );
}

#[test]
fn edge_parser_corpus() {
    replay("edge_parser", checks::edge_parser);
}

#[test]
fn query_parser_corpus() {
    replay("query_parser", checks::query_parser);
}

#[test]
fn grok_rules_corpus() {
    replay("grok_rules", checks::grok_rules);
}

#[test]
fn graph_validation_corpus() {
    replay("graph_validation", checks::graph_validation);
}

#[test]
fn template_loading_corpus() {
    replay("template_loading", checks::template_loading);
}

#[test]
fn resolution_corpus() {
    replay("resolution", checks::resolution);
}

#[test]
fn reducer_corpus() {
    replay("reducer", checks::reducer);
}
