//! The limits the engine checks from inside a running script: the vendored boa calls the
//! sandbox's host hooks (`engine::SandboxHooks`) every few thousand steps of a native loop and
//! before allocating a size the script chose, and the vendored `regress` calls
//! [`regex_check`] while it backtracks (`vendor/README.md`).
//!
//! While an execution runs, its deadline and memory cap are kept per thread ([`begin`]); the
//! first limit a check finds is recorded ([`take_hit`]) and the engine is stopped with an error
//! that scripts cannot catch. The execution then fails with that limit, whatever the script
//! did afterwards.

use std::cell::Cell;

use web_time::Instant;

use super::limits::LimitKind;

/// The limits of the running execution.
#[derive(Debug, Clone, Copy)]
struct Active {
    deadline: Instant,
    memory_baseline: isize,
    memory_cap: u64,
}

thread_local! {
    static ACTIVE: Cell<Option<Active>> = const { Cell::new(None) };
    static HIT: Cell<Option<LimitKind>> = const { Cell::new(None) };
}

/// Checks run while the returned value lives (one execution on this thread).
#[must_use]
pub(super) struct Running(());

impl Drop for Running {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(None));
        let _ = regress::interrupt::take_interrupted();
    }
}

/// Starts the checks of one execution: its deadline, and its memory cap counted from
/// `memory_baseline` live bytes of this thread.
pub(super) fn begin(deadline: Instant, memory_baseline: isize, memory_cap: u64) -> Running {
    HIT.with(|h| h.set(None));
    let _ = regress::interrupt::take_interrupted();
    ACTIVE.with(|a| {
        a.set(Some(Active {
            deadline,
            memory_baseline,
            memory_cap,
        }));
    });
    regress::interrupt::set_check(Some(regex_check));
    Running(())
}

/// The limit a check of this execution found, if any (cleared by reading it).
pub(super) fn take_hit() -> Option<LimitKind> {
    HIT.with(Cell::take)
}

fn record(kind: LimitKind) -> LimitKind {
    HIT.with(|h| {
        if h.get().is_none() {
            h.set(Some(kind));
        }
        h.get().unwrap_or(kind)
    })
}

fn memory_used(active: &Active) -> u64 {
    let used = super::memory::live_bytes().saturating_sub(active.memory_baseline);
    u64::try_from(used).unwrap_or(0)
}

/// Checks the deadline and the memory cap of the running execution (none: nothing to check).
pub(super) fn check() -> Result<(), LimitKind> {
    let Some(active) = ACTIVE.with(Cell::get) else {
        return Ok(());
    };
    if let Some(kind) = HIT.with(Cell::get) {
        return Err(kind);
    }
    if Instant::now() >= active.deadline {
        return Err(record(LimitKind::Time));
    }
    if memory_used(&active) > active.memory_cap {
        return Err(record(LimitKind::Memory));
    }
    Ok(())
}

/// Whether `bytes` more would still fit under the running execution's memory cap.
pub(super) fn ensure_can_allocate(bytes: u64) -> Result<(), LimitKind> {
    let Some(active) = ACTIVE.with(Cell::get) else {
        return Ok(());
    };
    if memory_used(&active).saturating_add(bytes) > active.memory_cap {
        return Err(record(LimitKind::Memory));
    }
    Ok(())
}

/// The check `regress` runs while it backtracks: `true` stops the match.
fn regex_check() -> bool {
    check().is_err()
}
