//! The `jobgraph` binary against the real `jobgraph serve` on loopback, each test with a
//! temporary HOME (its configuration file and token cache) and its own client and
//! organization: configurations saved and reused, the disk token cache, every command, every
//! output format (golden files in `tests/golden/`; `UPDATE_GOLDEN=1` rewrites them), and bad
//! input with one-line errors and exit codes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::Server;
use serde_json::{Value, json};

const CLIENTS: &[(&str, &str, &str)] = &[
    ("conf", "conf-secret-1", "org-conf"),
    ("cache", "cache-secret-2", "org-cache"),
    ("every", "every-secret-3", "org-every"),
    ("golden", "golden-secret-4", "org-golden"),
    ("bad", "bad-secret-5", "org-bad"),
];

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let specs: Vec<String> = CLIENTS
            .iter()
            .map(|(id, secret, org)| format!("{id}:{secret}:{org}"))
            .collect();
        let mut args = Vec::new();
        for spec in &specs {
            args.push("--client");
            args.push(spec.as_str());
        }
        Server::start(&args)
    })
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn secret_of(id: &str) -> &'static str {
    CLIENTS.iter().find(|c| c.0 == id).map(|c| c.1).unwrap()
}

/// One run's result.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn ok(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(0),
            "stdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        self
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    /// A failure: its exit code and one line on stderr, nothing on stdout.
    fn fails(&self, code: i32) -> &str {
        assert_eq!(
            self.code,
            Some(code),
            "stdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        assert_eq!(
            self.stderr.lines().count(),
            1,
            "one line: {:?}",
            self.stderr
        );
        assert!(self.stdout.is_empty(), "{}", self.stdout);
        self.stderr.trim_end()
    }
}

/// A temporary HOME.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs `jobgraph` with only HOME, USER and `env` in its environment.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
            .args(args)
            .current_dir(root())
            .env_clear()
            .env("HOME", self.path())
            .env("USER", "cli-tester")
            .envs(env.iter().copied())
            .output()
            .expect("the binary runs");
        Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Saves configuration `name` for `client` (default) and returns the secret's variable.
    fn configure(&self, name: &str, client: &str) -> [(&'static str, &'static str); 1] {
        let api = format!("{}/api", server().url());
        self.run(
            &[
                "config:save",
                name,
                "--api-base-url",
                &api,
                "--client-id",
                client,
                "--default",
            ],
            &[],
        )
        .ok();
        [("JOBGRAPH_CLIENT_SECRET", secret_of(client))]
    }

    fn auth_files(&self) -> Vec<PathBuf> {
        match std::fs::read_dir(self.path().join(".jobgraph/auth")) {
            Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

fn token_lines(org: &str) -> usize {
    server().log_lines(&["path=/oauth/token ", "status=200", &format!("org={org}")])
}

/// A job file using `template_id`, written to `dir`.
fn job_file(dir: &Path, name: &str, template_id: &str, processing: &str) -> PathBuf {
    let text = std::fs::read_to_string(root().join("examples/service/job.json"))
        .unwrap()
        .replace("TEMPLATE_ID", template_id)
        .replace("warnings-to-vendor", name)
        .replace("\"STREAMING\"", &format!("\"{processing}\""));
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_configuration_is_saved_and_reused_by_precedence() {
    let home = Home::new();
    let env = home.configure("local", "conf");
    let file = home.path().join(".jobgraph/cli-config.json");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["_default"], "local");
    assert_eq!(saved["local"]["clientId"], "conf");
    assert_eq!(saved["local"]["authMethod"], "client-credentials");
    assert!(
        saved["local"].get("authBaseUrl").is_none(),
        "derived from the API's"
    );
    #[cfg(unix)]
    assert_eq!(mode(&file), 0o600);
    // The secret given in the environment is never written.
    home.run(&["config:save", "local", "--org-name", "org-conf"], &env)
        .ok();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains(secret_of("conf")), "{text}");
    let saved: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["local"]["orgName"], "org-conf");
    assert_eq!(
        saved["local"]["clientId"], "conf",
        "kept from the saved configuration"
    );

    // Reused without flags.
    home.run(&["templates"], &env).ok();
    // Precedence: a flag beats the environment, which beats the saved configuration.
    let dead = "http://127.0.0.1:9/api";
    let r = home.run(&["jobs", "--auth-base-url", "http://127.0.0.1:9"], &env);
    assert!(
        r.fails(1).contains("http://127.0.0.1:9/oauth/token"),
        "{}",
        r.stderr
    );
    let mut with_env = env.to_vec();
    with_env.push(("JOBGRAPH_AUTH_BASE_URL", "http://127.0.0.1:9"));
    let r = home.run(&["jobs"], &with_env);
    assert!(
        r.fails(1)
            .contains("cannot reach the service at http://127.0.0.1:9/oauth/token")
    );
    home.run(&["jobs", "--auth-base-url", &server().url()], &with_env)
        .ok();
    let r = home.run(
        &[
            "jobs",
            "-d",
            "--api-base-url",
            dead,
            "--auth-base-url",
            &server().url(),
        ],
        &with_env,
    );
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains("debug: api_base_url from flag"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("debug: client_id from saved configuration"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .lines()
            .last()
            .unwrap()
            .contains("http://127.0.0.1:9/api/v1/jobs"),
        "{}",
        r.stderr
    );

    // A second configuration, the default switched, listed and shown.
    home.run(
        &[
            "config:save",
            "other",
            "--api-base-url",
            dead,
            "--client-id",
            "nobody",
        ],
        &[],
    )
    .ok();
    let list = home.run(&["config:list", "-f", "csv"], &[]);
    let lines: Vec<&str> = list.ok().stdout.lines().collect();
    assert_eq!(
        lines[0],
        "name,apiBaseUrl,authCache,authMethod,browser,clientId,default,orgName"
    );
    assert!(
        lines[1].starts_with("local,") && lines[1].contains(",true,org-conf"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("other,") && lines[2].ends_with(",false,"),
        "{lines:?}"
    );
    home.run(&["config:default", "other"], &[]).ok();
    let shown = home.run(&["config:show", "-f", "compact"], &[]).ok().json();
    assert_eq!(
        (shown["name"].as_str(), shown["default"].as_bool()),
        (Some("other"), Some(true))
    );
    let shown = home
        .run(&["config:show", "local", "-f", "compact"], &[])
        .ok()
        .json();
    assert_eq!(shown["clientId"], "conf");
    // --conf picks one; an unknown one is bad usage.
    home.run(&["templates", "--conf", "local"], &env).ok();
    let r = home.run(&["templates", "--conf", "nope"], &env);
    assert!(r.fails(2).contains("no configuration named \"nope\""));
    home.run(&["config:delete", "other"], &[]).ok();
    let r = home.run(&["config:delete", "other"], &[]);
    assert!(r.fails(1).contains("no configuration named \"other\""));
    // With the default deleted and none chosen: the flags and environment alone.
    let r = home.run(&["templates"], &env);
    assert!(r.fails(2).starts_with("no client id"), "{}", r.stderr);
    home.run(&["config:default", "local"], &[]).ok();
    home.run(&["templates"], &env).ok();
}

#[test]
fn a_token_is_cached_on_disk_and_reused_across_runs() {
    let home = Home::new();
    let env = home.configure("local", "cache");
    home.run(&["templates"], &env).ok();
    let files = home.auth_files();
    assert_eq!(files.len(), 1, "{files:?}");
    #[cfg(unix)]
    {
        assert_eq!(mode(&files[0]), 0o600);
        assert_eq!(mode(&home.path().join(".jobgraph/auth")), 0o700);
    }
    let cached: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let token = cached["accessToken"].as_str().unwrap().to_owned();
    assert!(
        !std::fs::read_to_string(&files[0])
            .unwrap()
            .contains(secret_of("cache"))
    );
    // Later runs, even without the secret, use the cached token.
    home.run(&["jobs"], &env).ok();
    home.run(&["templates"], &[]).ok();
    let r = home.run(&["jobs", "-d"], &[]);
    r.ok();
    assert!(r.stderr.contains("using the cached token"), "{}", r.stderr);
    for secret in [token.as_str(), secret_of("cache")] {
        assert!(
            !r.stderr.contains(secret),
            "-d never prints a token or secret"
        );
    }
    assert_eq!(
        server().wait_log_lines(&["path=/api/v1/jobs ", "org=org-cache"], 2),
        2
    );
    assert_eq!(token_lines("org-cache"), 1, "one token for four runs");

    // A token the service no longer accepts (revoked): one new token, one retry.
    let revoked = cached
        .to_string()
        .replace(&token, "revokedXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    std::fs::write(&files[0], &revoked).unwrap();
    home.run(&["jobs", "--name", "revocation-probe"], &env).ok();
    assert_eq!(token_lines("org-cache"), 2);
    assert_eq!(server().log_lines(&["path=/api/v1/jobs ", "status=401"]), 1);
    let renewed: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_ne!(renewed["accessToken"], cached["accessToken"]);
    assert_ne!(
        renewed["accessToken"],
        "revokedXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
    );
    // Revoked again and no secret to get a new one: a clear message, exit 2.
    std::fs::write(&files[0], &revoked).unwrap();
    let r = home.run(&["jobs"], &[]);
    assert!(
        r.fails(2).contains("set JOBGRAPH_CLIENT_SECRET"),
        "{}",
        r.stderr
    );
}

#[test]
fn every_command_against_the_service() {
    let home = Home::new();
    let env = home.configure("local", "every");
    let work = tempfile::tempdir().unwrap();
    // template:create from a --templates folder's file (JSON + .js beside it).
    let created = home
        .run(
            &[
                "template:create",
                "examples/templates/severity-filter-v2.json",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["version"], 1);
    assert_eq!(created["name"], "Severity filter");
    assert!(created["template"].as_str().unwrap().contains("filter"));
    let listed = home
        .run(&["templates", "-f", "raw"], &env)
        .ok()
        .stdout
        .clone();
    assert_eq!(listed.lines().count(), 1);
    assert!(listed.contains(&id));
    let r = home.run(&["template:list", "-f", "csv"], &env);
    assert!(
        r.ok()
            .stdout
            .starts_with("id,name,version,createdAt,updatedAt,organizationId,description\n"),
        "{}",
        r.stdout
    );
    // template:update, conditional; a stale expectation is a 409 naming the current version.
    home.run(
        &[
            "template:update",
            &id,
            "examples/templates/severity-filter-v2.json",
            "--expected-version",
            "1",
        ],
        &env,
    )
    .ok();
    let r = home.run(
        &[
            "template:update",
            &id,
            "examples/templates/severity-filter-v2.json",
            "--expected-version",
            "1",
        ],
        &env,
    );
    assert!(
        r.fails(1).starts_with("conflict: the current version is 2"),
        "{}",
        r.stderr
    );
    let versions = home
        .run(&["template:get", &id, "-f", "pretty"], &env)
        .ok()
        .json();
    assert_eq!(versions.as_array().unwrap().len(), 2);
    let latest = home
        .run(&["template:get", &id, "--latest", "-f", "compact"], &env)
        .ok()
        .json();
    assert_eq!(latest["version"], 2);
    let first = home
        .run(
            &["template:get", &id, "--version", "1", "-f", "compact"],
            &env,
        )
        .ok()
        .json();
    assert_eq!(first["version"], 1);
    // template:test in the service gives what template:test here gives (as the same user).
    let values = r#"{"minLevel": "error", "excludeServices": ["noisy"]}"#;
    let file = "examples/templates/severity-filter-v2.json";
    let remote = home
        .run(
            &[
                "template:test",
                file,
                "--values",
                values,
                "--remote",
                "--check-valid-job-graph",
            ],
            &env,
        )
        .ok()
        .json();
    let here = home
        .run(
            &["template:test", file, "--values", values, "--user", "every"],
            &[],
        )
        .ok()
        .json();
    assert_eq!(remote, here);
    let r = home.run(
        &[
            "template:test",
            file,
            "--values",
            r#"{"minLevel": "loud"}"#,
            "--remote",
        ],
        &env,
    );
    assert!(
        r.fails(1).starts_with("Input validation failed: /minLevel"),
        "{}",
        r.stderr
    );

    // job:create with status markers; jobs; job:get; job:update; resolve against the service.
    let level_filter = home
        .run(
            &[
                "template:create",
                "examples/service/level-filter.json",
                "-q",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let lf = level_filter["id"].as_str().unwrap();
    let job_path = job_file(work.path(), "every-job", lf, "STREAMING");
    let job_arg = job_path.to_str().unwrap();
    let r = home.run(&["job:create", job_arg, "-f", "compact"], &env);
    let job = r.ok().json();
    assert_eq!(r.stderr, "[CONNECTING]\n[CONNECTED]\n[PENDING]\n");
    let job_id = job["id"].as_str().unwrap().to_owned();
    let r = home.run(&["job:create", job_arg, "-q", "-f", "compact"], &env);
    assert!(r.ok().stderr.is_empty(), "-q: no markers");
    let r = home.run(
        &["job:create", job_arg, "--no-job-state", "-f", "compact"],
        &env,
    );
    assert!(r.ok().stderr.is_empty(), "--no-job-state: no markers");
    let jobs = home
        .run(&["jobs", "--name", "every-job", "-f", "pretty"], &env)
        .ok()
        .json();
    assert_eq!(jobs.as_array().unwrap().len(), 3);
    let listed = home
        .run(
            &["job:list", "--processing", "batch", "-f", "compact"],
            &env,
        )
        .ok()
        .json();
    assert_eq!(listed, json!([]));
    let listed = home
        .run(
            &[
                "jobs",
                "--since",
                "PT24H",
                "--state",
                "PENDING",
                "--execution",
                "ASYNCHRONOUS",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let r = home.run(&["jobs", "--since", "yesterday"], &env);
    assert!(r.fails(1).contains("since"), "{}", r.stderr);
    let got = home
        .run(&["job:get", &job_id, "-f", "compact"], &env)
        .ok()
        .json();
    assert_eq!(got["jobGraph"]["vertices"][1]["type"], "template-operation");
    let resolved = home
        .run(&["job:get", &job_id, "--resolved", "-f", "compact"], &env)
        .ok()
        .json();
    assert_eq!(resolved["jobGraph"]["vertices"][1]["name"], "warnings.f");
    // -o saves it as JSON.
    let saved = work.path().join("saved.json");
    home.run(&["job:get", &job_id, "-o", saved.to_str().unwrap()], &env)
        .ok();
    let saved_job: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(saved_job["id"], job_id.as_str());
    // resolve here, with the service's templates, gives what the service resolved.
    let local = home
        .run(
            &[
                "resolve",
                job_arg,
                "--sandbox",
                "in-process",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    assert_eq!(local["jobGraph"], resolved["jobGraph"]);
    // job:update from the saved file, conditional and with rollback.
    let updated = home
        .run(
            &[
                "job:update",
                &job_id,
                saved.to_str().unwrap(),
                "--from-version",
                "1",
                "--rollback-enabled",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    assert_eq!(updated["version"], 2);
    let r = home.run(
        &[
            "job:update",
            &job_id,
            saved.to_str().unwrap(),
            "--from-version",
            "1",
        ],
        &env,
    );
    assert!(
        r.fails(1).starts_with("conflict: the current version is 2"),
        "{}",
        r.stderr
    );
    let r = home.run(&["job:delete", &job_id], &env);
    assert_eq!(r.ok().stderr, format!("deleted job {job_id}\n"));
    let r = home.run(&["job:get", &job_id], &env);
    assert!(r.fails(1).starts_with("not found: "), "{}", r.stderr);
    home.run(&["template:delete", &id], &env).ok();
    let r = home.run(&["template:get", &id], &env);
    assert!(r.fails(1).starts_with("not found: "), "{}", r.stderr);

    // Completions, and help with an example on every command.
    for shell in ["bash", "zsh", "fish"] {
        let r = home.run(&["completions", shell], &[]);
        assert!(r.ok().stdout.contains("job:create"), "{shell}");
    }
    for command in [
        "resolve",
        "template:test",
        "config:save",
        "config:delete",
        "config:list",
        "config:show",
        "config:default",
        "job:create",
        "job:list",
        "jobs",
        "job:get",
        "job:update",
        "job:delete",
        "template:create",
        "template:list",
        "templates",
        "template:get",
        "template:update",
        "template:delete",
        "completions",
    ] {
        let help = home.run(&[command, "--help"], &[]);
        let text = &help.ok().stdout;
        assert!(text.contains("Example"), "{command}: {text}");
        assert!(
            text.contains("--api-base-url"),
            "{command}: global options listed"
        );
    }
}

/// Replaces each id by a placeholder of the same length (tables keep their widths).
fn anonymize(text: &str, ids: &[(&str, &str)]) -> String {
    let mut text = text.to_owned();
    for (id, label) in ids {
        assert_eq!(id.len(), 16);
        let placeholder = format!("{label:_<16}");
        text = text.replace(id, &placeholder);
    }
    text
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(actual, expected, "{name} differs from {}", path.display());
}

#[test]
fn every_output_format_matches_its_golden_file() {
    let home = Home::new();
    let env = home.configure("local", "golden");
    let work = tempfile::tempdir().unwrap();
    let template = home
        .run(
            &[
                "template:create",
                "examples/service/level-filter.json",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let tid = template["id"].as_str().unwrap().to_owned();
    let alpha = home
        .run(
            &[
                "job:create",
                job_file(work.path(), "alpha-job", &tid, "STREAMING")
                    .to_str()
                    .unwrap(),
                "-q",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let beta = home
        .run(
            &[
                "job:create",
                job_file(work.path(), "beta-job", &tid, "BATCH")
                    .to_str()
                    .unwrap(),
                "-q",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let ids = [
        (tid.as_str(), "TEMPLATE1"),
        (alpha["id"].as_str().unwrap(), "JOB_ALPHA"),
        (beta["id"].as_str().unwrap(), "JOB_BETA"),
    ];
    for (format, file) in [
        ("table", "jobs.table.txt"),
        ("csv", "jobs.csv"),
        ("pretty", "jobs.pretty.json"),
        ("raw", "jobs.raw.jsonl"),
        ("compact", "jobs.compact.json"),
    ] {
        let r = home.run(
            &["jobs", "-f", format, "--no-timestamps", "-s", "name:asc"],
            &env,
        );
        golden(file, &anonymize(&r.ok().stdout, &ids));
    }
    let r = home.run(&["templates", "--no-timestamps"], &env);
    golden("templates.table.txt", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(&["job:get", ids[1].0, "--no-timestamps"], &env);
    golden("job-get.table.txt", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(
        &[
            "job:get",
            ids[1].0,
            "--no-timestamps",
            "--max-lines",
            "0",
            "--resolved",
        ],
        &env,
    );
    golden(
        "job-get-resolved.table.txt",
        &anonymize(&r.ok().stdout, &ids),
    );
    let r = home.run(
        &[
            "jobs",
            "-f",
            "csv",
            "--no-timestamps",
            "--max-depth",
            "2",
            "-s",
            "name:desc",
        ],
        &env,
    );
    golden("jobs.depth2.csv", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(
        &[
            "jobs",
            "--no-timestamps",
            "-s",
            "name",
            "-c",
            "name,processing,tags",
        ],
        &env,
    );
    golden("jobs.columns.txt", &anonymize(&r.ok().stdout, &ids));
    // Wider than 80 columns: the widest give up width first, down to their longest word.
    let wide = "id,name,state,version,processing,desiredState,editedBy";
    let r = home.run(&["jobs", "--no-timestamps", "-s", "name", "-c", wide], &env);
    golden("jobs.wide.txt", &anonymize(&r.ok().stdout, &ids));
    // Timestamps in the asked time zone; in JSON formats as the service wrote them.
    let r = home.run(
        &[
            "jobs",
            "-f",
            "csv",
            "--timezone",
            "+02:00",
            "-s",
            "name",
            "-c",
            "createdAt,id",
        ],
        &env,
    );
    let lines: Vec<&str> = r.ok().stdout.lines().collect();
    assert_eq!(
        lines[0], "createdAt,id",
        "-c picks csv columns in the order given"
    );
    assert!(lines[1].contains("+02:00,"), "{}", lines[1]);
    let r = home.run(&["jobs", "-f", "raw", "--timezone", "+02:00"], &env);
    assert!(r.ok().stdout.contains("Z\""), "{}", r.stdout);
    let r = home.run(&["jobs", "--timezone", "Mars/Olympus"], &env);
    assert!(
        r.fails(2).starts_with("--timezone: unknown time zone"),
        "{}",
        r.stderr
    );
    // Colours only on a terminal: never in a pipe, whatever NO_COLOR says.
    let r = home.run(&["jobs"], &env);
    assert!(!r.ok().stdout.contains('\x1b'));
    // Every table line fits in 80 columns.
    let r = home.run(&["job:get", ids[1].0], &env);
    for line in r.ok().stdout.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

#[test]
fn bad_input_fails_with_one_clear_line() {
    let home = Home::new();
    let env = home.configure("local", "bad");
    let work = tempfile::tempdir().unwrap();
    // Missing file, invalid JSON (line and column), a job file without its fields.
    let r = home.run(&["job:create", "no/such/job.json"], &env);
    assert_eq!(
        r.fails(2),
        "cannot read no/such/job.json: no such file or directory"
    );
    let broken = work.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"name\": \"x\",\n  oops\n}").unwrap();
    let r = home.run(&["job:create", broken.to_str().unwrap()], &env);
    let line = r.fails(2).to_owned();
    assert!(
        line.contains("is not valid JSON") && line.contains("line 3"),
        "{line}"
    );
    let r = home.run(&["template:create", broken.to_str().unwrap()], &env);
    assert!(r.fails(2).contains("line 3"), "{}", r.stderr);
    let partial = work.path().join("partial.json");
    std::fs::write(
        &partial,
        r#"{"name": "x", "processing": "BATCH", "jobGraph": {"vertices": []}}"#,
    )
    .unwrap();
    let r = home.run(&["job:create", partial.to_str().unwrap()], &env);
    assert!(
        r.fails(2)
            .ends_with("`execution` is required (SYNCHRONOUS or ASYNCHRONOUS)"),
        "{}",
        r.stderr
    );
    // An unknown template: the service's message.
    let unknown = job_file(work.path(), "unknown", "no-such-template", "STREAMING");
    let r = home.run(&["job:create", unknown.to_str().unwrap(), "-q"], &env);
    assert!(r.fails(1).starts_with("Template not found"), "{}", r.stderr);
    let r = home.run(&["resolve", unknown.to_str().unwrap()], &env);
    assert!(r.fails(1).starts_with("Template not found"), "{}", r.stderr);
    // A bad request: the service's message.
    let r = home.run(
        &["job:update", "no-such-job", partial.to_str().unwrap()],
        &env,
    );
    assert!(r.fails(1).starts_with("not found: "), "{}", r.stderr);
    // The service down: the URL tried.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let down = format!("http://127.0.0.1:{port}");
    let r = home.run(&["jobs", "--api-base-url", &format!("{down}/api")], &env);
    let line = r.fails(1);
    assert!(
        line.starts_with(&format!("cannot reach the service at {down}/oauth/token")),
        "{line}"
    );
    // A wrong secret (and no cached token): which configuration to check.
    std::fs::remove_dir_all(home.path().join(".jobgraph/auth")).unwrap();
    let r = home.run(&["jobs"], &[("JOBGRAPH_CLIENT_SECRET", "wrong-secret")]);
    let line = r.fails(1);
    assert!(
        line.ends_with("check the client id and secret of configuration \"local\""),
        "{line}"
    );
    assert!(!line.contains("wrong-secret"));
    // Bad usage: exit 2.
    let r = home.run(&["jobs", "--no-such-flag"], &env);
    assert_eq!(r.code, Some(2));
    let r = home.run(&["jobs", "-s", "name:sideways"], &env);
    assert!(r.fails(2).contains("asc` or `desc"), "{}", r.stderr);
    let r = home.run(&["template:get", "x", "--latest", "--version", "2"], &env);
    assert_eq!(r.code, Some(2));
}
