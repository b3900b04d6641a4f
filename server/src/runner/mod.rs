//! The job runner: every replica runs one. It claims the runs of asynchronous jobs no live
//! replica owns (a compare-and-set on the run's lease in the database), drives each in a task
//! of its own through the public lifecycle, and renews its leases; a replica that dies loses
//! them within `leaseMs`, and another takes its runs over from their last checkpoint
//! (docs/plans/job-runner.md, docs/api.md "Running jobs").
//!
//! - [`drive`]: one run, from `PENDING` to its end: stop, retire, delete, fail; its start
//!   (`drive/setup.rs`) and its batches and checkpoints (`drive/batches.rs`).
//! - [`feed`]: a run's one source: [`source`], the lake read as a stream (commits as they land)
//!   or between two times; [`agent_source`], agents' logs from the intake log.
//! - [`intake_trim`]: the intake log trimmed past every reader's checkpoint.
//! - [`sink`]: the lake written continuously, committed at checkpoints; [`vendor_sink`]:
//!   vendors' intakes (Datadog, Splunk HEC), delivered at least once (`drive/delivery.rs`).
//! - [`metrics`]: the runs' counters as Prometheus text.
//!
//! What the handlers share with it (its settings, the runs driven here, their counters and
//! taps) is `crate::runs`, which depends on none of this.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ids::{new_id, now_ms};
use crate::runs::{Driven, RunKey};
use crate::state::AppState;

mod agent_source;
mod drive;
mod feed;
mod intake_trim;
pub(crate) mod metrics;
mod sink;
mod source;
mod vendor_sink;

/// Starts this replica's runner (when `runner.enabled`): it runs as long as the runtime.
pub(crate) fn start(state: AppState) {
    intake_trim::start(&state);
    if !state.config.runner.enabled {
        return;
    }
    let owner = match new_id() {
        Ok(id) => format!("replica-{id}"),
        Err(e) => {
            tracing::error!("runner: no random id for this replica, no job runs here: {e}");
            return;
        }
    };
    tracing::info!(owner = %owner, "runner: started");
    tokio::spawn(async move {
        let poll = Duration::from_millis(state.config.runner.poll_ms.max(10));
        let mut waiting = HashMap::new();
        loop {
            if let Err(e) = claim(&state, &owner, &mut waiting).await {
                tracing::warn!("runner: could not look for runs to claim (trying again): {e}");
            }
            let _ = tokio::time::timeout(poll, state.runs.wake.notified()).await;
        }
    });
}

/// Claims what this replica has room for, and drives each run claimed. A shard of a run
/// that has another shard driven here is left to the other replicas for `3 × pollMs` after
/// it was first seen claimable (`waiting`), so that a run's shards spread over the replicas;
/// after that this replica takes it too (no other replica is there to).
async fn claim(
    state: &AppState,
    owner: &str,
    waiting: &mut HashMap<RunKey, Instant>,
) -> Result<(), crate::store::StoreError> {
    let config = &state.config.runner;
    let now = now_ms();
    let candidates = state.store.claimable_runs(now, 64).await?;
    let spread = Duration::from_millis(config.poll_ms.max(10) * 3);
    waiting.retain(|key, _| {
        candidates
            .iter()
            .any(|r| (&r.job_id, r.version, r.shard) == (&key.0, key.1, key.2))
    });
    for run in candidates {
        let key = (run.job_id.clone(), run.version, run.shard);
        if state.runs.contains(&key) {
            continue;
        }
        if run.shards > 1 && state.runs.drives_a_sibling(&key) {
            let since = waiting.entry(key.clone()).or_insert_with(Instant::now);
            if since.elapsed() < spread {
                continue;
            }
        }
        let (all, of_organization) = state.runs.count(&run.organization);
        if all >= config.max_jobs || of_organization >= config.jobs_per_organization {
            continue;
        }
        let lease = now_ms() + config.lease_ms as i64;
        if !state
            .store
            .claim_run(run.clone(), owner.to_owned(), lease)
            .await?
        {
            continue;
        }
        let driven = Driven {
            organization: run.organization.clone(),
            status: Arc::default(),
            taps: Arc::default(),
            poked: Arc::default(),
        };
        waiting.remove(&key);
        state.runs.insert(key.clone(), driven.clone());
        let state = state.clone();
        let owner = owner.to_owned();
        tokio::spawn(async move {
            drive::drive(&state, &owner, run, driven).await;
            state.runs.remove(&key);
            // A run that ends may let the next version of its job start.
            state.runs.wake.notify_one();
        });
    }
    Ok(())
}
