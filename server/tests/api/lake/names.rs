//! Names that become part of the lake's paths (docs/lake.md, "Names"): a load's `table`, the
//! `table` of a job graph's lake vertices. Each is checked where it enters: a 400 stating the
//! rule, never a 500, never a file outside the dataset.

use jobgraph_core::names::{PATH_NAME_RULE, check_path_name};
use serde_json::{Value, json};

use super::Server;
use super::{alice_on, create_dataset, events, files, ndjson, open_sync, server};

/// `text` percent-encoded for a query string (every byte but the unreserved ones).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `POST /v1/datasets/{dataset}/load?table=…` of a few events: the status and answer.
fn load_table(server: &Server, token: &str, dataset: &str, table: &str) -> (u16, Value) {
    let body = ndjson(&events(3, "2026-11-20T00:00:00Z", 1));
    let r = server.request(
        "POST",
        &format!("/v1/datasets/{dataset}/load?table={}", encode(table)),
        &[
            ("Authorization".into(), format!("Bearer {token}")),
            ("Content-Type".into(), "application/x-ndjson".into()),
        ],
        Some(body.as_bytes()),
    );
    let status = r.status;
    (status, serde_json::from_str(&r.body).unwrap_or(Value::Null))
}

/// Every file under the server's lake root, as paths relative to it.
fn lake_files(server: &Server) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let root = server.data.join("db").join("lake");
    let mut out = Vec::new();
    walk(&root, &mut out);
    out.into_iter()
        .filter_map(|p| p.strip_prefix(&root).ok().map(std::path::Path::to_owned))
        .collect()
}

/// Every file of the lake is `<organization>/<dataset>/<table>/<partition>/<file>`: nothing
/// landed beside a dataset or outside the root (other tests write at the same time, always
/// at that depth).
fn assert_lake_layout(server: &Server) {
    for path in lake_files(server) {
        assert_eq!(path.components().count(), 5, "{}", path.display());
    }
}

#[test]
fn bad_table_names_in_a_load_are_400s_stating_the_rule_and_write_nothing() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "names", json!({}));
    let long = "t".repeat(129);
    let bad = [
        "a/b",
        "..",
        "web logs",
        "50%",
        "a\\b",
        "logs\u{202E}gol",
        "",
        long.as_str(),
    ];
    for table in bad {
        let (status, answer) = load_table(server, &token, &dataset, table);
        assert_eq!(status, 400, "{table:?}: {answer}");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(message.contains("query parameter `table`"), "{message}");
        assert!(message.contains(PATH_NAME_RULE), "{message}");
    }
    // The same names for a dataset that does not exist: still the 400 (checked first).
    let (status, answer) = load_table(server, &token, "no-such-dataset", "a/b");
    assert_eq!(status, 400, "{answer}");
    assert!(files(server, &token, &dataset).is_empty());
    assert_eq!(super::lake_objects(server, "acme", &dataset), 0);
    assert_lake_layout(server);
    // A plain name works, and its files are in the dataset's folder for that table.
    let (status, answer) = load_table(server, &token, &dataset, "web-logs.v2");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["table"], "web-logs.v2");
    let written = files(server, &token, &dataset);
    assert!(!written.is_empty());
    for file in &written {
        let path = file["path"].as_str().unwrap_or_default();
        assert!(
            path.starts_with(&format!("acme/{dataset}/web-logs.v2/")),
            "{path}"
        );
    }
}

/// Property over arbitrary strings as a load's `table`: the service answers 400 with the rule
/// exactly when the rule refuses the name, and otherwise writes inside the dataset's folder
/// for that table; never a 500.
#[test]
fn arbitrary_table_names_load_inside_the_dataset_or_are_refused() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "arbitrary", json!({}));
    let mut state: u64 = 0x7ab1_e5ee_d000_0001;
    let mut below = |n: u64| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    };
    const ALLOWED: &[u8] = b"aZ09-_.:@=+~";
    const ODD: &[char] = &[
        '/', '\\', '%', ' ', '\n', '?', '#', '&', '=', 'é', '\u{FF0F}', '\0',
    ];
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..48 {
        let length = match below(6) {
            0 => below(3) as usize,
            1 => 127 + below(3) as usize,
            _ => 1 + below(10) as usize,
        };
        let odd_rate = [0, 10, 40][below(3) as usize];
        let table: String = (0..length)
            .map(|_| {
                if below(100) < odd_rate {
                    ODD[below(ODD.len() as u64) as usize]
                } else {
                    char::from(ALLOWED[below(ALLOWED.len() as u64) as usize])
                }
            })
            .collect();
        let (status, answer) = load_table(server, &token, &dataset, &table);
        match check_path_name("table", &table) {
            Ok(()) => {
                accepted += 1;
                assert_eq!(status, 200, "{table:?}: {answer}");
                assert_eq!(answer["table"], table.as_str());
            }
            Err(_) => {
                refused += 1;
                assert_eq!(status, 400, "{table:?}: {answer}");
                let message = answer["message"].as_str().unwrap_or_default();
                assert!(message.contains(PATH_NAME_RULE), "{message}");
            }
        }
    }
    assert!(
        accepted > 5 && refused > 5,
        "{accepted} accepted, {refused} refused"
    );
    for file in files(server, &token, &dataset) {
        let table = file["table"].as_str().unwrap_or_default();
        let path = file["path"].as_str().unwrap_or_default();
        assert!(
            path.starts_with(&format!("acme/{dataset}/{table}/")),
            "{path}"
        );
    }
    assert_lake_layout(server);
}

#[test]
fn job_graphs_naming_a_bad_table_are_refused_naming_the_vertex_and_field() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "graph-names", json!({}));
    let sink_job = json!({
        "name": "bad-sink", "execution": "ASYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-values-source", "name": "in", "values": events(2, "2026-11-20T00:00:00Z", 1)},
            {"type": "logs-iceberg-table-sink", "name": "archive", "datasetId": dataset, "table": "../escape"}],
         "edges": ["in -> archive"]}
    });
    for path in ["/v1/jobs", "/v1/jobs/async"] {
        let r = server.call("POST", path, Some(&token), Some(&sink_job));
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains("/vertices/1/table"), "{message}");
        assert!(message.contains("vertex \"archive\""), "{message}");
        assert!(message.contains(PATH_NAME_RULE), "{message}");
    }
    let mut sync_job = sink_job.clone();
    sync_job["execution"] = json!("SYNCHRONOUS");
    let source_job = json!({
        "name": "bad-source", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {"vertices": [
            {"type": "logs-iceberg-table-source", "name": "src", "datasetId": dataset, "table": "a b"},
            {"type": "logs-sync-sink", "name": "out"}],
         "edges": ["src -> out"]}
    });
    for (job, pointer, vertex) in [
        (&sync_job, "/vertices/1/table", "archive"),
        (&source_job, "/vertices/0/table", "src"),
    ] {
        let mut stream = open_sync(server, &token, job);
        assert_eq!(stream.status, 400, "{job}");
        let body = stream.error_body();
        let message: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        let message = message["message"].as_str().unwrap_or_default();
        assert!(message.contains(pointer), "{body}");
        assert!(message.contains(&format!("vertex {vertex:?}")), "{body}");
        assert!(message.contains(PATH_NAME_RULE), "{body}");
    }
    assert_eq!(super::lake_objects(server, "acme", &dataset), 0);
    assert_lake_layout(server);
}
