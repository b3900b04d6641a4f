//! Configured limits of `jobgraph serve` (a config file): token expiry, the per-organization
//! quota of script runs (429), the body limit (413), and the first start with no client.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Server, request};
use serde_json::json;

/// A server whose tokens live one second, that lets an organization run one script request
/// at a time, and takes bodies of 4 KiB at most.
fn tight() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let config = dir.join("serve.json");
        std::fs::write(
            &config,
            json!({
                "tokenTtlSeconds": 1,
                "maxConcurrentScripts": 1,
                "maxBodyBytes": 4096,
                "limits": {"timeoutMs": 1500, "loopIterations": 1_000_000_000_000_u64},
                "clients": [{"id": "carol", "secret": "carol-secret", "organization": "initech"},
                            {"id": "dave", "secret": "dave-secret", "organization": "umbrella"}]
            })
            .to_string(),
        )
        .unwrap();
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
        Server::start_in(&dir, &["--config", config.to_str().unwrap()])
    })
}

#[test]
fn tokens_expire() {
    let server = tight();
    let issued = Instant::now();
    let r = server.call(
        "POST",
        "/oauth/token",
        None,
        Some(&json!({"client_id": "carol", "client_secret": "carol-secret", "grant_type": "client_credentials"})),
    );
    assert_eq!(r.json()["expires_in"], 1);
    let token = r.json()["access_token"].as_str().unwrap().to_owned();
    assert_eq!(
        server
            .call("GET", "/v1/templates", Some(&token), None)
            .status,
        200
    );
    // The token expires one second after it was issued: poll until it does.
    let r = loop {
        let r = server.call("GET", "/v1/templates", Some(&token), None);
        if r.status != 200 || issued.elapsed() > Duration::from_secs(5) {
            break r;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(
        r.header("www-authenticate"),
        Some("Bearer error=\"invalid_token\"")
    );
    assert!(r.error().contains("expired"), "{}", r.body);
    assert!(issued.elapsed() >= Duration::from_millis(1000));
}

#[test]
fn an_organization_over_its_script_quota_gets_429() {
    let server = tight();
    let carol = server.token("carol", "carol-secret");
    let dave = server.token("dave", "dave-secret");
    let spin = json!({"template": {"template": "while (true) {}"}});
    let light = json!({"template": {"template": "({vertices: [], edges: []})"}});
    std::thread::scope(|scope| {
        // The spinning request retries until it holds carol's one slot (a light request of
        // hers may hold it for a moment); meanwhile light requests poll until one is refused.
        let busy = scope.spawn(|| {
            loop {
                let r = server.call("POST", "/v1/templates/test", Some(&carol), Some(&spin));
                if r.status != 429 {
                    break r;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(10);
        let refused = loop {
            std::thread::sleep(Duration::from_millis(20));
            let r = server.call("POST", "/v1/templates/test", Some(&carol), Some(&light));
            if r.status == 429 || Instant::now() > deadline {
                break r;
            }
        };
        assert_eq!(refused.status, 429, "{}", refused.body);
        assert_eq!(refused.header("retry-after"), Some("1"));
        assert!(refused.error().contains("initech"));
        // Another organization is not affected.
        let r = server.call("POST", "/v1/templates/test", Some(&dave), Some(&light));
        assert_eq!(r.status, 200, "{}", r.body);
        let r = busy.join().unwrap();
        assert_eq!(r.status, 400);
        assert!(r.error().contains("time limit of 1500 ms"), "{}", r.body);
    });
    // Tokens here live one second: a fresh one.
    let carol = server.token("carol", "carol-secret");
    let r = server.call("POST", "/v1/templates/test", Some(&carol), Some(&light));
    assert_eq!(r.status, 200, "the slot is given back");
}

#[test]
fn the_body_limit_is_configurable() {
    let server = tight();
    let token = server.token("dave", "dave-secret");
    let big = json!({"name": "big", "template": "x".repeat(5000)});
    let r = server.call("POST", "/v1/templates", Some(&token), Some(&big));
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.error().contains("4096 bytes"));
    // A trigger's payload has a limit of its own (64 KiB by default), which the body limit
    // does not raise; either answers 413 before any of the body is read.
    let job = server.call(
        "POST",
        "/v1/jobs",
        Some(&token),
        Some(
            &json!({"name": "j", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
            "jobGraph": {"vertices": [], "edges": []}}),
        ),
    );
    assert_eq!(job.status, 201, "{}", job.body);
    let body = "y".repeat(5000);
    let r = request(
        server.addr,
        "POST",
        &format!("/v1/triggers?job={}", job.json()["id"].as_str().unwrap()),
        &[("Content-Type".into(), "application/json".into())],
        Some(format!("\"{body}\"").as_bytes()),
    );
    assert_eq!(r.status, 413);
}

#[test]
fn config_files_with_secrets_must_be_private() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("open.json");
    std::fs::write(
        &config,
        json!({"clients": [{"id": "a", "secret": "b"}]}).to_string(),
    )
    .unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(["serve", "--addr", "127.0.0.1:0", "--config"])
        .arg(&config)
        .arg("--data")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("chmod 600"), "{stderr}");
    assert!(!stderr.contains("\"b\""));
    std::fs::write(&config, json!({"tokenTTL": 5}).to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(["serve", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown setting \"tokenTTL\""));
}

#[test]
fn help_teaches_with_an_example() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "--addr",
        "--data",
        "--client",
        "--config",
        "Examples:",
        "oauth/token",
    ] {
        assert!(help.contains(expected), "{expected} missing from {help}");
    }
}
