//! Tokens: fetched once and shared by clones and concurrent first calls, a revoked or
//! expired token replaced once with one retry, a refused new token ending the call, and the
//! disk token store carrying a token across clients.

use super::*;

#[test]
fn a_token_is_fetched_once_and_reused() {
    let rt = runtime();
    let client = client("reuse");
    rt.block_on(async {
        for _ in 0..5 {
            client.list_templates().await.unwrap();
        }
        client.list_jobs(&JobFilter::default()).await.unwrap();
    });
    assert_eq!(client.tokens_fetched(), 1);
    let s = server();
    assert_eq!(
        s.wait_log_lines(&["path=/v1/templates ", "status=200", "org=org-reuse"], 5),
        5
    );
    assert_eq!(token_lines(s, "org-reuse"), 1);
    // A clone shares the token.
    let clone = client.clone();
    rt.block_on(clone.list_templates()).unwrap();
    assert_eq!(clone.tokens_fetched(), 1);
    assert_eq!(token_lines(s, "org-reuse"), 1);
}

#[test]
fn concurrent_first_calls_share_one_token_request() {
    let rt = runtime();
    let client = client("flight");
    let results = rt.block_on(async {
        let calls: Vec<_> = (0..16)
            .map(|_| {
                let client = client.clone();
                tokio::spawn(async move { client.list_templates().await })
            })
            .collect();
        let mut results = Vec::new();
        for call in calls {
            results.push(call.await.unwrap());
        }
        results
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(client.tokens_fetched(), 1, "no stampede");
    let s = server();
    assert_eq!(
        s.wait_log_lines(&["path=/v1/templates ", "status=200", "org=org-flight"], 16),
        16
    );
    assert_eq!(token_lines(s, "org-flight"), 1);
}

#[test]
fn a_revoked_token_is_replaced_once_with_one_retry() {
    let rt = runtime();
    let client = client("revoked");
    let now = SystemTime::now();
    // A token the service does not know (revoked, or issued by a service since reset).
    rt.block_on(client.set_token(AccessToken::new(
        "revokedXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        now,
        now + Duration::from_secs(3600),
    )));
    let err = rt
        .block_on(client.get_template("revocation-probe", TemplateVersions::Latest))
        .unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
    assert_eq!(client.tokens_fetched(), 1);
    let s = server();
    let probe = "path=/v1/templates/revocation-probe ";
    assert_eq!(
        s.wait_log_lines(&[probe, "status=404", "org=org-revoked"], 1),
        1
    );
    assert_eq!(s.log_lines(&[probe, "status=401"]), 1, "one 401, one retry");
    assert_eq!(token_lines(s, "org-revoked"), 1);
    // The new token is kept: no more token requests.
    rt.block_on(client.list_templates()).unwrap();
    assert_eq!(client.tokens_fetched(), 1);
}

#[test]
fn a_refused_new_token_ends_the_call_without_a_loop() {
    let rt = runtime();
    let (trace, lines) = recorder();
    let client = Client::builder(server().url())
        .credentials(Credentials::new("loop", "a-wrong-secret-value"))
        .trace(trace)
        .build()
        .unwrap();
    let now = SystemTime::now();
    rt.block_on(client.set_token(AccessToken::new(
        "loopXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        now,
        now + Duration::from_secs(3600),
    )));
    let err = rt
        .block_on(client.get_template("loop-probe", TemplateVersions::All))
        .unwrap_err();
    match &err {
        ClientError::TokenRejected { status, url, .. } => {
            assert_eq!(*status, 401);
            assert!(url.ends_with("/oauth/token"), "{url}");
        }
        other => panic!("{other:?}"),
    }
    let s = server();
    assert_eq!(
        s.wait_log_lines(&["path=/v1/templates/loop-probe ", "status=401"], 1),
        1
    );
    let lines = lines.lock().unwrap().clone();
    let token_requests = lines.iter().filter(|l| l.contains("/oauth/token")).count();
    assert_eq!(
        token_requests, 2,
        "one token request (trace line and its answer): {lines:#?}"
    );
    // Neither the error, nor the trace, nor Debug shows the secret.
    for text in [
        format!("{err}"),
        format!("{err:?}"),
        format!("{client:?}"),
        lines.join("\n"),
    ] {
        assert!(!text.contains("a-wrong-secret-value"), "{text}");
        assert!(!text.contains("loopXXXX"), "{text}");
    }
}

#[test]
fn an_expired_token_is_replaced_once_with_one_retry() {
    let s = short_server();
    let rt = runtime();
    let (trace, lines) = recorder();
    let client = Client::builder(s.url())
        .credentials(Credentials::new("short", "short-secret-8"))
        .trace(trace)
        .build()
        .unwrap();
    // A real token, believed valid for an hour (a cache written by a client whose clock was
    // off, or a server that shortened lifetimes).
    let token = s.token("short", "short-secret-8");
    let now = SystemTime::now();
    rt.block_on(client.set_token(AccessToken::new(
        token.clone(),
        now,
        now + Duration::from_secs(3600),
    )));
    // Wait until the service says it has expired.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while s.call("GET", "/v1/templates", Some(&token), None).status != 401 {
        assert!(
            std::time::Instant::now() < deadline,
            "the token never expired"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let items = rt.block_on(client.get_template("expiry-probe", TemplateVersions::All));
    assert_eq!(items.unwrap_err().status(), Some(404));
    assert_eq!(client.tokens_fetched(), 1);
    assert_eq!(
        s.wait_log_lines(&["path=/v1/templates/expiry-probe ", "status=404"], 1),
        1
    );
    assert_eq!(
        s.log_lines(&["path=/v1/templates/expiry-probe ", "status=401"]),
        1
    );
    let lines = lines.lock().unwrap();
    assert!(
        lines.iter().any(|l| l.contains("401 with a known token")),
        "{lines:#?}"
    );
    // The new token lives 2 s: the client replaces it before it expires (a quarter of its
    // lifetime early), without another 401.
    assert!(
        lines.iter().any(|l| l.contains("valid for 2 s")),
        "{lines:#?}"
    );
}
#[test]
fn the_disk_store_carries_a_token_across_clients() {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(DiskTokenStore::new(home.path().join("auth")));
    let rt = runtime();
    let build = |secret: Option<&str>| {
        Client::builder(format!("{}/api", server().url()))
            .auth_base_url(server().url())
            .credentials(match secret {
                Some(secret) => Credentials::new("disk", secret),
                None => Credentials::without_secret("disk"),
            })
            .token_store(store.clone())
            .build()
            .unwrap()
    };
    let first = build(Some("disk-secret-5"));
    rt.block_on(first.list_templates()).unwrap();
    assert_eq!(first.tokens_fetched(), 1);
    // A second client (a later run of the CLI) without the secret uses the stored token.
    let second = build(None);
    rt.block_on(second.list_templates()).unwrap();
    assert_eq!(second.tokens_fetched(), 0);
    assert_eq!(token_lines(server(), "org-disk"), 1);
    let key = TokenKey {
        client_id: "disk".into(),
        auth_base_url: server().url(),
    };
    let stored = store.load(&key).expect("a stored token");
    assert!(stored.is_fresh());
    let text = std::fs::read_to_string(store.path_for(&key)).unwrap();
    assert!(
        !text.contains("disk-secret-5"),
        "the secret is never stored"
    );
    // Without a secret, a token that has to be replaced cannot be.
    let now = SystemTime::now();
    store
        .save(
            &key,
            &AccessToken::new(
                "stale",
                now - Duration::from_secs(7200),
                now - Duration::from_secs(3600),
            ),
        )
        .unwrap();
    let err = rt.block_on(build(None).list_templates()).unwrap_err();
    assert!(matches!(err, ClientError::MissingSecret { .. }), "{err:?}");
}
