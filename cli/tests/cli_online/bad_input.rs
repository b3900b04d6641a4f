//! Bad input (missing or invalid files, unknown templates and jobs, the service down, a
//! wrong secret, bad usage): one line on stderr and the exit code.

use super::*;

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
