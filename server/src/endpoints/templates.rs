//! `/v1/templates`: create, list, get, update, delete, test.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{OriginalUri, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::auth::Caller;
use crate::body::{JsonBody, QueryPairs};
use crate::endpoints::listing::{answer, page_request, scope};
use crate::endpoints::scripts;
use crate::error::{ApiError, ErrorBody};
use crate::ids::new_id;
use crate::model::{Items, TemplateOut, TemplateSummary};
use crate::state::AppState;
use crate::store::{NewTemplateVersion, StoreError, TemplateFields};
use crate::validate::{object, optional_version, team_ids, template_fields, test_request};
use jobgraph_model::permissions::{Permission, Resource};
use jobgraph_sdk::api::request_docs::{
    JobGraphDoc, TemplateCreateDoc, TemplateUpdateDoc, TestRequestDoc,
};

fn new_version(
    caller: &Caller,
    fields: TemplateFields,
    team_ids: Vec<String>,
) -> NewTemplateVersion {
    let source_hash = jobgraph_core::Template {
        template: fields.template.clone(),
        input_schema: fields.input_schema.clone(),
        ..Default::default()
    }
    .source_hash();
    NewTemplateVersion {
        organization: caller.organization.clone(),
        edited_by: caller.client_id.clone(),
        fields,
        source_hash,
        team_ids,
    }
}

/// The teams of a live template (its latest version): what changing it is checked against.
async fn teams_of(state: &AppState, caller: &Caller, id: &str) -> Result<Vec<String>, ApiError> {
    let current = state
        .store
        .template(caller.organization.clone(), id.to_owned(), None)
        .await
        .map_err(not_found(id))?;
    Ok(current.team_ids)
}

fn not_found(id: &str) -> impl Fn(StoreError) -> ApiError + '_ {
    move |e| match e {
        StoreError::NotFound => ApiError::template_not_found(id),
        other => other.into(),
    }
}

/// Create a template: version 1 under a new id.
#[utoipa::path(
    post, path = "/v1/templates", operation_id = "createTemplate", tag = "templates",
    request_body = TemplateCreateDoc,
    responses(
        (status = 201, description = "Created: version 1", body = TemplateOut),
        (status = 400, description = "The body is not valid JSON, or a field is missing or invalid (the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<TemplateOut>), ApiError> {
    let team_ids = team_ids(object(&body, "the body")?, "teamIds")?.unwrap_or_default();
    caller.require(Permission::Edit, Resource::Templates, &team_ids)?;
    let fields = template_fields(&body, "", true)?;
    state.config.field_limits.check_template(&fields, "")?;
    let id = new_id().map_err(|e| ApiError::Internal(e.to_string()))?;
    let record = state
        .store
        .create_template(id, new_version(&caller, fields, team_ids))
        .await?;
    Ok((StatusCode::CREATED, Json(record.into())))
}

/// List the latest version of every template of the caller's organization, a page at a time.
#[utoipa::path(
    get, path = "/v1/templates", operation_id = "listTemplates", tag = "templates",
    params(
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "Items per page: default `fieldLimits.defaultPageSize` (100), at most `fieldLimits.maxPageSize` (1000; a 400 above it). A page also ends early once it holds `fieldLimits.maxPageBytes` (4 MiB) of records"),
        ("cursor" = Option<String>, Query, pattern = "^[A-Za-z0-9_-]*$", max_length = 1024, description = "The `nextCursor` of the previous page (opaque); absent: the first page"),
    ),
    responses(
        (status = 200, description = "A page of latest versions, oldest template first; `nextCursor` (and a `Link: <…>; rel=\"next\"` header) when more follow", body = Items<TemplateSummary>,
            headers(("Link" = String, description = "`<path?…&cursor=…>; rel=\"next\"` when more follow"))),
        (status = 400, description = "`limit` is not a positive integer or is over the largest page, or `cursor` is invalid, altered or of another listing (the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    OriginalUri(uri): OriginalUri,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    caller.require(Permission::View, Resource::Templates, &[])?;
    let scope = scope(&[&caller.organization, "templates"]);
    let page = page_request(&query, &state.config.field_limits, &scope)?;
    let records = state
        .store
        .list_templates(caller.organization, page)
        .await?;
    Ok(answer(
        &uri,
        &scope,
        records,
        |r| r.page_key(),
        TemplateSummary::from,
    ))
}

/// Get a template: every version a page at a time (oldest first), the latest
/// (`?latest=true`) or one (`?version=N`); always `{items: [...]}`.
#[utoipa::path(
    get, path = "/v1/templates/{id}", operation_id = "getTemplate", tag = "templates",
    params(
        ("id" = String, Path, description = "Template id"),
        ("latest" = Option<bool>, Query, description = "true: only the latest version"),
        ("version" = Option<u64>, Query, minimum = 1, description = "Only this version"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "All-versions form only: versions per page, default `fieldLimits.defaultPageSize` (100), at most `fieldLimits.maxPageSize` (1000; a 400 above it). A page also ends early once it holds `fieldLimits.maxPageBytes` (4 MiB) of records"),
        ("cursor" = Option<String>, Query, pattern = "^[A-Za-z0-9_-]*$", max_length = 1024, description = "All-versions form only: the `nextCursor` of the previous page (opaque); absent: the first page"),
    ),
    responses(
        (status = 200, description = "The versions asked for, oldest first; in the all-versions form one page of them, with `nextCursor` (and a `Link: <…>; rel=\"next\"` header) when more follow", body = Items<TemplateOut>,
            headers(("Link" = String, description = "`<path?…&cursor=…>; rel=\"next\"` when more versions follow"))),
        (status = 400, description = "A query parameter is invalid (`latest` not a boolean, `version` not a positive integer, `limit` over the largest page, `cursor` invalid or altered, `limit`/`cursor` with `latest` or `version`; the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such template or version in the caller's organization (or deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    OriginalUri(uri): OriginalUri,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    caller.require(Permission::View, Resource::Templates, &[])?;
    let version = query.positive("version")?;
    let latest = query.flag("latest")?.unwrap_or(false);
    let org = caller.organization;
    if version.is_some() || latest {
        if let Some((key, _)) = query.0.iter().find(|(k, _)| k == "limit" || k == "cursor") {
            return Err(ApiError::BadRequest(format!(
                "query parameter `{key}` pages the list of every version: leave it out with `latest` or `version`, which answer one version"
            )));
        }
        let cached = version.is_none();
        if cached && let Some(answer) = state.latest_templates.get(&org, &id) {
            return Ok(json_answer(answer));
        }
        let generation = state.latest_templates.generation();
        let record = state
            .store
            .template(org.clone(), id.clone(), version)
            .await
            .map_err(|e| match (e, version) {
                (StoreError::NotFound, Some(v)) => {
                    ApiError::NotFound(format!("template {id:?} has no version {v}"))
                }
                (e, _) => not_found(&id)(e),
            })?;
        let answer = serde_json::to_vec(&Items {
            items: vec![TemplateOut::from(record)],
            next_cursor: None,
        })
        .map_err(|e| ApiError::Internal(format!("cannot serialize a template: {e}")))?;
        let answer = Bytes::from(answer);
        if cached {
            state
                .latest_templates
                .put(generation, &org, &id, answer.clone());
        }
        return Ok(json_answer(answer));
    }
    let scope = scope(&[&org, "versions", &id]);
    let page = page_request(&query, &state.config.field_limits, &scope)?;
    let records = state
        .store
        .template_versions(org, id.clone(), page)
        .await
        .map_err(not_found(&id))?;
    Ok(answer(
        &uri,
        &scope,
        records,
        |r| r.page_key(),
        TemplateOut::from,
    ))
}

/// A JSON answer of serialized bytes.
fn json_answer(answer: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        answer,
    )
        .into_response()
}

/// Update a template: a new immutable version N+1. A body `version` other than N+1 is a 409
/// carrying the current version; without `version` the write appends.
#[utoipa::path(
    put, path = "/v1/templates/{id}", operation_id = "updateTemplate", tag = "templates",
    params(("id" = String, Path, description = "Template id")),
    request_body = TemplateUpdateDoc,
    responses(
        (status = 200, description = "The new version", body = TemplateOut),
        (status = 400, description = "The body is not valid JSON, or a field is missing or invalid (the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such template in the caller's organization (or deleted)", body = ErrorBody),
        (status = 409, description = "`version` is not the next version; `currentVersion` says the current one", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Json<TemplateOut>, ApiError> {
    let map = object(&body, "the body")?;
    let expected = optional_version(map, "", "version")?;
    let fields = template_fields(&body, "", true)?;
    state.config.field_limits.check_template(&fields, "")?;
    let current = teams_of(&state, &caller, &id).await?;
    caller.require(Permission::Edit, Resource::Templates, &current)?;
    // Absent: the template stays in its teams. Moving it takes Edit in the new ones too.
    let team_ids = match team_ids(map, "teamIds")? {
        Some(teams) => {
            caller.require(Permission::Edit, Resource::Templates, &teams)?;
            teams
        }
        None => current,
    };
    let store = Arc::clone(&state.store);
    let new = new_version(&caller, fields, team_ids);
    let key = id.clone();
    let record = state
        .latest_templates
        .write(caller.organization.clone(), id.clone(), async move {
            store.append_template(key, expected, new).await
        })
        .await
        .map_err(|e| ApiError::Internal(format!("a template update failed: {e}")))?
        .map_err(|e| match e {
            StoreError::Conflict { current } => ApiError::Conflict {
                message: format!(
                    "version conflict: template {id:?} is at version {current}, so this update must carry version {} (it carries {}); fetch it again and retry",
                    current + 1,
                    expected.unwrap_or_default()
                ),
                current_version: Some(current),
            },
            other => not_found(&id)(other),
        })?;
    Ok(Json(record.into()))
}

/// Delete a template: every version is tombstoned (kept, invisible to every endpoint and to
/// resolution).
#[utoipa::path(
    delete, path = "/v1/templates/{id}", operation_id = "deleteTemplate", tag = "templates",
    params(("id" = String, Path, description = "Template id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such template in the caller's organization (or already deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let current = teams_of(&state, &caller, &id).await?;
    caller.require(Permission::Edit, Resource::Templates, &current)?;
    let store = Arc::clone(&state.store);
    let (org, key) = (caller.organization.clone(), id.clone());
    state
        .latest_templates
        .write(caller.organization, id.clone(), async move {
            store.delete_template(org, key).await
        })
        .await
        .map_err(|e| ApiError::Internal(format!("a template delete failed: {e}")))?
        .map_err(not_found(&id))?;
    Ok(StatusCode::NO_CONTENT)
}

/// Run a template's script with input values, as the caller (`user.getName()` = client id).
#[utoipa::path(
    post, path = "/v1/templates/test", operation_id = "testTemplate", tag = "templates",
    request_body = TestRequestDoc,
    responses(
        (status = 200, description = "The job graph the script yields", body = JobGraphDoc),
        (status = 400, description = "Invalid request, or the test failed: `error` starts with the contract prefix", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization has too many script runs in flight (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn test(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    caller.require(Permission::View, Resource::Templates, &[])?;
    let request = test_request(&body)?;
    scripts::test(&state, &caller, request).await.map(Json)
}
