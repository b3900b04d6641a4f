//! A way for an embedder to stop a long match (jobgraph patch).
//!
//! Catastrophic backtracking (`/^(a+)+$/` on 40 `a`s and a `b`) runs for hours inside one call
//! of the matcher. With the `std` feature, an embedder registers a check per thread
//! ([`set_check`]); the backtracking matcher calls it every [`INTERVAL`] backtracking steps and
//! start positions, and once it returns `true` every match in progress on that thread fails
//! at once (no match) and [`take_interrupted`] returns `true` until it is read. The embedder
//! must call it after every match and treat `true` as an error, not as "no match".

use core::cell::Cell;

/// Backtracking steps and start positions between two calls of the check.
pub const INTERVAL: u32 = 1 << 16;

std::thread_local! {
    static CHECK: Cell<Option<fn() -> bool>> = const { Cell::new(None) };
    static COUNTDOWN: Cell<u32> = const { Cell::new(INTERVAL) };
    static INTERRUPTED: Cell<bool> = const { Cell::new(false) };
}

/// Registers the check of the current thread (`None`: never stop, the default).
pub fn set_check(check: Option<fn() -> bool>) {
    CHECK.with(|c| c.set(check));
    COUNTDOWN.with(|c| c.set(INTERVAL));
}

/// Whether a match on this thread was stopped since the last call; clears the flag.
pub fn take_interrupted() -> bool {
    INTERRUPTED.with(|i| i.replace(false))
}

/// Counts one step; `true`: stop matching now.
#[inline]
pub(crate) fn step() -> bool {
    let left = COUNTDOWN.with(|c| {
        let left = c.get().wrapping_sub(1);
        c.set(left);
        left
    });
    if left == 0 {
        return check_now();
    }
    INTERRUPTED.with(Cell::get)
}

#[cold]
#[inline(never)]
fn check_now() -> bool {
    COUNTDOWN.with(|c| c.set(INTERVAL));
    if INTERRUPTED.with(Cell::get) {
        return true;
    }
    let stop = CHECK.with(Cell::get).is_some_and(|check| check());
    if stop {
        INTERRUPTED.with(|i| i.set(true));
    }
    stop
}
