//! Concurrent writers, a hostile script beside reads, the request log.

use super::*;

#[test]
fn concurrent_updates_never_lose_or_duplicate_a_version() {
    let token = alice();
    let id = create_template(token, &filter_template("Contended"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let seen: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|client| {
                let id = id.clone();
                scope.spawn(move || {
                    (0..50)
                        .map(|i| {
                            let body = filter_template(&format!("client {client} write {i}"));
                            let r = call(
                                "PUT",
                                &format!("/v1/templates/{id}"),
                                Some(token),
                                Some(&body),
                            );
                            assert_eq!(r.status, 200, "{}", r.body);
                            r.json()["version"].as_u64().unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let acknowledged: BTreeSet<u64> = seen.iter().copied().collect();
    assert_eq!(acknowledged.len(), 400, "no version number given twice");
    assert_eq!(acknowledged, (2..=401).collect());
    // Every version on one page: 401 is over the default page size (100), under the largest.
    let r = call(
        "GET",
        &format!("/v1/templates/{id}?limit=1000"),
        Some(token),
        None,
    );
    assert!(r.json().get("nextCursor").is_none(), "one page: {}", r.body);
    let stored: Vec<u64> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["version"].as_u64().unwrap())
        .collect();
    assert_eq!(stored, (1..=401).collect::<Vec<_>>());
}

#[test]
fn a_hostile_script_does_not_slow_reads() {
    let token = bob();
    let id = create_template(token, &filter_template("Read me"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/v1/templates/{id}?latest=true");
    assert_eq!(call("GET", &path, Some(token), None).status, 200);
    std::thread::scope(|scope| {
        let hostile = scope.spawn(|| {
            let started = Instant::now();
            let r = call(
                "POST",
                "/v1/templates/test",
                Some(token),
                Some(&json!({"template": {"template": "while (true) {}"}})),
            );
            (r, started.elapsed())
        });
        // Reads while the script spins (its worker is killed after ~1.25 s).
        std::thread::sleep(Duration::from_millis(100));
        let mut slowest = Duration::ZERO;
        let mut reads = 0;
        while !hostile.is_finished() && reads < 400 {
            let started = Instant::now();
            let r = call("GET", &path, Some(token), None);
            assert_eq!(r.status, 200);
            slowest = slowest.max(started.elapsed());
            reads += 1;
        }
        let (r, took) = hostile.join().unwrap();
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(
            r.error().starts_with("JavaScript execution failed"),
            "{}",
            r.body
        );
        assert!(
            took >= Duration::from_millis(500),
            "the script ran {took:?}"
        );
        assert!(reads >= 10, "only {reads} reads while the script ran");
        assert!(
            slowest < Duration::from_millis(250),
            "a read took {slowest:?} while a script spun"
        );
    });
}

#[test]
fn one_log_line_per_request_without_secrets() {
    let token = alice();
    let r = call("GET", "/v1/jobs?name=log-probe", Some(token), None);
    assert_eq!(r.status, 200);
    let deadline = Instant::now() + Duration::from_secs(10);
    let line = loop {
        let log = server().log();
        if let Some(line) = log
            .lines()
            .find(|l| l.contains("method=GET path=/v1/jobs ") && l.contains("org=acme"))
        {
            break line.to_owned();
        }
        assert!(Instant::now() < deadline, "no log line in {log}");
        std::thread::sleep(Duration::from_millis(20));
    };
    for field in ["method=GET", "status=200", "latency_ms=", "org=acme"] {
        assert!(line.contains(field), "{field} missing in {line}");
    }
    assert!(
        !line.contains("log-probe"),
        "query strings are not logged: {line}"
    );
    let log = server().log();
    for secret in ["alice-secret-1", "bob-secret-2", token, bob()] {
        assert!(!log.contains(secret), "a secret or token is in the log");
    }
    assert!(log.contains("path=/oauth/token"));
}

/// Two organizations' template tests at the same time never run in the same worker process:
/// the log says which organization each worker was bound to (one line per worker, with its
/// process id), and a worker is bound for life.
#[test]
fn two_organizations_test_requests_never_share_a_worker() {
    let template = |org: &str| {
        json!({"template": {"inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "template": format!("({{vertices: [{{type: 'logs-filter', name: 'f' + n, query: {{type: 'simple-query', query: '{org}'}}}}], edges: []}})")},
            "input": {"values": {"n": 1}}})
    };
    std::thread::scope(|scope| {
        for (token, org) in [(alice(), "acme"), (bob(), "globex")] {
            for thread in 0..3 {
                let body = template(org);
                scope.spawn(move || {
                    for i in 0..15 {
                        let mut body = body.clone();
                        body["input"]["values"]["n"] = json!(thread * 100 + i);
                        let r = call("POST", "/v1/templates/test", Some(token), Some(&body));
                        assert_eq!(r.status, 200, "{}", r.body);
                        let query = &r.json()["vertices"][0]["query"]["query"];
                        assert_eq!(query, org, "{org} got its own answer");
                    }
                });
            }
        }
    });
    let mut bound: std::collections::BTreeMap<u32, BTreeSet<String>> = Default::default();
    for line in server().log().lines() {
        if !line.contains("sandbox worker bound to an organization") {
            continue;
        }
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|part| part.strip_prefix(name))
                .map(|v| v.trim_matches('"').to_owned())
        };
        let pid: u32 = field("worker_pid=")
            .and_then(|p| p.parse().ok())
            .expect(line);
        let org = field("organization=").expect(line);
        bound.entry(pid).or_default().insert(org);
    }
    for org in ["acme", "globex"] {
        assert!(
            bound.values().any(|orgs| orgs.contains(org)),
            "a worker was bound to {org}: {bound:?}"
        );
    }
    for (pid, orgs) in &bound {
        assert_eq!(orgs.len(), 1, "worker {pid} was bound to {orgs:?}");
    }
}
