//! The token endpoint under credential guessing (issue 24, point 5), in process: budgets of
//! secret verifications per source address and per client id (429 `slow_down` with
//! `Retry-After`), a client that got a token before kept out of its id's throttle, unknown ids
//! answered as known ones. The service trusts 127.0.0.1 (the harness's peer) as a reverse
//! proxy, so that each test speaks from addresses of its own through `X-Forwarded-For`. What
//! needs the listener or the log on stderr stays in `cli/tests/serve_throttle.rs`.

use std::sync::OnceLock;

use serde_json::json;

use jobgraph_testkit::assert_throttled;

use crate::harness::{Harness, Response};

const ADDRESS_BURST: u64 = 4;
const CLIENT_BURST: u64 = 3;

fn server() -> &'static Harness {
    static SERVER: OnceLock<Harness> = OnceLock::new();
    SERVER.get_or_init(|| {
        Harness::start(
            &[
                ("alice", "alice-secret-1", "acme"),
                ("bob", "bob-secret-2", "acme"),
                ("carol", "carol-secret-3", "acme"),
                ("frank", "frank-secret-6", "acme"),
            ],
            json!({"tokenThrottle": {
                "addressBurst": ADDRESS_BURST, "addressPeriodMs": 3_600_000,
                "clientBurst": CLIENT_BURST, "clientPeriodMs": 3_600_000,
                "refusalDelayMs": 20, "trustedProxies": ["127.0.0.1"]
            }}),
        )
    })
}

/// A JSON token request as the proxy forwards it from `from`.
fn token_request(from: &str, id: &str, secret: &str) -> Response {
    let body = json!({"client_id": id, "client_secret": secret,
                      "audience": "service", "grant_type": "client_credentials"})
    .to_string();
    let headers = vec![
        ("Content-Type".to_owned(), "application/json".to_owned()),
        (
            "X-Forwarded-For".to_owned(),
            format!("198.51.100.9, {from}"),
        ),
    ];
    server().request("POST", "/oauth/token", &headers, Some(body.as_bytes()))
}

#[test]
fn a_guessing_address_is_throttled_for_every_client_id_and_other_addresses_are_not() {
    let from = "10.0.0.1";
    for n in 0..ADDRESS_BURST {
        let r = token_request(from, &format!("guess-{n}"), "not-the-secret");
        assert_eq!((r.status, r.error()), (401, "invalid_client".to_owned()));
    }
    assert_throttled(
        &token_request(from, "guess-x", "not-the-secret"),
        "from this address",
    );
    // The address is refused before any verification, a correct secret too (documented): the
    // budget is of hashes an address may make the service compute.
    assert_throttled(
        &token_request(from, "bob", "bob-secret-2"),
        "from this address",
    );
    // The same client from another address is not held back; nor is an IPv6 client.
    assert_eq!(token_request("10.0.0.2", "bob", "bob-secret-2").status, 200);
    assert_eq!(
        token_request("2001:db8:1::7", "bob", "bob-secret-2").status,
        200
    );
}

#[test]
fn a_guessed_client_id_is_throttled_but_its_client_keeps_getting_tokens() {
    // A guesser spreads over many addresses (one guess each): the id's budget runs out.
    let guesses = |id: &str, subnet: u8| -> Vec<(u16, String)> {
        (1..=CLIENT_BURST + 2)
            .map(|n| {
                let r = token_request(&format!("10.{subnet}.0.{n}"), id, &format!("guess-{n}"));
                (r.status, r.error())
            })
            .collect()
    };
    let answers = |failures: u64| {
        let mut expected = vec![(401, "invalid_client".to_owned()); failures as usize];
        expected.resize(CLIENT_BURST as usize + 2, (429, "slow_down".to_owned()));
        expected
    };
    // Carol got a token from her address before the guessing started (which took one
    // verification of her id's budget).
    assert_eq!(
        token_request("10.1.0.1", "carol", "carol-secret-3").status,
        200
    );
    assert_eq!(guesses("carol", 2), answers(CLIENT_BURST - 1));
    assert_throttled(
        &token_request("10.2.1.1", "carol", "guess"),
        "for this client id",
    );
    // Carol, from where she got tokens, still gets one: a guesser cannot lock her out.
    assert_eq!(
        token_request("10.1.0.1", "carol", "carol-secret-3").status,
        200
    );
    // From an address she never used, she waits like the guesser (documented).
    assert_throttled(
        &token_request("10.1.0.2", "carol", "carol-secret-3"),
        "for this client id",
    );

    // An unknown id is answered exactly as a known one: no way to tell which ids exist.
    assert_eq!(guesses("frank", 3), answers(CLIENT_BURST));
    assert_eq!(guesses("nobody", 7), answers(CLIENT_BURST));
}

/// The `oauth2` crate reads the 429 as an RFC 6749 error answer (`slow_down`), not as a
/// transport failure; only the transport (one loopback request, from a throttled address)
/// is ours.
#[test]
fn a_standard_oauth2_client_reads_the_429() {
    use oauth2::basic::{BasicClient, BasicErrorResponseType};
    use oauth2::{AuthType, ClientId, ClientSecret, RequestTokenError, TokenUrl};

    let from = "10.6.0.1";
    for n in 0..ADDRESS_BURST {
        assert_eq!(
            token_request(from, &format!("oauth-{n}"), "guess").status,
            401
        );
    }
    let transport = |req: oauth2::HttpRequest| -> Result<oauth2::HttpResponse, std::io::Error> {
        let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
        let mut headers: Vec<(String, String)> = req
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap().to_owned()))
            .collect();
        headers.push(("X-Forwarded-For".into(), from.into()));
        let r = server().request(req.method().as_str(), path, &headers, Some(req.body()));
        let mut answer = oauth2::http::Response::builder().status(r.status);
        for (k, v) in &r.headers {
            answer = answer.header(k, v);
        }
        answer
            .body(r.body.into_bytes())
            .map_err(std::io::Error::other)
    };
    let client = BasicClient::new(ClientId::new("alice".into()))
        .set_client_secret(ClientSecret::new("alice-secret-1".into()))
        .set_token_uri(TokenUrl::new(format!("{}/oauth/token", server().url())).unwrap())
        .set_auth_type(AuthType::BasicAuth);
    match client.exchange_client_credentials().request(&transport) {
        Err(RequestTokenError::ServerResponse(e)) => {
            assert_eq!(
                e.error(),
                &BasicErrorResponseType::Extension("slow_down".into())
            );
            assert!(
                e.error_description()
                    .is_some_and(|d| d.contains("retry after"))
            );
        }
        other => panic!("expected an RFC 6749 error answer, got {other:?}"),
    }
}

#[test]
fn the_429_is_in_the_openapi_document() {
    let r = server().call("GET", "/openapi.json", None, None);
    let doc = r.json();
    let response = &doc["paths"]["/oauth/token"]["post"]["responses"]["429"];
    assert_eq!(
        response["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ErrorBody"
    );
    assert!(response["headers"]["Retry-After"].is_object(), "{response}");
}
