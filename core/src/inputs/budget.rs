//! The time a validation's regular expressions may take: `pattern` and `patternProperties` are
//! matched by regress, a backtracking engine, and a hostile pattern (`^(a|a)*$`) or a hostile
//! value can make one match run for hours. While a [`Budget`] is active on a thread, the
//! vendored regress asks it every 65 536 backtracking steps whether to stop (the same
//! interruptible matcher scripts' `RegExp` uses); a stopped match is recorded ([`take_stop`])
//! and every later match of that validation fails at once, so the validation ends quickly and
//! the caller reports the limit instead of its result.

use std::cell::{Cell, RefCell};

use web_time::Instant;

use crate::sandbox::{LimitHit, LimitKind, Limits};

/// Until when the regular expressions of one validation may run, and the limit that says so.
#[derive(Debug, Clone, Copy)]
pub struct MatchBudget {
    /// When matching stops.
    pub deadline: Instant,
    /// The limit reported when it does: `Time` (`timeoutMs`) or `ResolutionTime`.
    pub limit: LimitHit,
}

impl MatchBudget {
    /// `limits.timeout_ms` from now, cut to `resolution_deadline` when that comes first (then
    /// the resolution's time limit is the one reported).
    pub fn new(limits: &Limits, resolution_deadline: Option<Instant>) -> Self {
        let own = Instant::now() + std::time::Duration::from_millis(limits.timeout_ms);
        match resolution_deadline {
            Some(end) if end < own => MatchBudget {
                deadline: end,
                limit: limits.hit(LimitKind::ResolutionTime),
            },
            _ => MatchBudget {
                deadline: own,
                limit: limits.hit(LimitKind::Time),
            },
        }
    }
}

/// A match that was stopped: its pattern and the text it was matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stop {
    pub pattern: String,
    pub text: String,
}

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static STOPPED: RefCell<Option<Stop>> = const { RefCell::new(None) };
}

/// The budget of one validation on this thread, active while the value lives.
#[must_use]
pub(crate) struct Active(());

impl Drop for Active {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
        regress::interrupt::set_check(None);
        let _ = regress::interrupt::take_interrupted();
    }
}

/// Starts counting: matches on this thread stop at `deadline`.
pub(crate) fn begin(deadline: Instant) -> Active {
    STOPPED.with(|s| s.borrow_mut().take());
    let _ = regress::interrupt::take_interrupted();
    DEADLINE.with(|d| d.set(Some(deadline)));
    regress::interrupt::set_check(Some(past_deadline));
    Active(())
}

fn past_deadline() -> bool {
    DEADLINE
        .with(Cell::get)
        .is_some_and(|d| Instant::now() >= d)
}

/// Whether a match of the running validation was stopped (later matches fail at once).
pub(super) fn stopped() -> bool {
    STOPPED.with(|s| s.borrow().is_some())
}

/// Records the match that regress stopped.
pub(super) fn record(pattern: &str, text: &str) {
    STOPPED.with(|s| {
        s.borrow_mut().get_or_insert_with(|| Stop {
            pattern: pattern.to_owned(),
            text: text.to_owned(),
        });
    });
}

/// The stopped match of the validation that just ran, if any (cleared by reading it).
pub(super) fn take_stop() -> Option<Stop> {
    STOPPED.with(|s| s.borrow_mut().take())
}
