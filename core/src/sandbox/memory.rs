//! Memory accounting for the script sandbox's allocation cap.
//!
//! A library cannot choose the program's allocator, so the cap works in two halves: the program
//! installs [`CountingAllocator`] around the allocator it wants, and the sandbox reads how many
//! bytes are live on the current thread ([`live_bytes`]) between budgeted slices of script
//! execution. Without the counting allocator the counters stay at zero and the cap is never hit
//! ([`is_metered`] tells which).
//!
//! ```
//! use jobgraph_core::memory::CountingAllocator;
//! #[global_allocator]
//! static ALLOCATOR: CountingAllocator<std::alloc::System> = CountingAllocator::new(std::alloc::System);
//! # fn main() {
//! let before = jobgraph_core::memory::live_bytes();
//! let block = vec![0u8; 1 << 20];
//! assert!(jobgraph_core::memory::live_bytes() >= before + (1 << 20));
//! assert!(jobgraph_core::memory::is_metered());
//! drop(block);
//! # }
//! ```
//!
//! Counting is per thread (a script runs on one thread; boa's objects are not `Send`): bytes
//! freed on another thread than the one that allocated them skew both threads' counts, which is
//! harmless for the sandbox, whose allocations live and die on its thread.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread (can go negative, see the module doc).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// Highest value of `LIVE` since the last [`reset_peak`].
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Set once this thread has allocated through a [`CountingAllocator`].
    static METERED: Cell<bool> = const { Cell::new(false) };
    /// Live bytes past which this thread's allocations fail (see [`set_ceiling`]).
    static CEILING: Cell<isize> = const { Cell::new(isize::MAX) };
    /// Set when an allocation failed at the ceiling, cleared by [`set_ceiling`].
    static CEILING_HIT: Cell<bool> = const { Cell::new(false) };
}

/// A [`GlobalAlloc`] that forwards to `A` and counts live bytes per thread.
///
/// Costs two thread-local updates per allocation.
#[derive(Debug, Default)]
pub struct CountingAllocator<A>(A);

impl<A> CountingAllocator<A> {
    /// Wraps `inner`.
    pub const fn new(inner: A) -> Self {
        CountingAllocator(inner)
    }
}

fn add(delta: isize) {
    // `try_with`: the thread-locals have no destructors, but be quiet during thread teardown.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

/// Whether `grow` more bytes would take this thread past its [`set_ceiling`].
fn over_ceiling(grow: usize) -> bool {
    let live = LIVE.try_with(Cell::get).unwrap_or(0);
    let ceiling = CEILING.try_with(Cell::get).unwrap_or(isize::MAX);
    let over = live.saturating_add(signed(grow)) > ceiling;
    if over {
        let _ = CEILING_HIT.try_with(|hit| hit.set(true));
    }
    over
}

fn mark_metered() {
    let _ = METERED.try_with(|m| m.set(true));
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to `A` with the same arguments and only updates counters.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if over_ceiling(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as our caller's.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            mark_metered();
            add(signed(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if over_ceiling(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as our caller's.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            mark_metered();
            add(signed(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { self.0.dealloc(ptr, layout) };
        add(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && over_ceiling(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as our caller's.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(signed(new_size) - signed(layout.size()));
        }
        p
    }
}

/// Bytes allocated minus bytes freed by the current thread through a [`CountingAllocator`].
pub fn live_bytes() -> isize {
    LIVE.try_with(Cell::get).unwrap_or(0)
}

/// Highest [`live_bytes`] of the current thread since the last [`reset_peak`].
pub fn peak_bytes() -> isize {
    PEAK.try_with(Cell::get).unwrap_or(0)
}

/// Starts a new peak measurement at the current [`live_bytes`].
pub fn reset_peak() {
    let now = live_bytes();
    let _ = PEAK.try_with(|peak| peak.set(now));
}

/// Whether this thread's allocations are counted, that is whether the program installed a
/// [`CountingAllocator`] (and so whether `Limits::max_memory_bytes` can be enforced).
pub fn is_metered() -> bool {
    METERED.try_with(Cell::get).unwrap_or(false)
}

/// Makes this thread's allocations fail once its [`live_bytes`] would pass `ceiling` (`None`:
/// no ceiling, the default).
///
/// An allocation that fails there aborts the process (Rust's allocation-error handler) unless
/// its caller handles the failure (boa turns a failed `ArrayBuffer` allocation into a
/// `RangeError`: [`ceiling_hit`] tells the two apart from a script's own errors). This is for a
/// process that exists to run one script, such as the SDK's sandbox worker: there it stops a
/// single native call (`new Array(2 ** 32 - 1).fill(0)`) that allocates far past
/// `Limits::max_memory_bytes` before the sandbox's own check between slices of execution can
/// see it. Never set it in a process that serves anything else.
pub fn set_ceiling(ceiling: Option<isize>) {
    let _ = CEILING.try_with(|c| c.set(ceiling.unwrap_or(isize::MAX)));
    let _ = CEILING_HIT.try_with(|hit| hit.set(false));
}

/// Whether an allocation of this thread failed at its [`set_ceiling`] since it was last set.
pub fn ceiling_hit() -> bool {
    CEILING_HIT.try_with(Cell::get).unwrap_or(false)
}
