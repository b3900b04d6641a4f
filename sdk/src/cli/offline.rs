//! `resolve` and `template:test`: with templates from a folder (no service), or, with the
//! `client` feature, against the service.

use std::path::Path;

use clap::{Args, ValueEnum};
use jobgraph_core::{
    ExecutionCache, InProcess, Limits, ResolveOptions, Resolver, TestInput, TestRequest,
};
use jobgraph_sdk::directory::load_template_file;
use jobgraph_sdk::{DirectorySource, ProcessConfig, ProcessSandbox};
use serde_json::{Map, Value};

use super::args::{Global, ResolveArgs, TemplateTestArgs};
use super::output::{Format, OutputArgs, Shape};
use super::{Failure, emit, read_json, term};

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
    /// Print compact JSON instead of pretty-printed (same as `-f compact`).
    #[arg(long)]
    pub compact: bool,
}

impl Common {
    /// The user scripts see: `--user`, else `fallback` (the client id against the service),
    /// else `$USER`, else `anonymous`.
    pub fn user(&self, fallback: Option<&str>) -> String {
        self.user
            .clone()
            .or_else(|| fallback.filter(|f| !f.is_empty()).map(str::to_owned))
            .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "anonymous".to_owned())
    }

    fn limits(&self) -> Limits {
        Limits {
            timeout_ms: self.timeout_ms,
            max_memory_bytes: self.max_memory_mb.saturating_mul(1024 * 1024),
            loop_iterations: self.loop_iterations,
            recursion_depth: self.recursion_depth,
            max_output_vertices: self.max_output_vertices,
            max_output_bytes: self.max_output_bytes,
            max_nesting: self.max_nesting,
            resolution_timeout_ms: self.resolution_timeout_ms,
        }
    }

    fn options(&self, draft: bool, user: String) -> ResolveOptions {
        ResolveOptions {
            user,
            draft,
            limits: self.limits(),
            max_operations: self.max_operations,
        }
    }

    /// A resolver over `source` with the chosen sandbox and options (one run of the CLI
    /// resolves once: no execution cache).
    pub fn resolver<S>(
        &self,
        source: S,
        draft: bool,
        user: String,
    ) -> Result<Resolver<S>, Failure> {
        let builder = Resolver::builder(source)
            .options(self.options(draft, user))
            .cache(ExecutionCache::disabled());
        Ok(match self.sandbox {
            SandboxMode::InProcess => builder.sandbox(InProcess),
            SandboxMode::Isolated => {
                let config = ProcessConfig::current_exe().map_err(|e| {
                    Failure::usage(format!("cannot start the isolated sandbox's workers: {e}"))
                })?;
                builder.sandbox(ProcessSandbox::start(config))
            }
        }
        .build())
    }
}

/// Prints a document (a resolved job, a graph): pretty JSON unless `-f`/`--compact` say
/// otherwise.
pub fn print_document(
    value: Value,
    output: &OutputArgs,
    compact: bool,
    global: &Global,
) -> Result<(), Failure> {
    let default = if compact {
        Format::Compact
    } else {
        Format::Pretty
    };
    let style = term::style(output, default, global)?;
    emit(&super::output::render(value, Shape::One, &style), global)
}

/// `resolve`.
pub fn resolve(
    args: ResolveArgs,
    global: &Global,
    matches: &clap::ArgMatches,
) -> Result<(), Failure> {
    let job = read_json(&args.job_file)?;
    let Some(templates) = &args.templates else {
        #[cfg(feature = "client")]
        return super::session::resolve_remote(job, &args, global, matches);
        #[cfg(not(feature = "client"))]
        {
            let _ = matches;
            return Err(Failure::usage(
                "--templates DIR is required (this build has no client for the service)",
            ));
        }
    };
    let source = DirectorySource::open(templates).map_err(|e| Failure::usage(e.to_string()))?;
    let resolver = args
        .common
        .resolver(source, args.draft, args.common.user(None))?;
    let resolved = resolver
        .resolve_document_blocking(&job)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let document = with_provenance(resolved, args.provenance);
    print_document(document, &args.output, args.common.compact, global)
}

/// The resolved document, with its `provenance` object when asked for.
pub fn with_provenance(resolved: jobgraph_core::ResolvedDocument, provenance: bool) -> Value {
    let mut document = resolved.document;
    if provenance && let Value::Object(map) = &mut document {
        let origins = serde_json::to_value(resolved.provenance).unwrap_or_default();
        map.insert("provenance".into(), origins);
    }
    document
}

/// `--values`: JSON text or @FILE, an object.
pub fn parse_values(values: &str) -> Result<Map<String, Value>, Failure> {
    let values = match values.strip_prefix('@') {
        Some(file) => read_json(Path::new(file))?,
        None => jobgraph_core::parse_json(values)
            .map_err(|e| Failure::usage(format!("--values is not valid JSON: {e}")))?,
    };
    match values {
        Value::Object(values) => Ok(values),
        _ => Err(Failure::usage("--values must be a JSON object")),
    }
}

/// `template:test`.
pub fn template_test(
    args: TemplateTestArgs,
    global: &Global,
    matches: &clap::ArgMatches,
) -> Result<(), Failure> {
    let template =
        load_template_file(&args.template_file).map_err(|e| Failure::usage(e.to_string()))?;
    let values = parse_values(&args.values)?;
    #[cfg(feature = "client")]
    if args.remote {
        return super::templates::test_remote(template, values, &args, global, matches);
    }
    let _ = matches;
    let request = TestRequest {
        template,
        input: TestInput {
            is_draft: args.draft,
            values,
        },
        check_valid_job_graph: args.check_valid_job_graph,
    };
    let graph = args
        .common
        .resolver(
            jobgraph_core::TemplateSet::new(),
            false,
            args.common.user(None),
        )?
        .test_blocking(&request)
        .map_err(|e| Failure::failed(e.to_string()))?;
    print_document(graph.to_value(), &args.output, args.common.compact, global)
}
