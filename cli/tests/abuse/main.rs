//! The abuse suite (issue 27): each finding of the black-box probe reproduced against the real
//! `jobgraph serve` binary on loopback, with bounded loops, and shown fixed with its number.
//! One module per finding; each starts the servers it needs (once per module, in a static).
//!
//! - `connections`: stalled uploads, idle and partial connections, the connection cap (rows 1, 2)
//! - `triggers`: unauthenticated triggers rate-limited and capped (row 3)
//! - `amplification`: the resolution output budget (row 4)
//! - `pages`: field limits and pagination (row 5)
//! - `fairness`: one organization's load is not everyone's (row 6)
//! - `credentials`: rotation, removal and revocation (row 7)

#[path = "../common/mod.rs"]
mod common;

mod amplification;
mod connections;
mod credentials;
mod fairness;
mod pages;
mod triggers;

/// Held by each test for its whole run: the suite's figures are latencies and memory peaks, so
/// its tests run one at a time whatever `--test-threads` says (a poisoned lock is taken too:
/// one failed test must not fail the others).
pub(crate) fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The resident set size of process `pid`, in bytes (`/proc/PID/status`, `VmRSS`).
pub(crate) fn rss_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}
