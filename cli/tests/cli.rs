//! The `jobgraph` binary as a user runs it: real files, exit codes, stdout and stderr.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn jobgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .current_dir(root())
        .env("USER", "cli-tester")
        .output()
        .expect("the binary runs")
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn names(graph: &Value) -> Vec<String> {
    graph["vertices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn resolves_the_example_job() {
    let out = jobgraph(&[
        "resolve",
        "examples/jobs/errors-to-vendor.json",
        "--templates",
        "examples/templates",
        "--provenance",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "quiet on success");
    let job = stdout_json(&out);
    assert_eq!(job["name"], "errors-to-vendor");
    assert_eq!(
        names(&job["jobGraph"]),
        [
            "ingest.source",
            "export.severity.filter",
            "export.enrich.tag",
            "export.vendor"
        ]
    );
    assert_eq!(
        job["jobGraph"]["edges"][0],
        "ingest.source:output -> export.severity.filter:input"
    );
    assert_eq!(
        job["provenance"]["export.severity.filter"]["templateVersion"],
        2
    );
    // $USER is the default user name.
    let transforms = job["jobGraph"]["vertices"][2]["transforms"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(transforms.last().unwrap()["values"][0], "cli-tester");
}

#[test]
fn resolve_refuses_a_job_past_max_resolved_vertices() {
    let resolve = |max: &str| {
        jobgraph(&[
            "resolve",
            "examples/jobs/errors-to-vendor.json",
            "--templates",
            "examples/templates",
            "--max-resolved-vertices",
            max,
        ])
    };
    // Its templates produce 4 vertices: 4 is allowed, 3 is not.
    let out = resolve("4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names(&stdout_json(&out)["jobGraph"]).len(), 4);
    let out = resolve("3");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Resolved graph too large: ")
            && stderr.contains("4 vertices, more than the maximum of 3 per resolution")
            && stderr.contains("(CLI `--max-resolved-vertices`)"),
        "{stderr}"
    );
}

#[test]
fn draft_example_has_preview_wiring() {
    let out = jobgraph(&[
        "resolve",
        "examples/jobs/draft-preview.json",
        "-t",
        "examples/templates",
        "--user",
        "ada",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let job = stdout_json(&out);
    assert!(names(&job["jobGraph"]).contains(&"enrich.preview".to_owned()));
    let edges = job["jobGraph"]["edges"].as_array().unwrap();
    assert!(
        edges.iter().any(|e| e == "enrich.preview -> preview-panel"),
        "{edges:?}"
    );
}

#[test]
fn failed_resolution_exits_1_with_contract_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("job.json");
    std::fs::write(
        &job,
        r#"{"vertices": [{"type": "template-operation", "name": "x", "templateId": "nope"}], "edges": []}"#,
    )
    .unwrap();
    let out = jobgraph(&[
        "resolve",
        job.to_str().unwrap(),
        "--templates",
        "examples/templates",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("Template not found: nope"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_usage_exits_2() {
    let out = jobgraph(&["resolve", "examples/jobs/errors-to-vendor.json"]);
    assert_eq!(out.status.code(), Some(2), "missing --templates");
    let out = jobgraph(&[
        "resolve",
        "no/such/file.json",
        "--templates",
        "examples/templates",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no/such/file.json"));
    let out = jobgraph(&[
        "template:test",
        "examples/templates/tag-enrich.json",
        "--values",
        "{oops",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--values is not valid JSON"));
}

#[test]
fn template_test_runs_one_template() {
    let out = jobgraph(&[
        "template:test",
        "examples/templates/tag-enrich.json",
        "--values",
        r#"{"tags": {"env": "dev"}}"#,
        "--draft",
        "--check-valid-job-graph",
        "--compact",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let graph = stdout_json(&out);
    assert_eq!(names(&graph), ["tag", "preview"]);

    let dir = tempfile::tempdir().unwrap();
    let values = dir.path().join("values.json");
    std::fs::write(&values, r#"{"sampleSize": 0}"#).unwrap();
    let arg = format!("@{}", values.display());
    let out = jobgraph(&[
        "template:test",
        "examples/templates/tag-enrich.json",
        "--values",
        &arg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("Input validation failed: /sampleSize:"),
        "{stderr}"
    );
    assert!(stderr.contains("tag-enrich@1"), "{stderr}");
}

#[test]
fn help_teaches() {
    let out = jobgraph(&["resolve", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Examples:") && help.contains("--provenance"),
        "{help}"
    );
    assert!(
        help.contains("[default: isolated]") && help.contains("For trusted templates only"),
        "{help}"
    );
    let short = jobgraph(&["-h"]);
    let short = String::from_utf8_lossy(&short.stdout);
    assert!(
        short.starts_with("Resolve data-pipeline job graphs that use templates"),
        "{short}"
    );
    // The example of `template:test --help` runs as written.
    let out = jobgraph(&["template:test", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let example = help
        .lines()
        .find_map(|l| l.trim().strip_prefix("jobgraph template:test "))
        .expect("an example line");
    let args: Vec<String> = shell_words(example);
    let mut full = vec!["template:test"];
    full.extend(args.iter().map(String::as_str));
    let out = jobgraph(&full);
    assert!(
        out.status.success(),
        "{example}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Splits a command line written with single quotes only (enough for the examples).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn a_resolution_stops_at_its_time_limit_in_the_default_mode() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("templates");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(
        folder.join("slow.json"),
        r#"{"id": "slow", "version": 1, "name": "Slow", "template": "let t = Date.now(); while (Date.now() - t < 300) {} ({vertices: [{type: 'x', name: 'v'}], edges: []})"}"#,
    )
    .unwrap();
    let ops: Vec<String> = (0..8)
        .map(|i| {
            format!(r#"{{"type": "template-operation", "name": "op{i}", "templateId": "slow"}}"#)
        })
        .collect();
    let job = dir.path().join("job.json");
    std::fs::write(
        &job,
        format!(r#"{{"vertices": [{}], "edges": []}}"#, ops.join(",")),
    )
    .unwrap();
    let out = jobgraph(&[
        "resolve",
        &job.to_string_lossy(),
        "-t",
        &folder.to_string_lossy(),
        "--resolution-timeout-ms",
        "500",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("JavaScript execution failed: resolution time limit of 500 ms exceeded"),
        "{stderr}"
    );
    assert!(stderr.contains("--resolution-timeout-ms"), "{stderr}");
    assert!(
        stderr.trim_end().ends_with(")") && stderr.contains("(template slow@1, operation op"),
        "{stderr}"
    );
}

#[test]
fn isolated_sandbox_stops_what_in_process_cannot_and_gives_the_same_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("templates");
    std::fs::create_dir(&folder).expect("templates folder");
    let template = r#"{"id": "hostile", "version": 2, "name": "Hostile",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#;
    std::fs::write(folder.join("hostile.json"), template).expect("write template");
    // Catastrophic backtracking: one native call that no in-process check interrupts.
    std::fs::write(
        folder.join("hostile.js"),
        "n > 0 ? /^(a+)+$/.test('a'.repeat(40) + 'b') : ({vertices: [{type: 'x', name: 'ok'}], edges: []})",
    )
    .expect("write script");
    let job = |n: i64| {
        let path = dir.path().join(format!("job{n}.json"));
        let text = format!(
            r#"{{"vertices": [{{"type": "template-operation", "name": "op", "templateId": "hostile", "templateInputs": {{"n": {n}}}}}], "edges": []}}"#
        );
        std::fs::write(&path, text).expect("write job");
        path
    };
    let templates = folder.to_string_lossy().into_owned();
    let calm = job(0);
    let calm = calm.to_string_lossy();
    let isolated = jobgraph(&[
        "resolve",
        &calm,
        "-t",
        &templates,
        "--sandbox",
        "isolated",
        "--compact",
    ]);
    let in_process = jobgraph(&[
        "resolve",
        &calm,
        "-t",
        &templates,
        "--sandbox",
        "in-process",
        "--compact",
    ]);
    assert!(
        isolated.status.success(),
        "{}",
        String::from_utf8_lossy(&isolated.stderr)
    );
    assert_eq!(isolated.stdout, in_process.stdout);

    // The default mode is the isolated one.
    let hostile = job(1);
    let out = jobgraph(&[
        "resolve",
        &hostile.to_string_lossy(),
        "-t",
        &templates,
        "--timeout-ms",
        "200",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "JavaScript execution failed: time limit of 200 ms exceeded (raise `timeoutMs`, CLI `--timeout-ms`) (template hostile@2, operation op)"
    );
}

/// `jobgraph sandbox-worker` (what the isolated mode starts) applies its seccomp filter before it
/// answers its first request, and runs scripts under it (`docs/sandbox.md`, "System calls").
#[cfg(target_os = "linux")]
#[test]
fn the_sandbox_worker_confines_itself_before_its_first_answer() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;

    // A descriptor the worker inherits (dup2 clears close-on-exec): it must not keep it.
    let inherited = tempfile::tempfile().expect("a temporary file");
    let inherited_fd = {
        use std::os::fd::AsRawFd;
        inherited.as_raw_fd()
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_jobgraph"));
    command
        .arg("sandbox-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: between fork and exec the closure only calls dup2.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(move || {
            if libc::dup2(inherited_fd, 10) == 10 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut worker = command.spawn().expect("the worker starts");
    let mut stdin = worker.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(worker.stdout.take().expect("piped stdout"));
    let request = serde_json::json!({"id": 7_461_113, "request": {
        "source": "({vertices: [{type: 't', name: 'v' + n}], edges: []})",
        "declared": ["n"],
        "variables": {"n": 1},
        "user": "cli-tester"
    }});
    writeln!(stdin, "{request}").expect("request written");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("an answer");
    let answer: Value = serde_json::from_str(&line).expect("the answer is JSON");
    assert_eq!(
        answer["result"]["Ok"]["value"]["vertices"][0]["name"], "v1",
        "the script ran under the filter: {answer}"
    );
    assert_eq!(
        answer["id"], 7_461_113,
        "the answer echoes the request's id"
    );

    let status = std::fs::read_to_string(format!("/proc/{}/status", worker.id()))
        .expect("the worker's /proc status");
    assert!(
        status.lines().any(|l| l == "Seccomp:\t2"),
        "the worker runs in seccomp filter mode:\n{status}"
    );
    // stdin, stdout, stderr and its own /proc/self/status: nothing inherited.
    let mut open: Vec<u32> = std::fs::read_dir(format!("/proc/{}/fd", worker.id()))
        .expect("the worker's descriptors")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    open.sort_unstable();
    assert_eq!(open, [0, 1, 2, 3], "the worker's open descriptors");

    drop(stdin);
    let ended = worker.wait().expect("the worker ends when stdin closes");
    let mut stderr = String::new();
    worker
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr)
        .expect("stderr read");
    assert!(ended.success(), "worker exit: {ended}, stderr: {stderr}");
    assert_eq!(stderr, "", "no warning: the filter was applied");
}

/// On a host that refuses the filter (here: the command runs under a filter of its own that
/// answers `seccomp` with `EPERM`, as some containers do), scripts still run, and the warning
/// that they run unconfined reaches the user once, on the command's stderr.
#[cfg(target_os = "linux")]
#[test]
fn a_host_that_refuses_the_worker_filter_is_told_once() {
    use std::collections::BTreeMap;
    use std::os::unix::process::CommandExt;

    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};

    let refuse_seccomp = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_seccomp, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        TargetArch::try_from(std::env::consts::ARCH).expect("a known processor"),
    )
    .expect("filter");
    let program: seccompiler::BpfProgram = refuse_seccomp.try_into().expect("BPF program");
    let mut command = Command::new(env!("CARGO_BIN_EXE_jobgraph"));
    command.current_dir(root()).args([
        "template:test",
        "examples/templates/tag-enrich.json",
        "--values",
        r#"{"tags": {"env": "dev"}}"#,
        "--compact",
    ]);
    // SAFETY: between fork and exec the closure only calls prctl and seccomp on a program built
    // before the fork (no allocation on success).
    unsafe {
        command
            .pre_exec(move || seccompiler::apply_filter(&program).map_err(std::io::Error::other));
    }
    let out = command.output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(names(&stdout_json(&out)), ["tag"]);
    let warning = stderr.trim_end();
    assert!(
        warning.starts_with("jobgraph sandbox-worker: the kernel refused the system-call filter: ")
            && warning.ends_with("; scripts run without system-call confinement")
            && warning.lines().count() == 1,
        "one warning line, got: {stderr}"
    );
}

/// `jobgraph resolve` accepts the public Terraform provider's example pipeline offline: its
/// `grok-parser` has `grokParsingRules` as an array (grepr/terraform-provider-grepr,
/// `examples/resources/grepr_pipeline/pipeline.json`); a rules field of another shape is
/// refused naming it.
#[test]
fn resolve_accepts_grok_rules_as_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let graph = serde_json::json!({
        "vertices": [
            {"type": "datadog-log-agent-source", "name": "source", "integrationId": "your-integration-id"},
            {"type": "grok-parser", "name": "parser",
             "grokParsingRules": ["%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} %{GREEDYDATA:message}"]},
            {"type": "logs-iceberg-table-sink", "name": "sink", "datasetId": "your-dataset-id"}
        ],
        "edges": ["source -> parser", "parser -> sink"]
    });
    let file = dir.path().join("pipeline.json");
    std::fs::write(&file, graph.to_string()).unwrap();
    let templates = dir.path().join("templates");
    std::fs::create_dir(&templates).unwrap();
    let args = [
        "resolve",
        file.to_str().unwrap(),
        "--templates",
        templates.to_str().unwrap(),
    ];
    let out = jobgraph(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout_json(&out), graph);

    let mut bad = graph.clone();
    bad["vertices"][1]["grokHelperRules"] = serde_json::json!({"h": 1});
    std::fs::write(&file, bad.to_string()).unwrap();
    let out = jobgraph(&args);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("grokHelperRules") && stderr.contains("an array of strings"),
        "{stderr}"
    );
}
