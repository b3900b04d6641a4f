//! Configurations saved, listed, shown, made default and deleted, and the precedence of
//! flags over the environment over the saved configuration.

use super::*;

#[test]
fn a_configuration_is_saved_and_reused_by_precedence() {
    let home = Home::new();
    let env = home.configure("local", "conf");
    let file = home.path().join(".jobgraph/cli-config.json");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["_default"], "local");
    assert_eq!(saved["local"]["clientId"], "conf");
    assert_eq!(saved["local"]["authMethod"], "client-credentials");
    assert!(
        saved["local"].get("authBaseUrl").is_none(),
        "derived from the API's"
    );
    #[cfg(unix)]
    assert_eq!(mode(&file), 0o600);
    // The secret given in the environment is never written.
    home.run(&["config:save", "local", "--org-name", "org-conf"], &env)
        .ok();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains(secret_of("conf")), "{text}");
    let saved: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["local"]["orgName"], "org-conf");
    assert_eq!(
        saved["local"]["clientId"], "conf",
        "kept from the saved configuration"
    );

    // Reused without flags.
    home.run(&["templates"], &env).ok();
    // Precedence: a flag beats the environment, which beats the saved configuration.
    let dead = "http://127.0.0.1:9/api";
    let r = home.run(&["jobs", "--auth-base-url", "http://127.0.0.1:9"], &env);
    assert!(
        r.fails(1).contains("http://127.0.0.1:9/oauth/token"),
        "{}",
        r.stderr
    );
    let mut with_env = env.to_vec();
    with_env.push(("JOBGRAPH_AUTH_BASE_URL", "http://127.0.0.1:9"));
    let r = home.run(&["jobs"], &with_env);
    assert!(
        r.fails(1)
            .contains("cannot reach the service at http://127.0.0.1:9/oauth/token")
    );
    home.run(&["jobs", "--auth-base-url", &server().url()], &with_env)
        .ok();
    let r = home.run(
        &[
            "jobs",
            "-d",
            "--api-base-url",
            dead,
            "--auth-base-url",
            &server().url(),
        ],
        &with_env,
    );
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains("debug: api_base_url from flag"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("debug: client_id from saved configuration"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .lines()
            .last()
            .unwrap()
            .contains("http://127.0.0.1:9/api/v1/jobs"),
        "{}",
        r.stderr
    );

    // A second configuration, the default switched, listed and shown.
    home.run(
        &[
            "config:save",
            "other",
            "--api-base-url",
            dead,
            "--client-id",
            "nobody",
        ],
        &[],
    )
    .ok();
    let list = home.run(&["config:list", "-f", "csv"], &[]);
    let lines: Vec<&str> = list.ok().stdout.lines().collect();
    assert_eq!(
        lines[0],
        "name,apiBaseUrl,authCache,authMethod,browser,clientId,default,orgName"
    );
    assert!(
        lines[1].starts_with("local,") && lines[1].contains(",true,org-conf"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("other,") && lines[2].ends_with(",false,"),
        "{lines:?}"
    );
    home.run(&["config:default", "other"], &[]).ok();
    let shown = home.run(&["config:show", "-f", "compact"], &[]).ok().json();
    assert_eq!(
        (shown["name"].as_str(), shown["default"].as_bool()),
        (Some("other"), Some(true))
    );
    let shown = home
        .run(&["config:show", "local", "-f", "compact"], &[])
        .ok()
        .json();
    assert_eq!(shown["clientId"], "conf");
    // --conf picks one; an unknown one is bad usage.
    home.run(&["templates", "--conf", "local"], &env).ok();
    let r = home.run(&["templates", "--conf", "nope"], &env);
    assert!(r.fails(2).contains("no configuration named \"nope\""));
    home.run(&["config:delete", "other"], &[]).ok();
    let r = home.run(&["config:delete", "other"], &[]);
    assert!(r.fails(1).contains("no configuration named \"other\""));
    // With the default deleted and none chosen: the flags and environment alone.
    let r = home.run(&["templates"], &env);
    assert!(r.fails(2).starts_with("no client id"), "{}", r.stderr);
    home.run(&["config:default", "local"], &[]).ok();
    home.run(&["templates"], &env).ok();
}
