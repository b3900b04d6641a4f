//! `POST /v1/grok/parse/batch` against the real service: the answer per sample, the same as
//! the core engine's here, rule errors with their line and column, limits, hostile rules.

use jobgraph_core::grok::{GrokBatchRequest, parse_batch};
use serde_json::{Value, json};

use super::{alice, call};

const RULES: &str = "login %{word:user} connected on %{date(\"MM/dd/yyyy\"):date} from %{ipv4:network.client.ip}\nlevel %{word:tags.level:lowercase} %{data:msg}";

fn body(rules: &str, samples: &[&str]) -> Value {
    json!({
        "grokParser": {"name": "test", "type": "grok-parser", "grokParsingRules": rules,
                       "grokHelperRules": "", "extractAttribute": "message"},
        "logSamples": samples,
    })
}

#[test]
fn grok_batch_answers_each_sample_as_the_engine_does() {
    let request = body(
        RULES,
        &[
            "john connected on 11/08/2017 from 127.0.0.1",
            "WARN disk almost full",
            "-- nothing to see",
        ],
    );
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&request),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.json();
    let results = answer["results"].as_array().expect("results");
    assert_eq!(results.len(), 3);
    // Values worked out from the lines.
    assert_eq!(results[0]["match"], true);
    assert_eq!(results[0]["matchingRuleName"], "login");
    assert_eq!(results[0]["attributes"]["user"], "john");
    assert_eq!(results[0]["attributes"]["date"], 1_510_099_200_000_i64);
    assert_eq!(
        results[0]["attributes"]["network"]["client"]["ip"],
        "127.0.0.1"
    );
    assert_eq!(results[1]["matchingRuleName"], "level");
    assert_eq!(results[1]["tags"], json!({"level": ["warn"]}));
    assert_eq!(results[1]["attributes"]["msg"], "disk almost full");
    assert_eq!(results[2]["match"], false);
    assert!(results[2].get("matchingRuleName").is_none());
    // The service answers what the engine answers here, byte for byte.
    let local: GrokBatchRequest = serde_json::from_value(request).expect("request");
    let here = serde_json::to_string(&parse_batch(&local).expect("parses")).expect("json");
    assert_eq!(r.body, here);
}

#[test]
fn grok_batch_refuses_bad_rules_and_requests_naming_where() {
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&body("ok %{word:a}\nbroken %{word:b} %{nosuch:c}", &["x"])),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.starts_with("Invalid grok rule broken at 2:"),
        "{message}"
    );
    assert!(message.contains("nosuch"), "{message}");

    let many: Vec<&str> = vec!["a"; 1001];
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&body(RULES, &many)),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("1001 samples"), "{}", r.body);
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&json!({"logSamples": ["x"]})),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("grokParser"), "{}", r.body);
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        None,
        Some(&body(RULES, &["x"])),
    );
    assert_eq!(r.status, 401, "{}", r.body);
}

#[test]
fn grok_batch_stops_a_catastrophic_rule_per_sample() {
    let hostile = "a".repeat(40);
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&body(
            "bad %{regex(\"(a+)+b\")}\nlevel %{word:tags.level:lowercase} %{data:msg}",
            &[&hostile, "ERROR still answered"],
        )),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let results = r.json()["results"].clone();
    assert_eq!(results[0]["match"], false);
    assert!(
        results[0]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("Grok time limit exceeded")),
        "{results}"
    );
    assert_eq!(results[1]["matchingRuleName"], "level");
}

/// The public client's `grok:parse` body as its source builds it (`grokParsingRules: [pattern]`,
/// `grokHelperRules` an array, `name: "cli_test_parser"`), and the fields it reads back.
#[test]
fn grok_batch_takes_the_public_clients_arrays() {
    let request = json!({
        "grokParser": {
            "name": "cli_test_parser",
            "grokParsingRules": ["MyRule %{user} connected from %{ipv4:ip} at %{date(\"HH:mm:ss z\"):at}"],
            "type": "grok-parser",
            "extractAttribute": "message",
            "grokHelperRules": ["user %{word:user.name}"],
        },
        "logSamples": ["john connected from 10.0.0.1 at 14:20:15 ADT", "nothing"],
    });
    let r = call(
        "POST",
        "/v1/grok/parse/batch",
        Some(alice()),
        Some(&request),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let results = r.json()["results"].clone();
    assert_eq!(results[0]["match"], true);
    assert_eq!(results[0]["matchingRuleName"], "MyRule");
    // 14:20:15 ADT (UTC-3) on the epoch day: 17:20:15 UTC.
    assert_eq!(
        results[0]["attributes"],
        json!({"user": {"name": "john"}, "ip": "10.0.0.1", "at": 62_415_000})
    );
    assert_eq!(results[0]["tags"], json!({}));
    assert_eq!(results[0]["topLevelFields"], json!({}));
    assert_eq!(results[1]["match"], false);
    // The same rules as one string give the same answer.
    let mut text = request.clone();
    text["grokParser"]["grokParsingRules"] =
        json!(request["grokParser"]["grokParsingRules"][0].clone());
    let again = call("POST", "/v1/grok/parse/batch", Some(alice()), Some(&text));
    assert_eq!(again.body, r.body);

    // A rule error names the item; an item that is not a string is refused naming it.
    let mut bad = request.clone();
    bad["grokParser"]["grokParsingRules"] = json!(["ok %{word:a}", "broken %{nosuch:c}"]);
    let r = call("POST", "/v1/grok/parse/batch", Some(alice()), Some(&bad));
    assert_eq!(r.status, 400, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.starts_with(
            "Invalid grok rule broken at 2:8 (/grokParsingRules/1): unknown matcher nosuch"
        ),
        "{message}"
    );
    bad["grokParser"]["grokParsingRules"] = json!(["ok %{word:a}", 3]);
    let r = call("POST", "/v1/grok/parse/batch", Some(alice()), Some(&bad));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("item 1 is a number"), "{}", r.body);
}

/// The public Terraform provider's example pipeline (`examples/resources/grepr_pipeline/
/// pipeline.json` of grepr/terraform-provider-grepr): a `grok-parser` whose rules are an array
/// (its one rule written without a name) is accepted by `POST /v1/jobs`.
#[test]
fn the_terraform_example_pipeline_is_accepted() {
    let job = json!({
        "name": "example_pipeline",
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "datadog-log-agent-source", "name": "source", "integrationId": "your-integration-id"},
                {"type": "grok-parser", "name": "parser",
                 "grokParsingRules": ["%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} %{GREEDYDATA:message}"]},
                {"type": "logs-iceberg-table-sink", "name": "sink", "datasetId": "your-dataset-id"}
            ],
            "edges": ["source -> parser", "parser -> sink"]
        }
    });
    let r = call("POST", "/v1/jobs", Some(alice()), Some(&job));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        r.json()["jobGraph"]["vertices"][1]["grokParsingRules"],
        job["jobGraph"]["vertices"][1]["grokParsingRules"]
    );
    // A rules field of the wrong shape is refused naming the field.
    let mut bad = job.clone();
    bad["jobGraph"]["vertices"][1]["grokParsingRules"] = json!([1]);
    let r = call("POST", "/v1/jobs", Some(alice()), Some(&bad));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("grokParsingRules") && r.body.contains("an array of strings"),
        "{}",
        r.body
    );
}
