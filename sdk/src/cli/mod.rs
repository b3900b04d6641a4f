//! The `jobgraph` command line: offline resolution and template tests, the service
//! (`serve`), and the commands against the service's API (configurations, jobs, templates).
//!
//! - [`args`]: the clap definitions (global options, every command and its help).
//! - [`offline`]: `resolve --templates DIR` and `template:test` without a service.
//! - [`config`]: `~/.jobgraph/cli-config.json`, the precedence of flags, environment, saved
//!   configuration and defaults, and the `config:*` commands.
//! - `session`, `jobs`, `templates` (feature `client`): a client built from the settings,
//!   with its disk token cache; the `job:*` and `template:*` commands; remote resolution.
//! - [`output`]: every output format; [`term`]: colours, the spinner, status markers.

// Without the client, the parts only the service's commands use are unused.
#![cfg_attr(not(feature = "client"), allow(dead_code))]

pub mod args;
pub mod config;
#[cfg(feature = "client")]
pub mod jobs;
pub mod offline;
pub mod output;
#[cfg(feature = "client")]
pub mod session;
#[cfg(feature = "client")]
pub mod templates;
pub mod term;

use std::io::Write;
use std::path::Path;

use clap::{CommandFactory, FromArgMatches};
use serde_json::Value;

use args::{Cli, Command, CompletionShell, Global};

/// A failure and the exit status it calls for: 1 for a failed operation, 2 for bad usage
/// (including unreadable or invalid input files).
#[derive(Debug)]
pub struct Failure {
    /// One line for stderr.
    pub message: String,
    /// The exit status.
    pub status: u8,
}

impl Failure {
    /// Bad usage or input: exit 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 2,
        }
    }

    /// A failed operation: exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 1,
        }
    }
}

/// Parses the command line and runs it.
pub fn main() -> std::process::ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match run(cli, &matches) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(failure) => {
            // One line: a message that spans lines (a server's text) is joined.
            let line = failure.message.replace(['\n', '\r'], " ");
            eprintln!("{}", line.trim_end());
            std::process::ExitCode::from(failure.status)
        }
    }
}

fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<(), Failure> {
    let global = cli.global;
    match cli.command {
        Command::SandboxWorker => jobgraph_sdk::sandbox_worker::serve()
            .map_err(|e| Failure::usage(format!("sandbox worker: {e}"))),
        #[cfg(feature = "server")]
        Command::Serve(args) => jobgraph_sdk::server::serve(&args)
            .map_err(|e| Failure::failed(format!("jobgraph serve: {e}"))),
        Command::Completions { shell } => {
            let shell = match shell {
                CompletionShell::Bash => clap_complete::Shell::Bash,
                CompletionShell::Zsh => clap_complete::Shell::Zsh,
                CompletionShell::Fish => clap_complete::Shell::Fish,
            };
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "jobgraph", &mut text);
            emit_bytes(&text, &global)
        }
        Command::Resolve(args) => offline::resolve(args, &global, matches),
        Command::TemplateTest(args) => offline::template_test(args, &global, matches),
        Command::Config(command) => config::run(command, &global, matches),
        #[cfg(feature = "client")]
        Command::Job(command) => jobs::run(command, &global, matches),
        #[cfg(feature = "client")]
        Command::Template(command) => templates::run(command, &global, matches),
    }
}

/// Reads a JSON file: exit 2 when it is missing or unreadable, or not JSON (with the line and
/// column of the first error).
pub fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
    })?;
    jobgraph_core::parse_json(&text)
        .map_err(|e| Failure::usage(format!("{} is not valid JSON: {e}", path.display())))
}

/// An I/O error without the `(os error N)` noise for the common cases.
pub fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

/// Writes a result to `-o FILE` or stdout. A closed stdout (`| head`) is not an error.
pub fn emit(text: &str, global: &Global) -> Result<(), Failure> {
    emit_bytes(text.as_bytes(), global)
}

fn emit_bytes(bytes: &[u8], global: &Global) -> Result<(), Failure> {
    match &global.output {
        Some(path) => std::fs::write(path, bytes).map_err(|e| {
            Failure::usage(format!(
                "cannot write {}: {}",
                path.display(),
                io_reason(&e)
            ))
        }),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(Failure::usage(format!("cannot write to stdout: {e}")))
                }
                _ => Ok(()),
            }
        }
    }
}
