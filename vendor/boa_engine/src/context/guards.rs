//! Guards that let an embedder stop hostile scripts inside single built-in calls (jobgraph
//! patch; see `vendor/README.md` of the jobgraph repository).
//!
//! - [`Context::check_native_stack`]: recursive built-ins, calls, and internal methods that
//!   forward to another object throw an uncatchable
//!   [`RuntimeLimitError::NativeStack`] once the native stack reaches
//!   [`RuntimeLimits::native_stack_limit`](crate::vm::RuntimeLimits::native_stack_limit),
//!   instead of overflowing it (`String` of an array nested 100 000 deep, a proxy chain, …).
//! - [`Context::interrupt_tick`]: every [`INTERRUPT_INTERVAL`] steps of a native loop (or of
//!   calls and loop iterations in the VM) the host's
//!   [`HostHooks::interrupt`](crate::context::HostHooks::interrupt) decides whether to go on.
//! - [`Context::ensure_can_allocate`]: built-ins that allocate a size the script chose ask
//!   [`HostHooks::ensure_can_allocate`](crate::context::HostHooks::ensure_can_allocate) first.

use boa_string::JsStr;

use crate::{Context, JsResult, error::RuntimeLimitError};

/// Steps between two calls of the host's interrupt hook: a call costs about as much as a few
/// property reads, and a built-in can allocate this many steps' worth past the host's memory
/// cap before the hook sees it.
pub(crate) const INTERRUPT_INTERVAL: u32 = 1 << 10;

/// Comparisons of a string search between two calls of the interrupt hook.
const SEARCH_STRETCH: usize = 1 << 22;

/// Allocations smaller than this are not announced to the host by string concatenation.
pub(crate) const ANNOUNCED_ALLOCATION: u64 = 1 << 16;

/// An address in the current native stack frame.
#[inline(always)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&raw const marker) as usize
}

impl Context {
    /// Throws [`RuntimeLimitError::NativeStack`] when the native stack is below the limit.
    #[inline]
    pub(crate) fn check_native_stack(&self) -> JsResult<()> {
        let limit = self.vm.runtime_limits.native_stack_limit();
        if limit != 0 && stack_position() < limit {
            return Err(RuntimeLimitError::NativeStack.into());
        }
        Ok(())
    }

    /// Counts one step of a long-running operation; every [`INTERRUPT_INTERVAL`] steps the
    /// host's interrupt hook runs.
    #[inline]
    pub(crate) fn interrupt_tick(&mut self) -> JsResult<()> {
        self.vm.interrupt_countdown = self.vm.interrupt_countdown.wrapping_sub(1);
        if self.vm.interrupt_countdown == 0 {
            return self.interrupt_now();
        }
        Ok(())
    }

    /// Runs the host's interrupt hook now.
    #[cold]
    #[inline(never)]
    pub(crate) fn interrupt_now(&mut self) -> JsResult<()> {
        self.vm.interrupt_countdown = INTERRUPT_INTERVAL;
        let hooks = self.host_hooks();
        hooks.interrupt(self)
    }

    /// Asks the host whether `bytes` may be allocated at once.
    #[inline]
    pub(crate) fn ensure_can_allocate(&mut self, bytes: u64) -> JsResult<()> {
        let hooks = self.host_hooks();
        hooks.ensure_can_allocate(bytes, self)
    }

    /// Announces the concatenation of `strings` to the host when the result is large.
    #[inline]
    pub(crate) fn ensure_can_concat(&mut self, strings: &[JsStr<'_>]) -> JsResult<()> {
        let mut units = 0u64;
        let mut latin1 = true;
        for string in strings {
            units = units.saturating_add(string.len() as u64);
            latin1 &= string.is_latin1();
        }
        let bytes = if latin1 { units } else { units.saturating_mul(2) };
        if bytes >= ANNOUNCED_ALLOCATION {
            self.ensure_can_allocate(bytes)?;
        }
        Ok(())
    }

    /// `haystack.index_of(needle, from)`, searched in stretches of about [`SEARCH_STRETCH`]
    /// comparisons with the host's interrupt hook between them: a naive search is quadratic
    /// (`'a'.repeat(1e8).indexOf('a'.repeat(1e4) + 'b')`). Each stretch is a slice, so that a
    /// search from far into the string does not first walk past `from` windows one by one
    /// (`JsStr::index_of` skips them, which made `replaceAll` and `split` quadratic).
    pub(crate) fn index_of(
        &mut self,
        haystack: JsStr<'_>,
        needle: JsStr<'_>,
        from: usize,
    ) -> JsResult<Option<usize>> {
        if needle.is_empty() {
            return Ok(haystack.index_of(needle, from));
        }
        let positions = (SEARCH_STRETCH / needle.len()).max(1);
        let mut start = from;
        loop {
            let end = start
                .saturating_add(positions)
                .saturating_add(needle.len() - 1)
                .min(haystack.len());
            let Some(stretch) = haystack.get(start..end) else {
                return Ok(None);
            };
            if let Some(found) = stretch.index_of(needle, 0) {
                return Ok(Some(start + found));
            }
            if end == haystack.len() {
                return Ok(None);
            }
            start += positions;
            self.interrupt_now()?;
        }
    }
}
