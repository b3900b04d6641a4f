//! `jobgraph`: resolve job graphs and test templates from the command line.

/// boa allocates heavily; mimalloc makes a script execution ~30 % cheaper than glibc malloc
/// (bench/RESULTS.md). Counted, so that `--max-memory-mb` is enforced.
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<mimalloc::MiMalloc> =
    jobgraph_core::memory::CountingAllocator::new(mimalloc::MiMalloc);

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use jobgraph_core::{
    ExecutionCache, InProcess, Limits, ResolveOptions, Resolver, TestInput, TestRequest,
};
use jobgraph_sdk::directory::load_template_file;
use jobgraph_sdk::{DirectorySource, ProcessConfig, ProcessSandbox};
use serde_json::Value;

/// Resolve data-pipeline job graphs that use templates, and test templates, offline.
///
/// Results are JSON on stdout; errors go to stderr and start with the service's error prefix
/// (`Template not found`, `Input validation failed`, `JavaScript execution failed`, …).
/// Exit status: 0 success, 1 failed resolution or test, 2 bad usage or unreadable input.
#[derive(Parser)]
#[command(
    name = "jobgraph",
    version,
    about = "Resolve data-pipeline job graphs that use templates, and test templates, offline.",
    long_about,
    max_term_width = 100
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Resolve every template operation of a job (or a bare job graph).
    ///
    /// Vertices produced by operation `op` are named `op.<name>` (`outer.inner.name` when
    /// nested). See docs/resolution.md for every rule.
    #[command(
        after_help = "Examples:\n  jobgraph resolve examples/jobs/errors-to-vendor.json --templates examples/templates\n  jobgraph resolve examples/jobs/draft-preview.json -t examples/templates --draft --provenance"
    )]
    Resolve {
        /// A job file (`name`, `execution`, `processing`, `jobGraph`, …) or a bare graph
        /// `{vertices, edges}`.
        job_file: PathBuf,
        /// Folder of templates: every `*.json` file is one template version; its script may live
        /// in a `.js` file of the same name.
        #[arg(long, short = 't', value_name = "DIR")]
        templates: PathBuf,
        /// Add a top-level `provenance` object: for each produced vertex, its original name,
        /// operation path, template id and version.
        #[arg(long)]
        provenance: bool,
        /// Resolve every operation in draft mode (draft outputs and draft-only vertices).
        #[arg(long)]
        draft: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Run one template's script with input values, as `POST /v1/templates/test` does.
    #[command(
        name = "template:test",
        after_help = "Example:\n  jobgraph template:test examples/templates/severity-filter-v2.json --values '{\"minLevel\":\"error\"}'"
    )]
    TemplateTest {
        /// A template file (its script inline or in a `.js` file of the same name).
        template_file: PathBuf,
        /// Input values: JSON text, or @FILE to read them from a file.
        #[arg(long, value_name = "JSON_OR_@FILE", default_value = "{}")]
        values: String,
        /// Run in draft mode.
        #[arg(long)]
        draft: bool,
        /// Fail unless the result is a valid job graph (every problem is listed).
        #[arg(long)]
        check_valid_job_graph: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Run the service: templates, jobs and tokens over HTTP, kept in a SQLite database.
    ///
    /// Example:
    ///   jobgraph serve --addr 127.0.0.1:8080 --data ./data --client ci:s3cret:acme
    ///   curl -s -X POST http://127.0.0.1:8080/oauth/token -H 'Content-Type: application/json' \
    ///     -d '{"client_id":"ci","client_secret":"s3cret","audience":"service","grant_type":"client_credentials"}'
    ///
    /// With no client configured (and none stored), one is generated for organization
    /// `default` and printed once. Endpoints: docs/api.md and GET /openapi.json. SIGINT or
    /// SIGTERM stops it gracefully.
    #[cfg(feature = "server")]
    Serve(jobgraph_sdk::server::ServeArgs),
    /// Serve script executions on stdin/stdout for `--sandbox isolated` (internal).
    #[command(name = "sandbox-worker", hide = true)]
    SandboxWorker,
}

/// Where scripts run.
#[derive(Clone, Copy, ValueEnum)]
enum SandboxMode {
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

#[derive(Args)]
struct Common {
    /// What `user.getName()` returns in scripts [default: $USER, else `anonymous`].
    #[arg(long, value_name = "NAME")]
    user: Option<String>,
    /// Where scripts run (see docs/sandbox.md).
    #[arg(long, value_enum, default_value = "isolated")]
    sandbox: SandboxMode,
    /// Time limit of each script, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().timeout_ms)]
    timeout_ms: u64,
    /// Memory each script may allocate, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_memory_bytes >> 20)]
    max_memory_mb: u64,
    /// Loop iterations allowed in one call frame of a script.
    #[arg(long, value_name = "N", default_value_t = Limits::default().loop_iterations)]
    loop_iterations: u64,
    /// Depth of nested calls in a script.
    #[arg(long, value_name = "N", default_value_t = Limits::default().recursion_depth)]
    recursion_depth: usize,
    /// Vertices one script may return.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_output_vertices)]
    max_output_vertices: usize,
    /// Size of one script's result as compact JSON, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_output_bytes)]
    max_output_bytes: usize,
    /// Bracket nesting allowed in a script's source, checked before parsing.
    #[arg(long, value_name = "LEVELS", default_value_t = Limits::default().max_nesting)]
    max_nesting: usize,
    /// Time limit of a whole resolution (all its scripts together), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().resolution_timeout_ms)]
    resolution_timeout_ms: u64,
    /// Template operations one resolution may expand, all levels together.
    #[arg(long, value_name = "N", default_value_t = ResolveOptions::default().max_operations)]
    max_operations: usize,
    /// Print compact JSON instead of pretty-printed.
    #[arg(long)]
    compact: bool,
    /// Write the result to FILE instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

impl Common {
    fn user(&self) -> String {
        self.user
            .clone()
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

    fn options(&self, draft: bool) -> ResolveOptions {
        ResolveOptions {
            user: self.user(),
            draft,
            limits: self.limits(),
            max_operations: self.max_operations,
        }
    }

    /// A resolver over `source` with the chosen sandbox and options (one run of the CLI
    /// resolves once: no execution cache).
    fn resolver<S>(&self, source: S, draft: bool) -> Result<Resolver<S>, Failure> {
        let builder = Resolver::builder(source)
            .options(self.options(draft))
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

/// A failure and the exit status it calls for.
struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    fn usage(message: String) -> Self {
        Failure { message, status: 2 }
    }
    fn failed(error: jobgraph_core::Error) -> Self {
        Failure {
            message: error.to_string(),
            status: 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::SandboxWorker => jobgraph_sdk::sandbox_worker::serve()
            .map_err(|e| Failure::usage(format!("sandbox worker: {e}"))),
        #[cfg(feature = "server")]
        Command::Serve(args) => jobgraph_sdk::server::serve(&args).map_err(|e| Failure {
            message: format!("jobgraph serve: {e}"),
            status: 1,
        }),
        Command::Resolve {
            job_file,
            templates,
            provenance,
            draft,
            common,
        } => {
            let job = read_json(&job_file)?;
            let source =
                DirectorySource::open(&templates).map_err(|e| Failure::usage(e.to_string()))?;
            let resolver = common.resolver(source, draft)?;
            let resolved = resolver
                .resolve_document_blocking(&job)
                .map_err(Failure::failed)?;
            let mut document = resolved.document;
            if provenance && let Value::Object(map) = &mut document {
                let origins = serde_json::to_value(resolved.provenance).unwrap_or_default();
                map.insert("provenance".into(), origins);
            }
            write_output(&document, &common)
        }
        Command::TemplateTest {
            template_file,
            values,
            draft,
            check_valid_job_graph,
            common,
        } => {
            let template =
                load_template_file(&template_file).map_err(|e| Failure::usage(e.to_string()))?;
            let values = match values.strip_prefix('@') {
                Some(file) => read_json(Path::new(file))?,
                None => jobgraph_core::parse_json(&values)
                    .map_err(|e| Failure::usage(format!("--values is not valid JSON: {e}")))?,
            };
            let Value::Object(values) = values else {
                return Err(Failure::usage("--values must be a JSON object".into()));
            };
            let request = TestRequest {
                template,
                input: TestInput {
                    is_draft: draft,
                    values,
                },
                check_valid_job_graph,
            };
            let graph = common
                .resolver(jobgraph_core::TemplateSet::new(), false)?
                .test_blocking(&request)
                .map_err(Failure::failed)?;
            write_output(&graph.to_value(), &common)
        }
    }
}

fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    jobgraph_core::parse_json(&text)
        .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))
}

fn write_output(value: &Value, common: &Common) -> Result<(), Failure> {
    let mut text = if common.compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    }
    .map_err(|e| Failure::usage(e.to_string()))?;
    text.push('\n');
    match &common.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display()))),
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| Failure::usage(format!("cannot write to stdout: {e}"))),
    }
}
