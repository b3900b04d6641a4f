//! `/v1/jobs`: create (also `/async`), list, get, update, delete; `/sync` runs (`sync_runs.rs`).
//!
//! Jobs are stored and resolved; an asynchronous job's versions run on the service's runner
//! (`crate::runner`), which moves their `state` through the public lifecycle (docs/api.md,
//! "Running jobs"). A synchronous job runs with `POST /v1/jobs/sync`.

use axum::Json;
use axum::extract::{OriginalUri, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value};

use crate::auth::Caller;
use crate::body::{JsonBody, QueryPairs};
use crate::endpoints::listing::{answer, page_request, scope};
use crate::endpoints::scripts;
use crate::error::{ApiError, ErrorBody};
use crate::ids::{new_id, now_ms, parse_duration, parse_iso8601};
use crate::model::{Items, JobOut, JobView};
use crate::state::AppState;
use crate::store::{GraphForm, JobFields, JobFilter, JobMeta, StoreError};
use crate::validate::{
    job_graph, object, one_of, optional_string, optional_version, required_string, string_map,
    team_ids,
};
use jobgraph_model::permissions::{Permission, Resource};
use jobgraph_sdk::api::request_docs::{CreateJobDoc, Execution, Processing, UpdateJobDoc};

/// The state of a new job version: the runner moves an asynchronous one on.
pub const STATE: &str = "PENDING";
const EXECUTIONS: &[&str] = &["SYNCHRONOUS", "ASYNCHRONOUS"];
const PROCESSINGS: &[&str] = &["BATCH", "STREAMING"];

fn not_found(id: &str) -> impl Fn(StoreError) -> ApiError + '_ {
    move |e| match e {
        StoreError::NotFound => ApiError::job_not_found(id),
        other => other.into(),
    }
}

/// The `desiredState` values a caller may ask for: run the job, or stop it. The interface
/// document shows only `RUNNING`; `STOPPED` is its counterpart. Anything else (`DELETED`, …)
/// is a 400: a job is deleted with `DELETE /v1/jobs/{id}`, not by asking for a state.
pub const DESIRED_STATES: &[&str] = &["RUNNING", "STOPPED"];

/// The tags the service sets itself on creation: a caller's values for them are replaced on
/// creation and kept from the stored version on update.
pub const SERVER_TAGS: &[&str] = &["createdUsing", "createdByUser"];

pub(crate) fn desired_state(map: &Map<String, Value>, default: &str) -> Result<String, ApiError> {
    match optional_string(map, "", "desiredState")?.filter(|s| !s.is_empty()) {
        None => Ok(default.to_owned()),
        Some(asked) => one_of(asked, DESIRED_STATES, "desiredState"),
    }
}

/// `tags` as asked, with the service's own tags taken from `server` (the caller's are dropped).
fn with_server_tags(
    mut tags: Map<String, Value>,
    server: &Map<String, Value>,
) -> Map<String, Value> {
    for key in SERVER_TAGS {
        tags.remove(*key);
        if let Some(value) = server.get(*key) {
            tags.insert((*key).to_owned(), value.clone());
        }
    }
    tags
}

/// What changing a job of `processing` takes (`docs/api.md`, "People, login and roles"): Edit
/// on jobs for a pipeline (`STREAMING`); View for a batch job, a query or a backfill, which
/// an organization Member may run (its sinks' Write is checked with its graph).
fn require_job(caller: &Caller, processing: &str, team_ids: &[String]) -> Result<(), ApiError> {
    let permission = if processing == "BATCH" {
        Permission::View
    } else {
        Permission::Edit
    };
    caller.require(permission, Resource::Jobs, team_ids)
}

/// The shards a new version runs as (`docs/intake.md`, "Partitions").
fn shards(state: &AppState, execution: &str, processing: &str, resolved: &Value) -> u32 {
    let Ok(graph) = serde_json::from_value::<jobgraph_model::JobGraph>(resolved.clone()) else {
        return 1;
    };
    let shards =
        crate::runs::partitions::of_version(state.intake.as_ref(), execution, processing, &graph);
    if execution == "ASYNCHRONOUS" {
        tracing::info!(
            shards = shards.count,
            "jobs: the version runs as {} shard(s): {}",
            shards.count,
            shards.why
        );
    }
    shards.count
}

async fn create_job(
    state: AppState,
    caller: Caller,
    body: Value,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let map = object(&body, "the body")?;
    let name = required_string(map, "", "name")?;
    let execution = one_of(
        required_string(map, "", "execution")?,
        EXECUTIONS,
        "execution",
    )?;
    let processing = one_of(
        required_string(map, "", "processing")?,
        PROCESSINGS,
        "processing",
    )?;
    let definition = job_graph(
        map.get("jobGraph")
            .ok_or_else(|| ApiError::BadRequest("`jobGraph` is required".into()))?,
        "jobGraph",
    )?;
    let mut server_tags = Map::new();
    server_tags.insert("createdUsing".into(), "api".into());
    server_tags.insert("createdByUser".into(), caller.client_id.clone().into());
    let tags = with_server_tags(string_map(map, "tags")?.unwrap_or_default(), &server_tags);
    let desired_state = desired_state(map, "RUNNING")?;
    let team_ids = team_ids(map, "teamIds")?.unwrap_or_default();
    state.config.field_limits.check_job(&name, &tags)?;
    require_job(&caller, &processing, &team_ids)?;
    let (resolved, templates) = scripts::resolve(&state, &caller, definition.clone()).await?;
    runnable(&execution, &resolved)?;
    crate::access::require_graph(&state, &caller, &resolved).await?;
    let id = new_id().map_err(|e| ApiError::Internal(e.to_string()))?;
    let shards = shards(&state, &execution, &processing, &resolved);
    let fields = JobFields {
        meta: JobMeta {
            name,
            execution,
            processing,
            state: STATE.into(),
            desired_state,
            tags,
            templates,
            edited_by: caller.client_id.clone(),
            team_ids,
        },
        shards,
        definition,
        resolved,
        rollback: false,
    };
    let record = state
        .store
        .create_job(caller.organization, id, fields)
        .await?;
    state.runs.wake.notify_one();
    Ok((StatusCode::CREATED, Json(record.into())))
}

/// Create a job: its template operations are resolved (as the caller) and both the
/// definition and the resolved graph are stored. `state` is `PENDING`; an asynchronous job
/// then runs (its `desiredState`, `RUNNING` by default, says whether it should).
#[utoipa::path(
    post, path = "/v1/jobs", operation_id = "createJob", tag = "jobs",
    request_body = CreateJobDoc,
    responses(
        (status = 201, description = "Created: version 1, with the graph as submitted", body = JobOut),
        (status = 400, description = "A field is missing or invalid, or resolution failed (contract message)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization already has `maxConcurrentScripts` requests running scripts (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    create_job(state, caller, body).await
}

/// Create a job (the public client's asynchronous form; same as `POST /v1/jobs`).
#[utoipa::path(
    post, path = "/v1/jobs/async", operation_id = "createJobAsync", tag = "jobs",
    request_body = CreateJobDoc,
    responses(
        (status = 201, description = "Created", body = JobOut),
        (status = 400, description = "The body is not valid JSON, a field is missing or invalid, or resolution failed (contract message)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization already has `maxConcurrentScripts` requests running scripts (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create_async(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    create_job(state, caller, body).await
}

/// Every value of `key`, each one of `allowed` (400 naming it otherwise).
fn enumerated(query: &QueryPairs, key: &str, allowed: &[&str]) -> Result<Vec<String>, ApiError> {
    query
        .0
        .iter()
        .filter(|(k, _)| k == key)
        .flat_map(|(_, v)| v.split(','))
        .map(|value| one_of(value.trim().to_owned(), allowed, key))
        .collect()
}

/// `?resolved=true`: the resolved graph instead of the submitted one.
fn graph_form(query: &QueryPairs) -> Result<GraphForm, ApiError> {
    Ok(if query.flag("resolved")?.unwrap_or(false) {
        GraphForm::Resolved
    } else {
        GraphForm::Submitted
    })
}

fn filter(query: &QueryPairs) -> Result<(JobFilter, GraphForm), ApiError> {
    let since_ms = match query.single("since")? {
        None => None,
        Some(text) => Some(
            parse_duration(text)
                .map(|d| now_ms().saturating_sub(d))
                .or_else(|| parse_iso8601(text))
                .ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "query parameter `since` must be an ISO 8601 time (2026-01-31T12:00:00Z) or duration (PT24H), not {text:?}"
                    ))
                })?,
        ),
    };
    let latest = query.flag("latest")?;
    let all = query.flag("allVersions")?.unwrap_or(false);
    Ok((
        JobFilter {
            processing: enumerated(query, "processing", PROCESSINGS)?,
            execution: enumerated(query, "execution", EXECUTIONS)?,
            states: query.all("state"),
            name: query
                .single("name")?
                .filter(|n| !n.is_empty())
                .map(str::to_owned),
            since_ms,
            ids: query.all("id"),
            all_versions: all || latest == Some(false),
        },
        graph_form(query)?,
    ))
}

/// List the organization's jobs (latest versions unless `latest=false` or `allVersions=true`).
#[utoipa::path(
    get, path = "/v1/jobs", operation_id = "listJobs", tag = "jobs",
    params(
        ("processing" = Option<Vec<Processing>>, Query, description = "BATCH or STREAMING (repeatable, or comma-separated)"),
        ("execution" = Option<Vec<Execution>>, Query, description = "SYNCHRONOUS or ASYNCHRONOUS (repeatable, or comma-separated)"),
        ("state" = Option<Vec<String>>, Query, description = "States (repeatable or comma-separated; empty values are ignored)"),
        ("name" = Option<String>, Query, description = "Exact name (empty: no filter)"),
        ("since" = Option<String>, Query, pattern = r"^(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])([Tt ]([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?([Zz]|[+-]([01]\d|2[0-3])(:[0-5]\d)?)?)?|[Pp](\d+([.,]\d+)?[YyMmWwDd])+([Tt](\d+([.,]\d+)?[HhMmSs])+)?|[Pp][Tt](\d+([.,]\d+)?[HhMmSs])+)$", description = "Versions written since: an ISO 8601 time (2026-11-23T07:00:00Z), or an ISO 8601 duration before now (PT6H)"),
        ("id" = Option<Vec<String>>, Query, description = "Job ids (repeatable)"),
        ("latest" = Option<bool>, Query, description = "Default true; false lists every version"),
        ("allVersions" = Option<bool>, Query, description = "true lists every version"),
        ("resolved" = Option<bool>, Query, description = "true: resolved graphs"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "Items per page: default `fieldLimits.defaultPageSize` (100), at most `fieldLimits.maxPageSize` (1000; a 400 above it). A page also ends early once it holds `fieldLimits.maxPageBytes` (4 MiB) of graphs"),
        ("cursor" = Option<String>, Query, pattern = "^[A-Za-z0-9_-]*$", max_length = 1024, description = "The `nextCursor` of the previous page (opaque), sent with the same filters; absent: the first page"),
    ),
    responses(
        (status = 200, description = "A page of matching jobs, oldest first; `nextCursor` (and a `Link: <…>; rel=\"next\"` header) when more follow", body = Items<JobOut>,
            headers(("Link" = String, description = "`<path?…&cursor=…>; rel=\"next\"` when more follow"))),
        (status = 400, description = "A query parameter is invalid (an unknown `processing` or `execution` value, a bad `since`, a non-boolean flag, `limit` over the largest page, a `cursor` invalid, altered or of other filters; the message names it)", body = ErrorBody),
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
    caller.require(Permission::View, Resource::Jobs, &[])?;
    let (filter, form) = filter(&query)?;
    // The scope binds a cursor to the filters, but not to `since`: a duration (`PT6H`) moves
    // with the clock between two pages, and the keyset after the cursor stays well defined.
    let filters = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}",
        filter.processing,
        filter.execution,
        filter.states,
        filter.name,
        filter.ids,
        filter.all_versions,
        form
    );
    let scope = scope(&[&caller.organization, "jobs", &filters]);
    let page = page_request(&query, &state.config.field_limits, &scope)?;
    let records = state
        .store
        .list_jobs(caller.organization, filter, form, page)
        .await?;
    Ok(answer(
        &uri,
        &scope,
        records,
        |r| r.page_key(),
        JobView::from,
    ))
}

/// Get a job: the latest version or `?version=N`, its graph as submitted or `?resolved=true`.
#[utoipa::path(
    get, path = "/v1/jobs/{id}", operation_id = "getJob", tag = "jobs",
    params(
        ("id" = String, Path, description = "Job id"),
        ("version" = Option<u64>, Query, minimum = 1, description = "This version (default: the latest)"),
        ("resolved" = Option<bool>, Query, description = "true: the resolved graph"),
    ),
    responses(
        (status = 200, description = "The job version", body = JobOut),
        (status = 400, description = "A query parameter is invalid (`version` not a positive integer, `resolved` not a boolean; the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such job or version in the caller's organization (or deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: QueryPairs,
) -> Result<Json<JobView>, ApiError> {
    let version = query.positive("version")?;
    let form = graph_form(&query)?;
    let record = state
        .store
        .job(caller.organization.clone(), id.clone(), version, form)
        .await
        .map_err(not_found(&id))?;
    caller.require(Permission::View, Resource::Jobs, &record.meta.team_ids)?;
    Ok(Json(record.into()))
}

/// Update a job: a new version, resolved again. `fromVersion` other than the current version
/// is a 409; a job whose current version uses a deleted template cannot be updated (409).
#[utoipa::path(
    put, path = "/v1/jobs/{id}", operation_id = "updateJob", tag = "jobs",
    params(
        ("id" = String, Path, description = "Job id"),
        ("rollbackEnabled" = Option<bool>, Query, description = "An asynchronous job: if the new version fails, a further version is made from the one before it and runs"),
    ),
    request_body = UpdateJobDoc,
    responses(
        (status = 200, description = "The new version (a synchronous job)", body = JobOut),
        (status = 202, description = "The new version of an asynchronous job, accepted: it takes over from the running version, which retires (`FINISHED`)", body = JobOut),
        (status = 400, description = "Invalid body, or resolution failed", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such job in the caller's organization (or deleted)", body = ErrorBody),
        (status = 409, description = "`fromVersion` is not current (`currentVersion` given), the job uses a deleted template, or it is an asynchronous batch job that has not ended", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
        (status = 429, description = "The organization already has `maxConcurrentScripts` requests running scripts (`Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: QueryPairs,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let rollback = query.flag("rollbackEnabled")?.unwrap_or(false);
    let map = object(&body, "the body")?;
    let from_version = optional_version(map, "", "fromVersion")?;
    let org = caller.organization.clone();
    let current = state
        .store
        .job(org.clone(), id.clone(), None, GraphForm::Submitted)
        .await
        .map_err(not_found(&id))?;
    require_job(&caller, &current.meta.processing, &current.meta.team_ids)?;
    if let Some(v) = from_version.filter(|v| *v != current.version) {
        return Err(conflict(&id, v, current.version));
    }
    running_batch(&id, &current.meta, "updated")?;
    let deleted = state
        .store
        .deleted_templates(org.clone(), current.meta.templates.clone())
        .await?;
    if let Some(template) = deleted.first() {
        return Err(ApiError::Conflict {
            message: format!(
                "job {id:?} uses template {template:?}, which was deleted: a job that uses a deleted template cannot be updated"
            ),
            current_version: None,
        });
    }
    let definition = match (
        map.get("jobGraph").filter(|g| !g.is_null()),
        map.get("vertices"),
    ) {
        (Some(graph), _) => job_graph(graph, "jobGraph")?,
        (None, Some(_)) => job_graph(&body, "body")?,
        (None, None) => serde_json::from_str(current.graph.get())
            .map_err(|e| ApiError::Internal(format!("job {id:?}: stored graph: {e}")))?,
    };
    let mut meta = current.meta;
    // A new version starts where every version starts; the runner moves it on.
    meta.state = STATE.into();
    if let Some(name) = optional_string(map, "", "name")? {
        if name.is_empty() {
            return Err(ApiError::BadRequest("`name` must not be empty".into()));
        }
        meta.name = name;
    }
    if let Some(tags) = string_map(map, "tags")? {
        meta.tags = with_server_tags(tags, &meta.tags);
    }
    meta.desired_state = desired_state(map, &meta.desired_state)?;
    if let Some(teams) = team_ids(map, "teamIds")? {
        // Moving a job between teams takes the permission in both.
        require_job(&caller, &meta.processing, &teams)?;
        meta.team_ids = teams;
    }
    state
        .config
        .field_limits
        .check_job(&meta.name, &meta.tags)?;
    let (resolved, templates) = scripts::resolve(&state, &caller, definition.clone()).await?;
    runnable(&meta.execution, &resolved)?;
    crate::access::require_graph(&state, &caller, &resolved).await?;
    meta.templates = templates;
    meta.edited_by = caller.client_id.clone();
    let fields = JobFields {
        shards: shards(&state, &meta.execution, &meta.processing, &resolved),
        meta,
        definition,
        resolved,
        rollback,
    };
    let asynchronous = fields.meta.execution == "ASYNCHRONOUS";
    let record = state
        .store
        .update_job(org, id.clone(), Some(current.version), fields)
        .await
        .map_err(|e| match e {
            StoreError::Conflict { current: now } => {
                conflict(&id, from_version.unwrap_or(current.version), now)
            }
            other => not_found(&id)(other),
        })?;
    state.runs.wake.notify_one();
    // The version running here learns at once that it is superseded (another replica's
    // at its next lease renewal).
    state.runs.poke(&id);
    // An asynchronous job's new version is accepted: it takes over from the running one.
    let status = if asynchronous {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(record.into())))
}

/// A 400 when an asynchronous job's resolved graph has a `logs-sync-sink`, which only a
/// synchronous run has someone to return events to.
fn runnable(execution: &str, resolved: &Value) -> Result<(), ApiError> {
    if execution != "ASYNCHRONOUS" {
        return Ok(());
    }
    let vertices = resolved.get("vertices").and_then(Value::as_array);
    for vertex in vertices.into_iter().flatten() {
        if vertex.get("type").and_then(Value::as_str) == Some("logs-sync-sink") {
            let name = vertex
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Err(ApiError::BadRequest(format!(
                "Invalid job graph: vertex {name} is a logs-sync-sink, which returns events to the caller of a synchronous run: an asynchronous job writes to a sink that keeps them (logs-iceberg-table-sink, or a vendor's)"
            )));
        }
    }
    Ok(())
}

/// A 409 when the job is an asynchronous batch job that has not ended: it is neither updated
/// nor deleted while it runs.
fn running_batch(id: &str, meta: &JobMeta, what: &str) -> Result<(), ApiError> {
    let ended = meta
        .state
        .parse::<jobgraph_model::lifecycle::JobState>()
        .is_ok_and(|s| s.is_terminal());
    if meta.execution == "ASYNCHRONOUS" && meta.processing == "BATCH" && !ended {
        return Err(ApiError::Conflict {
            message: format!(
                "job {id:?} is a batch job that has not ended (state {}): it cannot be {what} while it runs; wait until it is FINISHED or FAILED",
                meta.state
            ),
            current_version: None,
        });
    }
    Ok(())
}

fn conflict(id: &str, from: u64, current: u64) -> ApiError {
    ApiError::Conflict {
        message: format!(
            "version conflict: job {id:?} is at version {current}, not {from}; fetch it again and retry"
        ),
        current_version: Some(current),
    }
}

/// Delete a job (every version is tombstoned; a running version stops and ends `FINISHED`).
#[utoipa::path(
    delete, path = "/v1/jobs/{id}", operation_id = "deleteJob", tag = "jobs",
    params(("id" = String, Path, description = "Job id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such job in the caller's organization (or already deleted)", body = ErrorBody),
        (status = 409, description = "An asynchronous batch job that has not ended: wait until it is `FINISHED` or `FAILED`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let current = state
        .store
        .job(
            caller.organization.clone(),
            id.clone(),
            None,
            GraphForm::Submitted,
        )
        .await
        .map_err(not_found(&id))?;
    require_job(&caller, &current.meta.processing, &current.meta.team_ids)?;
    running_batch(&id, &current.meta, "deleted")?;
    state
        .store
        .delete_job(caller.organization, id.clone())
        .await
        .map_err(not_found(&id))?;
    // Its run stops and ends (`FINISHED`) on the replica that owns it.
    state.runs.wake.notify_one();
    state.runs.poke(&id);
    Ok(StatusCode::NO_CONTENT)
}
