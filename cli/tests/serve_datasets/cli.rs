//! The `dataset:*` and `integration:*` commands of the `jobgraph` binary, black-box, with a
//! temporary HOME: every command, the five formats, `--help` examples, and bad input with a
//! one-line error and exit code.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use super::{secret_of, server};

pub(super) struct Run {
    pub(super) code: Option<i32>,
    pub(super) stdout: String,
    pub(super) stderr: String,
}

impl Run {
    pub(super) fn ok(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(0),
            "stdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        self
    }

    pub(super) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    pub(super) fn fails(&self, code: i32) -> &str {
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

/// Runs `jobgraph` with HOME `home` and the `cli` client's secret.
pub(super) fn run(home: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("USER", "cli-tester")
        .env("JOBGRAPH_CLIENT_SECRET", secret_of("cli"))
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub(super) fn home() -> tempfile::TempDir {
    home_on(server())
}

/// A HOME whose default configuration is client `cli` of `server`, under `/api`.
pub(super) fn home_on(server: &super::common::Server) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let api = format!("{}/api", server.url());
    run(
        home.path(),
        &[
            "config:save",
            "local",
            "--api-base-url",
            &api,
            "--client-id",
            "cli",
            "--default",
        ],
    )
    .ok();
    home
}

#[test]
fn every_dataset_command_in_every_format() {
    let home = home();
    let h = home.path();
    let file = h.join("web.json");
    std::fs::write(
        &file,
        json!({"name": "cli-web", "partitioning": "DAY", "retentionDays": 7}).to_string(),
    )
    .unwrap();
    let created = run(
        h,
        &["dataset:create", file.to_str().unwrap(), "-f", "compact"],
    );
    let created = created.ok().json();
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["partitioning"], "DAY");
    assert_eq!(created["retentionDays"], 7);

    let got = run(h, &["dataset:get", &id, "-f", "pretty"]).ok().json();
    assert_eq!(got, created);
    let table = run(h, &["dataset:get", &id]);
    assert!(table.ok().stdout.contains("cli-web"), "{}", table.stdout);

    // The list in the five formats.
    let compact = run(h, &["datasets", "-f", "compact"]).ok().json();
    assert!(
        compact
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["id"] == id.as_str())
    );
    let pretty = run(h, &["dataset:list", "-f", "pretty"]).ok().json();
    assert_eq!(pretty, compact);
    let raw = run(h, &["dataset:list", "-f", "raw"]);
    let lines: Vec<Value> = raw
        .ok()
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(Value::Array(lines), compact);
    let csv = run(
        h,
        &["dataset:list", "-f", "csv", "-c", "id,name,partitioning"],
    );
    let csv = csv.ok().stdout.clone();
    assert!(csv.lines().next().unwrap().contains("name"), "{csv}");
    assert!(csv.contains(&format!("{id},cli-web,DAY")), "{csv}");
    let table = run(h, &["dataset:list"]);
    let table = table.ok().stdout.clone();
    assert!(
        table.contains("cli-web") && table.contains("DAY"),
        "{table}"
    );

    // Update from the output of get (read-only fields ignored), with a version check.
    let edited = h.join("edited.json");
    let mut body = got.clone();
    body["description"] = json!("edited");
    std::fs::write(&edited, body.to_string()).unwrap();
    let updated = run(
        h,
        &[
            "dataset:update",
            &id,
            edited.to_str().unwrap(),
            "--expected-version",
            "1",
            "-f",
            "compact",
        ],
    );
    let updated = updated.ok().json();
    assert_eq!(updated["version"], 2);
    assert_eq!(updated["description"], "edited");
    let stale = run(
        h,
        &[
            "dataset:update",
            &id,
            edited.to_str().unwrap(),
            "--expected-version",
            "1",
        ],
    );
    let message = stale.fails(1).to_owned();
    assert!(
        message.contains("409") || message.contains("version"),
        "{message}"
    );

    let files = run(h, &["dataset:files", &id, "-f", "compact"]).ok().json();
    assert_eq!(files, json!([]));

    run(h, &["dataset:delete", &id]).ok();
    let gone = run(h, &["dataset:get", &id]);
    let message = gone.fails(1).to_owned();
    assert!(
        message.contains("404") || message.contains("no dataset"),
        "{message}"
    );
}

#[test]
fn integration_commands() {
    let home = home();
    let h = home.path();
    let list = run(h, &["integration:list", "-f", "compact"]).ok().json();
    let mut ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["s3-archive", "splunk-prod"]);
    let one = run(h, &["integration:get", "s3-archive", "-f", "pretty"])
        .ok()
        .json();
    assert_eq!(one["type"], "s3");
    assert_eq!(one["jobs"], json!([]));
    let csv = run(h, &["integration:list", "-f", "csv", "-c", "id,type"]);
    assert!(
        csv.ok().stdout.contains("splunk-prod,splunk"),
        "{}",
        csv.stdout
    );
    let table = run(h, &["integrations"]);
    assert!(
        table.ok().stdout.contains("Archive bucket"),
        "{}",
        table.stdout
    );
    let missing = run(h, &["integration:get", "nope"]);
    missing.fails(1);
}

#[test]
fn bad_dataset_files_and_help() {
    let home = home();
    let h = home.path();
    let missing = run(h, &["dataset:create", "/no/such/file.json"]);
    assert!(missing.fails(2).contains("/no/such/file.json"));
    let not_json = h.join("bad.json");
    std::fs::write(&not_json, "{name").unwrap();
    assert!(
        run(h, &["dataset:create", not_json.to_str().unwrap()])
            .fails(2)
            .contains("JSON")
    );
    let unknown = h.join("unknown.json");
    std::fs::write(&unknown, r#"{"name":"x","colour":"red"}"#).unwrap();
    assert!(
        run(h, &["dataset:create", unknown.to_str().unwrap()])
            .fails(2)
            .contains("colour")
    );
    // The service's 400 names the field.
    let invalid = h.join("invalid.json");
    std::fs::write(&invalid, r#"{"name":"x","partitioning":"WEEK"}"#).unwrap();
    let message = run(h, &["dataset:create", invalid.to_str().unwrap()])
        .fails(1)
        .to_owned();
    assert!(message.contains("/partitioning"), "{message}");
    for command in [
        "dataset:create",
        "dataset:list",
        "dataset:get",
        "dataset:update",
        "dataset:delete",
        "dataset:files",
        "integration:list",
        "integration:get",
    ] {
        let help = run(h, &[command, "--help"]);
        assert!(
            help.ok().stdout.contains("Example"),
            "{command}: {}",
            help.stdout
        );
    }
}
