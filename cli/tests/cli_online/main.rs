//! The `jobgraph` binary against the real `jobgraph serve` on loopback, each test with a
//! temporary HOME (its configuration file and token cache) and its own client and
//! organization: configurations saved and reused, the disk token cache, every command, every
//! output format (golden files in `tests/golden/`; `UPDATE_GOLDEN=1` rewrites them), and bad
//! input with one-line errors and exit codes.

mod bad_input;
mod commands;
#[path = "../common/mod.rs"]
mod common;
mod config;
mod formats;
mod grok;
mod token_cache;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;
use common::clients::SharedServer;
use serde_json::{Value, json};

static SHARED: SharedServer = SharedServer::new(&[
    ("conf", "conf-secret-1", "org-conf"),
    ("cache", "cache-secret-2", "org-cache"),
    ("every", "every-secret-3", "org-every"),
    ("golden", "golden-secret-4", "org-golden"),
    ("bad", "bad-secret-5", "org-bad"),
    ("sync-runner", "sync-secret-6", "org-sync"),
]);

fn server() -> &'static Server {
    SHARED.get()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn secret_of(id: &str) -> &'static str {
    SHARED.secret_of(id)
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
    common::clients::token_lines(server(), org)
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
