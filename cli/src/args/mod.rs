//! The command line's definition: global options, commands, their help and examples. Only
//! data: what the commands do with it lives in `commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod datasets;
#[cfg(feature = "docs")]
mod docs;
mod grok;
mod jobs;
mod output;
mod patterns;
mod pipeline;
mod query;
mod scripts;
#[cfg(feature = "server")]
mod serve;
mod to_test;

pub use datasets::{DatasetCommand, IntegrationCommand};
#[cfg(feature = "docs")]
pub use docs::{DocType, DocsGetArgs, DocsSearchArgs, SearchFormat};
pub use grok::GrokParseArgs;
pub use jobs::{ExecutionArg, JobCommand, ProcessingArg};
pub use output::{Format, OutputArgs};
pub use patterns::{LineFormat, PatternsArgs};
pub use pipeline::{JobDraftArgs, JobRunArgs, QueryCheckArgs, RunLimits};
pub use query::QueryArgs;
pub use scripts::{Common, SandboxMode};
#[cfg(feature = "server")]
pub use serve::{ServeArgs, UserAddArgs};
pub use to_test::JobToTestArgs;

/// Resolve data-pipeline job graphs that use templates, and test templates, offline or
/// against the service; manage the service's templates and jobs.
///
/// Offline: `resolve JOB --templates DIR` and `template:test FILE` need no service. Against
/// the service (`jobgraph serve`, or any service with the same API): save a configuration
/// once (`config:save`), give the client secret in JOBGRAPH_CLIENT_SECRET, then use the
/// `template:*` and `job:*` commands. Tokens are cached in ~/.jobgraph/auth/.
///
/// Settings come from flags, then JOBGRAPH_* environment variables, then the saved
/// configuration (`--conf NAME`, else the default one), then defaults. Errors are one line on
/// stderr; exit status 0 success, 1 failed operation, 2 bad usage or unreadable input.
#[derive(Parser)]
#[command(
    name = "jobgraph",
    version,
    long_about,
    max_term_width = 100,
    after_help = "Examples:\n  jobgraph resolve examples/jobs/errors-to-vendor.json --templates examples/templates\n  jobgraph config:save local --api-base-url http://127.0.0.1:8080/api --client-id ci --default\n  JOBGRAPH_CLIENT_SECRET=… jobgraph jobs -f csv\n\nSee docs/cli.md for configurations, the token cache and output formats."
)]
pub struct Cli {
    /// Options of every command.
    #[command(flatten)]
    pub global: Global,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes, before or after its name.
#[derive(Debug, Clone, Args)]
pub struct Global {
    /// Saved configuration to use [default: the one marked default].
    #[arg(long, global = true, value_name = "NAME", env = "JOBGRAPH_CONF")]
    pub conf: Option<String>,
    /// Organization name (shown in messages; the service takes it from the token).
    #[arg(long, global = true, value_name = "NAME", env = "JOBGRAPH_ORG_NAME")]
    pub org_name: Option<String>,
    /// API base address [default: http://127.0.0.1:8080/api].
    #[arg(long, global = true, value_name = "URL", env = "JOBGRAPH_API_BASE_URL")]
    pub api_base_url: Option<String>,
    /// Identity provider base address; tokens come from URL/oauth/token [default: the API
    /// base address without its trailing /api].
    #[arg(
        long,
        global = true,
        value_name = "URL",
        env = "JOBGRAPH_AUTH_BASE_URL"
    )]
    pub auth_base_url: Option<String>,
    /// OAuth 2.0 client id (its secret: JOBGRAPH_CLIENT_SECRET, never a flag or a file).
    #[arg(long, global = true, value_name = "ID", env = "JOBGRAPH_CLIENT_ID")]
    pub client_id: Option<String>,
    /// Time zone of timestamps in table and csv output: IANA name, UTC or +HH:MM
    /// [default: the system's].
    #[arg(long, global = true, value_name = "TZ")]
    pub timezone: Option<String>,
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long, global = true, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print each request, token event and setting source on stderr (never a secret).
    #[arg(short = 'd', long, global = true)]
    pub debug: bool,
    /// Print nothing but results and errors.
    #[arg(short = 'q', long, global = true)]
    pub quiet: bool,
    /// No colours (also: NO_COLOR set and not empty).
    #[arg(long, global = true)]
    pub no_color: bool,
}

/// The commands.
#[derive(Subcommand)]
pub enum Command {
    /// Resolve every template operation of a job: with templates from a folder (offline) or
    /// from the service.
    ///
    /// Vertices produced by operation `op` are named `op.<name>` (`outer.inner.name` when
    /// nested). See docs/resolution.md for every rule. Without --templates, templates are
    /// fetched from the configured service (each id@version once, a level's templates
    /// together) and scripts run here, as the service would run them.
    #[command(
        after_help = "Examples:\n  jobgraph resolve examples/jobs/errors-to-vendor.json --templates examples/templates\n  jobgraph resolve examples/jobs/draft-preview.json -t examples/templates --draft --provenance\n  jobgraph resolve job.json --conf local          # templates from the service"
    )]
    Resolve(ResolveArgs),
    /// Run one template's script with input values, as `POST /v1/templates/test` does:
    /// here, or in the service with --remote.
    #[command(
        name = "template:test",
        after_help = "Examples:\n  jobgraph template:test examples/templates/severity-filter-v2.json --values '{\"minLevel\":\"error\"}'\n  jobgraph template:test examples/service/level-filter.json --values '{\"level\":\"warn\"}' --remote"
    )]
    TemplateTest(TemplateTestArgs),
    /// Run a job here on events from a file, as a batch job: every stage simulated, the
    /// events that reach its sink printed as NDJSON, in input order.
    ///
    /// Sources (`logs-iceberg-table-source`, `grepr-raw-log-source`) receive the events of
    /// --events; filters,
    /// tag transforms and sinks do what docs/pipeline.md says; any other vertex type passes
    /// events through unchanged and is named on stderr. A progress line goes to stderr
    /// (quiet with -q).
    #[command(
        name = "job:run",
        after_help = "Examples:\n  jobgraph job:run examples/jobs/errors-to-vendor.json --events examples/events/sample.ndjson -t examples/templates\n  jobgraph job:run job.json --events - --sink archive < events.ndjson > out.ndjson\n  jobgraph job:run job.json --events logs.ndjson --remote   # templates from the service"
    )]
    JobRun(JobRunArgs),
    /// Preview every stage of a job on sample events: resolved in draft mode, each vertex's
    /// events in and out, grouped by template operation.
    #[command(
        name = "job:draft",
        after_help = "Examples:\n  jobgraph job:draft examples/jobs/errors-to-vendor.json --sample-logs examples/events/sample.ndjson -t examples/templates\n  jobgraph job:draft job.json --sample-logs logs.json -t templates -f pretty"
    )]
    JobDraft(JobDraftArgs),
    /// Make a test job: a tagger on every edge (tags `grepr.test_run_id` and
    /// `grepr.edge=<src>_<port>_<dst>_<port>`) and every sink replaced by a `logs-sync-sink`
    /// (or a `logs-iceberg-table-sink` with --dataset-id); JSON on stdout or -o.
    #[command(
        name = "job:to-test",
        after_help = "Examples:\n  jobgraph job:to-test examples/jobs/checkout-alerts.json --test-run-id t1 -o test.json\n  jobgraph job:to-test job.json --dataset-id 3fJ2kV8qLm0pXw1a --table test_runs\n  jobgraph resolve job.json -t templates -o resolved.json && jobgraph job:to-test resolved.json | jobgraph job:run /dev/stdin --events logs.ndjson"
    )]
    JobToTest(JobToTestArgs),
    /// Search this project's reference offline (docs, READMEs, the API's operations and
    /// schemas), ranked (BM25): each document's URI, score, best sections and a preview.
    #[cfg(feature = "docs")]
    #[command(
        name = "docs:search",
        after_help = "Examples:\n  jobgraph docs:search heartbeat token\n  jobgraph docs:search oauth token client credentials -t api -l 3\n  jobgraph docs:search job graph -t schema -f json\n  jobgraph docs:search sandbox limits -t all -p 120 -f compact"
    )]
    DocsSearch(DocsSearchArgs),
    /// Print a document of the offline reference as Markdown (`doc://`, `api://`,
    /// `schema://`), or list them all with --list.
    #[cfg(feature = "docs")]
    #[command(
        name = "docs:get",
        after_help = "Examples:\n  jobgraph docs:get doc://docs/api.md\n  jobgraph docs:get api://issueToken\n  jobgraph docs:get --list -t schema"
    )]
    DocsGet(DocsGetArgs),
    /// Check a query: print how it parses, or the error with a caret under its column
    /// (exit 1).
    #[command(
        name = "query:check",
        after_help = "Examples:\n  jobgraph query:check '(level:warn OR level:error) AND NOT service:healthcheck'\n  jobgraph query:check '@http.status:[500 TO 599] -service:health*'"
    )]
    QueryCheck(QueryCheckArgs),
    /// Try grok parsing rules on sample lines: per sample, whether a rule matched the whole
    /// line, which one, and the attributes, tags and top-level fields it extracted; then how
    /// many matched. Here by default, in the service with --remote. Exit 1 when a sample
    /// matched no rule. The rule dialect: docs/grok.md.
    #[command(
        name = "grok:parse",
        after_help = "Examples:\n  jobgraph grok:parse -p 'login %{word:user} connected on %{date(\"MM/dd/yyyy\"):date} from %{ipv4:network.client.ip}' --sample 'john connected on 11/08/2017 from 127.0.0.1'\n  jobgraph grok:parse -p @rules.grok --helper-rules @helpers.grok --samples-file access.log -f csv\n  jobgraph grok:parse -p 'access %{COMMONAPACHELOG}' --samples-file - --remote < access.log"
    )]
    GrokParse(GrokParseArgs),
    /// Find the log patterns of a file as a log-reducer would: each message masked (numbers,
    /// IP addresses, timestamps, UUIDs), split on delimiters and grouped with similar ones;
    /// prints each pattern's count, text and a sample, most frequent first. Lines are plain
    /// messages or JSON events. A progress line shows on long files. Settings:
    /// docs/pipeline.md, "log-reducer".
    #[command(
        after_help = "Examples:\n  jobgraph patterns app.log\n  jobgraph patterns events.ndjson --config '{\"similarityThreshold\": 60, \"enabledMasks\": [\"number\"]}' --top 50\n  jobgraph patterns app.log -f csv -c count,pattern > patterns.csv\n  kubectl logs deploy/web | jobgraph patterns - --ids-out ids.txt"
    )]
    Patterns(PatternsArgs),
    // The doc comment is also `--help` text, where the markers must read as printed.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// Query a dataset of the service: the events of a time range that match a query, streamed
    /// as they come (a synchronous job reading the dataset, as the public client builds it).
    ///
    /// Status markers ([CONNECTING], [CONNECTED], [RUNNING], [FINISHED]) go to stderr (-q
    /// hides them); the run ends [SCANNED_MAX] when it reached the service's scan budget,
    /// [TIMED_OUT] past its time limit. With -f raw the events print as they arrive.
    #[command(
        after_help = "Examples:\n  jobgraph query --dataset-name prod --query 'service:checkout AND (level:warn OR level:error)'\n  jobgraph query --dataset-id 3fJ2kV8qLm0pXw1a --start 2026-11-25T10:00:00Z --end 2026-11-25T11:00:00Z --limit 1000 -f raw\n  jobgraph query --dataset-name prod -f csv -o last-10-minutes.csv\n  jobgraph query --dataset-name prod --start 2026-11-24T00:00:00Z --order desc --limit 20 --query level:error"
    )]
    Query(QueryArgs),
    /// Log in as a person (the authorization code flow with PKCE): the service's login form
    /// opens in a browser (or its address is printed, --no-browser), comes back to a loopback
    /// address of this machine, and the tokens are kept in ~/.jobgraph/auth/ (owner only),
    /// refreshed by themselves; removing that folder, or `jobgraph logout`, forces a new
    /// login. The client id is the configuration's (default `jobgraph-cli`, a public client
    /// of the service: login.publicClients).
    #[command(
        after_help = "Examples:\n  jobgraph login --api-base-url http://127.0.0.1:8080\n  jobgraph login --conf prod --no-browser\n  jobgraph job:list   # as the person logged in"
    )]
    Login(LoginArgs),
    /// Log out: the tokens kept for the configuration in ~/.jobgraph/auth/ are deleted.
    #[command(after_help = "Examples:\n  jobgraph logout\n  jobgraph logout --conf prod")]
    Logout,
    /// Configurations of ~/.jobgraph/cli-config.json.
    #[command(flatten)]
    Config(ConfigCommand),
    /// Jobs in the service.
    #[command(flatten)]
    Job(JobCommand),
    /// Templates in the service.
    #[command(flatten)]
    Template(TemplateCommand),
    /// Datasets in the service.
    #[command(flatten)]
    Dataset(DatasetCommand),
    /// Integrations of the service.
    #[command(flatten)]
    Integration(IntegrationCommand),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  jobgraph completions bash > ~/.local/share/bash-completion/completions/jobgraph\n  jobgraph completions zsh > ~/.zfunc/_jobgraph\n  jobgraph completions fish > ~/.config/fish/completions/jobgraph.fish"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: CompletionShell,
    },
    /// Run the service: templates, jobs and tokens over HTTP, kept in SQLite (default) or
    /// PostgreSQL (--database).
    ///
    /// With no client configured (and none stored), one is generated for organization
    /// `default` and printed once. Endpoints: docs/api.md and GET /openapi.json. SIGINT or
    /// SIGTERM stops it gracefully.
    #[cfg(feature = "server")]
    #[command(
        after_help = "Examples:\n  jobgraph serve --addr 127.0.0.1:8080 --data ./data --client ci:s3cret:acme\n  curl -s -X POST http://127.0.0.1:8080/oauth/token -H 'Content-Type: application/json' \\\n    -d '{\"client_id\":\"ci\",\"client_secret\":\"s3cret\",\"audience\":\"service\",\"grant_type\":\"client_credentials\"}'\n  JOBGRAPH_DATABASE_URL=postgres://app:…@db/jobgraph jobgraph serve --addr 0.0.0.0:8080"
    )]
    Serve(ServeArgs),
    /// Add a person who may log in (`jobgraph login`), or change their password and roles:
    /// written straight into the service's store (the same --data, --database or --config as
    /// `jobgraph serve`, which may be running). The password is read from stdin (one line),
    /// never from the command line.
    #[cfg(feature = "server")]
    #[command(
        name = "user:add",
        after_help = "Examples:\n  printf '%s' \"$PASSWORD\" | jobgraph user:add alice --org acme --role Member --data ./data\n  jobgraph user:add bob --org acme --role Reader --team devops=Leader --config service.json < bob.password"
    )]
    UserAdd(UserAddArgs),
    /// Serve script executions on stdin/stdout for `--sandbox isolated` (internal).
    #[command(name = "sandbox-worker", hide = true)]
    SandboxWorker,
}

/// Shells with completion scripts.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CompletionShell {
    /// bash.
    Bash,
    /// zsh.
    Zsh,
    /// fish.
    Fish,
}

/// `resolve`.
#[derive(Args)]
pub struct ResolveArgs {
    /// A job file (`name`, `execution`, `processing`, `jobGraph`, …) or a bare graph
    /// `{vertices, edges}`.
    pub job_file: PathBuf,
    /// Folder of templates: every `*.json` file is one template version; its script may live
    /// in a `.js` file of the same name. Without it: the configured service's templates.
    #[arg(long, short = 't', value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Add a top-level `provenance` object: for each produced vertex, its original name,
    /// operation path, template id and version.
    #[arg(long)]
    pub provenance: bool,
    /// Resolve every operation in draft mode (draft outputs and draft-only vertices).
    #[arg(long)]
    pub draft: bool,
    /// Sandbox and limits.
    #[command(flatten)]
    pub common: Common,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `template:test`.
#[derive(Args)]
pub struct TemplateTestArgs {
    /// A template file (its script inline or in a `.js` file of the same name).
    pub template_file: PathBuf,
    /// Input values: JSON text, or @FILE to read them from a file.
    #[arg(long, value_name = "JSON_OR_@FILE", default_value = "{}")]
    pub values: String,
    /// Run in draft mode.
    #[arg(long)]
    pub draft: bool,
    /// Fail unless the result is a valid job graph (every problem is listed).
    #[arg(long)]
    pub check_valid_job_graph: bool,
    /// Run it in the service (`POST /v1/templates/test`) instead of here.
    #[arg(long)]
    pub remote: bool,
    /// Sandbox and limits (offline only).
    #[command(flatten)]
    pub common: Common,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `config:*`.
#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Save the current settings (flags and JOBGRAPH_* variables over what NAME already
    /// holds) as configuration NAME. The client secret is never saved.
    #[command(
        name = "config:save",
        after_help = "Examples:\n  jobgraph config:save local --api-base-url http://127.0.0.1:8080/api --client-id ci --org-name acme --default\n  jobgraph config:save me --api-base-url http://127.0.0.1:8080/api --oauth   # a person: the first command logs in"
    )]
    Save {
        /// The configuration's name.
        name: String,
        /// Make it the default configuration (the first one saved becomes the default too).
        #[arg(long)]
        default: bool,
        /// A person's configuration (`authMethod: oauth`): the first command that needs a token
        /// logs in with the browser (the client id defaults to the public client
        /// `jobgraph-cli`).
        #[arg(long)]
        oauth: bool,
    },
    /// Delete a saved configuration.
    #[command(
        name = "config:delete",
        after_help = "Example:\n  jobgraph config:delete staging"
    )]
    Delete {
        /// The configuration's name.
        name: String,
    },
    /// List the saved configurations.
    #[command(
        name = "config:list",
        after_help = "Example:\n  jobgraph config:list -f csv"
    )]
    List {
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show a saved configuration [default: the one in use].
    #[command(
        name = "config:show",
        after_help = "Example:\n  jobgraph config:show local -f pretty"
    )]
    Show {
        /// The configuration's name.
        name: Option<String>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Make a saved configuration the default.
    #[command(
        name = "config:default",
        after_help = "Example:\n  jobgraph config:default local"
    )]
    Default {
        /// The configuration's name.
        name: String,
    },
}

/// `template:*` (besides `template:test`).
#[derive(Subcommand)]
pub enum TemplateCommand {
    /// Create a template from a file: the same JSON (+ optional `.js` beside it) a
    /// --templates folder holds; its `id` and `version`, if any, are ignored.
    #[command(
        name = "template:create",
        after_help = "Example:\n  jobgraph template:create examples/templates/severity-filter-v2.json"
    )]
    Create {
        /// The template file.
        template_file: PathBuf,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// List templates (the latest version of each, without scripts).
    #[command(
        name = "template:list",
        visible_alias = "templates",
        after_help = "Examples:\n  jobgraph templates\n  jobgraph template:list -f csv -s name:asc\n  jobgraph template:list --limit 20"
    )]
    List {
        /// List at most N templates [default: every page, following the service's cursors].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show a template: every version by default, or one.
    #[command(
        name = "template:get",
        after_help = "Examples:\n  jobgraph template:get DWa28F4NkgpCzt3n --latest\n  jobgraph template:get DWa28F4NkgpCzt3n --version 1 -f pretty -o level-filter.json"
    )]
    Get {
        /// The template id.
        #[arg(allow_hyphen_values = true)]
        template_id: String,
        /// This version.
        #[arg(long, value_name = "N", conflicts_with = "latest")]
        version: Option<u64>,
        /// The latest version.
        #[arg(long)]
        latest: bool,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Update a template from a file: creates a new version.
    #[command(
        name = "template:update",
        after_help = "Example:\n  jobgraph template:update DWa28F4NkgpCzt3n examples/service/level-filter.json --expected-version 1"
    )]
    Update {
        /// The template id.
        #[arg(allow_hyphen_values = true)]
        template_id: String,
        /// The template file.
        template_file: PathBuf,
        /// Fail (409) unless the template's current version is N.
        #[arg(long, value_name = "N")]
        expected_version: Option<u64>,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Delete a template and all its versions.
    #[command(
        name = "template:delete",
        after_help = "Example:\n  jobgraph template:delete DWa28F4NkgpCzt3n"
    )]
    Delete {
        /// The template id.
        #[arg(allow_hyphen_values = true)]
        template_id: String,
    },
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every command's flags are consistent (no short option used twice, no clashing names):
    /// clap checks this only when a command is parsed, so a clash would otherwise surface as a
    /// panic for the first user of that command.
    #[test]
    fn every_command_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}

/// `jobgraph login`.
#[derive(Debug, Clone, Args)]
pub struct LoginArgs {
    /// Print the login address instead of opening a browser (open it in a browser on this
    /// machine: the login comes back to a loopback address).
    #[arg(long)]
    pub no_browser: bool,
    /// Give up after this many seconds without a login.
    #[arg(long, default_value_t = 300, value_name = "SECONDS")]
    pub timeout: u64,
}
