//! `/v1/datasets`: create, list, get, update, delete, and the committed files of a dataset
//! (`docs/api.md`, "Datasets"; `docs/lake.md` §3.1).

use axum::Json;
use axum::extract::{OriginalUri, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value};

use super::auth::Caller;
use super::body::{JsonBody, QueryPairs};
use super::error::{ApiError, ErrorBody};
use super::field_limits::within;
use super::ids::{iso8601, new_id};
use super::page::{answer, answer_array, page_request, page_request_or, scope};
use super::state::AppState;
use super::store::{DatasetFields, DatasetRecord, LakeFileRecord, StoreError};
use super::validate::{object, optional_version};
use jobgraph_sdk::api::{DatasetFile, DatasetInput, DatasetOut, Items};

/// The partitionings a dataset may have.
const PARTITIONINGS: &[&str] = &["HOUR", "DAY", "MONTH", "YEAR"];
/// The promoted tags of a dataset that does not name them.
const DEFAULT_TAGS: &[&str] = &["service", "host", "level", "env"];
/// Most promoted tags.
const MAX_TAGS: usize = 8;
/// Fields a body may have: the writable ones, `version`, and the read-only ones of an answer
/// (ignored, so that the output of `dataset:get` can be sent back).
const KNOWN: &[&str] = &[
    "version",
    "name",
    "description",
    "partitioning",
    "retentionDays",
    "promotedTags",
    "id",
    "organizationId",
    "createdAt",
    "updatedAt",
];

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

/// Whether `key` is a tag key a dataset may promote: `[A-Za-z0-9_.-]{1,64}`.
fn valid_tag(key: &str) -> bool {
    (1..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The fields of a create or update body, each checked (a 400 names the field's JSON
/// pointer), with defaults for absent ones.
fn dataset_fields(state: &AppState, body: &Value) -> Result<DatasetFields, ApiError> {
    let map: &Map<String, Value> = object(body, "the body")?;
    if let Some(key) = map.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(bad(format!(
            "`/{key}` is not a dataset field (known: name, description, partitioning, retentionDays, promotedTags, version)"
        )));
    }
    let limits = &state.config.field_limits;
    let name = match map.get("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::String(_)) => return Err(bad("`/name` must not be empty".into())),
        None | Some(Value::Null) => return Err(bad("`/name` is required".into())),
        Some(_) => return Err(bad("`/name` must be a string".into())),
    };
    within("/name", name.len(), limits.name, "name")?;
    let description = match map.get("description") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("`/description` must be a string".into())),
    };
    within(
        "/description",
        description.len(),
        limits.description,
        "description",
    )?;
    let partitioning = match map.get("partitioning") {
        None | Some(Value::Null) => "HOUR".to_owned(),
        Some(Value::String(s)) if PARTITIONINGS.contains(&s.as_str()) => s.clone(),
        Some(other) => {
            return Err(bad(format!(
                "`/partitioning` must be one of {}, not {other}",
                PARTITIONINGS.join(", ")
            )));
        }
    };
    let retention_days = match map.get("retentionDays") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|n| *n >= 1)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    bad(format!(
                        "`/retentionDays` must be null (keep forever) or an integer from 1 to {}, not {v}",
                        u32::MAX
                    ))
                })?,
        ),
    };
    let promoted_tags = match map.get("promotedTags") {
        None | Some(Value::Null) => DEFAULT_TAGS.iter().map(|t| (*t).to_owned()).collect(),
        Some(Value::Array(items)) => promoted_tags(items)?,
        Some(_) => {
            return Err(bad("`/promotedTags` must be an array of tag keys".into()));
        }
    };
    Ok(DatasetFields {
        name,
        description,
        partitioning,
        retention_days,
        promoted_tags,
    })
}

fn promoted_tags(items: &[Value]) -> Result<Vec<String>, ApiError> {
    if items.len() > MAX_TAGS {
        return Err(bad(format!(
            "`/promotedTags` has {} keys, more than the {MAX_TAGS} a dataset may promote: keep the ones queries filter on most",
            items.len()
        )));
    }
    let mut tags: Vec<String> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let key = item.as_str().filter(|k| valid_tag(k)).ok_or_else(|| {
            bad(format!(
                "`/promotedTags/{i}` must be a tag key of 1 to 64 characters from A-Z, a-z, 0-9, `_`, `.`, `-`, not {item}"
            ))
        })?;
        if tags.iter().any(|t| t == key) {
            return Err(bad(format!(
                "`/promotedTags/{i}` repeats the key {key:?}: list each key once"
            )));
        }
        tags.push(key.to_owned());
    }
    Ok(tags)
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
        .dataset(caller.organization, id.clone())
        .await
        .map_err(not_found(&id))?;
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
    let fields = dataset_fields(&state, &body)?;
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
    fn tag_keys_and_microsecond_times() {
        assert!(valid_tag("service") && valid_tag("k8s.pod-name_1"));
        assert!(!valid_tag("") && !valid_tag("a b") && !valid_tag(&"x".repeat(65)));
        assert_eq!(
            iso8601_us(1_700_000_000_123_456),
            "2023-11-14T22:13:20.123456Z"
        );
        assert_eq!(iso8601_us(-1), "1969-12-31T23:59:59.999999Z");
    }
}
