//! Row 6: one organization's load is not everyone's. Organization A floods the service (slow
//! scripts up to its script quota; many concurrent heavy lists) while organization B's light
//! requests and `/healthz` are timed: the sandbox's per-organization share keeps a worker for
//! B, and the per-organization request line keeps A's reads from taking every database
//! connection.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::Server;

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::start_with_config(
            &json!({
                "workers": 2,
                "synchronous": "normal",
                "limits": {"timeoutMs": 400},
                "maxConcurrentScripts": 32
            }),
            &[
                "--client",
                "fair-a:fair-a-secret:fair-org-a",
                "--client",
                "fair-b:fair-b-secret:fair-org-b",
                "--client",
                "list-a:list-a-secret:list-org-a",
                "--client",
                "list-b:list-b-secret:list-org-b",
            ],
        )
    })
}

/// The 99th percentile (nearest rank) of `samples`, in milliseconds.
fn p99(samples: &mut [Duration]) -> f64 {
    samples.sort();
    let rank = (samples.len() * 99).div_ceil(100).max(1) - 1;
    samples[rank].as_secs_f64() * 1000.0
}

fn median(samples: &mut [Duration]) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

#[test]
fn a_trivial_test_of_b_stays_fast_while_a_saturates_its_script_share() {
    let _serial = crate::one_at_a_time();
    let server = server();
    let a = server.token("fair-a", "fair-a-secret");
    let b = server.token("fair-b", "fair-b-secret");
    let spin = json!({"template": {"template": "while (true) {}"}});
    let light = json!({"template": {"template": "({vertices: [], edges: []})"}});
    // B's worker exists before the flood (its first script starts one).
    let r = server.call("POST", "/v1/templates/test", Some(&b), Some(&light));
    assert_eq!(r.status, 200, "{}", r.body);
    let stop = AtomicBool::new(false);
    let spun = AtomicUsize::new(0);
    let refused = AtomicUsize::new(0);
    let mut samples = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..32 {
            scope.spawn(|| {
                for _ in 0..200 {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = server.call("POST", "/v1/templates/test", Some(&a), Some(&spin));
                    match r.status {
                        400 => spun.fetch_add(1, Ordering::Relaxed),
                        429 => refused.fetch_add(1, Ordering::Relaxed),
                        other => panic!("A's spinning test: {other} {}", r.body),
                    };
                }
            });
        }
        // A saturates: its scripts are running and timing out one after another.
        let deadline = Instant::now() + Duration::from_secs(20);
        while spun.load(Ordering::Relaxed) < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(spun.load(Ordering::Relaxed) >= 2, "A's scripts never ran");
        for n in 0..50 {
            // A new source each time: the execution cache must not answer in its place.
            let light = json!({"template": {"template": format!("/* {n} */ ({{vertices: [], edges: []}})")}});
            let started = Instant::now();
            let r = server.call("POST", "/v1/templates/test", Some(&b), Some(&light));
            samples.push(started.elapsed());
            assert_eq!(r.status, 200, "{}", r.body);
        }
        stop.store(true, Ordering::Relaxed);
    });
    let median = median(&mut samples);
    let p99 = p99(&mut samples);
    eprintln!(
        "fairness/scripts: B's trivial test under A's flood of 32 spinning tests: median {median:.1} ms, p99 {p99:.1} ms \
         (A: {} spun to its time limit, {} refused 429)",
        spun.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    assert!(p99 < 100.0, "B's p99 is {p99:.1} ms");
}

/// Creates `count` templates for `token`'s organization, on a few threads.
fn create_templates(server: &Server, token: &str, count: usize) {
    let description = "d".repeat(1000);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= count {
                        break;
                    }
                    let mut body = crate::common::filter_template(&format!("heavy-{n}"));
                    body["description"] = json!(description);
                    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
                    assert_eq!(r.status, 201, "{}", r.body);
                }
            });
        }
    });
}

#[test]
fn b_s_list_and_healthz_stay_fast_while_a_lists_heavily() {
    let _serial = crate::one_at_a_time();
    let server = server();
    let a = server.token("list-a", "list-a-secret");
    let b = server.token("list-b", "list-b-secret");
    let setup = Instant::now();
    create_templates(server, &a, 3000);
    let r = server.call(
        "POST",
        "/v1/templates",
        Some(&b),
        Some(&crate::common::filter_template("light")),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let one = Instant::now();
    let r = server.call("GET", "/v1/templates", Some(&a), None);
    assert_eq!(r.status, 200);
    eprintln!(
        "fairness/lists: setup {:.1} s; one list of A: {} bytes in {:.0} ms",
        setup.elapsed().as_secs_f64(),
        r.body.len(),
        one.elapsed().as_secs_f64() * 1000.0
    );
    let stop = AtomicBool::new(false);
    let listed = AtomicUsize::new(0);
    let refused = AtomicUsize::new(0);
    let (mut lists, mut health) = (Vec::new(), Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..64 {
            scope.spawn(|| {
                for _ in 0..100 {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = server.call("GET", "/v1/templates", Some(&a), None);
                    match r.status {
                        200 => listed.fetch_add(1, Ordering::Relaxed),
                        429 => refused.fetch_add(1, Ordering::Relaxed),
                        other => panic!("A's list: {other} {}", r.body),
                    };
                }
            });
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while listed.load(Ordering::Relaxed) < 4 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        for _ in 0..30 {
            let started = Instant::now();
            let r = server.call("GET", "/v1/templates", Some(&b), None);
            lists.push(started.elapsed());
            assert_eq!(r.status, 200, "{}", r.body);
            let started = Instant::now();
            let r = server.call("GET", "/healthz", None, None);
            health.push(started.elapsed());
            assert_eq!(r.status, 200, "{}", r.body);
        }
        stop.store(true, Ordering::Relaxed);
    });
    let (list_median, list_p99) = (median(&mut lists), p99(&mut lists));
    let (health_median, health_p99) = (median(&mut health), p99(&mut health));
    eprintln!(
        "fairness/lists: under 64 concurrent lists of A ({} answered, {} refused 429): \
         B's list median {list_median:.1} ms p99 {list_p99:.1} ms; /healthz median {health_median:.1} ms p99 {health_p99:.1} ms",
        listed.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    assert!(listed.load(Ordering::Relaxed) >= 4, "A's lists never ran");
    assert!(list_p99 < 100.0, "B's list p99 is {list_p99:.1} ms");
    assert!(health_p99 < 100.0, "/healthz p99 is {health_p99:.1} ms");
}
