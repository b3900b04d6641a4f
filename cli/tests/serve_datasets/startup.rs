//! Integrations in the `--config` file are checked when the binary starts: a bad one stops it
//! with a message naming the field (their listing is tested in process, in `server/tests/api`).

use serde_json::json;

#[test]
fn bad_integration_settings_stop_the_server_with_a_message() {
    for (integrations, expected) in [
        (
            json!([{"id": "a", "name": "A", "type": "s3"}, {"id": "a", "name": "B", "type": "s3"}]),
            "integrations[1].id",
        ),
        (json!([{"id": "a", "name": "A"}]), "type"),
        (
            json!([{"id": "a", "name": "A", "type": "s3", "colour": "red"}]),
            "colour",
        ),
        (
            json!([{"id": "a", "name": "A", "type": "s3", "organizations": []}]),
            "organizations",
        ),
        // `/v1/integrations/datadog` lists the type: no integration may be called so.
        (
            json!([{"id": "datadog", "name": "A", "type": "datadog"}]),
            "integrations[0].id \"datadog\" is the name of an integration type",
        ),
        (
            json!([{"id": "a", "name": "A", "type": "datadog", "payload": "site"}]),
            "payload",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.json");
        std::fs::write(&config, json!({"integrations": integrations}).to_string()).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(dir.path().join("db"))
            .arg("--config")
            .arg(&config)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{integrations}: {stderr}");
    }
}
