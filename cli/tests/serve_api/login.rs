//! Issue 40: people log in. The real service with `login.users`; authlib (PyPI) as the OAuth
//! client doing the authorization code flow with PKCE, refreshes, and the refusals
//! (tests/peers/oauth_login.py); what a person writes is theirs (`editedBy`).

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use crate::common::Server;

const PASSWORD: &str = "correct horse battery staple";

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs tests/peers/oauth_login.py against `server`; its summary.
fn oauth_login(server: &Server) -> Value {
    let python = std::env::var_os("JOBGRAPH_PEERS_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers-venv/bin/python"));
    let out = Command::new(&python)
        .arg(workspace().join("tests/peers/oauth_login.py"))
        .args(["--url", &server.url(), "--org", "acme", "--user", "alice"])
        .args(["--password", PASSWORD])
        .output()
        .unwrap_or_else(|e| panic!("{} (scripts/setup.sh makes it): {e}", python.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            panic!(
                "oauth_login.py printed no summary: {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    assert!(
        out.status.success() && summary["ok"] == true,
        "oauth_login.py failed: {summary}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stderr),
        server.log()
    );
    summary
}

fn login_server() -> Server {
    Server::start_with_config(
        &json!({"login": {"users": [
            {"name": "alice", "organization": "acme", "password": PASSWORD, "role": "Admin"}]}}),
        &["--client", "ci:ci-secret-123:acme"],
    )
}

#[test]
fn a_person_logs_in_with_authlib_code_and_pkce_refreshes_and_every_replay_is_refused() {
    let server = login_server();
    let summary = oauth_login(&server);
    let checks = &summary["checks"];
    assert_eq!(checks["login"]["expires_in"], 86400, "{summary}");
    for check in [
        "api_as_person",
        "refresh",
        "refresh_reuse",
        "family_revoked",
        "code_reuse",
        "wrong_verifier",
        "wrong_password",
        "foreign_redirect",
        "plain_pkce",
        "csrf",
    ] {
        assert!(
            checks.get(check).is_some(),
            "check {check} did not run: {summary}"
        );
    }
    assert_eq!(
        checks["wrong_password"]["error"], checks["wrong_password"]["unknown_error"],
        "a wrong password and an unknown user read the same"
    );
    // Nothing secret in the log: no password, no code, no token.
    let log = server.log();
    assert!(!log.contains(PASSWORD), "the password is in the log");
    assert!(log.contains("login: a code given"), "{log}");
}

#[test]
fn the_login_form_needs_no_script_and_allows_none() {
    let server = login_server();
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    let r = server.call(
        "GET",
        &format!(
            "/oauth/authorize?response_type=code&client_id=jobgraph-cli&redirect_uri=http%3A%2F%2Facme.app.localhost%3A3000&code_challenge={challenge}&code_challenge_method=S256&state=s1"
        ),
        None,
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("<form method=\"post\""), "{}", r.body);
    assert!(!r.body.contains("<script"), "{}", r.body);
    // The organization comes from the public client's redirect host.
    assert!(r.body.contains("value=\"acme\""), "{}", r.body);
    let csp = r.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(r.header("x-frame-options"), Some("DENY"));
    let cookie = r.header("set-cookie").unwrap_or_default();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    // An unknown client: a page, no form.
    let r = server.call(
        "GET",
        &format!(
            "/oauth/authorize?response_type=code&client_id=stranger&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2F&code_challenge={challenge}&code_challenge_method=S256"
        ),
        None,
        None,
    );
    assert_eq!(r.status, 400);
    assert!(!r.body.contains("<form"), "{}", r.body);
    assert!(r.body.contains("stranger"), "{}", r.body);
}
