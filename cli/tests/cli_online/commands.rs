//! Every command against the service (templates, template tests, jobs, resolve), shell
//! completions, and the help of every command.

use super::*;

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
    // job:run --remote: the service's templates, the run here; the same events as a run of
    // the job resolved beforehand.
    let events = work.path().join("events.ndjson");
    std::fs::write(
        &events,
        "{\"id\":\"1\",\"tags\":{\"level\":[\"warn\"]}}\n{\"id\":\"2\",\"tags\":{\"level\":[\"info\"]}}\n{\"id\":\"3\",\"tags\":{\"level\":[\"warn\"]}}\n",
    )
    .unwrap();
    let resolved_file = work.path().join("resolved.json");
    std::fs::write(&resolved_file, local.to_string()).unwrap();
    let events_arg = events.to_str().unwrap();
    let remote_run = home.run(
        &[
            "job:run",
            job_arg,
            "--events",
            events_arg,
            "--remote",
            "--sandbox",
            "in-process",
            "-q",
        ],
        &env,
    );
    let local_run = home.run(
        &[
            "job:run",
            resolved_file.to_str().unwrap(),
            "--events",
            events_arg,
            "-q",
        ],
        &[],
    );
    assert_eq!(remote_run.ok().stdout, local_run.ok().stdout);
    assert_eq!(
        remote_run.stdout.lines().count(),
        2,
        "{}",
        remote_run.stdout
    );
    let r = home.run(&["job:run", job_arg, "--events", events_arg], &[]);
    assert!(r.fails(2).contains("--remote"), "{}", r.stderr);
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
    // An id that starts with `-` is an id, not an option (ids made before the server stopped
    // making them, or typed by hand), and still leaves the flags around it readable.
    for args in [
        &["job:get", "-Yw3bZ0notthere"][..],
        &["job:get", "-f", "compact", "-Yw3bZ0notthere"],
        &["template:get", "-Yw3bZ0notthere", "-f", "pretty"],
        &["dataset:get", "-Yw3bZ0notthere"],
    ] {
        let r = home.run(args, &env);
        assert!(
            r.fails(1).starts_with("not found: "),
            "{args:?}: {}",
            r.stderr
        );
    }
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

/// `job:create` of a SYNCHRONOUS BATCH job: the service runs it on its inline events, the
/// command prints the status markers and the events that reached the sink.
#[test]
fn job_create_of_a_synchronous_batch_job_prints_its_events() {
    let home = Home::new();
    let env = home.configure("local", "sync-runner");
    let work = tempfile::tempdir().unwrap();
    let job = work.path().join("sync.json");
    std::fs::write(
        &job,
        r#"{"name": "sync-batch", "execution": "SYNCHRONOUS", "processing": "BATCH",
            "jobGraph": {"vertices": [
              {"type": "logs-values-source", "name": "src", "values": [
                {"id": "a", "message": "disk full", "tags": {"level": ["error"]}, "eventTimestamp": "2026-11-25T12:00:01Z"},
                {"id": "b", "message": "ok", "tags": {"level": ["info"]}, "eventTimestamp": "2026-11-25T12:00:02Z"}]},
              {"type": "logs-filter", "name": "f", "query": {"type": "datadog-query", "predicate": "level:error"}},
              {"type": "logs-sync-sink", "name": "out"}],
              "edges": ["src -> f", "f -> out"]}}"#,
    )
    .unwrap();
    let r = home.run(&["job:create", job.to_str().unwrap(), "-f", "raw"], &env);
    r.ok();
    assert_eq!(
        r.stderr,
        "[CONNECTING]\n[CONNECTED]\n[RUNNING]\n[FINISHED]\n"
    );
    let events: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{}", r.stdout);
    assert_eq!(events[0]["id"], "a");
}
