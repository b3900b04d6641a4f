//! Cost of one script execution in each execution mode: in-process, and the isolated process
//! pool (request over a pipe to a pre-started `jobgraph sandbox-worker`), for the same
//! 10-vertex script. Results and the command live in bench/RESULTS.md.

/// The allocator the `jobgraph` binary uses (counted, as there).
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<mimalloc::MiMalloc> =
    jobgraph_core::memory::CountingAllocator::new(mimalloc::MiMalloc);

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use jobgraph_core::{InProcess, Limits, Sandbox, ScriptInput};
use jobgraph_sdk::{ProcessConfig, ProcessSandbox};
use serde_json::Map;

const TEN_VERTICES: &str = "({vertices: Array.from({length: 10}, (_, i) => ({type: 'logs-filter', \
    name: 'f' + i, query: {type: 'simple-query', query: 'level:' + i}})), \
    edges: Array.from({length: 9}, (_, i) => 'f' + i + ':output -> f' + (i + 1) + ':input')})";

fn run<B: Sandbox>(sandbox: &B, input: &ScriptInput<'_>, limits: &Limits) {
    let out = futures_executor::block_on(sandbox.run(*input, limits));
    assert!(out.is_ok(), "{out:?}");
}

fn modes(c: &mut Criterion) {
    let vars = Map::new();
    let input = ScriptInput {
        source: TEN_VERTICES,
        declared: &[],
        variables: &vars,
        draft: false,
        user: "bench",
    };
    let limits = Limits::default();
    let pool = ProcessSandbox::start(ProcessConfig {
        workers: 1,
        ..ProcessConfig::new(
            PathBuf::from(env!("CARGO_BIN_EXE_jobgraph")),
            vec!["sandbox-worker".into()],
        )
    });
    let mut group = c.benchmark_group("execution_mode");
    group.bench_function("in_process", |b| {
        b.iter(|| run(&InProcess, black_box(&input), &limits))
    });
    group.bench_function("isolated_process_pool", |b| {
        b.iter(|| run(&pool, black_box(&input), &limits))
    });
    group.finish();
    c.bench_function("isolated_worker_restart_after_kill", |b| {
        // A script the worker cannot answer in time: measures kill + background respawn + the
        // next request, the price of one hostile script.
        let hostile = ScriptInput {
            source: "/^(a+)+$/.test('a'.repeat(40) + 'b')",
            ..input
        };
        let quick = Limits {
            timeout_ms: 20,
            ..Limits::default()
        };
        b.iter(|| {
            let _ = futures_executor::block_on(pool.run(hostile, &quick));
            run(&pool, &input, &limits);
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = modes
}
criterion_main!(benches);
