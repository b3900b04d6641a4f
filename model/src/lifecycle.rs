//! The public job lifecycle (issue 38, docs/plans/job-runner.md §5): the states a job version
//! is in, and which step takes it from one to the next. The runner and the job endpoints ask
//! [`next`] instead of writing states by hand, so a state no documented path reaches is never
//! stored.
//!
//! - A **streaming** job (a pipeline): `PENDING` until a runner claims it, `STARTING`,
//!   `RUNNING`; asked to stop: `STOPPING` (its last checkpoint), `STOPPED`; asked to run again:
//!   `PENDING`, resuming from that checkpoint. Replaced by a newer version: `FINISHED`.
//! - A **batch** job (asynchronous, a backfill): `PENDING`, `STARTING`, `RUNNING`, then
//!   `FINISHED` when its input is read; it is not stopped, updated or deleted while it runs.
//! - Either: `FAILED` when it cannot start or fails while processing; `CANCELLED` when a
//!   batch job is cancelled before it ends.
//!
//! ```
//! use jobgraph_model::lifecycle::{JobState, Processing, Step, next};
//!
//! let s = next(Processing::Streaming, JobState::Pending, Step::Claim).unwrap();
//! let s = next(Processing::Streaming, s, Step::Start).unwrap();
//! assert_eq!(s, JobState::Running);
//! let s = next(Processing::Streaming, s, Step::AskStop).unwrap();
//! assert_eq!(next(Processing::Streaming, s, Step::Stop).unwrap(), JobState::Stopped);
//! let refused = next(Processing::Batch, JobState::Running, Step::AskStop).unwrap_err();
//! assert!(refused.to_string().contains("a batch job"));
//! ```

use std::fmt;
use std::str::FromStr;

/// A job version's state, as the public service names them (wire notes, "Job lifecycle").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JobState {
    /// Stored, not yet queued (the public service's first state; ours starts at `Pending`).
    Created,
    /// Waiting for a runner.
    Pending,
    /// Claimed by a runner: compiling the graph, opening its sources at their positions.
    Starting,
    /// Processing.
    Running,
    /// Asked to stop: writing its last checkpoint.
    Stopping,
    /// Stopped at a checkpoint; runs again from there when asked.
    Stopped,
    /// The public service's state while a new version deploys (ours keeps both versions'
    /// own states instead: the old one `Finished`, the new one `Pending`…).
    Updating,
    /// The public service's state while a rollback deploys (same remark).
    RollingBack,
    /// Ended: a batch job read all its input, or a version was replaced or deleted.
    Finished,
    /// Ended: it could not start, or failed while processing (the job says why).
    Failed,
    /// Ended: a batch job cancelled before it finished.
    Cancelled,
    /// Ended and deleted (the public service's; ours answers 404 for a deleted job).
    Deleted,
}

/// Every state, in the order above.
pub const STATES: [JobState; 12] = [
    JobState::Created,
    JobState::Pending,
    JobState::Starting,
    JobState::Running,
    JobState::Stopping,
    JobState::Stopped,
    JobState::Updating,
    JobState::RollingBack,
    JobState::Finished,
    JobState::Failed,
    JobState::Cancelled,
    JobState::Deleted,
];

impl JobState {
    /// Its wire name (`RUNNING`, `ROLLING_BACK`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Created => "CREATED",
            JobState::Pending => "PENDING",
            JobState::Starting => "STARTING",
            JobState::Running => "RUNNING",
            JobState::Stopping => "STOPPING",
            JobState::Stopped => "STOPPED",
            JobState::Updating => "UPDATING",
            JobState::RollingBack => "ROLLING_BACK",
            JobState::Finished => "FINISHED",
            JobState::Failed => "FAILED",
            JobState::Cancelled => "CANCELLED",
            JobState::Deleted => "DELETED",
        }
    }

    /// Whether nothing follows it: `FINISHED`, `FAILED`, `CANCELLED`, `DELETED`.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            JobState::Finished | JobState::Failed | JobState::Cancelled | JobState::Deleted
        )
    }

    /// Whether a runner holds it (it has a lease to renew): `STARTING`, `RUNNING`, `STOPPING`.
    pub fn is_owned(self) -> bool {
        matches!(
            self,
            JobState::Starting | JobState::Running | JobState::Stopping
        )
    }
}

impl fmt::Display for JobState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no job state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown job state {0:?}: expected one of CREATED, PENDING, STARTING, RUNNING, STOPPING, STOPPED, UPDATING, ROLLING_BACK, FINISHED, FAILED, CANCELLED, DELETED"
)]
pub struct UnknownState(pub String);

impl FromStr for JobState {
    type Err = UnknownState;

    fn from_str(name: &str) -> Result<Self, UnknownState> {
        STATES
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| UnknownState(name.to_owned()))
    }
}

/// How a job processes its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Processing {
    /// A pipeline: runs until stopped, replaced or deleted.
    Streaming,
    /// A backfill: runs until its input is read.
    Batch,
}

impl Processing {
    fn noun(self) -> &'static str {
        match self {
            Processing::Streaming => "a streaming job",
            Processing::Batch => "a batch job",
        }
    }
}

/// What happens to a job version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A runner takes it (its lease): `PENDING` → `STARTING`.
    Claim,
    /// Its graph compiled and its sources opened: `STARTING` → `RUNNING`.
    Start,
    /// It could not start, or failed while processing: → `FAILED`.
    Fail,
    /// `desiredState: STOPPED` (streaming): `RUNNING`/`STARTING` → `STOPPING`; a version never
    /// claimed stops at once (`PENDING` → `STOPPED`).
    AskStop,
    /// Its last checkpoint is written: `STOPPING` → `STOPPED`.
    Stop,
    /// `desiredState: RUNNING` again (streaming): `STOPPED` → `PENDING`.
    AskRun,
    /// A newer version took over, or the job is deleted: a version not ended → `FINISHED`
    /// (a running one first checkpoints; the runner retires it from `STOPPING`).
    Retire,
    /// A batch job read all its input: `RUNNING` → `FINISHED`.
    Complete,
    /// A batch job cancelled before it ended: → `CANCELLED`.
    Cancel,
}

impl Step {
    fn verb(self) -> &'static str {
        match self {
            Step::Claim => "be claimed by a runner",
            Step::Start => "start",
            Step::Fail => "fail",
            Step::AskStop => "be stopped",
            Step::Stop => "finish stopping",
            Step::AskRun => "be run again",
            Step::Retire => "be retired",
            Step::Complete => "complete",
            Step::Cancel => "be cancelled",
        }
    }
}

/// A step the lifecycle does not allow from a state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{noun} in state {from} cannot {verb}{hint}")]
pub struct Refused {
    noun: &'static str,
    /// The state it is in.
    pub from: JobState,
    /// The step asked.
    pub step: Step,
    verb: &'static str,
    hint: &'static str,
}

/// The state after `step` from `from`, or why the lifecycle refuses it.
pub fn next(processing: Processing, from: JobState, step: Step) -> Result<JobState, Refused> {
    use JobState as S;
    use Step as T;
    let streaming = processing == Processing::Streaming;
    let to = match (from, step) {
        (S::Created | S::Pending, T::Claim) => Some(S::Starting),
        (S::Starting, T::Start) => Some(S::Running),
        (S::Starting | S::Running | S::Stopping, T::Fail) => Some(S::Failed),
        (S::Created | S::Pending, T::AskStop) if streaming => Some(S::Stopped),
        (S::Starting | S::Running, T::AskStop) if streaming => Some(S::Stopping),
        (S::Stopping | S::Stopped, T::AskStop) if streaming => Some(from),
        (S::Stopping, T::Stop) if streaming => Some(S::Stopped),
        (S::Stopped, T::AskRun) if streaming => Some(S::Pending),
        (S::Pending | S::Starting | S::Running | S::Stopping, T::AskRun) if streaming => Some(from),
        (S::Created | S::Pending | S::Stopping | S::Stopped, T::Retire) if streaming => {
            Some(S::Finished)
        }
        (S::Created | S::Pending, T::Retire) => Some(S::Finished),
        (S::Running, T::Complete) if !streaming => Some(S::Finished),
        (S::Created | S::Pending | S::Starting | S::Running, T::Cancel) if !streaming => {
            Some(S::Cancelled)
        }
        _ => None,
    };
    to.ok_or(Refused {
        noun: processing.noun(),
        from,
        step,
        verb: step.verb(),
        hint: hint(processing, from, step),
    })
}

/// How to get what was asked, where the lifecycle knows one.
fn hint(processing: Processing, from: JobState, step: Step) -> &'static str {
    match (processing, step) {
        _ if from.is_terminal() => ": it has ended; create a new job (or a new version)",
        (Processing::Batch, Step::AskStop | Step::AskRun | Step::Retire) => {
            ": a batch job runs until its input is read; wait for it to end, or cancel it"
        }
        (Processing::Streaming, Step::Retire) => ": stop it first (desiredState STOPPED)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_back_from_its_wire_name() {
        for state in STATES {
            assert_eq!(state.as_str().parse::<JobState>(), Ok(state));
            assert_eq!(state.to_string(), state.as_str());
        }
        let unknown = "running".parse::<JobState>().unwrap_err();
        assert!(unknown.to_string().contains("\"running\""));
        assert!(unknown.to_string().contains("RUNNING"));
    }

    #[test]
    fn a_pipeline_runs_stops_resumes_and_retires() {
        let p = Processing::Streaming;
        let walk = [
            (Step::Claim, JobState::Starting),
            (Step::Start, JobState::Running),
            (Step::AskStop, JobState::Stopping),
            (Step::AskStop, JobState::Stopping),
            (Step::Stop, JobState::Stopped),
            (Step::AskRun, JobState::Pending),
            (Step::Claim, JobState::Starting),
            (Step::Start, JobState::Running),
            (Step::AskStop, JobState::Stopping),
            (Step::Retire, JobState::Finished),
        ];
        let mut state = JobState::Pending;
        for (step, expected) in walk {
            state = next(p, state, step).unwrap();
            assert_eq!(state, expected, "after {step:?}");
        }
        assert!(state.is_terminal());
    }

    #[test]
    fn a_backfill_runs_to_its_end_and_cannot_be_stopped_or_retired_while_it_runs() {
        let b = Processing::Batch;
        let running = [Step::Claim, Step::Start]
            .into_iter()
            .try_fold(JobState::Pending, |s, step| next(b, s, step))
            .unwrap();
        assert_eq!(running, JobState::Running);
        for step in [Step::AskStop, Step::AskRun, Step::Retire] {
            let refused = next(b, running, step).unwrap_err();
            assert_eq!(refused.from, JobState::Running);
            let message = refused.to_string();
            assert!(
                message.starts_with("a batch job in state RUNNING cannot"),
                "{message}"
            );
            assert!(
                message.contains("wait for it to end, or cancel it"),
                "{message}"
            );
        }
        assert_eq!(next(b, running, Step::Complete), Ok(JobState::Finished));
        assert_eq!(next(b, running, Step::Cancel), Ok(JobState::Cancelled));
        assert_eq!(next(b, running, Step::Fail), Ok(JobState::Failed));
        // Never started: retired (its job deleted) or cancelled at once.
        assert_eq!(
            next(b, JobState::Pending, Step::Retire),
            Ok(JobState::Finished)
        );
    }

    #[test]
    fn ended_states_accept_no_step_and_say_so() {
        for processing in [Processing::Streaming, Processing::Batch] {
            for from in STATES.into_iter().filter(|s| s.is_terminal()) {
                for step in [
                    Step::Claim,
                    Step::Start,
                    Step::Fail,
                    Step::AskStop,
                    Step::Stop,
                    Step::AskRun,
                    Step::Retire,
                    Step::Complete,
                    Step::Cancel,
                ] {
                    let refused = next(processing, from, step).unwrap_err();
                    assert!(
                        refused
                            .to_string()
                            .ends_with("it has ended; create a new job (or a new version)"),
                        "{refused}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pipeline_is_retired_only_once_it_is_not_processing() {
        let p = Processing::Streaming;
        for from in [JobState::Starting, JobState::Running] {
            let refused = next(p, from, Step::Retire).unwrap_err();
            assert!(refused.to_string().contains("stop it first"), "{refused}");
        }
        for from in [JobState::Pending, JobState::Stopping, JobState::Stopped] {
            assert_eq!(next(p, from, Step::Retire), Ok(JobState::Finished));
        }
        // A pipeline never claimed stops at once; a batch step is no pipeline's.
        assert_eq!(
            next(p, JobState::Pending, Step::AskStop),
            Ok(JobState::Stopped)
        );
        assert!(next(p, JobState::Running, Step::Complete).is_err());
        assert!(next(p, JobState::Running, Step::Cancel).is_err());
    }

    #[test]
    fn only_claimed_states_are_owned() {
        let owned: Vec<JobState> = STATES.into_iter().filter(|s| s.is_owned()).collect();
        assert_eq!(
            owned,
            [JobState::Starting, JobState::Running, JobState::Stopping]
        );
    }
}
