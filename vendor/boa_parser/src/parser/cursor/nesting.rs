//! A deterministic bound on how deeply a source nests (jobgraph patch).
//!
//! The parser recurses natively once (or more) per level of nesting, and the compiler and the
//! AST visitors recurse over the tree it builds, so a hostile source such as 100 000 `!` before
//! a literal, a chain of `a ? b : c ? …`, `a => b => …`, 20 000 `else if` branches, or a
//! left-deep chain such as `1 + 1 + … + 1` (built by a loop, but walked recursively later)
//! exhausts the native stack and kills the process. This module counts, per parser:
//!
//! - **levels**: entering one of the parser's recursive productions (`AssignmentExpression`,
//!   `ShortCircuitExpression`, `ExponentiationExpression`, `UnaryExpression`,
//!   `MemberExpression`, `Statement`) adds one level for as long as it is being parsed;
//! - **links**: the loops that build left-deep trees (binary operators, the comma operator,
//!   member accesses, calls, optional chains) add one level per link on top of the deepest
//!   level reached by the operands they join, since the tree they build is that deep.
//!
//! Past the limit ([`set_limit`], per thread, read when a parser is created) parsing fails
//! with a syntax error whose message starts with [`NESTING_ERROR`], at the position where the
//! limit was passed. Every tree the parser returns is then at most a small constant times the
//! limit deep.

use std::cell::Cell;

use boa_ast::Position;

use crate::Error;

/// Start of the message of the error returned when the limit is passed.
pub const NESTING_ERROR: &str = "source nested too deeply: nesting limit of ";

/// Levels allowed when [`set_limit`] was never called on the thread.
pub const DEFAULT_LIMIT: u32 = 1024;

thread_local! {
    static LIMIT: Cell<u32> = const { Cell::new(DEFAULT_LIMIT) };
    static STACK_FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Sets the lowest native stack address the parsers of this thread may reach (the stack grows
/// down; 0: no check). The level count bounds the depth of the tree, but the native frames
/// one level costs differ by production and build (several KiB per level in a debug build):
/// past this address parsing fails with the nesting error instead of running off the stack.
/// Only meaningful where locals live on the native stack (not in wasm).
pub fn set_stack_floor(address: usize) {
    STACK_FLOOR.with(|f| f.set(address));
}

/// Whether the caller's frame is below the floor set with [`set_stack_floor`].
#[inline(always)]
fn below_stack_floor() -> bool {
    let floor = STACK_FLOOR.with(Cell::get);
    if floor == 0 {
        return false;
    }
    let marker = 0u8;
    (std::hint::black_box(&raw const marker) as usize) < floor
}

/// Sets the nesting limit of the parsers created on this thread from now on (`None`: the
/// default, [`DEFAULT_LIMIT`]).
pub fn set_limit(limit: Option<u32>) {
    LIMIT.with(|l| l.set(limit.unwrap_or(DEFAULT_LIMIT)));
}

/// The nesting limit of parsers created on this thread now.
#[must_use]
pub fn limit() -> u32 {
    LIMIT.with(Cell::get)
}

/// The depth counters of one parser.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Nesting {
    /// Levels of the productions being parsed.
    depth: u32,
    /// Deepest level reached in the innermost open [`Scope`].
    high_water: u32,
    /// Links added in the innermost open [`Scope`].
    links: u32,
    limit: u32,
}

/// What [`Nesting::open`] saved of the enclosing scope.
#[derive(Debug, Clone, Copy)]
#[must_use]
pub(crate) struct Scope {
    level: bool,
    outer_high_water: u32,
    outer_links: u32,
}

impl Nesting {
    pub(crate) fn new() -> Self {
        Self {
            depth: 0,
            high_water: 0,
            links: 0,
            limit: limit(),
        }
    }

    fn deepest(&self) -> u32 {
        self.high_water.saturating_add(self.links)
    }

    /// Whether the limit is passed.
    pub(crate) fn exceeded(&self) -> bool {
        self.depth.max(self.deepest()) > self.limit || below_stack_floor()
    }

    /// The error for a limit passed at `position`.
    pub(crate) fn error(&self, position: Position) -> Error {
        Error::general(
            format!("{NESTING_ERROR}{} exceeded", self.limit),
            position,
        )
    }

    /// Opens a production: one more level if `level`, and a scope for its links. Check
    /// [`Self::exceeded`] after it.
    pub(crate) fn open(&mut self, level: bool) -> Scope {
        if level {
            self.depth += 1;
        }
        let scope = Scope {
            level,
            outer_high_water: self.high_water,
            outer_links: self.links,
        };
        self.high_water = self.depth;
        self.links = 0;
        scope
    }

    /// Closes the production `scope` was opened for: the enclosing one sees it as deep as the
    /// tree it built. (An error ends the whole parse, so error paths need not close.)
    pub(crate) fn close(&mut self, scope: Scope) {
        let deepest = self.deepest();
        self.high_water = scope.outer_high_water.max(deepest);
        self.links = scope.outer_links;
        if scope.level {
            self.depth = self.depth.saturating_sub(1);
        }
    }

    /// Adds a link to the innermost open scope. Check [`Self::exceeded`] after it.
    pub(crate) fn link(&mut self) {
        self.links = self.links.saturating_add(1);
    }
}
