//! A taken-over worker, simulated: `jobgraph-sandbox-worker` built with the test-only feature
//! `attack-hooks` obeys scripts that start with `/*jobgraph-attack:NAME*/` (forge an answer's
//! id, answer twice, pre-write the next answer, write an endless line, raise its limits).
//! Each is caught: only that request fails, the worker is ended, and no forged answer reaches
//! any caller.
//!
//! `cargo test -p jobgraph-sdk --features attack-hooks --test attacks`

use std::path::PathBuf;

use jobgraph_core::{LimitKind, Limits, ScriptError, ScriptInput, ScriptResult};
use jobgraph_sdk::{ExecutionStats, ProcessConfig, ProcessSandbox};
use serde_json::{Map, Value, json};

fn pool() -> ProcessSandbox {
    ProcessSandbox::start(ProcessConfig {
        workers: 1,
        ..ProcessConfig::new(
            PathBuf::from(env!("CARGO_BIN_EXE_jobgraph-sandbox-worker")),
            vec![],
        )
    })
}

fn limits() -> Limits {
    Limits {
        timeout_ms: 5_000,
        max_memory_bytes: 64 << 20,
        max_output_bytes: 1 << 20,
        ..Limits::default()
    }
}

fn run(pool: &ProcessSandbox, tenant: &str, source: &str) -> (ScriptResult, ExecutionStats) {
    let variables = Map::new();
    let input = ScriptInput {
        source,
        declared: &[],
        variables: &variables,
        draft: false,
        user: "test",
    };
    pool.run_for_tenant_blocking(tenant, &input, &limits())
}

fn attack(pool: &ProcessSandbox, name: &str) -> (ScriptResult, ExecutionStats) {
    run(pool, "org", &format!("/*jobgraph-attack:{name}*/ 1"))
}

/// A genuine script after the attack: its own answer, from another worker process.
fn genuine_after(pool: &ProcessSandbox, attacker: u32) {
    let (result, stats) = run(pool, "org", "({vertices: [], edges: [], genuine: 6 * 7})");
    let value = result.expect("the next request succeeds").value;
    assert_eq!(
        value["genuine"],
        json!(42),
        "its own answer, not a forged one: {value}"
    );
    assert_ne!(stats.worker_pid, 0);
    assert_ne!(
        stats.worker_pid, attacker,
        "the next request runs in a new worker, not the one that misbehaved"
    );
}

fn failure_message(result: &ScriptResult) -> String {
    match result {
        Err(ScriptError::Failed(failure)) => failure.to_string(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn an_answer_with_another_id_fails_that_request_and_ends_the_worker() {
    let pool = pool();
    let (result, stats) = attack(&pool, "forged-id");
    let message = failure_message(&result);
    assert!(message.contains("another request's id"), "{message}");
    assert!(stats.worker_replaced);
    genuine_after(&pool, stats.worker_pid);
}

#[test]
fn a_second_answer_fails_that_request_and_ends_the_worker() {
    let pool = pool();
    let (result, stats) = attack(&pool, "second-answer");
    let message = failure_message(&result);
    assert!(message.contains("answered twice"), "{message}");
    assert!(stats.worker_replaced);
    genuine_after(&pool, stats.worker_pid);
}

#[test]
fn an_answer_written_before_the_request_is_never_delivered() {
    let pool = pool();
    let before = pool.pool_stats();
    let (result, stats) = attack(&pool, "prewritten-answer");
    // The genuine answer, unless the forged one arrived in the same read (then the request
    // fails as answered twice): either way the forged line is never taken as an answer.
    match &result {
        Ok(output) => assert_eq!(output.value, json!({"vertices": [], "edges": []})),
        Err(_) => assert!(failure_message(&result).contains("answered twice")),
    }
    // The next request: the pool saw the extra line before sending it (a new worker answers)
    // or took it as the answer (its id is not the request's: that request fails, the worker is
    // ended). Never is the forged line delivered.
    let (next, next_stats) = run(&pool, "org", "({vertices: [], edges: [], genuine: 6 * 7})");
    match next {
        Ok(output) => {
            assert_eq!(output.value["genuine"], json!(42), "{}", output.value);
            assert_ne!(next_stats.worker_pid, stats.worker_pid);
        }
        Err(_) => {
            let message = failure_message(&next);
            assert!(message.contains("another request's id"), "{message}");
            assert_eq!(next_stats.worker_pid, stats.worker_pid);
            assert!(next_stats.worker_replaced);
        }
    }
    genuine_after(&pool, stats.worker_pid);
    assert!(
        pool.pool_stats().retired > before.retired,
        "the worker that wrote ahead was ended"
    );
}

#[test]
fn an_endless_line_is_cut_at_the_output_limit_and_the_worker_ended() {
    let pool = pool();
    let (result, stats) = attack(&pool, "endless-line");
    match &result {
        Err(ScriptError::Failed(failure)) => assert_eq!(
            failure.limit.map(|l| l.kind),
            Some(LimitKind::OutputBytes),
            "{failure}"
        ),
        other => panic!("expected the output limit, got {other:?}"),
    }
    assert!(
        stats.elapsed < ProcessSandbox::kill_after(limits().timeout_ms) / 2,
        "cut at the size bound ({:?}), not at the deadline",
        stats.elapsed
    );
    assert!(stats.worker_replaced);
    genuine_after(&pool, stats.worker_pid);
}

/// `(soft, hard)` of one row of `/proc/<pid>/limits`.
fn proc_limit(pid: u32, row: &str) -> (String, String) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("read the limits");
    let line = text
        .lines()
        .find(|l| l.starts_with(row))
        .unwrap_or_else(|| panic!("no {row} in {text}"));
    let mut values = line[row.len()..].split_whitespace();
    (
        values.next().unwrap_or_default().to_owned(),
        values.next().unwrap_or_default().to_owned(),
    )
}

#[test]
fn a_worker_cannot_raise_its_limits_and_they_are_closed() {
    let pool = pool();
    let (result, stats) = attack(&pool, "raise-limits");
    let report = result.expect("the worker reports its attempts").value;
    let Value::Object(attempts) = &report else {
        panic!("a report: {report}")
    };
    assert_eq!(attempts.len(), 5, "{report}");
    for (attempt, outcome) in attempts {
        assert_ne!(outcome, "ok", "{attempt} must fail: {report}");
    }
    // The worker is still alive (it answered): its limits are fixed, soft = hard.
    let pid = stats.worker_pid;
    let (soft, hard) = proc_limit(pid, "Max address space");
    assert_eq!(soft, hard, "address space soft = hard");
    assert_ne!(hard, "unlimited");
    assert_eq!(proc_limit(pid, "Max open files"), ("4".into(), "4".into()));
    assert_eq!(proc_limit(pid, "Max processes"), ("0".into(), "0".into()));
    assert_eq!(
        proc_limit(pid, "Max core file size"),
        ("0".into(), "0".into())
    );
}

#[test]
fn a_worker_never_serves_again_after_a_limit() {
    let pool = pool();
    let (result, stats) = run(&pool, "org", "while (true) {}");
    assert!(result.is_err());
    assert!(stats.worker_replaced);
    genuine_after(&pool, stats.worker_pid);
}
