//! `sortOrder`: which events a `limit` keeps, oldest or newest first, across files whose time
//! ranges overlap (two loads interleaved in time); `jobgraph query --order`.

use serde_json::{Value, json};

use crate::{
    alice_on, create_dataset, data_of, events, expected_ids, load, ndjson, query_job, run_sync,
    server,
};

const QUERY: &str = "level:warn OR level:error";

fn stream_ids(records: &[Value]) -> Vec<String> {
    data_of(records)
        .iter()
        .map(|e| e["id"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn sort_order_decides_which_events_the_limit_keeps() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "ordered", json!({}));
    let all = events(3000, "2026-11-22T00:00:00Z", 6);
    // Two loads, even and odd events: every hour has a file of each, overlapping in time.
    for parity in [0, 1] {
        let half: Vec<Value> = all.iter().skip(parity).step_by(2).cloned().collect();
        load(server, &token, &dataset, &ndjson(&half));
    }
    let (start, end) = ("2026-11-22T01:30:00Z", "2026-11-22T04:10:00Z");
    // Ids follow time order, so the sorted ids are the oldest-first order.
    let matching = expected_ids(&all, QUERY, start, end);
    assert!(matching.len() > 100, "{}", matching.len());
    let with_order = |order: &str, limit: u64| {
        let mut job = query_job(&dataset, start, end, QUERY, limit);
        job["jobGraph"]["vertices"][0]["sortOrder"] = json!(order);
        let records = run_sync(server, &token, &job);
        assert_eq!(
            records.last().unwrap()["jobState"],
            "FINISHED",
            "{records:?}"
        );
        stream_ids(&records)
    };

    assert_eq!(with_order("ASCENDING", 40), matching[..40]);
    let newest: Vec<String> = matching.iter().rev().take(40).cloned().collect();
    assert_eq!(with_order("DESCENDING", 40), newest);
    assert_eq!(with_order("desc", 100_000), {
        let mut all = matching.clone();
        all.reverse();
        all
    });
    let unsorted = with_order("UNSORTED", 100_000);
    assert_ne!(unsorted, matching, "file order interleaves the two loads");
    let mut sorted = unsorted;
    sorted.sort();
    assert_eq!(sorted, matching);

    let mut job = query_job(&dataset, start, end, QUERY, 10);
    job["jobGraph"]["vertices"][0]["sortOrder"] = json!("NEWEST");
    let r = server.call("POST", "/v1/jobs/sync", Some(&token), Some(&job));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body
            .contains("vertex source: `sortOrder` \\\"NEWEST\\\" is not UNSORTED"),
        "{}",
        r.body
    );

    // `jobgraph query --order desc --limit 5 -f raw` prints the newest five, newest first.
    let home = tempfile::tempdir().unwrap();
    let out = crate::jobgraph(server, home.path())
        .args([
            "query",
            "--dataset-id",
            &dataset,
            "--start",
            start,
            "--end",
            end,
        ])
        .args([
            "--query", QUERY, "--order", "desc", "--limit", "5", "-q", "-f", "raw",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(printed, newest[..5]);
}
