//! Retries: a 429 sent again after its `Retry-After`, an unreachable service retried and
//! then named in the error.

use super::*;

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
fn a_fresh_token_that_expires_while_429s_are_retried_is_replaced() {
    use std::io::{Read, Write};
    // Tokens live 2 s; an organization has one request served at a time and waits for none.
    let s = Server::start_with_config(
        &json!({"tokenTtlSeconds": 2,
                "fairness": {"requestsPerOrganization": 1, "requestWaitMs": 0}}),
        &["--client", "held:held-secret-10:org-held"],
    );
    // The organization's one place is held by a request whose body is still arriving. Its
    // token is fetched just before: on a loaded machine a 2 s token can expire before the
    // service reads the headers, and that request is answered 401 without taking the place,
    // so a hold that got an answer is made again.
    let body = json!({"template": filter_template("held")}).to_string();
    let hold = || {
        let token = s.token("held", "held-secret-10");
        let mut held = std::net::TcpStream::connect(s.addr).unwrap();
        write!(
            held,
            "POST /v1/templates/test HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            s.addr,
            body.len()
        )
        .unwrap();
        held.write_all(&body.as_bytes()[..10]).unwrap();
        held
    };
    let answered = |held: &std::net::TcpStream| {
        held.set_nonblocking(true).unwrap();
        let mut byte = [0u8; 1];
        let got = matches!(held.peek(&mut byte), Ok(n) if n > 0);
        held.set_nonblocking(false).unwrap();
        got
    };
    let mut held = hold();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut probe = s.token("held", "held-secret-10");
    loop {
        match s.call("GET", "/v1/templates", Some(&probe), None).status {
            429 => break,
            401 => probe = s.token("held", "held-secret-10"),
            _ if answered(&held) => held = hold(),
            _ => {}
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the place was never taken"
        );
    }

    let rt = runtime();
    let (trace, lines) = recorder();
    let client = Client::builder(s.url())
        .credentials(Credentials::new("held", "held-secret-10"))
        .trace(trace)
        .retry(RetryPolicy {
            max_retries: 6,
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let request = TemplateTest {
        template: TemplateInput {
            name: "probe".into(),
            ..serde_json::from_value(filter_template("probe")).unwrap()
        },
        ..TemplateTest::default()
    };
    std::thread::scope(|scope| {
        // The place comes back after 2.6 s: the client's token, fetched for the call at 0 s,
        // has expired by its third try (2 s), which the service answers 401.
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(2600));
            held.write_all(&body.as_bytes()[10..]).unwrap();
            let mut answer = Vec::new();
            let _ = held.read_to_end(&mut answer);
        });
        let graph = rt.block_on(client.test_template(&request)).unwrap();
        assert_eq!(graph["vertices"][0]["name"], "f");
    });
    let lines = lines.lock().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("401 with a token that expired while the call waited")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("after 429")), "{lines:#?}");
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
