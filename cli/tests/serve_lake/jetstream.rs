//! The intake suite again with the intake log on NATS JetStream (`intake.nats`, issue 39,
//! docs/intake.md "Beyond one machine"), against a real `nats-server -js` started once for
//! this binary (`common::nats_url`): the same real senders, the same `kill -9` test, and what
//! only JetStream does: a full stream refuses with 429, and nothing is left in the data folder.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Nats, Server, free_port, nats_url};
use crate::intake::{self, DD_KEY, integrations, numbered, peer};

/// `intake.nats` on the shared NATS server, in a stream and subjects of its own.
pub(crate) fn nats(name: &str) -> Value {
    json!({"url": nats_url(), "stream": format!("JG_{name}"), "subjectPrefix": format!("jg.{name}")})
}

/// The shared server of this module: `crate::settings` with the intake on JetStream.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let mut settings = crate::settings(None);
        settings["intake"] = json!({"nats": nats("shared")});
        Server::start_with_config(&settings, &crate::CLIENTS)
    })
}

#[test]
fn on_jetstream_datadog_api_client_logs_reach_a_running_pipeline() {
    let server = server();
    assert!(
        server
            .banner
            .iter()
            .any(|l| l == "intake: NATS JetStream (intake.nats)"),
        "{:?}",
        server.banner
    );
    intake::datadog_client_on(server);
}

#[test]
fn on_jetstream_the_opentelemetry_sdk_exports_logs() {
    intake::otel_sdk_on(server());
}

#[test]
fn on_jetstream_splunk_hec_handler_events_reach_a_pipeline() {
    intake::hec_handler_on(server());
}

#[test]
fn on_jetstream_the_opentelemetry_collector_tails_a_file_into_a_pipeline() {
    intake::otel_collector_on(server());
}

#[test]
fn on_jetstream_kill_9_right_after_the_answers_loses_no_acknowledged_event() {
    intake::kill_9_right_after_the_answers_with(
        json!({"integrations": integrations(), "intake": {"nats": nats("kill9")}}),
    );
}

/// A stream at its budget (`intake.maxBufferedBytes`, enforced by JetStream itself with
/// `discard: new`) refuses: the Datadog client hears 429 with `Retry-After`; what was taken
/// before is kept; the data folder holds no intake log.
#[test]
fn on_jetstream_a_full_stream_answers_429_and_keeps_what_it_took() {
    let mut settings = crate::settings(None);
    settings["intake"] = json!({"nats": nats("full"), "maxBufferedBytes": 60_000});
    let server = Server::start_with_config(&settings, &crate::CLIENTS);
    let sent = peer(
        "send_datadog.py",
        &[
            "--url",
            &server.url(),
            "--api-key",
            DD_KEY,
            "--count",
            "2000",
            "--batch",
            "100",
            "--message-prefix",
            "fill",
            "--allow-status",
            "429",
        ],
    );
    let statuses: Vec<u64> = sent["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(statuses.first(), Some(&202), "{sent}");
    assert!(statuses.contains(&429), "never refused: {sent}");
    assert!(
        sent["retry_afters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.as_str().is_some_and(|s| s.parse::<u64>().is_ok())),
        "each 429 says when to retry: {sent}"
    );
    assert!(statuses.iter().all(|s| *s == 202 || *s == 429), "{sent}");
    let taken = statuses.iter().filter(|s| **s == 202).count() as u64 * 100;
    let token = server.token("alice", "alice-secret");
    let listed = server
        .call("GET", "/v1/integrations/dd-agents", Some(&token), None)
        .json();
    assert_eq!(listed["eventsTaken"], taken, "{listed}");
    assert!(listed["requestsRefused"].as_u64().unwrap() >= 1, "{listed}");
    let data = server.data.join("db");
    assert!(
        !data.join("intake.redb").exists(),
        "the intake log is on JetStream, not in {}",
        data.display()
    );
}

/// The NATS server killed under a running intake and job: each request is answered 503 with
/// `Retry-After` at once (nothing is queued to be stored after the refusal), the job is not
/// failed; the server started again on its port and store, intake and the job go on, and the
/// lake holds every acknowledged event once.
#[test]
fn on_jetstream_nats_down_answers_503_and_both_go_on_when_it_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let (port, store) = (free_port(), dir.path().join("nats"));
    let mut nats = Nats::start(port, &store);
    let mut settings = crate::settings(None);
    settings["intake"] =
        json!({"nats": {"url": nats.url(), "stream": "JG_DOWN", "subjectPrefix": "jg.down"}});
    let server = Server::start_with_config(&settings, &crate::CLIENTS);
    let token = server.token("alice", "alice-secret");
    let (out, id) = intake::agent_job(&server, &token, "datadog-log-agent-source", "dd-agents");
    let send = |count: &str, prefix: &str| {
        peer(
            "send_datadog.py",
            &[
                "--url",
                &server.url(),
                "--api-key",
                DD_KEY,
                "--count",
                count,
                "--batch",
                "100",
                "--message-prefix",
                prefix,
                "--allow-status",
                "503",
            ],
        )
    };
    assert_eq!(send("500", "before")["statuses"], json!(vec![202; 5]));
    intake::settled(&server, &token, &out, 500);
    let health = |want: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let r = server.call("GET", "/healthz", None, None);
            assert_eq!(r.status, 200, "{}", r.body);
            if r.json()["intake"] == want || Instant::now() > deadline {
                return r.json();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    assert_eq!(health("jetstream")["intake"], "jetstream");
    nats.kill();
    assert_eq!(
        health("jetstream-unreachable")["intake"],
        "jetstream-unreachable"
    );
    let started = Instant::now();
    let down = send("300", "down");
    assert_eq!(down["statuses"], json!(vec![503; 3]), "{down}");
    assert!(
        down["retry_afters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r == "5"),
        "{down}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let _nats = Nats::start(port, &store);
    assert_eq!(health("jetstream")["intake"], "jetstream");
    // The service reconnects by itself: requests are taken again within a few seconds.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut taken = Vec::new();
    for attempt in 0.. {
        let prefix = format!("after-{attempt}");
        if send("100", &prefix)["statuses"] == json!([202]) {
            taken.push(prefix);
            if taken.len() == 3 {
                break;
            }
        }
        assert!(Instant::now() < deadline, "never taken again");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut expected = numbered("before", 500);
    for prefix in &taken {
        expected.extend(numbered(prefix, 100));
    }
    expected.sort();
    let rows = intake::settled(&server, &token, &out, expected.len());
    assert_eq!(intake::messages(&rows), expected);
    let state = crate::runner::job(&server, &token, &id, None);
    assert_eq!(state["state"], "RUNNING", "{state}");
}
