//! The per-line time limit: while a line is matched, the vendored regress asks every 65 536
//! backtracking steps whether the deadline has passed, and stops every match on the thread
//! once it has (the same interruptible matcher as scripts and `pattern` validation).

use std::cell::Cell;
use std::time::Duration;

use web_time::Instant;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The limit of one line, active while the value lives.
#[must_use]
pub(super) struct Active(());

impl Drop for Active {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
        regress::interrupt::set_check(None);
        let _ = regress::interrupt::take_interrupted();
    }
}

/// Starts the clock: matches on this thread stop `limit` from now.
pub(super) fn begin(limit: Duration) -> Active {
    let _ = regress::interrupt::take_interrupted();
    DEADLINE.with(|d| d.set(Some(Instant::now() + limit)));
    regress::interrupt::set_check(Some(past_deadline));
    Active(())
}

fn past_deadline() -> bool {
    DEADLINE
        .with(Cell::get)
        .is_some_and(|d| Instant::now() >= d)
}

/// Whether the match that just ran was stopped (clears the flag).
pub(super) fn stopped() -> bool {
    regress::interrupt::take_interrupted()
}
