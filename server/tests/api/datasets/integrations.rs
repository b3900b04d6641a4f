//! `/v1/integrations`: from the `--config` file, visible per organization, each with the jobs
//! of the caller's organization whose graphs name it.

use serde_json::{Value, json};

use super::call;

fn job(name: &str, integration: Option<&str>) -> Value {
    let sink = match integration {
        Some(id) => json!({"type": "datadog-log-sink", "name": "sink", "integrationId": id}),
        None => {
            json!({"type": "logs-iceberg-table-sink", "name": "sink", "datasetName": "archive"})
        }
    };
    json!({
        "name": name,
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM"},
                sink
            ],
            "edges": ["src -> sink"]
        }
    })
}

fn create_job(client: &str, body: &Value) -> String {
    let r = call("POST", "/v1/jobs", client, Some(body));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

fn job_names(integration: &Value) -> Vec<String> {
    integration["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn integrations_list_the_jobs_that_use_them() {
    let to_splunk = create_job("integ", &job("to-splunk", Some("splunk-prod")));
    let to_s3 = create_job("integ", &job("to-s3", Some("s3-archive")));
    create_job("integ", &job("nowhere", None));
    // Another organization's job never shows.
    create_job("integ-other", &job("elsewhere", Some("splunk-prod")));

    let r = call("GET", "/v1/integrations", "integ", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let list = r.json();
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{list}");
    assert_eq!(items[0]["id"], "splunk-prod");
    assert_eq!(items[0]["name"], "Splunk (production)");
    assert_eq!(items[0]["type"], "splunk");
    assert_eq!(
        items[0]["jobs"],
        json!([{"id": to_splunk, "name": "to-splunk"}])
    );
    assert_eq!(items[1]["id"], "s3-archive");
    assert_eq!(items[1]["jobs"], json!([{"id": to_s3, "name": "to-s3"}]));

    let one = call("GET", "/v1/integrations/splunk-prod", "integ", None);
    assert_eq!(one.status, 200, "{}", one.body);
    assert_eq!(one.json(), items[0]);

    // An update that drops the integration, and a delete, take the jobs off.
    let r = call(
        "PUT",
        &format!("/v1/jobs/{to_splunk}"),
        "integ",
        Some(&job("to-splunk", None)),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(
        call("DELETE", &format!("/v1/jobs/{to_s3}"), "integ", None).status,
        204
    );
    let list = call("GET", "/v1/integrations", "integ", None).json();
    for item in list["items"].as_array().unwrap() {
        assert!(job_names(item).is_empty(), "{item}");
    }

    // The other organization sees only the integration open to every organization.
    let other = call("GET", "/v1/integrations", "integ-other", None).json();
    let items = other["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{other}");
    assert_eq!(job_names(&items[0]), ["elsewhere"]);
    let hidden = call("GET", "/v1/integrations/s3-archive", "integ-other", None);
    assert_eq!(hidden.status, 404, "{}", hidden.body);
    let unknown = call("GET", "/v1/integrations/nope", "integ", None);
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    assert!(unknown.error().contains("nope"), "{}", unknown.body);
}
