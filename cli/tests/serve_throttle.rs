//! The token endpoint under credential guessing (issue 24, point 5), where the real
//! `jobgraph serve` on a loopback port matters: failures logged on stderr without secrets, the
//! peer address the listener hands to the handler, and guesses filling the verification queue
//! from many connections. The budgets themselves are tested in process
//! (`server/tests/api/throttle.rs`). The server trusts 127.0.0.1 as a reverse proxy, so that
//! each test speaks from addresses of its own through `X-Forwarded-For`; a request without the
//! header is keyed by its peer address. Timing goals belong to bench/token-flood.sh, not here.

mod common;

use std::sync::OnceLock;

use common::{Response, Server, request};
use jobgraph_testkit::assert_throttled;
use serde_json::json;

const ADDRESS_BURST: u64 = 4;
const CLIENT_BURST: u64 = 3;

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({"tokenThrottle": {
                "addressBurst": ADDRESS_BURST, "addressPeriodMs": 3_600_000,
                "clientBurst": CLIENT_BURST, "clientPeriodMs": 3_600_000,
                "refusalDelayMs": 20, "trustedProxies": ["127.0.0.1"]
            }}),
            &[
                "--client",
                "alice:alice-secret-1:acme",
                "--client",
                "bob:bob-secret-2:acme",
                "--client",
                "carol:carol-secret-3:acme",
                "--client",
                "erin:erin-secret-5:acme",
                "--client",
                "frank:frank-secret-6:acme",
            ],
        )
    })
}

/// A JSON token request as the proxy forwards it from `from` (no header when empty).
fn token_request(from: &str, id: &str, secret: &str) -> Response {
    let body = json!({"client_id": id, "client_secret": secret,
                      "audience": "service", "grant_type": "client_credentials"})
    .to_string();
    let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    if !from.is_empty() {
        headers.push((
            "X-Forwarded-For".to_owned(),
            format!("198.51.100.9, {from}"),
        ));
    }
    request(
        server().addr,
        "POST",
        "/oauth/token",
        &headers,
        Some(body.as_bytes()),
    )
}

#[test]
fn failures_are_logged_without_the_secret() {
    let secret = "a-distinctive-wrong-secret-31337";
    for (from, id) in [("10.4.0.1", "erin"), ("10.4.0.2", "no\"body\nelse")] {
        let r = token_request(from, id, secret);
        assert_eq!(r.status, 401, "{}", r.body);
        assert!(!r.body.contains(secret));
    }
    assert_eq!(
        token_request("10.4.0.3", "erin", "erin-secret-5").status,
        200
    );
    let s = server();
    assert_eq!(
        s.wait_log_lines(&["token refused", "client_id=\"erin\"", "10.4.0.1"], 1),
        1
    );
    // The caller's text is escaped: one line, the newline shown as `\n`.
    assert_eq!(
        s.wait_log_lines(&["token refused", r#"client_id="no\"body\nelse""#], 1),
        1
    );
    let log = s.log();
    for secret in [secret, "erin-secret-5", "alice-secret-1", "bob-secret-2"] {
        assert!(!log.contains(secret), "{secret} in the log:\n{log}");
    }
}

/// Without `X-Forwarded-For`, the budget is the peer's (127.0.0.1): the connection's address
/// reaches the handler (`into_make_service_with_connect_info`).
#[test]
fn the_peer_address_has_a_budget_of_its_own() {
    for n in 0..ADDRESS_BURST {
        assert_eq!(token_request("", &format!("peer-{n}"), "guess").status, 401);
    }
    assert_throttled(&token_request("", "peer-x", "guess"), "from this address");
    assert_eq!(token_request("10.5.0.1", "peer-x", "guess").status, 401);
}

/// A server with one verification thread and queues of one, for the busy test alone (its
/// guesses would make the other tests' verifications busy).
fn busy_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({"tokenThrottle": {
                "hashThreads": 1, "hashQueue": 1, "refusalDelayMs": 20,
                "trustedProxies": ["127.0.0.0/8"]
            }}),
            &["--client", "grace:grace-secret-7:acme"],
        )
    })
}

/// Guesses from many addresses (each within its budgets) fill the verification queue: some
/// are refused as busy (429), while a client verifying from where it got a token before has a
/// queue of its own and still gets its token.
#[test]
fn a_known_client_gets_its_token_while_guesses_fill_the_queue() {
    let s = busy_server();
    let send = |from: String, id: String, secret: String| {
        let body = json!({"client_id": id, "client_secret": secret,
                          "grant_type": "client_credentials"})
        .to_string();
        let headers = vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            ("X-Forwarded-For".to_owned(), from),
        ];
        request(
            s.addr,
            "POST",
            "/oauth/token",
            &headers,
            Some(body.as_bytes()),
        )
    };
    let known = || send("10.9.9.9".into(), "grace".into(), "grace-secret-7".into());
    assert_eq!(known().status, 200);
    let mut busy_seen = false;
    for round in 0..5 {
        let (guesses, mine) = std::thread::scope(|scope| {
            let guesses: Vec<_> = (0..12)
                .map(|n| {
                    let from = format!("10.{round}.1.{n}");
                    scope.spawn(move || send(from, format!("g-{round}-{n}"), "guess".into()))
                })
                .collect();
            let mine = known();
            let guesses: Vec<Response> = guesses.into_iter().map(|g| g.join().unwrap()).collect();
            (guesses, mine)
        });
        assert_eq!(mine.status, 200, "round {round}: {}", mine.body);
        for g in &guesses {
            match g.status {
                401 => {}
                429 => {
                    assert_throttled(g, "verifying too many client secrets");
                    busy_seen = true;
                }
                other => panic!("round {round}: {other} {}", g.body),
            }
        }
        if busy_seen {
            break;
        }
    }
    assert!(
        busy_seen,
        "12 concurrent guesses never filled a queue of one"
    );
}
