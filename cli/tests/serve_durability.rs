//! Durability of `jobgraph serve`: the generated first client, kill -9 in the middle of
//! writes, restart keeping every acknowledged write (and tokens), graceful SIGTERM.

mod common;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{Server, filter_template, job_using};
use serde_json::json;

#[derive(Debug, Default)]
struct Acknowledged {
    /// Template id → highest acknowledged version.
    templates: Vec<(String, u64)>,
    deleted_templates: Vec<String>,
    /// Job id → acknowledged version.
    jobs: Vec<(String, u64)>,
    triggers: usize,
}

#[test]
fn kill_9_loses_no_acknowledged_write_and_restart_keeps_everything() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start_in(dir.path(), &[]);
    // First start with no client: one is generated for organization `default`.
    let (id, secret) = server.generated.clone().expect("a generated ID:SECRET");
    assert!(id.starts_with("client-") && secret.len() >= 32);
    let token = server.token(&id, &secret);
    let seed = server.call(
        "POST",
        "/v1/templates",
        Some(&token),
        Some(&filter_template("seed")),
    );
    assert_eq!(seed.json()["organizationId"], "default");
    let seed = seed.json()["id"].as_str().unwrap().to_owned();
    // Triggers name a job.
    let triggered = server.call(
        "POST",
        "/v1/jobs",
        Some(&token),
        Some(&job_using("triggered", &seed, "error")),
    );
    assert_eq!(triggered.status, 201, "{}", triggered.body);
    let trigger_path = format!(
        "/v1/triggers?job={}",
        triggered.json()["id"].as_str().unwrap()
    );

    let acknowledged = Mutex::new(Acknowledged::default());
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for writer in 0..4 {
            let (acknowledged, stop, token, seed) = (&acknowledged, &stop, &token, &seed);
            let trigger_path = &trigger_path;
            let server = &server;
            scope.spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    // A failed request (the server is gone) is simply not acknowledged.
                    match (writer + n) % 4 {
                        0 => {
                            let r = server.try_call(
                                "POST",
                                "/v1/templates",
                                Some(token),
                                Some(&filter_template(&format!("w{writer}-{n}"))),
                            );
                            if r.status == 201 {
                                let t = r.json();
                                acknowledged
                                    .lock()
                                    .unwrap()
                                    .templates
                                    .push((t["id"].as_str().unwrap().into(), 1));
                            }
                        }
                        1 => {
                            let r = server.try_call(
                                "PUT",
                                &format!("/v1/templates/{seed}"),
                                Some(token),
                                Some(&filter_template("seed again")),
                            );
                            if r.status == 200 {
                                let v = r.json()["version"].as_u64().unwrap();
                                acknowledged
                                    .lock()
                                    .unwrap()
                                    .templates
                                    .push((seed.clone(), v));
                            }
                        }
                        2 => {
                            let r = server.try_call(
                                "POST",
                                "/v1/jobs",
                                Some(token),
                                Some(&job_using(&format!("job {writer}-{n}"), seed, "error")),
                            );
                            if r.status == 201 {
                                let j = r.json();
                                acknowledged
                                    .lock()
                                    .unwrap()
                                    .jobs
                                    .push((j["id"].as_str().unwrap().into(), 1));
                            }
                        }
                        _ => {
                            let r = server.try_call(
                                "POST",
                                "/v1/templates",
                                Some(token),
                                Some(&filter_template("doomed")),
                            );
                            if r.status == 201 {
                                let doomed = r.json()["id"].as_str().unwrap().to_owned();
                                let r = server.try_call(
                                    "DELETE",
                                    &format!("/v1/templates/{doomed}"),
                                    Some(token),
                                    None,
                                );
                                let mut ack = acknowledged.lock().unwrap();
                                // An unanswered delete may or may not have happened: only
                                // an answered one (either way) is checked.
                                match r.status {
                                    204 => ack.deleted_templates.push(doomed),
                                    0 => {}
                                    _ => ack.templates.push((doomed, 1)),
                                }
                            }
                            let r =
                                server.try_call("POST", trigger_path, None, Some(&json!({"n": n})));
                            if r.status == 202 {
                                acknowledged.lock().unwrap().triggers += 1;
                            }
                        }
                    }
                }
            });
        }
        // Kill the server in the middle of the writes, once enough of them were acknowledged.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ack = acknowledged.lock().unwrap();
            if ack.templates.len() + ack.jobs.len() >= 60 || Instant::now() > deadline {
                break;
            }
            drop(ack);
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: kill(2) on the child this test started.
        unsafe {
            libc::kill(server.child.id() as libc::pid_t, libc::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
    });
    server.kill9();
    let ack = acknowledged.into_inner().unwrap();
    assert!(ack.templates.len() + ack.jobs.len() >= 60, "{ack:?}");

    // Restart on the same folder: no new client is generated, the old token still works.
    let server = Server::start_in(dir.path(), &[]);
    assert!(server.generated.is_none(), "{:?}", server.banner);
    assert!(
        server
            .banner
            .iter()
            .any(|l| l == "1 API client(s) configured"),
        "{:?}",
        server.banner
    );
    for (template, version) in &ack.templates {
        let r = server.call(
            "GET",
            &format!("/v1/templates/{template}?version={version}"),
            Some(&token),
            None,
        );
        assert_eq!(
            r.status, 200,
            "template {template} v{version} lost: {}",
            r.body
        );
    }
    let latest = server.call(
        "GET",
        &format!("/v1/templates/{seed}?latest=true"),
        Some(&token),
        None,
    );
    let max = ack
        .templates
        .iter()
        .filter(|(t, _)| *t == seed)
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(1);
    assert!(latest.json()["items"][0]["version"].as_u64().unwrap() >= max);
    let all = server.call("GET", &format!("/v1/templates/{seed}"), Some(&token), None);
    let versions: Vec<u64> = all.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["version"].as_u64().unwrap())
        .collect();
    assert_eq!(
        versions,
        (1..=versions.len() as u64).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
    for template in &ack.deleted_templates {
        let r = server.call(
            "GET",
            &format!("/v1/templates/{template}"),
            Some(&token),
            None,
        );
        assert_eq!(r.status, 404, "deleted template {template} came back");
    }
    for (job, _) in &ack.jobs {
        let r = server.call(
            "GET",
            &format!("/v1/jobs/{job}?resolved=true"),
            Some(&token),
            None,
        );
        assert_eq!(r.status, 200, "job {job} lost");
        assert_eq!(r.json()["jobGraph"]["vertices"][1]["name"], "errors.f");
    }
    assert!(ack.triggers > 0);
}

#[test]
fn sigterm_finishes_in_flight_requests_then_stops() {
    let server = Server::start(&["--client", "erin:erin-secret"]);
    let token = server.token("erin", "erin-secret");
    std::thread::scope(|scope| {
        let slow = scope.spawn(|| {
            server.call(
                "POST",
                "/v1/templates/test",
                Some(&token),
                Some(&json!({"template": {"template": "while (true) {}"}})),
            )
        });
        // Wait until the request is in flight (its log line comes at the end, so poll the
        // server with a read that must still be answered before the signal).
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill(2) on the child this test started.
        unsafe {
            libc::kill(server.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let r = slow.join().unwrap();
        assert_eq!(
            r.status, 400,
            "the in-flight request got its answer: {}",
            r.body
        );
        assert!(r.error().starts_with("JavaScript execution failed"));
    });
    let mut child = server;
    let status = child.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// A data folder belongs to one process (`sqliteAccess` "exclusive", the default): a second
/// `jobgraph serve` on it stops at once with a message that says so, and the first one keeps
/// serving.
#[test]
fn a_second_server_on_the_same_data_folder_is_refused() {
    if common::postgres_url().is_some() {
        return; // the database is PostgreSQL's, which serves many processes
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_in(dir.path(), &["--client", "erin:erin-secret"]);
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(dir.path().join("db"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{stderr}");
    assert!(
        stderr.contains("is in use by another process")
            && stderr.contains("jobgraph.db")
            && stderr.contains("another `--data` folder"),
        "{stderr}"
    );
    assert!(
        !String::from_utf8_lossy(&second.stdout).contains("ready"),
        "the second server never became ready"
    );
    let token = server.token("erin", "erin-secret");
    let r = server.call("GET", "/v1/templates", Some(&token), None);
    assert_eq!(r.status, 200, "{}", r.body);
}
