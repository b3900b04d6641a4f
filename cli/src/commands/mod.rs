//! What each command does, one module per command family. Commands use the layers below
//! them (arguments → settings → session → output) and never one another.

mod config;
mod datasets;
#[cfg(feature = "docs")]
mod docs;
mod grok;
mod jobs;
mod login;
mod patterns;
mod pipeline;
mod query;
mod resolve;
mod template_test;
mod templates;
mod to_test;

use clap::CommandFactory;

use crate::args::{Cli, Command, CompletionShell};
use crate::context::Context;
use crate::failure::Failure;
use crate::output::emit_bytes;

/// `sandbox-worker`: a worker process of the sandbox serving its parent.
fn sandbox_worker() -> Result<(), Failure> {
    jobgraph_sdk::sandbox_worker::serve()
        .map_err(|e| Failure::usage(format!("sandbox worker: {e}")))
}

/// Runs the parsed command line: the settings are resolved once, here, for every command.
pub fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<(), Failure> {
    if let Command::SandboxWorker = cli.command {
        // A worker process of the sandbox reads no file before it serves.
        return sandbox_worker();
    }
    let ctx = Context::resolve(cli.global, matches);
    let global = &ctx.global;
    match cli.command {
        Command::SandboxWorker => sandbox_worker(),
        #[cfg(feature = "server")]
        Command::Serve(args) => jobgraph_server::serve(&args.into())
            .map_err(|e| Failure::failed(format!("jobgraph serve: {e}"))),
        #[cfg(feature = "server")]
        Command::UserAdd(args) => user_add(&args),
        Command::Completions { shell } => {
            let shell = match shell {
                CompletionShell::Bash => clap_complete::Shell::Bash,
                CompletionShell::Zsh => clap_complete::Shell::Zsh,
                CompletionShell::Fish => clap_complete::Shell::Fish,
            };
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "jobgraph", &mut text);
            emit_bytes(&text, global)
        }
        Command::Resolve(args) => resolve::run(args, &ctx),
        Command::TemplateTest(args) => template_test::run(args, &ctx),
        Command::JobRun(args) => pipeline::run(args, &ctx),
        Command::JobDraft(args) => pipeline::draft(args, &ctx),
        Command::QueryCheck(args) => pipeline::check(args, global),
        Command::GrokParse(args) => grok::run(args, &ctx),
        Command::Patterns(args) => patterns::run(args, global),
        Command::JobToTest(args) => to_test::run(args, global),
        #[cfg(feature = "docs")]
        Command::DocsSearch(args) => docs::search(args, global),
        #[cfg(feature = "docs")]
        Command::DocsGet(args) => docs::get(args, global),
        Command::Query(args) => query::run(args, &ctx),
        Command::Login(args) => login::login(args, &ctx),
        Command::Logout => login::logout(&ctx),
        Command::Config(command) => config::run(command, &ctx),
        Command::Job(command) => jobs::run(command, &ctx),
        Command::Template(command) => templates::run(command, &ctx),
        Command::Dataset(command) => datasets::run(command, &ctx),
        Command::Integration(command) => datasets::integrations(command, &ctx),
    }
}

/// `jobgraph user:add`: the password from stdin (one line; a terminal is refused, where it
/// would show), then the person stored.
#[cfg(feature = "server")]
fn user_add(args: &crate::args::UserAddArgs) -> Result<(), Failure> {
    use std::io::{BufRead, IsTerminal};
    if std::io::stdin().is_terminal() {
        return Err(Failure::usage(
            "user:add reads the password from stdin, which is a terminal here (it would show as typed): pipe it in, e.g. `printf '%s' \"$PASSWORD\" | jobgraph user:add …` or `< password-file`",
        ));
    }
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .map_err(|e| Failure::failed(format!("cannot read the password from stdin: {e}")))?;
    let password = password.trim_end_matches(['\n', '\r']).to_owned();
    let user = jobgraph_server::login_config::UserSpec {
        name: args.name.clone(),
        organization: args.organization.clone(),
        password,
        role: args.role.clone(),
        teams: args.teams.iter().cloned().collect(),
    };
    let line = jobgraph_server::admin::add_user(&args.store_options(), &user)
        .map_err(|e| Failure::failed(format!("jobgraph user:add: {e}")))?;
    eprintln!("{line}");
    Ok(())
}
