//! The options of running scripts on this machine (`resolve`, `template:test`).

use clap::{Args, ValueEnum};
use jobgraph_core::{Limits, ResolveOptions};

/// Where scripts run.
#[derive(Clone, Copy, ValueEnum)]
pub enum SandboxMode {
    /// Default. In worker processes (one per core, started on first use) with an allocation
    /// ceiling, an address-space cap and a wall-clock kill: stops every hostile script,
    /// including what cannot be interrupted from inside the engine.
    Isolated,
    /// For trusted templates only: in this process, every limit checked from inside the
    /// engine (built-ins, parser and regex matcher included). Not interrupted: parsing a
    /// multi-megabyte source, one linear pass over a large string; memory is checked every
    /// 1 024 steps, not per allocation. See docs/sandbox.md.
    InProcess,
}

/// The options of local script execution.
#[derive(Args)]
pub struct Common {
    /// What `user.getName()` returns in scripts [default: $USER, else `anonymous`; against the
    /// service: the client id, as the service runs them].
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// Where scripts run (see docs/sandbox.md).
    #[arg(long, value_enum, default_value = "isolated")]
    pub sandbox: SandboxMode,
    /// Time limit of each script, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().timeout_ms)]
    pub timeout_ms: u64,
    /// Memory each script may allocate, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_memory_bytes >> 20)]
    pub max_memory_mb: u64,
    /// Loop iterations allowed in one call frame of a script.
    #[arg(long, value_name = "N", default_value_t = Limits::default().loop_iterations)]
    pub loop_iterations: u64,
    /// Depth of nested calls in a script.
    #[arg(long, value_name = "N", default_value_t = Limits::default().recursion_depth)]
    pub recursion_depth: usize,
    /// Vertices one script may return.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_output_vertices)]
    pub max_output_vertices: usize,
    /// Size of one script's result as compact JSON, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_output_bytes)]
    pub max_output_bytes: usize,
    /// Bracket nesting allowed in a script's source, checked before parsing.
    #[arg(long, value_name = "LEVELS", default_value_t = Limits::default().max_nesting)]
    pub max_nesting: usize,
    /// Time limit of a whole resolution (all its scripts together), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().resolution_timeout_ms)]
    pub resolution_timeout_ms: u64,
    /// Template operations one resolution may expand, all levels together.
    #[arg(long, value_name = "N", default_value_t = ResolveOptions::default().max_operations)]
    pub max_operations: usize,
    /// Vertices the templates of one resolution may produce, all levels together (their
    /// `template-operation`s not counted; docs/resolution.md, "Output budget").
    #[arg(long, value_name = "N", default_value_t = ResolveOptions::default().max_resolved_vertices)]
    pub max_resolved_vertices: usize,
    /// Bytes the templates of one resolution may produce: their results' compact JSON lengths,
    /// summed.
    #[arg(long, value_name = "BYTES", default_value_t = ResolveOptions::default().max_resolved_bytes)]
    pub max_resolved_bytes: usize,
    /// Print compact JSON instead of pretty-printed (same as `-f compact`).
    #[arg(long)]
    pub compact: bool,
}
