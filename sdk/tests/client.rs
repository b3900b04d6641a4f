//! The API client against the real `jobgraph serve` on loopback: token reuse, single-flight
//! refresh, one retry after a 401 with a known token (never a loop), retries with
//! `Retry-After`, the remote template source, the disk token store, and secrets kept out of
//! `Debug` output. One server for the file (each test its own client and organization, so
//! that the server's log counts its requests alone); a second one with short-lived tokens
//! and one script per organization for the expiry and 429 tests.

mod common;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use common::{Server, filter_template, job_using};
use jobgraph_sdk::api::{CreateJob, Execution, Processing, TemplateInput, TemplateTest, UpdateJob};
use jobgraph_sdk::client::{
    AccessToken, Client, ClientError, Credentials, DiskTokenStore, JobFilter, JobVersion,
    RemoteSource, RetryPolicy, TemplateVersions, TokenKey, TokenStore,
};
use serde_json::{Value, json};

const CLIENTS: &[(&str, &str, &str)] = &[
    ("reuse", "reuse-secret-1", "org-reuse"),
    ("flight", "flight-secret-2", "org-flight"),
    ("revoked", "revoked-secret-3", "org-revoked"),
    ("loop", "loop-secret-4", "org-loop"),
    ("disk", "disk-secret-5", "org-disk"),
    ("api", "api-secret-6", "org-api"),
    ("remote", "remote-secret-7", "org-remote"),
];

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let specs: Vec<String> = CLIENTS
            .iter()
            .map(|(id, secret, org)| format!("{id}:{secret}:{org}"))
            .collect();
        let mut args = Vec::new();
        for spec in &specs {
            args.push("--client");
            args.push(spec.as_str());
        }
        Server::start(&args)
    })
}

/// Tokens live 2 s; one script per organization at a time.
fn short_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({"tokenTtlSeconds": 2, "maxConcurrentScripts": 1}),
            &[
                "--client",
                "short:short-secret-8:org-short",
                "--client",
                "busy:busy-secret-9:org-busy",
            ],
        )
    })
}

fn secret_of(id: &str) -> &'static str {
    CLIENTS
        .iter()
        .find(|(c, _, _)| *c == id)
        .map(|(_, s, _)| *s)
        .expect("a known client")
}

fn client(id: &str) -> Client {
    Client::builder(server().url())
        .credentials(Credentials::new(id, secret_of(id)))
        .build()
        .expect("a client")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn token_lines(server: &Server, org: &str) -> usize {
    server.log_lines(&["path=/oauth/token ", "status=200", &format!("org={org}")])
}

/// Trace lines, collected.
fn recorder() -> (jobgraph_sdk::client::Trace, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    (
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_owned())),
        lines,
    )
}

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
fn too_many_requests_is_retried_after_retry_after() {
    let s = short_server();
    let rt = runtime();
    let (trace, lines) = recorder();
    let client = Client::builder(s.url())
        .credentials(Credentials::new("busy", "busy-secret-9"))
        .trace(trace)
        .retry(RetryPolicy {
            max_retries: 5,
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let token = s.token("busy", "busy-secret-9");
    std::thread::scope(|scope| {
        // A script that runs until its worker is killed (~1.25 s) holds the one slot. The
        // probes below (or another test on this server) can hold the slot when it arrives: it
        // is sent again after a 429 until it runs.
        let hostile = scope.spawn(|| {
            loop {
                let answer = s.call(
                    "POST",
                    "/v1/templates/test",
                    Some(&token),
                    Some(&json!({"template": {"template": "while (true) {}"}})),
                );
                if answer.status != 429 {
                    return answer;
                }
            }
        });
        // Ready when the slot is taken.
        let probe = json!({"template": filter_template("probe")});
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while s
            .call("POST", "/v1/templates/test", Some(&token), Some(&probe))
            .status
            != 429
        {
            assert!(
                !hostile.is_finished(),
                "the hostile script ended before a probe was refused"
            );
            assert!(
                std::time::Instant::now() < deadline,
                "no probe refused with 429 within 10 s"
            );
        }
        let request = TemplateTest {
            template: TemplateInput {
                name: "probe".into(),
                ..serde_json::from_value(filter_template("probe")).unwrap()
            },
            ..TemplateTest::default()
        };
        let graph = rt.block_on(client.test_template(&request)).unwrap();
        assert_eq!(graph["vertices"][0]["name"], "f");
        assert_eq!(hostile.join().unwrap().status, 400);
    });
    let lines = lines.lock().unwrap();
    assert!(
        lines.iter().any(|l| l.contains("in 1000 ms after 429")),
        "Retry-After: 1 honoured: {lines:#?}"
    );
}

#[test]
fn an_unreachable_service_is_retried_then_named() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let (trace, lines) = recorder();
    let client = Client::builder(format!("http://127.0.0.1:{port}/api"))
        .credentials(Credentials::new("nobody", "nobody-secret"))
        .retry(RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(10),
            ..RetryPolicy::default()
        })
        .trace(trace)
        .build()
        .unwrap();
    let err = runtime()
        .block_on(client.list_jobs(&JobFilter::default()))
        .unwrap_err();
    match &err {
        ClientError::Unreachable { url, .. } => {
            assert_eq!(url, &format!("http://127.0.0.1:{port}/api/oauth/token"));
        }
        other => panic!("{other:?}"),
    }
    let lines = lines.lock().unwrap();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("retry ")).count(),
        2,
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

#[test]
fn every_endpoint_round_trips_with_the_shared_types() {
    let rt = runtime();
    let client = client("api");
    rt.block_on(async {
        let input: TemplateInput = serde_json::from_value(filter_template("Levels")).unwrap();
        let created = client.create_template(&input).await.unwrap();
        assert_eq!(
            (created.version, created.organization_id.as_str()),
            (1, "org-api")
        );
        assert_eq!(created.edited_by, "api");
        let summaries = client.list_templates().await.unwrap();
        assert!(summaries.iter().any(|t| t.id == created.id));
        let v2 = client
            .update_template(&created.id, &input, Some(1))
            .await
            .unwrap();
        assert_eq!(v2.version, 2);
        let conflict = client
            .update_template(&created.id, &input, Some(1))
            .await
            .unwrap_err();
        match conflict {
            ClientError::Api {
                status: 409,
                current_version: Some(2),
                ..
            } => {}
            other => panic!("{other:?}"),
        }
        let appended = client
            .update_template(&created.id, &input, None)
            .await
            .unwrap();
        assert_eq!(appended.version, 3);
        let all = client
            .get_template(&created.id, TemplateVersions::All)
            .await
            .unwrap();
        assert_eq!(all.iter().map(|t| t.version).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(
            client.latest_template(&created.id).await.unwrap().version,
            3
        );
        assert_eq!(
            client
                .template_version(&created.id, 1)
                .await
                .unwrap()
                .version,
            1
        );

        let test = TemplateTest {
            template: input.clone(),
            input: jobgraph_sdk::api::TestValues {
                is_draft: false,
                values: json!({"level": "warn"}).as_object().unwrap().clone(),
            },
            check_valid_job_graph: true,
        };
        let graph = client.test_template(&test).await.unwrap();
        assert_eq!(graph["vertices"][0]["query"]["query"], "level:warn by api");
        let mut bad = test.clone();
        bad.input.values.insert("level".into(), json!(3));
        let err = client.test_template(&bad).await.unwrap_err();
        assert_eq!(err.status(), Some(400));
        assert!(err.to_string().contains("Input validation failed"), "{err}");

        let job: CreateJob =
            serde_json::from_value(job_using("api-job", &created.id, "info")).unwrap();
        assert_eq!(
            (job.execution, job.processing),
            (Execution::Asynchronous, Processing::Streaming)
        );
        let made = client.create_job(&job).await.unwrap();
        assert_eq!((made.version, made.state.as_str()), (1, "PENDING"));
        let resolved = client
            .get_job(
                &made.id,
                JobVersion {
                    version: None,
                    resolved: true,
                },
            )
            .await
            .unwrap();
        assert_eq!(resolved.job_graph["vertices"][1]["name"], "errors.f");
        let update = UpdateJob {
            from_version: Some(1),
            job_graph: Some(job_using("api-job", &created.id, "warn")["jobGraph"].clone()),
            ..UpdateJob::default()
        };
        let updated = client.update_job(&made.id, &update, true).await.unwrap();
        assert_eq!(updated.version, 2);
        let err = client
            .update_job(&made.id, &update, false)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                ClientError::Api {
                    status: 409,
                    current_version: Some(2),
                    ..
                }
            ),
            "{err:?}"
        );
        let filter = JobFilter {
            name: Some("api-job".into()),
            all_versions: true,
            processing: vec![Processing::Streaming],
            ..JobFilter::default()
        };
        let versions = client.list_jobs(&filter).await.unwrap();
        assert_eq!(versions.len(), 2);
        let since = JobFilter {
            since: Some("PT1H".into()),
            ..JobFilter::default()
        };
        assert_eq!(client.list_jobs(&since).await.unwrap().len(), 1);
        let batch = JobFilter {
            processing: vec![Processing::Batch],
            ..JobFilter::default()
        };
        assert!(client.list_jobs(&batch).await.unwrap().is_empty());

        let mut sync = job.clone();
        sync.execution = Execution::Synchronous;
        let err = client.create_job_sync(&sync, |_| {}).await.unwrap_err();
        assert_eq!(err.status(), Some(400), "the service runs nothing: {err}");

        client.delete_job(&made.id).await.unwrap();
        let gone = client
            .get_job(&made.id, JobVersion::default())
            .await
            .unwrap_err();
        assert!(gone.is_not_found(), "{gone}");
        client.delete_template(&created.id).await.unwrap();
        assert!(
            client
                .latest_template(&created.id)
                .await
                .unwrap_err()
                .is_not_found()
        );

        let trigger = client
            .create_trigger(&json!({"any": "payload"}))
            .await
            .unwrap();
        assert_eq!(trigger.id.len(), 16);
    });
}

#[test]
fn request_fields_are_documented_in_the_openapi_document() {
    let doc = server().call("GET", "/openapi.json", None, None).json();
    let schemas = &doc["components"]["schemas"];
    let documented = |name: &str| -> Vec<String> {
        schemas[name]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{name} has properties"))
            .keys()
            .cloned()
            .collect()
    };
    let full = TemplateInput {
        version: Some(2),
        name: "n".into(),
        description: Some("d".into()),
        input_schema: Some(json!({})),
        template: "t".into(),
        ..TemplateInput::default()
    };
    let keys =
        |value: Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    let check = |sent: Vec<String>, schema: &str| {
        let known = documented(schema);
        for key in sent {
            assert!(
                known.contains(&key),
                "{key} is not a documented field of {schema}: {known:?}"
            );
        }
    };
    let mut create = serde_json::to_value(&full).unwrap();
    create.as_object_mut().unwrap().remove("version");
    check(keys(create), "TemplateCreateDoc");
    check(
        keys(serde_json::to_value(&full).unwrap()),
        "TemplateUpdateDoc",
    );
    let test = TemplateTest {
        template: full.clone(),
        ..TemplateTest::default()
    };
    check(keys(serde_json::to_value(&test).unwrap()), "TestRequestDoc");
    check(
        keys(serde_json::to_value(&test.input).unwrap()),
        "TestInputDoc",
    );
    let job = CreateJob {
        tags: Some(Default::default()),
        desired_state: Some("RUNNING".into()),
        ..CreateJob::default()
    };
    check(keys(serde_json::to_value(&job).unwrap()), "CreateJobDoc");
    let update = UpdateJob {
        from_version: Some(1),
        job_graph: Some(json!({})),
        desired_state: Some("RUNNING".into()),
        name: Some("n".into()),
        tags: Some(Default::default()),
    };
    check(keys(serde_json::to_value(&update).unwrap()), "UpdateJobDoc");
    // The answers' documented fields are the shared types' fields.
    let out = serde_json::to_value(jobgraph_sdk::api::TemplateOut {
        description: Some("d".into()),
        input_schema: Some(json!({})),
        ..Default::default()
    })
    .unwrap();
    let mut sent = keys(out);
    let mut known = documented("TemplateOut");
    sent.sort();
    known.sort();
    assert_eq!(sent, known);
}

#[test]
fn a_job_resolves_locally_as_the_service_resolves_it() {
    let rt = runtime();
    let client = client("remote");
    // Two templates at the first level, one of them nesting a third.
    let leaf = rt
        .block_on(client.create_template(&serde_json::from_value(filter_template("leaf")).unwrap()))
        .unwrap();
    let wrapper = TemplateInput {
        name: "wrapper".into(),
        template: format!(
            "({{vertices: [{{type: 'template-operation', name: 'inner', templateId: '{}', templateInputs: {{level: 'warn'}}}}], edges: []}})",
            leaf.id
        ),
        inputs: [("input".to_owned(), "inner:input".to_owned())]
            .into_iter()
            .collect(),
        outputs: [("output".to_owned(), "inner:output".to_owned())]
            .into_iter()
            .collect(),
        ..TemplateInput::default()
    };
    let wrapper = rt.block_on(client.create_template(&wrapper)).unwrap();
    let other = rt
        .block_on(
            client.create_template(&serde_json::from_value(filter_template("other")).unwrap()),
        )
        .unwrap();
    let job = json!({
        "name": "remote-job", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "template-operation", "name": "a", "templateId": wrapper.id},
                {"type": "template-operation", "name": "b", "templateId": other.id, "templateVersion": 1,
                 "templateInputs": {"level": "info"}},
                {"type": "template-operation", "name": "c", "templateId": leaf.id},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["src -> a", "a -> b", "b -> c", "c -> sink"]
        }
    });
    let created = rt
        .block_on(client.create_job(&serde_json::from_value(job.clone()).unwrap()))
        .unwrap();
    let service = rt
        .block_on(client.get_job(
            &created.id,
            JobVersion {
                version: None,
                resolved: true,
            },
        ))
        .unwrap();

    let (trace, lines) = recorder();
    let traced = Client::builder(server().url())
        .credentials(Credentials::new("remote", secret_of("remote")))
        .trace(trace)
        .build()
        .unwrap();
    rt.block_on(traced.token()).unwrap();
    lines.lock().unwrap().clear();
    let source = RemoteSource::new(traced);
    let resolver = jobgraph_core::Resolver::builder(&source)
        .user("remote")
        .sandbox(jobgraph_core::InProcess)
        .build();
    let local = rt.block_on(resolver.resolve_document(&job)).unwrap();
    assert_eq!(local.document["jobGraph"], service.job_graph);
    // Level 1: wrapper, other@1, leaf (latest), together; level 2: leaf again, already
    // fetched. One request each.
    let stats = source.stats();
    assert_eq!(stats.requests, 3, "{stats:?}");
    assert_eq!(
        stats.peak_outstanding, 3,
        "a level's templates are fetched together"
    );
    {
        let lines = lines.lock().unwrap();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("→ GET")).count(),
            3,
            "{lines:#?}"
        );
    }
    // A missing template is the resolver's `Template not found`.
    let missing = json!({"vertices": [{"type": "template-operation", "name": "x", "templateId": "no-such-template"}]});
    let err = rt
        .block_on(resolver.resolve_document(&missing))
        .unwrap_err();
    assert!(err.to_string().starts_with("Template not found"), "{err}");
}

#[test]
fn debug_output_never_holds_a_secret() {
    let credentials = Credentials::new("ci", "s3cret-value");
    let text = format!("{credentials:?}");
    assert!(
        text.contains("ci") && !text.contains("s3cret-value"),
        "{text}"
    );
    let builder = Client::builder("http://127.0.0.1:9").credentials(credentials);
    assert!(!format!("{builder:?}").contains("s3cret-value"));
    let client = builder.build().unwrap();
    assert!(!format!("{client:?}").contains("s3cret-value"));
    let token = AccessToken::new("tok-value-123", SystemTime::now(), SystemTime::now());
    assert!(!format!("{token:?}").contains("tok-value-123"));
}
