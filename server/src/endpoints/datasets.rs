//! `/v1/datasets`: create, list, get, update, delete, and the committed files of a dataset
//! (`docs/api.md`, "Datasets"; `docs/lake.md` §3.1).

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{OriginalUri, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use crate::auth::Caller;
use crate::body::{JsonBody, QueryPairs};
use crate::endpoints::listing::{answer, answer_array, page_request, page_request_or, scope};
use crate::error::{ApiError, ErrorBody};
use crate::guards::field_limits::FieldLimits;
use crate::ids::{iso8601, new_id};
use crate::state::AppState;
use crate::store::{DatasetFields, DatasetRecord, LakeFileRecord, StoreError};
use crate::validate::{BodySchema, object, optional_version};
use jobgraph_model::permissions::{Permission, Resource};
use jobgraph_sdk::api::dataset_schema::dataset_input_schema;
use jobgraph_sdk::api::{DEFAULT_PROMOTED_TAGS, DatasetFile, DatasetInput, DatasetOut, Items};

fn bad(message: String) -> ApiError {
    ApiError::BadRequest(message)
}

fn not_found(id: &str) -> impl Fn(StoreError) -> ApiError + '_ {
    move |e| match e {
        StoreError::NotFound => ApiError::NotFound(format!(
            "no dataset with id {id:?} in this organization (or it was deleted)"
        )),
        other => other.into(),
    }
}

/// The published schema of a create or update body ([`DatasetInput`]'s) with this server's
/// `fieldLimits` of `name` and `description`, compiled once per pair of limits.
fn body_schema(limits: &FieldLimits) -> Result<Arc<BodySchema>, ApiError> {
    type Compiled = Vec<((usize, usize), Arc<BodySchema>)>;
    static COMPILED: Mutex<Compiled> = Mutex::new(Vec::new());
    let key = (limits.name, limits.description);
    let mut compiled = COMPILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, schema)) = compiled.iter().find(|(k, _)| *k == key) {
        return Ok(Arc::clone(schema));
    }
    let schema = BodySchema::new("dataset", dataset_input_schema(key.0, key.1))
        .map(Arc::new)
        .map_err(ApiError::Internal)?;
    compiled.push((key, Arc::clone(&schema)));
    Ok(schema)
}

/// The fields of a create or update body: checked against the schema the OpenAPI document
/// publishes, with this server's limits (a 400 names the field's JSON pointer and its rule);
/// absent fields take their defaults.
fn dataset_fields(state: &AppState, body: &Value) -> Result<DatasetFields, ApiError> {
    body_schema(&state.config.field_limits)?.check(body)?;
    let text = |key: &str| body.get(key).and_then(Value::as_str);
    let name = text("name").unwrap_or_default().to_owned();
    let description = text("description").unwrap_or_default().to_owned();
    let partitioning = text("partitioning").unwrap_or("HOUR").to_owned();
    // An integer the schema accepted, written as one (`30`) or as a float (`30.0`).
    let retention_days = body.get("retentionDays").and_then(|v| {
        v.as_u64()
            .or_else(|| v.as_f64().map(|f| f as u64))
            .and_then(|n| u32::try_from(n).ok())
    });
    let promoted_tags = match body.get("promotedTags").and_then(Value::as_array) {
        Some(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        None => DEFAULT_PROMOTED_TAGS
            .iter()
            .map(|t| (*t).to_owned())
            .collect(),
    };
    // Checked by the schema: strings of 1 to 128 characters, at most 32.
    let team_ids = body.get("teamIds").and_then(Value::as_array).map(|items| {
        let mut ids: Vec<String> = items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        ids.sort();
        ids.dedup();
        ids
    });
    Ok(DatasetFields {
        name,
        description,
        partitioning,
        retention_days,
        promoted_tags,
        team_ids: team_ids.unwrap_or_default(),
    })
}

/// The teams of a live dataset: what changing it is checked against.
async fn teams_of(state: &AppState, caller: &Caller, id: &str) -> Result<Vec<String>, ApiError> {
    let record = state
        .store
        .dataset(caller.organization.clone(), id.to_owned())
        .await
        .map_err(not_found(id))?;
    Ok(record.fields.team_ids)
}

/// Whether the body names the teams (`teamIds` not absent nor `null`).
fn names_teams(body: &Value) -> bool {
    body.get("teamIds").is_some_and(|v| !v.is_null())
}

/// A dataset as the API answers it.
pub fn dataset_out(record: DatasetRecord) -> DatasetOut {
    DatasetOut {
        id: record.id,
        name: record.fields.name,
        description: record.fields.description,
        partitioning: record.fields.partitioning,
        retention_days: record.fields.retention_days,
        promoted_tags: record.fields.promoted_tags,
        team_ids: record.fields.team_ids,
        organization_id: record.organization,
        version: record.version,
        created_at: iso8601(record.created_at_ms),
        updated_at: iso8601(record.updated_at_ms),
    }
}

/// A time in µs since the epoch as ISO 8601 with microseconds.
fn iso8601_us(us: i64) -> String {
    let ms = iso8601(us.div_euclid(1000));
    let stem = ms.strip_suffix('Z').unwrap_or(&ms);
    format!("{stem}{:03}Z", us.rem_euclid(1000))
}

/// A committed file as the API answers it.
fn file_out(file: LakeFileRecord) -> DatasetFile {
    DatasetFile {
        table: file.table,
        path: file.path,
        partition_start: iso8601_us(file.partition_start_us),
        min_time: iso8601_us(file.min_time_us),
        max_time: iso8601_us(file.max_time_us),
        rows: file.rows,
        bytes: file.bytes,
        row_groups: file.row_groups,
        run_id: file.run_id,
    }
}

/// Create a dataset (version 1).
#[utoipa::path(
    post, path = "/v1/datasets", operation_id = "createDataset", tag = "datasets",
    request_body = DatasetInput,
    responses(
        (status = 201, description = "Created: version 1", body = DatasetOut),
        (status = 400, description = "The body is not valid JSON, or a field is missing, unknown or invalid (the message names its JSON pointer)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 409, description = "A live dataset of the organization already has this name", body = ErrorBody),
        (status = 413, description = "The request body is over `maxBodyBytes` (10 MiB by default)", body = ErrorBody),
        (status = 415, description = "The body is not `application/json`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<DatasetOut>), ApiError> {
    let fields = dataset_fields(&state, &body)?;
    caller.require(Permission::Edit, Resource::Datasets, &fields.team_ids)?;
    let id = new_id().map_err(|e| ApiError::Internal(e.to_string()))?;
    let record = state
        .store
        .create_dataset(caller.organization, id, fields)
        .await?;
    Ok((StatusCode::CREATED, Json(dataset_out(record))))
}

/// List the caller organization's datasets, oldest first, a page at a time: a bare JSON array
/// (the public client calls `.find` and `.forEach` on it), and a `Link: <…>; rel="next"`
/// header when more follow. Without `limit` a page holds up to `fieldLimits.maxPageSize`
/// datasets, so that a client reading only the first page sees that many.
#[utoipa::path(
    get, path = "/v1/datasets", operation_id = "listDatasets", tag = "datasets",
    params(
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "Datasets per page: default and at most `fieldLimits.maxPageSize` (1000; a 400 above it)"),
        ("cursor" = Option<String>, Query, pattern = "^[A-Za-z0-9_-]*$", max_length = 1024, description = "Where the page starts (opaque): take it from the `Link` header of the previous page, or follow that link; absent: the first page"),
    ),
    responses(
        (status = 200, description = "A page of datasets, oldest first, as a JSON array; a `Link: <…>; rel=\"next\"` header when more follow", body = Vec<DatasetOut>,
            headers(("Link" = String, description = "`<path?…&cursor=…>; rel=\"next\"` when more follow: the next page's address (relative to the request's)"))),
        (status = 400, description = "`limit` is not a positive integer or is over the largest page, or `cursor` is invalid (the message names it)", body = ErrorBody),
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
    caller.require(Permission::View, Resource::Datasets, &[])?;
    let scope = scope(&[&caller.organization, "datasets"]);
    let limits = &state.config.field_limits;
    let page = page_request_or(&query, limits, &scope, limits.max_page_size)?;
    let records = state.store.list_datasets(caller.organization, page).await?;
    Ok(answer_array(
        &uri,
        &scope,
        records,
        DatasetRecord::page_key,
        dataset_out,
    ))
}

/// Get a dataset.
#[utoipa::path(
    get, path = "/v1/datasets/{id}", operation_id = "getDataset", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "The dataset", body = DatasetOut),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such dataset in the caller's organization (or deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<DatasetOut>, ApiError> {
    let record = state
        .store
        .dataset(caller.organization.clone(), id.clone())
        .await
        .map_err(not_found(&id))?;
    caller.require(
        Permission::View,
        Resource::Datasets,
        &record.fields.team_ids,
    )?;
    Ok(Json(dataset_out(record)))
}

/// Update a dataset: every field is replaced (absent ones take their defaults) and the version
/// goes up by one. A body `version` other than the current version is a 409 carrying it.
/// Partitioning and promoted tags apply to files written afterwards.
#[utoipa::path(
    put, path = "/v1/datasets/{id}", operation_id = "updateDataset", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    request_body = DatasetInput,
    responses(
        (status = 200, description = "The dataset, at its new version", body = DatasetOut),
        (status = 400, description = "The body is not valid JSON, or a field is missing, unknown or invalid (the message names its JSON pointer)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such dataset in the caller's organization (or deleted)", body = ErrorBody),
        (status = 409, description = "`version` is not the current version (`currentVersion` says it), or another live dataset has the new name", body = ErrorBody),
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
) -> Result<Json<DatasetOut>, ApiError> {
    let expected = optional_version(object(&body, "the body")?, "/", "version")?;
    let mut fields = dataset_fields(&state, &body)?;
    let current = teams_of(&state, &caller, &id).await?;
    caller.require(Permission::Edit, Resource::Datasets, &current)?;
    if names_teams(&body) {
        // Moving it between teams takes Edit in the new ones too.
        caller.require(Permission::Edit, Resource::Datasets, &fields.team_ids)?;
    } else {
        fields.team_ids = current;
    }
    let record = state
        .store
        .update_dataset(caller.organization, id.clone(), expected, fields)
        .await
        .map_err(|e| match e {
            StoreError::Conflict { current } => ApiError::Conflict {
                message: format!(
                    "version conflict: dataset {id:?} is at version {current}, not {}; fetch it again and retry",
                    expected.unwrap_or_default()
                ),
                current_version: Some(current),
            },
            other => not_found(&id)(other),
        })?;
    Ok(Json(dataset_out(record)))
}

/// Delete a dataset: its metadata is tombstoned and its name is free again; its data files
/// stay where they are (and stay listed nowhere but in the files they are).
#[utoipa::path(
    delete, path = "/v1/datasets/{id}", operation_id = "deleteDataset", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 204, description = "Deleted (metadata only; the data files stay)"),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such dataset in the caller's organization (or already deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let current = teams_of(&state, &caller, &id).await?;
    caller.require(Permission::Edit, Resource::Datasets, &current)?;
    state
        .store
        .delete_dataset(caller.organization, id.clone())
        .await
        .map_err(not_found(&id))?;
    Ok(StatusCode::NO_CONTENT)
}

/// The committed data files of a dataset (every table), a page at a time, in partition, then
/// time, then path order: the list outside tools such as DuckDB read.
#[utoipa::path(
    get, path = "/v1/datasets/{id}/files", operation_id = "listDatasetFiles", tag = "datasets",
    params(
        ("id" = String, Path, description = "Dataset id"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "Items per page: default `fieldLimits.defaultPageSize` (100), at most `fieldLimits.maxPageSize` (1000; a 400 above it)"),
        ("cursor" = Option<String>, Query, pattern = "^[A-Za-z0-9_-]*$", max_length = 1024, description = "The `nextCursor` of the previous page of this dataset's files (opaque); absent: the first page"),
    ),
    responses(
        (status = 200, description = "A page of the dataset's committed files, by partition start, smallest time, then path (byte order); `nextCursor` (and a `Link: <…>; rel=\"next\"` header) when more follow", body = Items<DatasetFile>,
            headers(("Link" = String, description = "`<path?…&cursor=…>; rel=\"next\"` when more follow"))),
        (status = 400, description = "`limit` is not a positive integer or is over the largest page, or `cursor` is invalid or of another listing (the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such dataset in the caller's organization (or deleted)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn files(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    OriginalUri(uri): OriginalUri,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    caller.require(Permission::View, Resource::Datasets, &[])?;
    let org = caller.organization;
    let scope = scope(&[&org, "dataset-files", &id]);
    let page = page_request(&query, &state.config.field_limits, &scope)?;
    if page.after.as_ref().is_some_and(|key| key.file.is_none()) {
        // Only a cursor this listing issued passes the scope check, and each holds a file
        // key; refused rather than read as "from the first file" (which would loop).
        return Err(bad(
            "query parameter `cursor` is invalid: it holds no file position; pass the `nextCursor` of the previous page of this dataset's files unchanged, or leave it out to start from the first page".into(),
        ));
    }
    state
        .store
        .dataset(org.clone(), id.clone())
        .await
        .map_err(not_found(&id))?;
    let files = state.store.lake_file_page(org, id, page).await?;
    Ok(answer(
        &uri,
        &scope,
        files,
        LakeFileRecord::page_key,
        file_out,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microsecond_times() {
        assert_eq!(
            iso8601_us(1_700_000_000_123_456),
            "2023-11-14T22:13:20.123456Z"
        );
        assert_eq!(iso8601_us(-1), "1969-12-31T23:59:59.999999Z");
    }

    /// The published schema compiles, and refuses what the issue found accepted.
    #[test]
    fn bodies_follow_the_published_schema() {
        let schema = body_schema(&FieldLimits::default()).unwrap_or_else(|e| panic!("{e}"));
        let refused = |body: Value, pointer: &str| {
            let message = schema.check(&body).unwrap_err().to_string();
            assert!(
                message.contains(&format!("`{pointer}`")),
                "{body}: {message}"
            );
        };
        refused(
            serde_json::json!({"name": "a", "retentionDays": 2_147_483_648u64}),
            "/retentionDays",
        );
        refused(serde_json::json!({"name": "a", "version": []}), "/version");
        refused(
            serde_json::json!({"name": "a", "promotedTags": [1]}),
            "/promotedTags/0",
        );
        refused(
            serde_json::json!({"name": "a", "promotedTags": ["x", "x"]}),
            "/promotedTags/1",
        );
        refused(serde_json::json!({"name": " \u{3000}"}), "/name");
        refused(serde_json::json!({"description": "d"}), "/name");
        refused(serde_json::json!({"name": "a", "colour": "red"}), "/colour");
        refused(serde_json::json!({"name": "😀".repeat(257)}), "/name");
        refused(
            serde_json::json!({"name": "a", "version": 1e19}),
            "/version",
        );
        for ok in [
            serde_json::json!({"name": "a"}),
            serde_json::json!({"name": "😀".repeat(256), "description": null}),
            serde_json::json!({"name": "a", "retentionDays": 36_500, "version": 2, "partitioning": null,
                               "promotedTags": [], "id": "x", "createdAt": 1}),
        ] {
            if let Err(e) = schema.check(&ok) {
                panic!("{ok}: {e}");
            }
        }
    }
}
