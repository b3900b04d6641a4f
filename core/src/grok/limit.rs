//! The per-line time limit: while a line is matched, the vendored regress asks every 65 536
//! backtracking steps whether the deadline has passed, and stops every match on the thread
//! once it has. The deadline is the one `pattern` validation sets (`crate::inputs`'s budget):
//! the same interruptible matcher scripts use.

use std::time::Duration;

use web_time::Instant;

/// Starts the clock: matches on this thread stop `limit` from now (until the guard drops).
pub(super) fn begin(limit: Duration) -> crate::inputs::DeadlineGuard {
    crate::inputs::begin_deadline(Instant::now() + limit)
}

/// Whether the match that just ran was stopped (clears the flag).
pub(super) fn stopped() -> bool {
    regress::interrupt::take_interrupted()
}
