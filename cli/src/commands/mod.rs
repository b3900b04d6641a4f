//! What each command does, one module per command family. Commands use the layers below
//! them (arguments → settings → session → output) and never one another.

mod config;
mod datasets;
#[cfg(feature = "docs")]
mod docs;
mod grok;
mod jobs;
mod patterns;
mod pipeline;
mod query;
mod resolve;
mod template_test;
mod templates;
mod to_test;

use clap::CommandFactory;

use crate::args::{Cli, Command, CompletionShell};
use crate::failure::Failure;
use crate::output::emit_bytes;

/// Runs the parsed command line.
pub fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<(), Failure> {
    let global = cli.global;
    match cli.command {
        Command::SandboxWorker => jobgraph_sdk::sandbox_worker::serve()
            .map_err(|e| Failure::usage(format!("sandbox worker: {e}"))),
        #[cfg(feature = "server")]
        Command::Serve(args) => jobgraph_server::serve(&args.into())
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
        Command::Resolve(args) => resolve::run(args, &global, matches),
        Command::TemplateTest(args) => template_test::run(args, &global, matches),
        Command::JobRun(args) => pipeline::run(args, &global, matches),
        Command::JobDraft(args) => pipeline::draft(args, &global, matches),
        Command::QueryCheck(args) => pipeline::check(args, &global),
        Command::GrokParse(args) => grok::run(args, &global, matches),
        Command::Patterns(args) => patterns::run(args, &global),
        Command::JobToTest(args) => to_test::run(args, &global),
        #[cfg(feature = "docs")]
        Command::DocsSearch(args) => docs::search(args, &global),
        #[cfg(feature = "docs")]
        Command::DocsGet(args) => docs::get(args, &global),
        Command::Query(args) => query::run(args, &global, matches),
        Command::Config(command) => config::run(command, &global, matches),
        Command::Job(command) => jobs::run(command, &global, matches),
        Command::Template(command) => templates::run(command, &global, matches),
        Command::Dataset(command) => datasets::run(command, &global, matches),
        Command::Integration(command) => datasets::integrations(command, &global, matches),
    }
}
