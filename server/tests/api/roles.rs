//! Issue 40: roles on every endpoint. Service accounts of one organization with the public
//! organization roles (Admin, Member, Reader), each endpoint called by each; the refusals are
//! 403s that name the permission, the resource and the caller's roles. The rules themselves
//! are tested row by row against the documentation's table in `jobgraph_model::permissions`.

use std::sync::OnceLock;

use jobgraph_server::store::Grants;

use super::harness::{Harness, Response, filter_template};
use serde_json::{Value, json};

fn server() -> &'static Harness {
    static SERVER: OnceLock<Harness> = OnceLock::new();
    SERVER.get_or_init(|| {
        let leader = Grants {
            role: "Reader".into(),
            teams: [("devops".to_owned(), "Leader".to_owned())].into(),
        };
        Harness::start_with_roles(
            &[
                ("admin", "admin-secret-1", "roles", Grants::role("Admin")),
                ("member", "member-secret-2", "roles", Grants::role("Member")),
                ("reader", "reader-secret-3", "roles", Grants::role("Reader")),
                ("leader", "leader-secret-4", "roles", leader),
            ],
            json!({"integrations": [
                {"id": "dd-prod", "name": "Datadog", "type": "datadog"},
                {"id": "dd-devops", "name": "Datadog (devops)", "type": "datadog",
                 "teamIds": ["devops"]}
            ]}),
        )
    })
}

fn token(id: &str) -> String {
    static TOKENS: OnceLock<std::sync::Mutex<std::collections::HashMap<String, String>>> =
        OnceLock::new();
    let mut tokens = TOKENS.get_or_init(Default::default).lock().unwrap();
    tokens
        .entry(id.to_owned())
        .or_insert_with(|| {
            let secret = match id {
                "admin" => "admin-secret-1",
                "member" => "member-secret-2",
                "reader" => "reader-secret-3",
                _ => "leader-secret-4",
            };
            server().token(id, secret)
        })
        .clone()
}

fn call(who: &str, method: &str, path: &str, body: Option<&Value>) -> Response {
    server().call(method, path, Some(&token(who)), body)
}

/// A pipeline: agent logs to Datadog (Edit on jobs, Write on `dd-prod`).
fn pipeline(name: &str) -> Value {
    json!({
        "name": name, "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-prod"},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": ["agents -> sink"]
        }
    })
}

/// A backfill: a batch job from the lake to Datadog (View on jobs, Write on `dd-prod`).
fn backfill(name: &str) -> Value {
    json!({
        "name": name, "execution": "ASYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "lake", "datasetName": "raw",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": ["lake -> sink"]
        }
    })
}

/// A query: inline events back to the caller (View on jobs only).
fn query() -> Value {
    json!({
        "name": "q", "execution": "SYNCHRONOUS", "processing": "BATCH",
        "jobGraph": {
            "vertices": [
                {"type": "logs-values-source", "name": "src", "values": [{"message": "hi"}]},
                {"type": "logs-sync-sink", "name": "out"}
            ],
            "edges": ["src -> out"]
        }
    })
}

/// What is done, method, path, body, and the statuses for Admin, Member and Reader.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    Option<Value>,
    [u16; 3],
);

#[test]
fn every_endpoint_answers_each_organization_role_as_the_permission_model_says() {
    let dataset = json!({"name": "raw"});
    let cases: Vec<Case> = vec![
        (
            "list templates",
            "GET",
            "/v1/templates",
            None,
            [200, 200, 200],
        ),
        (
            "create a template",
            "POST",
            "/v1/templates",
            Some(filter_template("t")),
            [201, 403, 403],
        ),
        ("list jobs", "GET", "/v1/jobs", None, [200, 200, 200]),
        (
            "create a pipeline",
            "POST",
            "/v1/jobs",
            Some(pipeline("p")),
            [201, 403, 403],
        ),
        (
            "run a backfill",
            "POST",
            "/v1/jobs/async",
            Some(backfill("b")),
            [201, 201, 403],
        ),
        (
            "run a query",
            "POST",
            "/v1/jobs/sync",
            Some(query()),
            [200, 200, 200],
        ),
        (
            "create a dataset",
            "POST",
            "/v1/datasets",
            Some(dataset),
            [201, 403, 403],
        ),
        (
            "list datasets",
            "GET",
            "/v1/datasets",
            None,
            [200, 200, 200],
        ),
        (
            "list integrations",
            "GET",
            "/v1/integrations",
            None,
            [200, 200, 200],
        ),
        ("read the metrics", "GET", "/metrics", None, [200, 200, 200]),
        (
            "read the organization",
            "GET",
            "/v1/organization",
            None,
            [200, 200, 200],
        ),
    ];
    let mut failures = Vec::new();
    for (what, method, path, body, expected) in &cases {
        // Each role in turn; a name used twice gets a suffix so creations do not collide.
        for (who, want) in ["admin", "member", "reader"].iter().zip(expected) {
            let body = body.clone().map(|mut b| {
                if let Some(name) = b.get("name").and_then(Value::as_str) {
                    b["name"] = json!(format!("{name}-{who}"));
                }
                b
            });
            let r = call(who, method, path, body.as_ref());
            if r.status != *want {
                failures.push(format!(
                    "{what} as {who}: {} (expected {want}): {}",
                    r.status, r.body
                ));
            } else if r.status == 403 {
                let body = r.json();
                assert_eq!(body["code"], "FORBIDDEN", "{body}");
                let message = body["message"].as_str().unwrap_or_default();
                assert!(
                    message.starts_with(&format!("forbidden: client \"{who}\" lacks the "))
                        && message.contains("organization role")
                        && message.contains("clients[].role"),
                    "{what} as {who}: {message}"
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_refusal_names_the_permission_the_resource_and_what_of_the_graph_needs_it() {
    let r = call("reader", "POST", "/v1/jobs/async", Some(&backfill("b2")));
    assert_eq!(r.status, 403, "{}", r.body);
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.contains("lacks the Write permission on integrations of the organization")
            && message.contains(r#"(integration "dd-prod" of vertex "sink")"#)
            && message.contains("its roles: organization role Reader"),
        "{message}"
    );
    // A pipeline: Edit on jobs is asked first.
    let r = call("member", "POST", "/v1/jobs", Some(&pipeline("p2")));
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("lacks the Edit permission on jobs of the organization")
    );
    // Roles add up: a Reader who leads a team still reads everything, and edits nothing of
    // the organization's.
    let r = call("leader", "GET", "/v1/jobs", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = call(
        "leader",
        "POST",
        "/v1/templates",
        Some(&filter_template("t-leader")),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("organization role Reader, Leader of team devops")
    );
}

#[test]
fn what_only_an_admin_may_change_is_refused_to_the_others_and_left_as_it_was() {
    let created = call(
        "admin",
        "POST",
        "/v1/templates",
        Some(&filter_template("kept")),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json()["id"].as_str().unwrap_or_default().to_owned();
    for who in ["member", "reader"] {
        let r = call(who, "DELETE", &format!("/v1/templates/{id}"), None);
        assert_eq!(r.status, 403, "{who}: {}", r.body);
        let r = call(
            who,
            "PUT",
            &format!("/v1/templates/{id}"),
            Some(&filter_template("changed")),
        );
        assert_eq!(r.status, 403, "{who}: {}", r.body);
    }
    let r = call(
        "reader",
        "GET",
        &format!("/v1/templates/{id}?latest=true"),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["items"][0]["version"], 1, "{}", r.body);
    let r = call("admin", "DELETE", &format!("/v1/templates/{id}"), None);
    assert_eq!(r.status, 204, "{}", r.body);
}

/// A pipeline of `teams` from agents to `integration`.
fn team_pipeline(name: &str, teams: Value, integration: &str) -> Value {
    let mut job = pipeline(name);
    job["teamIds"] = teams;
    job["jobGraph"]["vertices"][1]["integrationId"] = json!(integration);
    job
}

#[test]
fn a_team_leader_edits_the_jobs_of_the_team_and_sends_only_through_its_integrations() {
    // The leader (organization Reader, Leader of devops) makes a devops pipeline to the devops
    // integration.
    let r = call(
        "leader",
        "POST",
        "/v1/jobs",
        Some(&team_pipeline("ops", json!(["devops"]), "dd-devops")),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let job = r.json();
    assert_eq!(job["teamIds"], json!(["devops"]));
    assert_eq!(job["editedBy"], "leader");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    // The organization's integration is not the team's to write to.
    let r = call(
        "leader",
        "POST",
        "/v1/jobs",
        Some(&team_pipeline("ops2", json!(["devops"]), "dd-prod")),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap_or_default().contains(
        r#"lacks the Write permission on integrations of the organization (integration "dd-prod" of vertex "sink")"#
    ), "{}", r.body);
    // Another team's job, or the organization's: refused.
    for teams in [json!(["payments"]), json!([])] {
        let r = call(
            "leader",
            "POST",
            "/v1/jobs",
            Some(&team_pipeline("ops3", teams.clone(), "dd-devops")),
        );
        assert_eq!(r.status, 403, "{teams}: {}", r.body);
        assert!(
            r.json()["message"]
                .as_str()
                .unwrap_or_default()
                .contains("lacks the Edit permission on jobs")
        );
    }
    // Its own job: updated; moved to another team: refused, and the job stays the team's.
    let r = call(
        "leader",
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(&json!({"name": "ops renamed"})),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let r = call(
        "leader",
        "PUT",
        &format!("/v1/jobs/{id}"),
        Some(&json!({"teamIds": ["payments"]})),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("of team(s) payments"),
        "{}",
        r.body
    );
    let r = call("reader", "GET", &format!("/v1/jobs/{id}"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["teamIds"], json!(["devops"]));
    assert_eq!(r.json()["name"], "ops renamed");
    // An organization Member may not edit the team's pipeline; an Admin may.
    let r = call("member", "DELETE", &format!("/v1/jobs/{id}"), None);
    assert_eq!(r.status, 403, "{}", r.body);
    let r = call("admin", "GET", "/v1/integrations/datadog/dd-devops", None);
    assert_eq!(r.json()["teamIds"], json!(["devops"]), "{}", r.body);
    let r = call("leader", "DELETE", &format!("/v1/jobs/{id}"), None);
    assert_eq!(r.status, 204, "{}", r.body);
    // `teamIds` that are not team ids: a 400 naming the field.
    let r = call(
        "admin",
        "POST",
        "/v1/jobs",
        Some(&team_pipeline("bad", json!([""]), "dd-devops")),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`teamIds/0` must be a team id")
    );
}

#[test]
fn a_team_leader_keeps_the_teams_templates_and_datasets_and_runs_their_backfills() {
    // A template of the team: made, changed, not moved to another team, not made for the
    // organization.
    let mut template = filter_template("ops-filter");
    template["teamIds"] = json!(["devops"]);
    let r = call("leader", "POST", "/v1/templates", Some(&template));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["teamIds"], json!(["devops"]));
    let id = r.json()["id"].as_str().unwrap_or_default().to_owned();
    let r = call(
        "leader",
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(&filter_template("ops-filter")),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json()["teamIds"],
        json!(["devops"]),
        "absent teamIds: unchanged"
    );
    template["teamIds"] = json!(["payments"]);
    let r = call(
        "leader",
        "PUT",
        &format!("/v1/templates/{id}"),
        Some(&template),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    let r = call("member", "DELETE", &format!("/v1/templates/{id}"), None);
    assert_eq!(r.status, 403, "{}", r.body);

    // A dataset of the team, and a backfill from it to the team's integration.
    let r = call(
        "leader",
        "POST",
        "/v1/datasets",
        Some(&json!({"name": "ops-raw", "teamIds": ["devops"]})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let dataset = r.json();
    assert_eq!(dataset["teamIds"], json!(["devops"]));
    let r = call(
        "leader",
        "POST",
        "/v1/datasets",
        Some(&json!({"name": "org-raw"})),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    let r = call(
        "leader",
        "PUT",
        &format!(
            "/v1/datasets/{}",
            dataset["id"].as_str().unwrap_or_default()
        ),
        Some(&json!({"name": "ops-raw", "description": "raw logs of devops"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["teamIds"], json!(["devops"]), "{}", r.body);
    // Loading events into it: its Leader may, an organization Member may not.
    let load = |who: &str| {
        server().request(
            "POST",
            &format!(
                "/v1/datasets/{}/load",
                dataset["id"].as_str().unwrap_or_default()
            ),
            &[
                ("Authorization".into(), format!("Bearer {}", token(who))),
                ("Content-Type".into(), "application/x-ndjson".into()),
            ],
            Some(br#"{"id":"e1","eventTimestamp":1764000000000,"message":"hello"}"#),
        )
    };
    let r = load("member");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.body
            .contains("lacks the Edit permission on datasets of team(s) devops"),
        "{}",
        r.body
    );
    let r = load("leader");
    assert_eq!(r.status, 200, "{}", r.body);
    let mut job = backfill("ops-backfill");
    job["jobGraph"]["vertices"][0]["datasetName"] = json!("ops-raw");
    job["jobGraph"]["vertices"][1]["integrationId"] = json!("dd-devops");
    job["teamIds"] = json!(["devops"]);
    let r = call("leader", "POST", "/v1/jobs/async", Some(&job));
    assert_eq!(r.status, 201, "{}", r.body);
    // A pipeline of the team appending to the team's dataset: Edit on it, which the leader has;
    // an organization Member has not.
    let pipeline = json!({
        "name": "ops-archive", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "teamIds": ["devops"],
        "jobGraph": {
            "vertices": [
                {"type": "datadog-log-agent-source", "name": "agents", "integrationId": "dd-devops"},
                {"type": "logs-iceberg-table-sink", "name": "lake", "datasetName": "ops-raw"}
            ],
            "edges": ["agents -> lake"]
        }
    });
    let r = call("leader", "POST", "/v1/jobs", Some(&pipeline));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = call(
        "admin",
        "DELETE",
        &format!("/v1/jobs/{}", r.json()["id"].as_str().unwrap_or_default()),
        None,
    );
    assert_eq!(r.status, 204, "{}", r.body);
    // The schema bounds teamIds.
    let r = call(
        "admin",
        "POST",
        "/v1/datasets",
        Some(&json!({"name": "x", "teamIds": [""]})),
    );
    assert_eq!(r.status, 400, "{}", r.body);
}
