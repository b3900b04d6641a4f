//! Every endpoint through the client with the shared API types, and the request and answer
//! fields those types send checked against the service's OpenAPI document.

use super::*;

#[test]
fn every_endpoint_round_trips_with_the_shared_types() {
    let rt = runtime();
    let client = client("api");
    rt.block_on(async {
        let input: TemplateInput = serde_json::from_value(filter_template("Levels")).unwrap();
        let created = client.create_template(&input).await.unwrap();
        assert_eq!(
            (created.version, created.organization_id.as_str()),
            (1, "org-api")
        );
        assert_eq!(created.edited_by, "api");
        let summaries = client.list_templates().await.unwrap();
        assert!(summaries.iter().any(|t| t.id == created.id));
        let v2 = client
            .update_template(&created.id, &input, Some(1))
            .await
            .unwrap();
        assert_eq!(v2.version, 2);
        let conflict = client
            .update_template(&created.id, &input, Some(1))
            .await
            .unwrap_err();
        match conflict {
            ClientError::Api {
                status: 409,
                current_version: Some(2),
                ..
            } => {}
            other => panic!("{other:?}"),
        }
        let appended = client
            .update_template(&created.id, &input, None)
            .await
            .unwrap();
        assert_eq!(appended.version, 3);
        let all = client
            .get_template(&created.id, TemplateVersions::All)
            .await
            .unwrap();
        assert_eq!(all.iter().map(|t| t.version).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(
            client.latest_template(&created.id).await.unwrap().version,
            3
        );
        assert_eq!(
            client
                .template_version(&created.id, 1)
                .await
                .unwrap()
                .version,
            1
        );

        let test = TemplateTest {
            template: input.clone(),
            input: jobgraph_sdk::api::TestValues {
                is_draft: false,
                values: json!({"level": "warn"}).as_object().unwrap().clone(),
            },
            check_valid_job_graph: true,
        };
        let graph = client.test_template(&test).await.unwrap();
        assert_eq!(graph["vertices"][0]["query"]["query"], "level:warn by api");
        let mut bad = test.clone();
        bad.input.values.insert("level".into(), json!(3));
        let err = client.test_template(&bad).await.unwrap_err();
        assert_eq!(err.status(), Some(400));
        assert!(err.to_string().contains("Input validation failed"), "{err}");

        let job: CreateJob =
            serde_json::from_value(job_using("api-job", &created.id, "info")).unwrap();
        assert_eq!(
            (job.execution, job.processing),
            (Execution::Asynchronous, Processing::Streaming)
        );
        let made = client.create_job(&job).await.unwrap();
        assert_eq!((made.version, made.state.as_str()), (1, "PENDING"));
        let resolved = client
            .get_job(
                &made.id,
                JobVersion {
                    version: None,
                    resolved: true,
                },
            )
            .await
            .unwrap();
        assert_eq!(resolved.job_graph["vertices"][1]["name"], "errors.f");
        let update = UpdateJob {
            from_version: Some(1),
            job_graph: Some(job_using("api-job", &created.id, "warn")["jobGraph"].clone()),
            ..UpdateJob::default()
        };
        let updated = client.update_job(&made.id, &update, true).await.unwrap();
        assert_eq!(updated.version, 2);
        let err = client
            .update_job(&made.id, &update, false)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                ClientError::Api {
                    status: 409,
                    current_version: Some(2),
                    ..
                }
            ),
            "{err:?}"
        );
        let filter = JobFilter {
            name: Some("api-job".into()),
            all_versions: true,
            processing: vec![Processing::Streaming],
            ..JobFilter::default()
        };
        let versions = client.list_jobs(&filter).await.unwrap();
        assert_eq!(versions.len(), 2);
        let since = JobFilter {
            since: Some("PT1H".into()),
            ..JobFilter::default()
        };
        assert_eq!(client.list_jobs(&since).await.unwrap().len(), 1);
        let batch = JobFilter {
            processing: vec![Processing::Batch],
            ..JobFilter::default()
        };
        assert!(client.list_jobs(&batch).await.unwrap().is_empty());

        let mut sync = job.clone();
        sync.execution = Execution::Synchronous;
        let err = client.create_job_sync(&sync, |_| {}).await.unwrap_err();
        assert_eq!(err.status(), Some(400), "the service runs nothing: {err}");

        // A trigger names a live job.
        let trigger = client
            .create_trigger(&made.id, &json!({"any": "payload"}))
            .await
            .unwrap();
        assert_eq!(trigger.id.len(), 16);
        assert!(
            client
                .create_trigger("no-such-job", &json!({}))
                .await
                .unwrap_err()
                .is_not_found()
        );
        client.delete_job(&made.id).await.unwrap();
        let gone = client
            .get_job(&made.id, JobVersion::default())
            .await
            .unwrap_err();
        assert!(gone.is_not_found(), "{gone}");
        client.delete_template(&created.id).await.unwrap();
        assert!(
            client
                .latest_template(&created.id)
                .await
                .unwrap_err()
                .is_not_found()
        );
    });
}

#[test]
fn request_fields_are_documented_in_the_openapi_document() {
    let doc = server().call("GET", "/openapi.json", None, None).json();
    let schemas = &doc["components"]["schemas"];
    let documented = |name: &str| -> Vec<String> {
        schemas[name]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{name} has properties"))
            .keys()
            .cloned()
            .collect()
    };
    let full = TemplateInput {
        version: Some(2),
        name: "n".into(),
        description: Some("d".into()),
        input_schema: Some(json!({})),
        template: "t".into(),
        ..TemplateInput::default()
    };
    let keys =
        |value: Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    let check = |sent: Vec<String>, schema: &str| {
        let known = documented(schema);
        for key in sent {
            assert!(
                known.contains(&key),
                "{key} is not a documented field of {schema}: {known:?}"
            );
        }
    };
    let mut create = serde_json::to_value(&full).unwrap();
    create.as_object_mut().unwrap().remove("version");
    check(keys(create), "TemplateCreateDoc");
    check(
        keys(serde_json::to_value(&full).unwrap()),
        "TemplateUpdateDoc",
    );
    let test = TemplateTest {
        template: full.clone(),
        ..TemplateTest::default()
    };
    check(keys(serde_json::to_value(&test).unwrap()), "TestRequestDoc");
    check(
        keys(serde_json::to_value(&test.input).unwrap()),
        "TestInputDoc",
    );
    let job = CreateJob {
        tags: Some(Default::default()),
        desired_state: Some("RUNNING".into()),
        team_ids: Some(vec!["devops".into()]),
        ..CreateJob::default()
    };
    check(keys(serde_json::to_value(&job).unwrap()), "CreateJobDoc");
    let update = UpdateJob {
        from_version: Some(1),
        job_graph: Some(json!({})),
        desired_state: Some("RUNNING".into()),
        name: Some("n".into()),
        tags: Some(Default::default()),
        team_ids: Some(vec!["devops".into()]),
    };
    check(keys(serde_json::to_value(&update).unwrap()), "UpdateJobDoc");
    // The answers' documented fields are the shared types' fields.
    let out = serde_json::to_value(jobgraph_sdk::api::TemplateOut {
        description: Some("d".into()),
        input_schema: Some(json!({})),
        ..Default::default()
    })
    .unwrap();
    let mut sent = keys(out);
    let mut known = documented("TemplateOut");
    sent.sort();
    known.sort();
    assert_eq!(sent, known);
}
