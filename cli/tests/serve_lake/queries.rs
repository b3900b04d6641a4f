//! Reading datasets with `jobgraph query` (the endpoints' reading is tested in process, in
//! `server/tests/api/lake/queries.rs`).

use serde_json::{Value, json};

use crate::{alice_on, create_dataset, events, expected_ids, ids_of, load, ndjson, server};

const QUERY: &str = "(level:warn OR level:error) AND service:checkout";

#[test]
fn jobgraph_query_streams_events_with_markers_in_every_format() {
    let server = server();
    let token = alice_on(server);
    let dataset = create_dataset(server, &token, "cli", json!({}));
    let all = events(2000, "2026-11-20T00:00:00Z", 24);
    load(server, &token, &dataset, &ndjson(&all));
    let home = tempfile::tempdir().unwrap();
    let (start, end) = ("2026-11-20T06:00:00Z", "2026-11-20T18:00:00Z");
    let run = |extra: &[&str]| {
        let out = super::jobgraph(server, home.path())
            .args([
                "query",
                "--dataset-id",
                &dataset,
                "--start",
                start,
                "--end",
                end,
            ])
            .args(["--query", QUERY, "--limit", "10000"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let want = expected_ids(&all, QUERY, start, end);
    let (code, stdout, stderr) = run(&["-f", "raw"]);
    assert_eq!(code, Some(0), "{stderr}");
    let markers: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(
        markers,
        ["[CONNECTING]", "[CONNECTED]", "[RUNNING]", "[FINISHED]"],
        "{stderr}"
    );
    let got: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ids_of(&got), want);

    let (code, stdout, stderr) = run(&["-q", "-f", "csv"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("[RUNNING]"), "-q hides markers: {stderr}");
    assert_eq!(
        stdout.lines().count(),
        want.len() + 1,
        "a header and a row each"
    );
    for format in ["table", "pretty", "compact"] {
        let (code, stdout, stderr) = run(&["-f", format]);
        assert_eq!(code, Some(0), "{format}: {stderr}");
        assert!(stdout.contains(&want[0]), "{format}: {stdout}");
    }

    // By name, too; an unknown dataset names itself.
    let name = server
        .call(
            "GET",
            &format!("/v1/datasets/{dataset}"),
            Some(&token),
            None,
        )
        .json()["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = super::jobgraph(server, home.path())
        .args([
            "query",
            "--dataset-name",
            &name,
            "--start",
            start,
            "--end",
            end,
            "-q",
            "-f",
            "raw",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        100,
        "default limit 100"
    );
    let out = super::jobgraph(server, home.path())
        .args(["query", "--dataset-name", "no-such-dataset", "-q"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("datasetName \"no-such-dataset\" is not a dataset of your organization"),
        "{stderr}"
    );
}
