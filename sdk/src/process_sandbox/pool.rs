//! The pool's scheduling: one queue of jobs per tenant served round robin (one tenant's flood
//! cannot starve another's scripts), a tenant running at most its share of the workers
//! ([`tenant_share`]: all but one, so another tenant's script never waits for a slow one to
//! end), and kept workers, each bound for life to the first tenant
//! it served. A job runs on an idle worker of its tenant, else on a fresh (never used) worker,
//! else on a new one; past [`ProcessConfig::kept_workers`] the idle worker unused longest is
//! retired, and idle workers of a tenant are retired after [`ProcessConfig::idle_timeout`].

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};
use std::time::Instant;

use futures_channel::oneshot;
use jobgraph_core::{ScriptRequest, ScriptResult};

use super::exchange::{Done, exchange};
use super::worker::{Worker, infrastructure};
use super::{ExecutionStats, Shared, lock};
use crate::sandbox_worker::{ADDRESS_SPACE_HEADROOM, ALLOCATION_SLACK};

/// Who a script belongs to: an organization of the service, or `""` (the library's and the
/// CLI's one pool).
pub(super) type Tenant = Arc<str>;

/// A script waiting for a worker.
#[derive(Debug)]
pub(super) struct Job {
    pub tenant: Tenant,
    pub request: ScriptRequest,
    pub reply: oneshot::Sender<(ScriptResult, ExecutionStats)>,
}

/// Scripts one tenant may run at once: every worker for the library's own pool (tenant `""`),
/// else all but one (at least one), so that one organization's flood always leaves a worker
/// for another's next script instead of making it wait for a slow script to end.
pub(super) fn tenant_share(tenant: &str, workers: usize) -> usize {
    if tenant.is_empty() {
        workers
    } else {
        workers.saturating_sub(1).max(1)
    }
}

/// A worker not running a script.
#[derive(Debug)]
struct Kept {
    worker: Worker,
    /// The tenant it is bound to; `None` while it has served nobody.
    tenant: Option<Tenant>,
    since: Instant,
}

/// Everything the dispatchers share, under one lock.
#[derive(Debug, Default)]
pub(super) struct State {
    queues: HashMap<Tenant, VecDeque<Job>>,
    /// Tenants with waiting jobs, in the order they are served.
    ready: VecDeque<Tenant>,
    /// Scripts running now, per tenant (absent: none).
    running: HashMap<Tenant, usize>,
    pub pending: usize,
    idle: Vec<Kept>,
    /// Workers running a script (or being started for one).
    busy: usize,
    /// Dispatcher threads started.
    pub dispatchers: usize,
    /// Dispatchers waiting for a job.
    pub waiting: usize,
    pub closed: bool,
    /// `maxMemoryBytes` of the latest job: what a spare worker is started for.
    memory_hint: u64,
}

impl State {
    pub(super) fn push(&mut self, job: Job) {
        self.memory_hint = job.request.limits.max_memory_bytes;
        let queue = self.queues.entry(Arc::clone(&job.tenant)).or_default();
        if queue.is_empty() {
            self.ready.push_back(Arc::clone(&job.tenant));
        }
        queue.push_back(job);
        self.pending += 1;
    }

    /// The next job, round robin over tenants, skipping a tenant that runs its share already
    /// ([`tenant_share`]): the workers it leaves are for the others.
    fn pop(&mut self, workers: usize) -> Option<Job> {
        let running = &self.running;
        let index = self.ready.iter().position(|tenant| {
            running.get(tenant).copied().unwrap_or(0) < tenant_share(tenant, workers)
        })?;
        let tenant = self.ready.remove(index)?;
        let queue = self.queues.get_mut(&tenant)?;
        let job = queue.pop_front()?;
        if queue.is_empty() {
            self.queues.remove(&tenant);
        } else {
            self.ready.push_back(Arc::clone(&tenant));
        }
        self.pending -= 1;
        *self.running.entry(tenant).or_insert(0) += 1;
        Some(job)
    }

    /// `tenant`'s script ended.
    fn finished(&mut self, tenant: &Tenant) {
        if let Some(count) = self.running.get_mut(tenant) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.running.remove(tenant);
            }
        }
    }

    /// Takes the idle worker that may run `job`: its tenant's most recently used one with room
    /// for the script's memory, else a fresh one started for enough memory.
    fn take_worker(&mut self, job: &Job) -> Option<Worker> {
        let memory = job.request.limits.max_memory_bytes;
        let fits = |kept: &Kept| {
            kept.worker.memory >= memory
                && kept.worker.room.is_none_or(|room| {
                    room >= memory
                        .saturating_add(ALLOCATION_SLACK)
                        .saturating_add(ADDRESS_SPACE_HEADROOM / 2)
                })
        };
        let own = self
            .idle
            .iter()
            .enumerate()
            .filter(|(_, k)| k.tenant.as_ref() == Some(&job.tenant) && fits(k))
            .max_by_key(|(_, k)| k.since)
            .map(|(i, _)| i);
        let index = own.or_else(|| self.idle.iter().position(|k| k.tenant.is_none() && fits(k)))?;
        let kept = self.idle.swap_remove(index);
        if kept.tenant.is_none() {
            bind(&job.tenant, kept.worker.pid());
        }
        Some(kept.worker)
    }

    /// Idle workers to retire: those of the job's tenant that no longer fit it are left to
    /// expire; past the bound, the one unused longest goes.
    fn make_room(&mut self, kept_workers: usize, retired: &mut Vec<Worker>) {
        while self.idle.len() + self.busy >= kept_workers && !self.idle.is_empty() {
            let oldest = self
                .idle
                .iter()
                .enumerate()
                .min_by_key(|(_, k)| k.since)
                .map(|(i, _)| i);
            match oldest {
                Some(i) => retired.push(self.idle.swap_remove(i).worker),
                None => break,
            }
        }
    }

    /// Takes out the idle workers of tenants unused for longer than `timeout`.
    fn expire(&mut self, now: Instant, shared: &Shared, retired: &mut Vec<Worker>) {
        let timeout = shared.config.idle_timeout;
        let mut i = 0;
        while i < self.idle.len() {
            let kept = &self.idle[i];
            if kept.tenant.is_some() && now.duration_since(kept.since) >= timeout {
                retired.push(self.idle.swap_remove(i).worker);
            } else {
                i += 1;
            }
        }
    }

    fn has_fresh(&self) -> bool {
        self.idle.iter().any(|k| k.tenant.is_none())
    }
}

fn wait<'a>(shared: &'a Shared, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
    shared
        .work
        .wait_timeout(state, shared.config.idle_timeout)
        .map_or_else(|e| e.into_inner().0, |(guard, _)| guard)
}

/// Starts a spare worker, bound to nobody yet, unless there is one or no room.
fn top_up(shared: &Shared) {
    let memory = {
        let mut state = lock(&shared.state);
        if state.closed
            || state.has_fresh()
            || state.idle.len() + state.busy >= shared.config.kept_workers
        {
            return;
        }
        state.busy += 1;
        state.memory_hint
    };
    let spare = Worker::spawn(&shared.config, memory).ok();
    if spare.is_some() {
        shared.started.fetch_add(1, Ordering::Relaxed);
    }
    let mut state = lock(&shared.state);
    state.busy -= 1;
    if let Some(worker) = spare {
        state.idle.push(Kept {
            worker,
            tenant: None,
            since: Instant::now(),
        });
    }
}

/// Ends retired workers, outside the lock.
fn retire(shared: &Shared, retired: Vec<Worker>) {
    shared
        .retired
        .fetch_add(retired.len() as u64, Ordering::Relaxed);
    drop(retired);
}

/// A dispatcher thread: serves jobs until the pool is dropped.
pub(super) fn dispatch(shared: &Shared) {
    top_up(shared);
    loop {
        let mut retired = Vec::new();
        let (job, worker) = {
            let mut state = lock(&shared.state);
            let job = loop {
                state.expire(Instant::now(), shared, &mut retired);
                if !retired.is_empty() {
                    drop(state);
                    retire(shared, std::mem::take(&mut retired));
                    state = lock(&shared.state);
                    continue;
                }
                if let Some(job) = state.pop(shared.config.workers) {
                    break job;
                }
                if state.closed {
                    let idle = std::mem::take(&mut state.idle);
                    drop(state);
                    retire(shared, idle.into_iter().map(|k| k.worker).collect());
                    return;
                }
                state.waiting += 1;
                state = wait(shared, state);
                state.waiting -= 1;
            };
            let worker = state.take_worker(&job);
            if worker.is_none() {
                state.make_room(shared.config.kept_workers, &mut retired);
            }
            state.busy += 1;
            (job, worker)
        };
        retire(shared, retired);
        let (result, stats, kept) = if job.reply.is_canceled() {
            (
                Err(infrastructure(&"cancelled")),
                ExecutionStats::default(),
                worker,
            )
        } else {
            run(shared, &job, worker)
        };
        let _ = job.reply.send((result, stats));
        {
            let mut state = lock(&shared.state);
            state.busy -= 1;
            state.finished(&job.tenant);
            if let Some(worker) = kept {
                state.idle.push(Kept {
                    worker,
                    tenant: Some(Arc::clone(&job.tenant)),
                    since: Instant::now(),
                });
            }
        }
        top_up(shared);
    }
}

/// Runs `job` on `worker`, or on a new worker when there is none or it turns out unusable:
/// the result, its measurements and the worker when it may serve its tenant again.
fn run(
    shared: &Shared,
    job: &Job,
    mut worker: Option<Worker>,
) -> (ScriptResult, ExecutionStats, Option<Worker>) {
    for _attempt in 0..3 {
        let current = match worker.take() {
            Some(worker) => worker,
            None => match Worker::spawn(&shared.config, job.request.limits.max_memory_bytes) {
                Ok(worker) => {
                    shared.started.fetch_add(1, Ordering::Relaxed);
                    bind(&job.tenant, worker.pid());
                    worker
                }
                Err(e) => return (Err(infrastructure(&e)), ExecutionStats::default(), None),
            },
        };
        match exchange(current, &job.request) {
            Err(_not_sent) => {
                shared.retired.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Done {
                result,
                stats,
                worker,
            }) => {
                if worker.is_none() {
                    shared.retired.fetch_add(1, Ordering::Relaxed);
                }
                *lock(&shared.last) = stats;
                return (result, stats, worker);
            }
        }
    }
    (
        Err(infrastructure(
            &"the sandbox worker does not accept requests",
        )),
        ExecutionStats::default(),
        None,
    )
}

/// Says which tenant a new worker serves (the service logs it).
fn bind(tenant: &str, pid: u32) {
    if !tenant.is_empty() {
        tracing::info!(
            worker_pid = pid,
            organization = tenant,
            "sandbox worker bound to an organization"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jobgraph_core::{Limits, ScriptInput};

    fn job(state: &mut State, tenant: &str) -> oneshot::Receiver<(ScriptResult, ExecutionStats)> {
        let (reply, answer) = oneshot::channel();
        let variables = serde_json::Map::new();
        let input = ScriptInput {
            source: "1",
            declared: &[],
            variables: &variables,
            draft: false,
            user: "u",
        };
        state.push(Job {
            tenant: Arc::from(tenant),
            request: ScriptRequest::new(&input, &Limits::default()),
            reply,
        });
        answer
    }

    fn popped(state: &mut State, workers: usize) -> Option<String> {
        state.pop(workers).map(|job| job.tenant.to_string())
    }

    #[test]
    fn a_flooding_tenant_leaves_a_worker_for_the_others() {
        let mut state = State::default();
        let _answers: Vec<_> = ["a", "a", "a", "b"]
            .into_iter()
            .map(|t| job(&mut state, t))
            .collect();
        // Two workers: "a" runs on one at most, "b" gets the other at once.
        assert_eq!(popped(&mut state, 2).as_deref(), Some("a"));
        assert_eq!(popped(&mut state, 2).as_deref(), Some("b"));
        assert_eq!(popped(&mut state, 2), None, "a is at its share");
        state.finished(&Arc::from("a"));
        assert_eq!(popped(&mut state, 2).as_deref(), Some("a"));
        assert_eq!(state.pending, 1);
    }

    #[test]
    fn the_library_s_own_tenant_uses_every_worker() {
        assert_eq!(tenant_share("", 4), 4);
        assert_eq!(tenant_share("org", 4), 3);
        assert_eq!(tenant_share("org", 1), 1);
        let mut state = State::default();
        let _answers: Vec<_> = (0..3).map(|_| job(&mut state, "")).collect();
        assert_eq!(popped(&mut state, 2).as_deref(), Some(""));
        assert_eq!(popped(&mut state, 2).as_deref(), Some(""));
        assert_eq!(popped(&mut state, 2), None);
    }
}
