//! Issue 40: people log in. The real service with `login.users`; authlib (PyPI) as the OAuth
//! client doing the authorization code flow with PKCE, refreshes, and the refusals
//! (tests/peers/oauth_login.py); what a person writes is theirs (`editedBy`).

use std::process::Command;

use serde_json::{Value, json};

use crate::common::Server;

const PASSWORD: &str = "correct horse battery staple";

/// Runs tests/peers/oauth_login.py against `server`; its summary.
fn oauth_login(server: &Server) -> Value {
    let url = server.url();
    let args = [
        "--url",
        &url,
        "--org",
        "acme",
        "--user",
        "alice",
        "--password",
        PASSWORD,
    ];
    crate::common::peer("oauth_login.py", &args)
}

fn login_server() -> Server {
    Server::start_with_config(
        &json!({"login": {"users": [
            {"name": "alice", "organization": "acme", "password": PASSWORD, "role": "Admin"},
            {"name": "rita", "organization": "acme", "password": PASSWORD, "role": "Reader"}]}}),
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

/// The login form at `url` (a path and query of `server`) filled in and posted as a browser
/// would: the 303's `Location`.
fn fill_the_form(server: &Server, url: &str, password: &str) -> String {
    fill_the_form_as(server, url, "alice", password)
}

/// [`fill_the_form`] as `user`, posted where the form's relative `action` points from `url`.
fn fill_the_form_as(server: &Server, url: &str, user: &str, password: &str) -> String {
    let page = crate::common::request(server.addr, "GET", url, &[], None);
    assert_eq!(page.status, 200, "{}", page.body);
    let cookie = page
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .expect("the CSRF cookie")
        .to_owned();
    let mut fields: Vec<(String, String)> = page
        .body
        .split("<input type=\"hidden\" ")
        .skip(1)
        .filter_map(|rest| {
            let name = rest.split("name=\"").nth(1)?.split('"').next()?;
            let value = rest.split("value=\"").nth(1)?.split('"').next()?;
            Some((
                name.to_owned(),
                value.replace("&amp;", "&").replace("&quot;", "\""),
            ))
        })
        .collect();
    for (k, v) in [
        ("organization", "acme"),
        ("username", user),
        ("password", password),
    ] {
        fields.push((k.to_owned(), v.to_owned()));
    }
    let body = serde_urlencoded::to_string(&fields).unwrap();
    let action = url.split('?').next().unwrap_or(url);
    let posted = crate::common::request(
        server.addr,
        "POST",
        action,
        &[
            (
                "Content-Type".into(),
                "application/x-www-form-urlencoded".into(),
            ),
            ("Cookie".into(), cookie),
        ],
        Some(body.as_bytes()),
    );
    assert_eq!(posted.status, 303, "{}", posted.body);
    posted.header("location").expect("a Location").to_owned()
}

/// `jobgraph` with `HOME` = `home` against `server`; (status, stdout, stderr).
fn cli(home: &std::path::Path, server: &Server, args: &[&str]) -> (i32, String, String) {
    let url = server.url();
    let mut all = vec!["--api-base-url", url.as_str()];
    all.extend_from_slice(args);
    cli_plain(home, &all)
}

/// Plays the person at the browser for a `jobgraph` process logging in: the address it
/// printed on stderr opened, the form filled, the redirect brought to its loopback listener.
/// The process's exit status and the rest of its stderr.
fn log_in_in_a_browser(
    server: &Server,
    child: &mut std::process::Child,
) -> (std::process::ExitStatus, Vec<String>) {
    use std::io::{BufRead, BufReader};
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.trim().strip_prefix(&server.url()).map(str::to_owned))
        .expect("the login address on stderr");
    assert!(
        url.starts_with("/oauth/authorize?response_type=code&client_id=jobgraph-cli"),
        "{url}"
    );
    let location = fill_the_form(server, &url, PASSWORD);
    let rest = location
        .strip_prefix("http://127.0.0.1:")
        .expect("a loopback redirect");
    let (port, path) = rest.split_once('/').unwrap();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let back = crate::common::request(addr, "GET", &format!("/{path}"), &[], None);
    assert_eq!(back.status, 200);
    assert!(back.body.contains("Logged in"), "{}", back.body);
    let status = child.wait().unwrap();
    (status, lines.map_while(Result::ok).collect())
}

/// `authMethod: oauth` (`config:save NAME --oauth`): the first command logs in by itself, then
/// does its work; the next one uses the kept tokens without asking.
#[test]
fn with_auth_method_oauth_the_first_command_logs_in_by_itself() {
    let server = login_server();
    let ci = server.token("ci", "ci-secret-123");
    let r = server.call(
        "POST",
        "/v1/templates",
        Some(&ci),
        Some(&crate::common::filter_template("in-acme")),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let home = tempfile::tempdir().unwrap();
    let (code, _, err) = cli(home.path(), &server, &["config:save", "me", "--oauth"]);
    assert_eq!(code, 0, "{err}");
    let file = home.path().join(".jobgraph/cli-config.json");
    let mut config: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(config["me"]["authMethod"], "oauth", "{config}");
    assert_eq!(config["me"]["clientId"], "jobgraph-cli", "{config}");
    // No desktop here: the address is printed (`browser: false`).
    config["me"]["browser"] = json!(false);
    std::fs::write(&file, serde_json::to_vec(&config).unwrap()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .env("HOME", home.path())
        .env_remove("JOBGRAPH_CLIENT_SECRET")
        .env_remove("JOBGRAPH_CLIENT_ID")
        .args(["template:list", "-f", "csv"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jobgraph runs");
    let (status, rest) = log_in_in_a_browser(&server, &mut child);
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert!(status.success(), "{rest:?}");
    assert!(
        out.contains("in-acme"),
        "the command's output after the login: {out}"
    );
    // Logged in now: the next command asks nothing.
    let (code, out, err) = cli_plain(home.path(), &["template:list", "-f", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("logging in"), "{err}");
    assert!(out.contains("in-acme"), "{out}");
}

/// `jobgraph` with `HOME` = `home` (its saved configuration, no client credentials in the
/// environment), stdin empty; (status, stdout, stderr).
fn cli_plain(home: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .env("HOME", home)
        .env_remove("JOBGRAPH_CLIENT_SECRET")
        .env_remove("JOBGRAPH_CLIENT_ID")
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("jobgraph runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `jobgraph login --no-browser` in a terminal: the address it prints opened "in a browser"
/// (the form filled and posted here), the redirect to its loopback listener, the tokens kept
/// owner-only; then commands run as the person, refresh the expired token by themselves, and
/// `jobgraph logout` forgets it.
#[test]
fn jobgraph_login_keeps_a_persons_tokens_and_every_command_uses_and_refreshes_them() {
    let server = login_server();
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .env("HOME", home.path())
        .env_remove("JOBGRAPH_CLIENT_SECRET")
        .env_remove("JOBGRAPH_CLIENT_ID")
        .args([
            "--api-base-url",
            &server.url(),
            "login",
            "--no-browser",
            "--timeout",
            "60",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jobgraph login runs");
    let (status, rest) = log_in_in_a_browser(&server, &mut child);
    assert!(status.success(), "login failed: {rest:?}");

    let auth = home.path().join(".jobgraph/auth");
    let files: Vec<_> = std::fs::read_dir(&auth)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let file = &files[0];
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the token file is owner-only");
        let mode = std::fs::metadata(&auth).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
    let saved: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    assert!(saved["refreshToken"].is_string(), "{saved}");

    // A command as the person, with no client secret anywhere.
    let (code, _, err) = cli(home.path(), &server, &["job:list", "-f", "raw"]);
    assert_eq!(code, 0, "{err}");

    // The access token expired: the next command refreshes it (a new refresh token).
    let mut expired = saved.clone();
    expired["expiresAt"] = json!(1000);
    expired["issuedAt"] = json!(0);
    std::fs::write(file, serde_json::to_vec(&expired).unwrap()).unwrap();
    let (code, _, err) = cli(home.path(), &server, &["-d", "job:list", "-f", "raw"]);
    assert_eq!(code, 0, "{err}");
    let now: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    assert_ne!(now["refreshToken"], saved["refreshToken"], "rotated");
    assert_ne!(now["accessToken"], saved["accessToken"]);

    // Logged out: the next command cannot act as anyone and says how to log in.
    let (code, _, err) = cli(home.path(), &server, &["logout"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("The service ended the login"), "{err}");
    assert!(!file.exists());
    // The service revoked the login: its access token and its refresh token are dead too.
    let access = now["accessToken"].as_str().unwrap();
    let r = server.call("GET", "/v1/jobs", Some(access), None);
    assert_eq!(r.status, 401, "{}", r.body);
    let refresh = json!({"grant_type": "refresh_token", "client_id": "jobgraph-cli",
        "refresh_token": now["refreshToken"]});
    let r = server.call("POST", "/oauth/token", None, Some(&refresh));
    assert_eq!(r.status, 400, "{}", r.body);
    let (code, _, err) = cli(home.path(), &server, &["job:list"]);
    assert_ne!(code, 0);
    assert!(err.contains("jobgraph login"), "{err}");
}

/// The public client's own browser login, as its `lib/auth` source sends it (the wire notes):
/// `GET {authBaseUrl}/authorize` with its scope, audience and redirect to
/// `http://{org}.app.localhost:3000`, then JSON token requests. The person is a Reader: what
/// they read works, what they would change is a 403 that names them and their role.
#[test]
fn the_public_clients_browser_login_works_unchanged_and_a_reader_reads_only() {
    let server = login_server();
    // RFC 7636, appendix B: the verifier and its S256 challenge.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    let url = format!(
        "/authorize?response_type=code&client_id=jobgraph-cli&redirect_uri=http%3A%2F%2Facme.app.localhost%3A3000&scope=profile%20email%20offline_access&code_challenge={challenge}&code_challenge_method=S256&audience=service&state=st-1"
    );
    let location = fill_the_form_as(&server, &url, "rita", PASSWORD);
    assert!(
        location.starts_with("http://acme.app.localhost:3000"),
        "{location}"
    );
    let query = location.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let params: std::collections::HashMap<String, String> =
        serde_urlencoded::from_str(query).unwrap();
    assert_eq!(params["state"], "st-1");
    let exchange = json!({
        "grant_type": "authorization_code", "client_id": "jobgraph-cli", "code": params["code"],
        "redirect_uri": "http://acme.app.localhost:3000", "code_verifier": verifier,
    });
    let r = server.call("POST", "/oauth/token", None, Some(&exchange));
    assert_eq!(r.status, 200, "{}", r.body);
    let tokens = r.json();
    assert_eq!(tokens["expires_in"], 86400);
    let access = tokens["access_token"].as_str().unwrap().to_owned();
    let r = server.call("GET", "/v1/jobs", Some(&access), None);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = server.call(
        "POST",
        "/v1/templates",
        Some(&access),
        Some(&crate::common::filter_template("by-rita")),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.contains(r#"user "rita" lacks the Edit permission on templates"#)
            && message.contains("organization role Reader")
            && message.contains("login.users"),
        "{message}"
    );
    // The refresh as the public client sends it (JSON).
    let refresh = json!({
        "grant_type": "refresh_token", "client_id": "jobgraph-cli",
        "refresh_token": tokens["refresh_token"],
    });
    let r = server.call("POST", "/oauth/token", None, Some(&refresh));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(r.json()["refresh_token"], tokens["refresh_token"]);
}

/// The public client's login of `user` at `server`, the code exchanged: an access token.
fn log_in_as(server: &Server, user: &str) -> String {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    let url = format!(
        "/authorize?response_type=code&client_id=jobgraph-cli&redirect_uri=http%3A%2F%2Facme.app.localhost%3A3000&code_challenge={challenge}&code_challenge_method=S256&state=s"
    );
    let location = fill_the_form_as(server, &url, user, PASSWORD);
    let query = location.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let params: std::collections::HashMap<String, String> =
        serde_urlencoded::from_str(query).unwrap();
    let exchange = json!({
        "grant_type": "authorization_code", "client_id": "jobgraph-cli", "code": params["code"],
        "redirect_uri": "http://acme.app.localhost:3000", "code_verifier": verifier,
    });
    let r = server.call("POST", "/oauth/token", None, Some(&exchange));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["access_token"].as_str().unwrap().to_owned()
}

/// `jobgraph user:add NAME …` on the store in `data` (as `Server::start_in` lays it out),
/// `password` on stdin: (status, stderr).
fn user_add(data: &std::path::Path, args: &[&str], password: &str) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .arg("user:add")
        .args(args)
        .arg("--data")
        .arg(data.join("db"))
        .args(crate::common::postgres_args(data))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jobgraph user:add runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(password.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An administrator adds a person with `jobgraph user:add` (SQLite: while the service is
/// stopped, the data folder being one process's); the person logs in with the roles given;
/// given again, they get the new ones.
#[test]
fn an_admin_adds_a_person_with_jobgraph_user_add_who_then_logs_in() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let args = [
        "carol",
        "--org",
        "acme",
        "--role",
        "Reader",
        "--team",
        "devops=Leader",
    ];
    let (code, err) = user_add(&data, &args, "too short\n");
    assert_ne!(code, 0);
    assert!(err.contains("shorter than 12 characters"), "{err}");
    let (code, err) = user_add(&data, &args, &format!("{PASSWORD}\n"));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(r#"user "carol" of organization "acme" added (Reader, Leader of devops"#),
        "{err}"
    );
    assert!(!err.contains(PASSWORD));
    let mut server = Server::start_in(&data, &["--client", "ci:ci-secret-123:acme"]);
    let access = log_in_as(&server, "carol");
    let r = server.call("GET", "/v1/jobs", Some(&access), None);
    assert_eq!(r.status, 200, "{}", r.body);
    let template = crate::common::filter_template("by-carol");
    let r = server.call("POST", "/v1/templates", Some(&access), Some(&template));
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("organization role Reader, Leader of team devops"),
        "{}",
        r.body
    );
    // Promoted, the service stopped for it; a new login carries the new role, and what carol
    // writes is hers.
    server.kill9();
    let (code, err) = user_add(
        &data,
        &["carol", "--org", "acme", "--role", "Admin"],
        PASSWORD,
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("updated (Admin"), "{err}");
    let server = Server::start_in(&data, &["--client", "ci:ci-secret-123:acme"]);
    let access = log_in_as(&server, "carol");
    let r = server.call("POST", "/v1/templates", Some(&access), Some(&template));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["editedBy"], "carol");
    // A bad team role is refused before anything is read.
    let (code, err) = user_add(
        &data,
        &["dan", "--org", "acme", "--team", "devops=Boss"],
        PASSWORD,
    );
    assert_ne!(code, 0);
    assert!(err.contains("TEAM=Leader or TEAM=Member"), "{err}");
}

/// A code is good for `login.codeTtlSeconds` only: past it, the exchange is `invalid_grant`
/// (here the lifetime is 0 s, so the code has expired by the time it comes back).
#[test]
fn an_expired_code_is_refused() {
    let server = Server::start_with_config(
        &json!({"login": {"codeTtlSeconds": 0, "users": [
            {"name": "alice", "organization": "acme", "password": PASSWORD, "role": "Admin"}]}}),
        &["--client", "ci:ci-secret-123:acme"],
    );
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    let url = format!(
        "/authorize?response_type=code&client_id=jobgraph-cli&redirect_uri=http%3A%2F%2Facme.app.localhost%3A3000&code_challenge={challenge}&code_challenge_method=S256&state=s"
    );
    let location = fill_the_form_as(&server, &url, "alice", PASSWORD);
    let query = location.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let params: std::collections::HashMap<String, String> =
        serde_urlencoded::from_str(query).unwrap();
    // The clock moves past the code's expiry (stored to the millisecond).
    std::thread::sleep(std::time::Duration::from_millis(5));
    let exchange = json!({
        "grant_type": "authorization_code", "client_id": "jobgraph-cli", "code": params["code"],
        "redirect_uri": "http://acme.app.localhost:3000", "code_verifier": verifier,
    });
    let r = server.call("POST", "/oauth/token", None, Some(&exchange));
    assert_eq!(r.status, 400, "{}", r.body);
    let body = r.json();
    assert_eq!(body["error"], "invalid_grant", "{body}");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap_or_default()
            .contains("expired code"),
        "{body}"
    );
}
