//! Local resolution with `RemoteSource`: a job resolved here as the service resolves it, a
//! level's templates fetched together, one request each.

use super::*;

#[test]
fn a_job_resolves_locally_as_the_service_resolves_it() {
    let rt = runtime();
    let client = client("remote");
    // Two templates at the first level, one of them nesting a third.
    let leaf = rt
        .block_on(client.create_template(&serde_json::from_value(filter_template("leaf")).unwrap()))
        .unwrap();
    let wrapper = TemplateInput {
        name: "wrapper".into(),
        template: format!(
            "({{vertices: [{{type: 'template-operation', name: 'inner', templateId: '{}', templateInputs: {{level: 'warn'}}}}], edges: []}})",
            leaf.id
        ),
        inputs: [("input".to_owned(), "inner:input".to_owned())]
            .into_iter()
            .collect(),
        outputs: [("output".to_owned(), "inner:output".to_owned())]
            .into_iter()
            .collect(),
        ..TemplateInput::default()
    };
    let wrapper = rt.block_on(client.create_template(&wrapper)).unwrap();
    let other = rt
        .block_on(
            client.create_template(&serde_json::from_value(filter_template("other")).unwrap()),
        )
        .unwrap();
    let job = json!({
        "name": "remote-job", "execution": "ASYNCHRONOUS", "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "template-operation", "name": "a", "templateId": wrapper.id},
                {"type": "template-operation", "name": "b", "templateId": other.id, "templateVersion": 1,
                 "templateInputs": {"level": "info"}},
                {"type": "template-operation", "name": "c", "templateId": leaf.id},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": ["src -> a", "a -> b", "b -> c", "c -> sink"]
        }
    });
    let created = rt
        .block_on(client.create_job(&serde_json::from_value(job.clone()).unwrap()))
        .unwrap();
    let service = rt
        .block_on(client.get_job(
            &created.id,
            JobVersion {
                version: None,
                resolved: true,
            },
        ))
        .unwrap();

    let (trace, lines) = recorder();
    let traced = Client::builder(server().url())
        .credentials(Credentials::new("remote", secret_of("remote")))
        .trace(trace)
        .build()
        .unwrap();
    rt.block_on(traced.token()).unwrap();
    lines.lock().unwrap().clear();
    let source = RemoteSource::new(traced);
    let resolver = jobgraph_core::Resolver::builder(&source)
        .user("remote")
        .sandbox(jobgraph_core::InProcess)
        .build();
    let local = rt.block_on(resolver.resolve_document(&job)).unwrap();
    assert_eq!(local.document["jobGraph"], service.job_graph);
    // Level 1: wrapper, other@1, leaf (latest), together; level 2: leaf again, already
    // fetched. One request each.
    let stats = source.stats();
    assert_eq!(stats.requests, 3, "{stats:?}");
    assert_eq!(
        stats.peak_outstanding, 3,
        "a level's templates are fetched together"
    );
    {
        let lines = lines.lock().unwrap();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("→ GET")).count(),
            3,
            "{lines:#?}"
        );
    }
    // A missing template is the resolver's `Template not found`.
    let missing = json!({"vertices": [{"type": "template-operation", "name": "x", "templateId": "no-such-template"}]});
    let err = rt
        .block_on(resolver.resolve_document(&missing))
        .unwrap_err();
    assert!(err.to_string().starts_with("Template not found"), "{err}");
}
