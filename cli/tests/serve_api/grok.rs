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
