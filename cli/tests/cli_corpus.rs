//! The adversarial corpus (`tests/adversarial/cases.json`) through the `jobgraph` binary, the
//! way a user meets it: one `jobgraph resolve` process per case, limits given as flags.
//!
//! In the default mode (isolated) every case must end with exit 0 or a clean contract error
//! (exit 1, a known prefix, the expected limit named) within 1.5× its time limit plus start-up,
//! and within its memory cap plus the binary's own footprint (the process tree's peak
//! resident set, from `wait4`). With `--sandbox in-process` no case may end the process with a
//! signal or hang; cases the corpus marks `isolated-only` are left out there (docs/sandbox.md
//! lists them and why).

#[path = "common/corpus.rs"]
mod corpus;

use corpus::{corpus_dir, corpus_json, schema_json};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    name: String,
    script: Scripts,
    /// Inline, or the path of a JSON file in the corpus folder (large values).
    #[serde(default)]
    inputs: Value,
    /// The template's `inputSchema` (default `{"type": "object"}`): inline or a file's path.
    #[serde(default)]
    input_schema: Option<Value>,
    #[serde(default)]
    limits: Map<String, Value>,
    expect: Expect,
    #[serde(default)]
    in_process: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Scripts {
    One(String),
    Sequence(Vec<String>),
}

#[derive(Debug, Deserialize)]
struct Expect {
    limit: Option<String>,
}

/// What one run of the binary did.
struct Run {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    elapsed: Duration,
    /// Peak resident set of the process and the workers it waited for, in bytes.
    peak_rss: u64,
}

/// Prefixes a clean failure starts with (the interface document's, and ours).
const PREFIXES: [&str; 5] = [
    "JavaScript execution failed: ",
    "Script execution returned null or undefined",
    "Could not parse resolved template into a JobGraph",
    "Input validation failed: ",
    "Invalid template: ",
];

/// Start-up and shutdown of the CLI and its worker (a debug build on a loaded CI machine).
const START_UP: Duration = Duration::from_millis(1500);
/// The binary's own footprint over a script's memory cap: its realm, the 64 MiB script stack
/// a deep recursion touches, the result's text.
const FOOTPRINT: u64 = 160 * 1024 * 1024;

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus_dir().join("cases.json")).expect("cases.json");
    serde_json::from_str(&text).expect("cases.json is valid")
}

/// Writes the case's templates (one per script) and a job running them in order.
fn write_case(case: &Case, dir: &Path) -> PathBuf {
    let scripts = match &case.script {
        Scripts::One(p) => vec![p.clone()],
        Scripts::Sequence(ps) => ps.clone(),
    };
    let templates = dir.join("templates");
    std::fs::create_dir_all(&templates).expect("templates folder");
    let mut vertices = Vec::new();
    for (i, path) in scripts.iter().enumerate() {
        let source = std::fs::read_to_string(corpus_dir().join(path)).expect("script exists");
        let id = format!("adv{i}");
        let template = json!({"id": id, "version": 1, "name": case.name,
                              "inputSchema": schema_json(case.input_schema.as_ref())});
        std::fs::write(templates.join(format!("{id}.json")), template.to_string())
            .expect("write template");
        std::fs::write(templates.join(format!("{id}.js")), source).expect("write script");
        vertices.push(
            json!({"type": "template-operation", "name": format!("op{i}"),
                             "templateId": id, "templateInputs": corpus_json(&case.inputs)}),
        );
    }
    let job = dir.join("job.json");
    std::fs::write(&job, json!({"vertices": vertices, "edges": []}).to_string())
        .expect("write job");
    job
}

fn flags(limits: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    for (key, value) in limits {
        let n = value.as_u64().expect("limits are numbers");
        let (flag, n) = match key.as_str() {
            "timeoutMs" => ("--timeout-ms", n),
            "maxMemoryBytes" => ("--max-memory-mb", n >> 20),
            "loopIterations" => ("--loop-iterations", n),
            "recursionDepth" => ("--recursion-depth", n),
            "maxOutputVertices" => ("--max-output-vertices", n),
            "maxOutputBytes" => ("--max-output-bytes", n),
            "maxNesting" => ("--max-nesting", n),
            "resolutionTimeoutMs" => ("--resolution-timeout-ms", n),
            other => panic!("no CLI flag for the limit {other}"),
        };
        out.push(flag.to_owned());
        out.push(n.to_string());
    }
    out
}

/// Runs the binary, killing it after `patience`; `None` when it had to be killed.
fn run(args: &[String], patience: Duration) -> Option<Run> {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let pid = child.id() as libc::pid_t;
    let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });
    // A watchdog: a case that hangs is reported, not waited for forever.
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(patience).is_err() {
            // SAFETY: plain kill(2) of our own child, which is not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return true;
        }
        false
    });
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child's pid with valid out-pointers; std never reaps it since
    // `child.wait()` is not called.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    let _ = done.send(());
    let killed = watchdog.join().unwrap_or(false);
    let stderr = reader.join().unwrap_or_default();
    std::mem::forget(child);
    assert_eq!(reaped, pid, "wait4 failed");
    if killed {
        return None;
    }
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else {
        (
            None,
            libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        )
    };
    Some(Run {
        code,
        signal,
        stderr,
        elapsed,
        peak_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
    })
}

/// The message a limit of the case reports, as `Limits::hit` writes it.
fn limit_message(kind: &str, limits: &Map<String, Value>) -> String {
    let mut merged = serde_json::to_value(jobgraph_core::Limits::default()).expect("serialize");
    if let Value::Object(map) = &mut merged {
        map.extend(limits.clone());
    }
    let limits: jobgraph_core::Limits = serde_json::from_value(merged).expect("limits");
    let kind: jobgraph_core::LimitKind = serde_json::from_value(json!(kind)).expect("kind");
    format!("JavaScript execution failed: {}", limits.hit(kind))
}

/// One mode at a time: the isolated run's times must not include the other mode's load.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn check_mode(mode: &str) {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        if mode == "in-process" && case.in_process.is_some() {
            continue;
        }
        ran += 1;
        let dir = tempfile::tempdir().expect("temp dir");
        let job = write_case(&case, dir.path());
        let mut args = vec![
            "resolve".to_owned(),
            job.to_string_lossy().into_owned(),
            "--templates".to_owned(),
            dir.path().join("templates").to_string_lossy().into_owned(),
            "--sandbox".to_owned(),
            mode.to_owned(),
        ];
        args.extend(flags(&case.limits));
        let timeout = case
            .limits
            .get("timeoutMs")
            .and_then(Value::as_u64)
            .unwrap_or(1000);
        let memory = case
            .limits
            .get("maxMemoryBytes")
            .and_then(Value::as_u64)
            .unwrap_or(256 << 20);
        let scripts = match &case.script {
            Scripts::One(_) => 1,
            Scripts::Sequence(ps) => ps.len() as u64,
        };
        let allowed = Duration::from_millis(timeout * 3 / 2 * scripts) + START_UP;
        let Some(run) = run(&args, allowed * 4 + Duration::from_secs(10)) else {
            failures.push(format!("{}: hung (killed by the test)", case.name));
            continue;
        };
        let name = &case.name;
        let first_line = run.stderr.lines().next().unwrap_or("").to_owned();
        if let Some(signal) = run.signal {
            failures.push(format!("{name}: ended by signal {signal}: {first_line}"));
            continue;
        }
        match run.code {
            Some(0) => {}
            Some(1) if PREFIXES.iter().any(|p| run.stderr.starts_with(p)) => {}
            other => {
                failures.push(format!("{name}: exit {other:?}: {first_line}"));
                continue;
            }
        }
        if let Some(kind) = &case.expect.limit {
            let wanted = limit_message(kind, &case.limits);
            if !run.stderr.starts_with(&wanted) {
                failures.push(format!("{name}: expected `{wanted}…`, got `{first_line}`"));
            }
        }
        if mode == "isolated" {
            if run.elapsed > allowed {
                failures.push(format!(
                    "{name}: took {:?}, allowed {allowed:?}",
                    run.elapsed
                ));
            }
            if run.peak_rss > memory + FOOTPRINT {
                failures.push(format!(
                    "{name}: peak resident {} MiB, over the cap {} MiB + footprint",
                    run.peak_rss >> 20,
                    memory >> 20
                ));
            }
        }
    }
    eprintln!(
        "{mode}: {ran} cases through the CLI, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{mode}:\n{}", failures.join("\n"));
}

#[test]
fn corpus_through_the_cli_in_its_default_isolated_mode() {
    check_mode("isolated");
}

#[test]
fn corpus_through_the_cli_in_process_never_ends_with_a_signal() {
    check_mode("in-process");
}
