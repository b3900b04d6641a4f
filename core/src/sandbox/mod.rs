//! The script sandbox: runs one template script in `boa_engine` under [`Limits`].
//!
//! - [`Sandbox`] is an execution mode; [`InProcess`] runs scripts on the calling thread, and
//!   `jobgraph_sdk::ProcessSandbox` in a pool of worker processes (`docs/sandbox.md`).
//! - Every script sees the pristine ECMAScript built-ins and nothing of the scripts before it:
//!   it runs in the thread's prepared realm, which is checked after each run and replaced when
//!   a script changed anything shared (`realm`), or in a fresh context.
//! - No host capability: no module loader, console, timers, file, network, process or
//!   environment access (`engine`). Inputs and `user` are created inside the realm.
//! - Limits: wall-clock time (checked between budgeted slices of VM execution), memory (a
//!   counting allocator, see [`memory`]), loop iterations and recursion depth (boa's own), the
//!   bracket nesting of the source (a pre-parse check, `nesting`), and the size of the result
//!   (`output`, read without running script code by `js_json`).
//!
//! The parsing of boa's error texts, the most fragile code here, is fenced off in `boa_errors`.

mod boa_errors;
mod engine;
mod guard;
mod js_json;
mod limits;
pub mod memory;
mod nesting;
mod outcome;
mod output;
pub(crate) use output::compact_len;
mod realm;
mod run;
mod stack;

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use limits::{LimitHit, LimitKind, Limits};
pub use outcome::{ScriptError, ScriptFailure, ScriptOutput};
pub use run::run_script;
pub use stack::set_host_stack_check;

/// What one script execution needs.
#[derive(Debug, Clone, Copy)]
pub struct ScriptInput<'a> {
    /// The JavaScript source.
    pub source: &'a str,
    /// Names bound to `undefined` unless `variables` gives them a value (the `inputSchema`'s
    /// properties), so that a script never meets a `ReferenceError` for a declared parameter.
    pub declared: &'a [String],
    /// Global variables with values, bound in this order.
    pub variables: &'a Map<String, Value>,
    /// Value of the `draft` global.
    pub draft: bool,
    /// What `user.getName()` returns.
    pub user: &'a str,
}

/// The result of one execution in a [`Sandbox`].
pub type ScriptResult = Result<ScriptOutput, ScriptError>;

/// The future a [`Sandbox`] returns for one execution.
pub type ScriptFuture<'a> = Pin<Box<dyn Future<Output = ScriptResult> + Send + 'a>>;

/// An execution mode: where and how template scripts run. The [`crate::Resolver`] hands
/// every script to one; embedders choose it.
///
/// - [`InProcess`] (the library's and the browser's default) runs the script on the calling
///   thread with every [`Limits`] check that can be made from inside the engine.
/// - `jobgraph_sdk::ProcessSandbox` runs it in a pool of worker processes with an
///   address-space limit and a wall-clock kill, which also stops what the in-process checks
///   cannot (catastrophic regex backtracking, huge single allocations); `docs/sandbox.md`
///   compares them.
///
/// The trait is object safe: a resolver holds an `Arc<dyn Sandbox>`.
///
/// ```
/// use jobgraph_core::{InProcess, Limits, Sandbox, ScriptInput};
/// let vars = serde_json::Map::new();
/// let input = ScriptInput { source: "({vertices: [], edges: []})", declared: &[],
///                           variables: &vars, draft: false, user: "ada" };
/// let limits = Limits::default();
/// let out = futures_executor::block_on(InProcess.run(input, &limits)).unwrap();
/// assert_eq!(out.value, serde_json::json!({"vertices": [], "edges": []}));
/// ```
pub trait Sandbox: Send + Sync {
    /// Runs one script under `limits`, as [`run_script`] does.
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a>;

    /// How many scripts it runs at once, at most: the resolver starts that many of one level's
    /// scripts together. 1 for [`InProcess`] (it runs them one after another on the calling
    /// thread).
    fn parallelism(&self) -> usize {
        1
    }

    /// This sandbox for the scripts of one tenant (an organization of a service), when it
    /// keeps state between scripts that another tenant must never meet: the process pool
    /// returns a view whose scripts only ever run in worker processes bound to `tenant`.
    /// `None` (the default, and [`InProcess`]'s answer) means there is nothing to separate:
    /// use this sandbox itself.
    fn for_tenant(&self, tenant: &str) -> Option<std::sync::Arc<dyn Sandbox>> {
        let _ = tenant;
        None
    }
}

/// The in-process execution mode: [`run_script`] on the calling thread (the future is ready
/// when it is returned).
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcess;

impl Sandbox for InProcess {
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a> {
        Box::pin(std::future::ready(run_script(&input, limits)))
    }
}

impl<T: Sandbox + ?Sized> Sandbox for std::sync::Arc<T> {
    fn run<'a>(&'a self, input: ScriptInput<'a>, limits: &'a Limits) -> ScriptFuture<'a> {
        (**self).run(input, limits)
    }

    fn parallelism(&self) -> usize {
        (**self).parallelism()
    }

    fn for_tenant(&self, tenant: &str) -> Option<std::sync::Arc<dyn Sandbox>> {
        (**self).for_tenant(tenant)
    }
}

/// An owned [`ScriptInput`] with its limits: what crosses a process boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptRequest {
    /// The JavaScript source.
    pub source: String,
    /// See [`ScriptInput::declared`].
    #[serde(default)]
    pub declared: Vec<String>,
    /// See [`ScriptInput::variables`].
    #[serde(default)]
    pub variables: Map<String, Value>,
    /// See [`ScriptInput::draft`].
    #[serde(default)]
    pub draft: bool,
    /// See [`ScriptInput::user`].
    #[serde(default)]
    pub user: String,
    /// Limits of this execution.
    #[serde(default)]
    pub limits: Limits,
}

impl ScriptRequest {
    /// Copies `input` and `limits`.
    pub fn new(input: &ScriptInput<'_>, limits: &Limits) -> Self {
        ScriptRequest {
            source: input.source.to_owned(),
            declared: input.declared.to_vec(),
            variables: input.variables.clone(),
            draft: input.draft,
            user: input.user.to_owned(),
            limits: *limits,
        }
    }

    /// Borrows it back as a [`ScriptInput`].
    pub fn input(&self) -> ScriptInput<'_> {
        ScriptInput {
            source: &self.source,
            declared: &self.declared,
            variables: &self.variables,
            draft: self.draft,
            user: &self.user,
        }
    }
}

/// A script's source as UTF-16, the input every parse of the sandbox gives boa: boa parses
/// `eval` and `Function` bodies from UTF-16 (and, patched, `JSON.parse` too), so one
/// instantiation of its generic parser serves all of them (a UTF-8 one was ~250 KB of
/// WebAssembly code). The parser reads code points either way: positions, errors and results
/// are those of the UTF-8 source.
fn utf16(source: &str) -> Vec<u16> {
    source.encode_utf16().collect()
}

#[cfg(test)]
mod engine_guard_tests;
#[cfg(test)]
mod tests;
