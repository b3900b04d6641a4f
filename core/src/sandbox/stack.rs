//! The stack scripts run on.
//!
//! boa recurses natively (its parser, some built-ins), so scripts run on a stack of
//! [`SCRIPT_STACK_BYTES`] with a guard page below it: anything the nesting and recursion
//! limits let through fits, and an overflow faults on the guard page instead of writing over
//! other memory. Natively on Unix, one such stack is mapped per thread the first time a script
//! runs there, and reused by every later script of that thread (`psm` switches to it and back):
//! a new segment per execution (what `stacker` does) cost ~200 µs, mostly page faults on the
//! fresh pages. Where that is not available, `stacker` provides a fresh guarded segment per
//! execution. In wasm, scripts run on the module's own shadow stack (see
//! [`on_script_stack`]).
//!
//! The vendored boa stops recursion in built-ins, calls and internal methods (`String` of an
//! array nested 100 000 deep, a proxy chain) with an uncatchable error once the stack gets
//! within [`STACK_MARGIN`] of the end of this stack: [`native_stack_limit`] is that address,
//! for the stack the calling thread's script runs on now.

/// Stack left below [`native_stack_limit`] for the frames between two of the engine's checks
/// (and for reading the result and reporting the error).
#[cfg(not(target_family = "wasm"))]
const STACK_MARGIN: usize = 4 * 1024 * 1024;
/// In wasm only address-taken locals live on the shadow stack: frames are small.
#[cfg(target_family = "wasm")]
const STACK_MARGIN: usize = 1024 * 1024;

/// The wasm build's shadow stack (`-zstack-size` in `.cargo/config.toml`).
#[cfg(target_family = "wasm")]
const WASM_STACK_BYTES: usize = 16 * 1024 * 1024;

thread_local! {
    /// See [`native_stack_limit`]; 0 outside [`on_script_stack`].
    static LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The lowest stack address a script running on this thread now may reach (the stack grows
/// down), for boa's `RuntimeLimits::set_native_stack_limit`; 0: unknown (no limit).
pub(super) fn native_stack_limit() -> usize {
    LIMIT.with(std::cell::Cell::get)
}

/// An address in the caller's stack frame.
#[inline(always)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&raw const marker) as usize
}

/// Runs `f` with [`native_stack_limit`] set to `limit`, and the parser's stack floor set for
/// it ([`parser_floor`]).
fn with_limit<T>(limit: usize, f: impl FnOnce() -> T) -> T {
    use boa_engine::parser::parser::nesting::set_stack_floor;
    let outer = LIMIT.with(|l| l.replace(limit));
    set_stack_floor(parser_floor(limit));
    let value = f();
    LIMIT.with(|l| l.set(outer));
    set_stack_floor(parser_floor(outer));
    value
}

/// The lowest address the parser may reach for a script whose stack limit is `limit`: half the
/// script stack above it, natively. The nesting limit bounds the tree's depth, but productions
/// cost different native stack per level (several KiB in a debug build): a source that would
/// need more fails with the nesting error, and the compiler, which walks the same tree, still
/// has the other half. 0 (no check) without a limit and in wasm, where parser frames are not
/// on the stack that addresses measure.
#[cfg(not(target_family = "wasm"))]
fn parser_floor(limit: usize) -> usize {
    if limit == 0 {
        0
    } else {
        limit.saturating_add(SCRIPT_STACK_BYTES / 2)
    }
}

#[cfg(target_family = "wasm")]
fn parser_floor(_limit: usize) -> usize {
    0
}

/// Stack on which scripts are parsed, compiled and run (~100 KiB per nesting level in debug
/// builds). Reserved, not committed: only what is used costs memory.
#[cfg(not(target_family = "wasm"))]
const SCRIPT_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `f` on the thread's script stack, on the calling thread.
#[cfg(all(unix, not(target_family = "wasm")))]
pub(super) fn on_script_stack<T>(f: impl FnOnce() -> T) -> T {
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
    if ON_SCRIPT_STACK.with(std::cell::Cell::get) {
        return f();
    }
    let Some((base, size)) = THREAD_STACK.with(|stack| {
        let mut stack = stack.borrow_mut();
        if stack.is_none() {
            *stack = GuardedStack::map(SCRIPT_STACK_BYTES);
        }
        stack.as_ref().map(GuardedStack::usable)
    }) else {
        // Mapping failed (address space exhausted): a fresh segment, as before.
        return on_stacker_segment(f);
    };
    ON_SCRIPT_STACK.with(|on| on.set(true));
    let mut outcome = None;
    // SAFETY: `base`/`size` describe a live, page-aligned, read-write mapping owned by this
    // thread (freed only when the thread ends, never while on it: `ON_SCRIPT_STACK` keeps
    // nested calls off it); the callback does not unwind (panics are caught and resumed after
    // the switch back).
    unsafe {
        psm::on_stack(base, size, || {
            let limit = (base as usize).saturating_add(STACK_MARGIN);
            outcome = Some(catch_unwind(AssertUnwindSafe(|| with_limit(limit, f))));
        });
    }
    ON_SCRIPT_STACK.with(|on| on.set(false));
    match outcome {
        Some(Ok(value)) => value,
        Some(Err(panic)) => resume_unwind(panic),
        None => resume_unwind(Box::new("the script stack's callback did not run")),
    }
}

#[cfg(all(unix, not(target_family = "wasm")))]
thread_local! {
    static THREAD_STACK: std::cell::RefCell<Option<GuardedStack>> =
        const { std::cell::RefCell::new(None) };
    static ON_SCRIPT_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An anonymous mapping with its lowest page (for a stack that grows down) made inaccessible.
#[cfg(all(unix, not(target_family = "wasm")))]
struct GuardedStack {
    mapping: *mut u8,
    len: usize,
    page: usize,
}

#[cfg(all(unix, not(target_family = "wasm")))]
impl GuardedStack {
    fn map(size: usize) -> Option<GuardedStack> {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        let len = size.checked_add(2 * page)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choice; the
        // result is checked.
        let mapping = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANON | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if mapping == libc::MAP_FAILED {
            return None;
        }
        let stack = GuardedStack {
            mapping: mapping.cast(),
            len,
            page,
        };
        // Guard pages at both ends, whichever way the stack grows.
        let high = stack.mapping.wrapping_add(len - page);
        // SAFETY: both ranges are whole pages inside the mapping made above.
        let guarded = unsafe {
            libc::mprotect(stack.mapping.cast(), page, libc::PROT_NONE) == 0
                && libc::mprotect(high.cast(), page, libc::PROT_NONE) == 0
        };
        guarded.then_some(stack)
    }

    /// The usable range between the guard pages: base address and size.
    fn usable(&self) -> (*mut u8, usize) {
        (
            self.mapping.wrapping_add(self.page),
            self.len - 2 * self.page,
        )
    }
}

#[cfg(all(unix, not(target_family = "wasm")))]
impl Drop for GuardedStack {
    fn drop(&mut self) {
        // SAFETY: the mapping was made by `map` with this length and is no longer in use
        // (dropped at thread exit, off the script stack).
        unsafe {
            libc::munmap(self.mapping.cast(), self.len);
        }
    }
}

/// Runs `f` on a fresh guarded segment of [`SCRIPT_STACK_BYTES`] (`stacker`).
#[cfg(all(not(unix), not(target_family = "wasm")))]
pub(super) fn on_script_stack<T>(f: impl FnOnce() -> T) -> T {
    on_stacker_segment(f)
}

/// Runs `f` on a fresh guarded segment of [`SCRIPT_STACK_BYTES`] (`stacker`), with the limit
/// [`STACK_MARGIN`] above its end.
#[cfg(not(target_family = "wasm"))]
fn on_stacker_segment<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(SCRIPT_STACK_BYTES / 2, SCRIPT_STACK_BYTES, || {
        let limit = stacker::remaining_stack().map_or(0, |left| {
            stack_position()
                .saturating_sub(left)
                .saturating_add(STACK_MARGIN)
        });
        with_limit(limit, f)
    })
}

/// In wasm, `f` runs on the module's own shadow stack (16 MiB, placed first in linear memory,
/// so exhausting it traps). `stacker` would work there too, but its segment would be a heap
/// block without a guard page: an overflow would silently overwrite the heap below it (found
/// by the wasmtime evaluation).
/// The limit is [`STACK_MARGIN`] above the bottom of that stack (at address 0 when it is placed
/// first, as rustc's wasm targets do).
#[cfg(target_family = "wasm")]
pub(super) fn on_script_stack<T>(f: impl FnOnce() -> T) -> T {
    if native_stack_limit() != 0 {
        return f();
    }
    let bottom = stack_position().saturating_sub(WASM_STACK_BYTES);
    with_limit(bottom.saturating_add(STACK_MARGIN), f)
}
