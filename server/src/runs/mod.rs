//! What the runner shares with the rest of the service, without depending on it: its
//! settings (`runner` in `--config`), the runs this replica drives with their counters
//! ([`status`]) and live taps ([`tap`]), and the signals that wake the runner
//! (`crate::runner` drives the runs; the handlers read them here).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use tokio::sync::Notify;

pub(crate) mod partitions;
pub(crate) mod status;
pub(crate) mod tap;

/// How the runner works (`runner` in `--config`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RunnerConfig {
    /// Whether this replica runs jobs at all. Default true.
    pub enabled: bool,
    /// How often the runner looks for runs to claim, in ms (it also looks at once when a job
    /// is created or changed on this replica). Default 1000.
    pub poll_ms: u64,
    /// How long a claimed run stays owned without a renewal, in ms: a dead replica's runs are
    /// taken over after this (and at most `pollMs` more). Default 8000.
    pub lease_ms: u64,
    /// How often an owner renews its leases (and reads whether to stop, retire or end), in
    /// ms. Default 2000.
    pub renew_ms: u64,
    /// A checkpoint at least this often while events flow, in ms: the sinks' files become
    /// visible to queries then. Default 5000.
    pub checkpoint_ms: u64,
    /// A checkpoint after this many events read, whichever comes first. Default 100 000.
    pub checkpoint_events: u64,
    /// Events the engine takes at a time. Default 8192.
    pub batch_events: usize,
    /// Runs one organization may have on this replica at once (the others wait their turn,
    /// `PENDING`). Default 20.
    pub jobs_per_organization: usize,
    /// Runs on this replica at once, every organization together. Default 200.
    pub max_jobs: usize,
    /// Batches one organization's runs may have in the engine at once on this replica (the
    /// others wait their turn), so that one organization's pipelines cannot take another's
    /// share of the cores. 0: half the cores (at least 1). Default 0.
    pub engine_threads_per_organization: usize,
    /// A source with nothing new looks again after this long, in ms (at once when this
    /// replica commits to its dataset). Default 1000.
    pub idle_poll_ms: u64,
    /// A stream that read nothing for this long, in ms, closes its reducers' open windows
    /// (their summaries go out, as at the end of an input). Default 60 000.
    pub idle_close_ms: u64,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        RunnerConfig {
            enabled: true,
            poll_ms: 1000,
            lease_ms: 8000,
            renew_ms: 2000,
            checkpoint_ms: 5000,
            checkpoint_events: 100_000,
            batch_events: 8192,
            jobs_per_organization: 20,
            max_jobs: 200,
            engine_threads_per_organization: 0,
            idle_poll_ms: 1000,
            idle_close_ms: 60_000,
        }
    }
}

/// A run this replica drives, as the registry knows it.
#[derive(Debug, Clone)]
pub(crate) struct Driven {
    pub organization: String,
    /// Its counters, updated after every batch.
    pub status: Arc<Mutex<status::RunStatus>>,
    /// Its live taps.
    pub taps: Arc<tap::Taps>,
    /// Wakes it to renew its lease at once: its job changed on this replica.
    pub poked: Arc<Notify>,
}

impl RunnerConfig {
    /// Batches one organization may have in the engine at once.
    pub(crate) fn engine_threads(&self) -> usize {
        match self.engine_threads_per_organization {
            0 => std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
            n => n,
        }
    }
}

/// A run (a shard of one) driven here: its job, version and shard.
pub(crate) type RunKey = (String, u64, u32);

/// What the runner shares with the handlers: the runs it drives, and the signals that wake it.
#[derive(Debug, Default)]
pub(crate) struct Runs {
    driven: Mutex<HashMap<RunKey, Driven>>,
    /// Per organization, its places in the engine.
    engine: Mutex<HashMap<String, Arc<tokio::sync::Semaphore>>>,
    /// Wakes the runner: a job was created or changed here.
    pub wake: Notify,
    /// Wakes the streaming sources: something was committed to the lake here.
    pub committed: Notify,
}

impl Runs {
    /// The runs driven here, with their counters.
    pub(crate) fn driven(&self) -> Vec<(RunKey, Driven)> {
        self.driven
            .lock()
            .map(|d| d.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    /// A tap of up to `limit` events passing `vertex` in the newest version of `job_id` this
    /// replica drives (`None`: it drives none).
    pub(crate) fn tap(
        &self,
        job_id: &str,
        vertex: &str,
        limit: usize,
    ) -> Option<(u64, tap::TapReceiver)> {
        let driven = self.driven.lock().ok()?;
        let (version, run) = driven
            .iter()
            .filter(|((job, _, _), _)| job == job_id)
            .map(|((_, version, _), run)| (*version, run))
            .max_by_key(|(version, _)| *version)?;
        Some((version, run.taps.add(vertex, limit)))
    }

    /// A place in the engine for one batch of `organization`'s (waits while it has `places`
    /// batches in the engine already).
    pub(crate) async fn engine_place(
        &self,
        organization: &str,
        places: usize,
    ) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let semaphore = {
            let mut engine = self.engine.lock().ok()?;
            Arc::clone(
                engine
                    .entry(organization.to_owned())
                    .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(places.max(1)))),
            )
        };
        semaphore.acquire_owned().await.ok()
    }

    /// Tells the runs of `job_id` driven here that the job changed (a new version, a stop, a
    /// deletion): they renew their lease at once and learn it.
    pub(crate) fn poke(&self, job_id: &str) {
        if let Ok(driven) = self.driven.lock() {
            for ((job, _, _), run) in driven.iter() {
                if job == job_id {
                    run.poked.notify_one();
                }
            }
        }
    }

    /// Whether another shard of the run `key` is driven here.
    pub(crate) fn drives_a_sibling(&self, key: &RunKey) -> bool {
        self.driven
            .lock()
            .map(|d| {
                d.keys().any(|(job, version, shard)| {
                    job == &key.0 && *version == key.1 && *shard != key.2
                })
            })
            .unwrap_or(true)
    }

    pub(crate) fn count(&self, organization: &str) -> (usize, usize) {
        self.driven
            .lock()
            .map(|d| {
                (
                    d.len(),
                    d.values()
                        .filter(|r| r.organization == organization)
                        .count(),
                )
            })
            .unwrap_or((usize::MAX, usize::MAX))
    }

    pub(crate) fn contains(&self, key: &RunKey) -> bool {
        self.driven
            .lock()
            .map(|d| d.contains_key(key))
            .unwrap_or(true)
    }

    pub(crate) fn insert(&self, key: RunKey, driven: Driven) {
        if let Ok(mut d) = self.driven.lock() {
            d.insert(key, driven);
        }
    }

    pub(crate) fn remove(&self, key: &RunKey) {
        if let Ok(mut d) = self.driven.lock() {
            d.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// One organization's batches wait for its places; another's do not wait for them.
    #[tokio::test]
    async fn an_organization_has_its_own_places_in_the_engine() {
        let runs = Runs::default();
        let a1 = runs.engine_place("a", 2).await.unwrap();
        let _a2 = runs.engine_place("a", 2).await.unwrap();
        let third = tokio::time::timeout(Duration::from_millis(50), runs.engine_place("a", 2));
        assert!(third.await.is_err(), "a third batch of `a` waits");
        let other = tokio::time::timeout(Duration::from_millis(50), runs.engine_place("b", 2));
        assert!(other.await.is_ok(), "`b` does not wait for `a`");
        drop(a1);
        let freed = tokio::time::timeout(Duration::from_millis(50), runs.engine_place("a", 2));
        assert!(freed.await.is_ok(), "a place freed is taken");
    }
}
