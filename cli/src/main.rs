//! `jobgraph`: resolve job graphs and test templates, offline or against the service; run the
//! service; manage its templates and jobs.
//!
//! Modules, each using only those above it in this list:
//! - [`failure`]: a failed command's message and exit status; [`input`]: JSON files, `--values`.
//! - [`args`]: the clap definitions (global options, every command and its help).
//! - [`term`]: colours, the spinner, status markers; [`output`]: every output format, `-o`.
//! - [`settings`]: `~/.jobgraph/cli-config.json` and the precedence of flags, environment,
//!   saved configuration and defaults.
//! - [`session`]: a client of the service built from the settings, with its disk token cache.
//! - [`sandbox`]: the resolver of local runs (`--sandbox`, limits).
//! - [`commands`]: what each command does.

mod args;
mod commands;
mod context;
mod failure;
mod input;
mod output;
mod sandbox;
mod session;
mod settings;
mod term;

use clap::{CommandFactory, FromArgMatches};

use args::Cli;

/// boa allocates heavily; mimalloc makes a script execution ~30 % cheaper than glibc malloc
/// (bench/RESULTS.md). Counted, so that `--max-memory-mb` is enforced.
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<mimalloc::MiMalloc> =
    jobgraph_core::memory::CountingAllocator::new(mimalloc::MiMalloc);

/// Parses the command line and runs it.
pub fn main() -> std::process::ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match commands::run(cli, &matches) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(failure) => {
            // One line: a message that spans lines (a server's text) is joined.
            let line = failure.message.replace(['\n', '\r'], " ");
            // An empty message: the command printed its own report (`query:check`'s caret).
            if !line.trim().is_empty() {
                eprintln!("{}", line.trim_end());
            }
            std::process::ExitCode::from(failure.status)
        }
    }
}
