//! The public client's `query` job as each of its engines builds it: `grepr-raw-log-source`
//! (its default) and `logs-iceberg-table-source` (`GREPR_QUERY_ENGINE=flink`), with the
//! predicates it sends (`datadog-query`, and an `and-predicate` with `message-length` for
//! `--message-length-min`), reading a real dataset.

use jobgraph_core::pipeline::{LogEvent, Query};
use serde_json::{Value, json};

use super::{alice_on, create_dataset, data_of, events, ids_of, load, ndjson, run_sync, server};

/// The job of the public client's `query --dataset-id ID --query Q [--message-length-min N]`.
fn client_query(source_type: &str, dataset: &str, query: &str, min_length: Option<u64>) -> Value {
    let language = json!({"type": "datadog-query", "query": query});
    let predicate = match min_length {
        None => language,
        Some(min) => json!({"type": "and-predicate", "queries": [
            language, {"type": "message-length", "minLength": min}]}),
    };
    json!({
        "name": "query_tool_job_1764000000000",
        "execution": "SYNCHRONOUS",
        "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"name": "source", "type": source_type, "datasetId": dataset,
                 "start": "2026-11-20T00:00:00.000Z", "end": "2026-11-20T06:00:00.000Z",
                 "sortOrder": "UNSORTED", "limit": 100_000, "query": predicate},
                {"type": "logs-sync-sink", "name": "sink"}
            ],
            "edges": ["source -> sink"]
        },
        "tags": {},
        "teamIds": []
    })
}

#[test]
fn both_engines_sources_read_the_dataset_with_the_clients_predicates() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "public-client", json!({}));
    let all = events(3000, "2026-11-20T00:00:00Z", 6);
    load(server, &token, &dataset, &ndjson(&all));

    // Messages are `request {i} served`: 19 characters from i = 1000 on.
    let query = "level:error";
    for (min_length, check) in [
        (None, Query::parse(query).unwrap()),
        (
            Some(19),
            Query::from_predicate(&json!({"type": "and-predicate", "queries": [
                {"type": "datadog-query", "query": query},
                {"type": "message-length", "minLength": 19}]}))
            .unwrap(),
        ),
    ] {
        let mut want: Vec<String> = all
            .iter()
            .filter(|e| check.matches(&LogEvent::from_value((*e).clone()).unwrap()))
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect();
        want.sort();
        assert!(
            want.len() > 100,
            "the query selects something: {}",
            want.len()
        );
        for source_type in ["grepr-raw-log-source", "logs-iceberg-table-source"] {
            let records = run_sync(
                server,
                &token,
                &client_query(source_type, &dataset, query, min_length),
            );
            assert_eq!(
                records.last().unwrap()["jobState"],
                "FINISHED",
                "{source_type}: {records:?}"
            );
            assert_eq!(
                ids_of(&data_of(&records)),
                want,
                "{source_type}, message-length {min_length:?}"
            );
        }
    }
    // The length bound holds on what came back.
    let records = run_sync(
        server,
        &token,
        &client_query("grepr-raw-log-source", &dataset, "", Some(19)),
    );
    let data = data_of(&records);
    assert_eq!(data.len(), 2000, "i from 1000 to 2999");
    assert!(
        data.iter()
            .all(|e| e["message"].as_str().unwrap().chars().count() >= 19)
    );
}
