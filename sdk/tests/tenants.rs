//! Tenants of the process pool (the service's organizations): a worker process serves one
//! tenant for life, checked through the process ids of the workers that ran each script;
//! tenants are served round robin; idle workers are retired.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use jobgraph_core::{Limits, ScriptInput};
use jobgraph_sdk::{ExecutionStats, ProcessConfig, ProcessSandbox};
use serde_json::{Map, Value, json};

fn config(workers: usize) -> ProcessConfig {
    ProcessConfig {
        workers,
        ..ProcessConfig::new(
            PathBuf::from(env!("CARGO_BIN_EXE_jobgraph-sandbox-worker")),
            vec![],
        )
    }
}

/// Runs `source` for `tenant` with `n` as its input: the value and the measurements.
fn run(pool: &ProcessSandbox, tenant: &str, source: &str, n: u64) -> (Value, ExecutionStats) {
    let mut variables = Map::new();
    variables.insert("n".into(), json!(n));
    let declared = vec!["n".to_owned()];
    let input = ScriptInput {
        source,
        declared: &declared,
        variables: &variables,
        draft: false,
        user: tenant,
    };
    let (result, stats) = pool.run_for_tenant_blocking(tenant, &input, &Limits::default());
    let value = result
        .unwrap_or_else(|e| panic!("{tenant}'s script failed: {e:?}"))
        .value;
    (value, stats)
}

const ECHO: &str = "({vertices: [], edges: [], n: n, user: user.getName()})";

/// Every (tenant → worker pids) of concurrent runs, each checked to answer its own input.
fn concurrent(
    pool: &Arc<ProcessSandbox>,
    tenants: &[String],
    per_tenant: u64,
) -> BTreeMap<String, BTreeSet<u32>> {
    let (send, receive) = channel();
    std::thread::scope(|scope| {
        for tenant in tenants {
            let (pool, send) = (Arc::clone(pool), send.clone());
            scope.spawn(move || {
                for n in 0..per_tenant {
                    let (value, stats) = run(&pool, tenant, ECHO, n);
                    assert_eq!(value["n"], json!(n), "{tenant} got its own answer");
                    assert_eq!(value["user"], json!(tenant.as_str()));
                    let _ = send.send((tenant.clone(), stats.worker_pid));
                }
            });
        }
    });
    drop(send);
    let mut pids: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for (tenant, pid) in receive {
        assert_ne!(pid, 0);
        pids.entry(tenant).or_default().insert(pid);
    }
    pids
}

fn assert_disjoint(pids: &BTreeMap<String, BTreeSet<u32>>) {
    let mut owner: BTreeMap<u32, &str> = BTreeMap::new();
    for (tenant, set) in pids {
        for pid in set {
            if let Some(other) = owner.insert(*pid, tenant) {
                panic!("worker {pid} served both {other} and {tenant}: {pids:?}");
            }
        }
    }
}

#[test]
fn two_organizations_running_at_once_never_share_a_worker() {
    let pool = Arc::new(ProcessSandbox::start(config(2)));
    let tenants = vec!["org-a".to_owned(), "org-b".to_owned()];
    let pids = concurrent(&pool, &tenants, 40);
    assert_eq!(pids.len(), 2);
    assert_disjoint(&pids);
}

#[test]
fn more_organizations_than_kept_workers_still_never_share_one() {
    let pool = Arc::new(ProcessSandbox::start(ProcessConfig {
        kept_workers: 4,
        ..config(2)
    }));
    let tenants: Vec<String> = (0..6).map(|i| format!("org-{i}")).collect();
    let pids = concurrent(&pool, &tenants, 6);
    assert_eq!(pids.len(), 6);
    assert_disjoint(&pids);
    let stats = pool.pool_stats();
    assert!(
        stats.retired > 0,
        "workers were retired for room: {stats:?}"
    );
}

#[test]
fn one_organization_reuses_its_workers() {
    let pool = ProcessSandbox::start(config(1));
    let mut pids = BTreeSet::new();
    for n in 0..20 {
        pids.insert(run(&pool, "org", ECHO, n).1.worker_pid);
    }
    assert_eq!(
        pids.len(),
        1,
        "one warm worker served every script: {pids:?}"
    );
}

#[test]
fn a_flooding_organization_does_not_starve_another() {
    let pool = Arc::new(ProcessSandbox::start(config(1)));
    // Warm both tenants' workers, so that start-up times do not decide the order.
    run(&pool, "flood", ECHO, 0);
    run(&pool, "quiet", ECHO, 0);
    let busy = "let t = Date.now(); while (Date.now() - t < 20) {}; ({vertices: [], edges: [], n})";
    let (send, receive) = channel();
    std::thread::scope(|scope| {
        for n in 0..12 {
            let (pool, send) = (Arc::clone(&pool), send.clone());
            scope.spawn(move || {
                run(&pool, "flood", busy, n);
                let _ = send.send("flood");
            });
        }
        // Queued behind the flood: most of its jobs are waiting.
        let deadline = Instant::now() + Duration::from_secs(10);
        while pool.pool_stats().waiting < 8 {
            assert!(Instant::now() < deadline, "the flood never queued");
            std::thread::yield_now();
        }
        let started = Instant::now();
        let (pool, send) = (Arc::clone(&pool), send.clone());
        scope.spawn(move || {
            run(&pool, "quiet", ECHO, 1);
            let _ = send.send("quiet");
            assert!(started.elapsed() < Duration::from_secs(5));
        });
    });
    drop(send);
    let order: Vec<&str> = receive.iter().collect();
    let quiet = order.iter().position(|&t| t == "quiet").expect("quiet ran");
    assert!(
        quiet < 6,
        "the quiet organization's script ran within the first few, not after the flood: {order:?}"
    );
}

#[test]
fn idle_workers_of_an_organization_are_retired() {
    let pool = ProcessSandbox::start(ProcessConfig {
        idle_timeout: Duration::from_millis(200),
        ..config(1)
    });
    let first = run(&pool, "org", ECHO, 0).1.worker_pid;
    let deadline = Instant::now() + Duration::from_secs(10);
    while pool.pool_stats().retired == 0 {
        assert!(Instant::now() < deadline, "no idle worker retired");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = run(&pool, "org", ECHO, 1).1.worker_pid;
    assert_ne!(first, second, "a new worker after the idle one was retired");
}
