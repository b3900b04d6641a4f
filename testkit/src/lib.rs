//! What the service's test suites share, whether they call the router in process
//! (`server/tests/api`) or the `jobgraph` binary over a socket (`cli/tests`): the answer shape
//! they read ([`Response`]), the templates and jobs they send ([`fixtures`]), the events they
//! load into the lake and what a query of them must return ([`lake`]).
//!
//! ```
//! use jobgraph_testkit::{Response, lake};
//!
//! let events = lake::events(3, "2026-11-20T00:00:00Z", 1);
//! assert_eq!(lake::ndjson(&events).lines().count(), 3);
//! let r = Response { status: 200, headers: vec![], body: r#"{"ok": true}"#.into() };
//! assert_eq!(r.json()["ok"], true);
//! ```

pub mod fixtures;
pub mod lake;

use serde_json::Value;

/// An HTTP answer, its body read whole.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
}

impl Response {
    /// The body as JSON (a panic naming the body when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?} (status {})", self.body, self.status))
    }

    /// A header's value, by name in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `error` field of a JSON error body, which must also carry `message`.
    pub fn error(&self) -> String {
        let body = self.json();
        assert!(body["message"].is_string(), "no message: {body}");
        body["error"].as_str().expect("error field").to_owned()
    }
}

/// Checks a 429 of the token endpoint: RFC 6749 error body (`slow_down`, its description
/// containing `what`), `Retry-After` of 1 s to an hour, not cached.
pub fn assert_throttled(r: &Response, what: &str) {
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.error(), "slow_down");
    let description = r.json()["error_description"].as_str().unwrap().to_owned();
    assert!(description.contains(what), "{description}");
    assert_eq!(r.json()["message"], description.as_str());
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=3600).contains(&retry), "Retry-After {retry}");
    assert!(description.contains(&format!("retry after {retry} s")));
    assert_eq!(r.header("cache-control"), Some("no-store"));
}

/// Answers of a listing in the list's order: oldest first, those made in the same millisecond
/// by id (`createdAt` has a fixed width, so its text sorts as its time).
pub fn in_list_order(made: &[Value]) -> Vec<Value> {
    let mut sorted = made.to_vec();
    sorted.sort_by(|a, b| {
        let key = |d: &Value| {
            (
                d["createdAt"].as_str().map(str::to_owned),
                d["id"].as_str().map(str::to_owned),
            )
        };
        key(a).cmp(&key(b))
    });
    sorted
}
