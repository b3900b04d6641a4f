//! Row 4, amplification: a template returning 10,000 vertices (the per-script maximum) used by
//! 300 operations of one 24 KB job resolved to 3 million vertices, 97.6 MB stored, in 12.4 s,
//! the server's RSS reaching 4.16 GB. The resolution output budget (`maxResolvedVertices`,
//! default 100,000; `maxResolvedBytes`, default 32 MiB) now refuses it as the results arrive.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Server;

/// A server with every default but one client.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(&["--client", "amp:amp-secret:acme"]))
}

/// Creates the template that returns 10,000 vertices; its id.
fn wide_template(server: &Server, token: &str) -> String {
    let body = json!({
        "name": "wide",
        "description": "10,000 vertices, the most one script may return",
        "template": "({vertices: Array.from({length: 10000}, (_, i) => ({type: 'x', name: 'v' + i})), \
                     edges: []})"
    });
    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().expect("template id").to_owned()
}

/// A job with `n` template operations of `template_id`.
fn job(template_id: &str, n: usize) -> Value {
    let vertices: Vec<Value> = (0..n)
        .map(|i| json!({"type": "template-operation", "name": format!("op{i}"), "templateId": template_id}))
        .collect();
    json!({
        "name": format!("amplified-{n}"),
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {"vertices": vertices, "edges": []}
    })
}

#[test]
fn a_job_amplified_past_the_resolved_vertex_budget_is_refused_quickly_and_small() {
    let _one = crate::one_at_a_time();
    let server = server();
    let token = server.token("amp", "amp-secret");
    let template_id = wide_template(server, &token);
    let body = job(&template_id, 300);
    let size = body.to_string().len();
    let started = Instant::now();
    let r = server.call("POST", "/v1/jobs", Some(&token), Some(&body));
    let elapsed = started.elapsed();
    let rss = crate::rss_bytes(server.child.id());
    eprintln!(
        "amplification: {size} B job, 300 operations x 10,000 vertices: status {} in {} ms, \
         server RSS {:.1} MB",
        r.status,
        elapsed.as_millis(),
        rss as f64 / 1e6
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.json()["code"],
        "MAX_RESOLVED_VERTICES_EXCEEDED",
        "{}",
        r.body
    );
    let message = r.error();
    assert!(
        message.starts_with("Resolved graph too large: ")
            && message.contains("more than the maximum of 100000 per resolution")
            && message.contains("`maxResolvedVertices`"),
        "{message}"
    );
    // 10 results fit (100,000 vertices); the 11th, `op10`, goes past.
    assert!(message.contains("operation op10)"), "{message}");
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    assert!(rss > 0 && rss < 500_000_000, "server RSS {rss} B");
    // Nothing was stored.
    let r = server.call("GET", "/v1/jobs", Some(&token), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains("amplified-300"), "{}", r.body);
}

#[test]
fn a_job_just_under_the_resolved_vertex_budget_is_accepted() {
    let _one = crate::one_at_a_time();
    let server = server();
    let token = server.token("amp", "amp-secret");
    let template_id = wide_template(server, &token);
    // 10 operations: exactly 100,000 produced vertices, the maximum.
    let started = Instant::now();
    let r = server.call(
        "POST",
        "/v1/jobs",
        Some(&token),
        Some(&job(&template_id, 10)),
    );
    let elapsed = started.elapsed();
    let rss = crate::rss_bytes(server.child.id());
    eprintln!(
        "amplification: 10 operations x 10,000 vertices: status {} in {} ms, server RSS {:.1} MB",
        r.status,
        elapsed.as_millis(),
        rss as f64 / 1e6
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().expect("job id").to_owned();
    let r = server.call(
        "GET",
        &format!("/v1/jobs/{id}?resolved=true"),
        Some(&token),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let vertices = r.json()["jobGraph"]["vertices"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(vertices, 100_000);
}
