//! The disk token cache: one token reused across runs, never the secret on disk, a revoked
//! token replaced once.

use super::*;

#[test]
fn a_token_is_cached_on_disk_and_reused_across_runs() {
    let home = Home::new();
    let env = home.configure("local", "cache");
    home.run(&["templates"], &env).ok();
    let files = home.auth_files();
    assert_eq!(files.len(), 1, "{files:?}");
    #[cfg(unix)]
    {
        assert_eq!(mode(&files[0]), 0o600);
        assert_eq!(mode(&home.path().join(".jobgraph/auth")), 0o700);
    }
    let cached: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let token = cached["accessToken"].as_str().unwrap().to_owned();
    assert!(
        !std::fs::read_to_string(&files[0])
            .unwrap()
            .contains(secret_of("cache"))
    );
    // Later runs, even without the secret, use the cached token.
    home.run(&["jobs"], &env).ok();
    home.run(&["templates"], &[]).ok();
    let r = home.run(&["jobs", "-d"], &[]);
    r.ok();
    assert!(r.stderr.contains("using the cached token"), "{}", r.stderr);
    for secret in [token.as_str(), secret_of("cache")] {
        assert!(
            !r.stderr.contains(secret),
            "-d never prints a token or secret"
        );
    }
    assert_eq!(
        server().wait_log_lines(&["path=/api/v1/jobs ", "org=org-cache"], 2),
        2
    );
    assert_eq!(token_lines("org-cache"), 1, "one token for four runs");

    // A token the service no longer accepts (revoked): one new token, one retry.
    let revoked = cached
        .to_string()
        .replace(&token, "revokedXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    std::fs::write(&files[0], &revoked).unwrap();
    home.run(&["jobs", "--name", "revocation-probe"], &env).ok();
    assert_eq!(token_lines("org-cache"), 2);
    assert_eq!(server().log_lines(&["path=/api/v1/jobs ", "status=401"]), 1);
    let renewed: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_ne!(renewed["accessToken"], cached["accessToken"]);
    assert_ne!(
        renewed["accessToken"],
        "revokedXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
    );
    // Revoked again and no secret to get a new one: a clear message, exit 2.
    std::fs::write(&files[0], &revoked).unwrap();
    let r = home.run(&["jobs"], &[]);
    assert!(
        r.fails(2).contains("set JOBGRAPH_CLIENT_SECRET"),
        "{}",
        r.stderr
    );
}
