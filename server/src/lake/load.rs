//! `POST /v1/datasets/{id}/load`: NDJSON events streamed into a dataset's table, committed in
//! one transaction at the end (nothing is visible to queries before, nothing stays after a
//! failure). The body is read as it arrives, never held whole: its limit is
//! `lake.maxLoadBytes`, not `maxBodyBytes`.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, Request, State};
use futures_util::StreamExt;
use jobgraph_core::pipeline::LogEvent;
use jobgraph_lake::WriteOptions;
use serde_json::{Value, json};

use super::sink::{DEFAULT_TABLE, record};
use super::{check_table, lake_error, lake_of, table_spec};
use crate::auth::Caller;
use crate::body::{QueryPairs, media_type};
use crate::error::{ApiError, ErrorBody};
use crate::ids::new_id;
use crate::state::AppState;
use crate::store::StoreError;
use jobgraph_model::permissions::{Permission, Resource};

/// The media types a load reads as NDJSON (and none at all).
const NDJSON_TYPES: [&str; 5] = [
    "application/x-ndjson",
    "application/jsonl",
    "application/x-jsonlines",
    "text/plain",
    "application/octet-stream",
];

/// Events handed to the writer at a time.
const BATCH: usize = 8192;

/// Load events into a dataset: the body is NDJSON (one event per line, blank lines skipped),
/// streamed; the events are written to the dataset's table (`table`, default `logs`) and
/// committed at once when the body ends. Any bad line fails the whole load (400 naming the
/// line) and leaves nothing behind.
#[utoipa::path(
    post, path = "/v1/datasets/{id}/load", operation_id = "loadDataset", tag = "datasets",
    params(
        ("id" = String, Path, description = "Dataset id"),
        ("table" = Option<String>, Query, min_length = 1, max_length = 128, pattern = r"^([A-Za-z0-9_.:@=+~-]*[A-Za-z0-9_:@=+~-][A-Za-z0-9_.:@=+~-]*|\.{3,})$",
            description = "The dataset's table to write (default `logs`): 1 to 128 characters, each a letter (A-Z, a-z), a digit or one of - _ . : @ = + ~, and not `.` or `..` (it is part of the files' paths; another name is a 400 stating this rule)"),
    ),
    request_body(content = Option<String>, content_type = "application/octet-stream", description = "NDJSON (an empty or absent body loads nothing): events, one JSON object per line, sent as `application/x-ndjson` (as `jobgraph dataset:load` does), `application/jsonl`, `application/x-jsonlines`, `text/plain` or `application/octet-stream` (the type documented here, which generated clients send as a file upload), or with no `Content-Type`"),
    responses(
        (status = 200, description = "Loaded and committed: `{datasetId, table, runId, events, files, bytes, elapsedMs}`", body = Object),
        (status = 400, description = "A line is not an event (the line number says which), `table` is not a valid table name (the message states the rule), or the service has no lake", body = ErrorBody),
        (status = 401, description = "Missing, malformed, expired or unknown access token (`WWW-Authenticate: Bearer`)", body = ErrorBody),
        (status = 404, description = "No such dataset in the caller's organization", body = ErrorBody),
        (status = 408, description = "The body stopped arriving for `connections.bodyReadTimeoutMs`", body = ErrorBody),
        (status = 413, description = "The body is over `lake.maxLoadBytes` (16 GiB by default)", body = ErrorBody),
        (status = 415, description = "A `Content-Type` other than NDJSON (`application/x-ndjson`, `application/jsonl`, `application/x-jsonlines`, `text/plain`, `application/octet-stream`; none is read as NDJSON)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn load(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    query: QueryPairs,
    request: Request,
) -> Result<Json<Value>, ApiError> {
    let started = Instant::now();
    if let Some(media) = media_type(request.headers())
        && !NDJSON_TYPES.contains(&media.as_str())
    {
        return Err(ApiError::UnsupportedMediaType(format!(
            "the body of a load is NDJSON (Content-Type: application/x-ndjson), not {media}"
        )));
    }
    let table = query.single("table")?.unwrap_or(DEFAULT_TABLE).to_owned();
    check_table(&table, "query parameter `table`")?;
    let lake = lake_of(&state)?;
    let dataset = state
        .store
        .dataset(caller.organization.clone(), id.clone())
        .await
        .map_err(|e| match e {
            StoreError::NotFound => ApiError::NotFound(format!("no dataset {id}")),
            other => other.into(),
        })?;
    // Appending events changes the dataset: Edit in its teams.
    caller.require(
        Permission::Edit,
        Resource::Datasets,
        &dataset.fields.team_ids,
    )?;
    let run_id = new_id().map_err(|e| ApiError::Internal(format!("random: {e}")))?;
    let mut writer = lake.writer(
        table_spec(&dataset, &table),
        &run_id,
        WriteOptions::default(),
    );
    let limit = state.config.lake.max_load_bytes;
    let idle = Duration::from_millis(state.config.connections.body_read_timeout_ms.max(1));
    let mut body = request.into_body().into_data_stream();
    let (mut pending, mut batch) = (Vec::new(), Vec::with_capacity(BATCH));
    let (mut read, mut line_no, mut events) = (0u64, 0u64, 0u64);
    let outcome: Result<(), ApiError> = async {
        loop {
            let chunk = match tokio::time::timeout(idle, body.next()).await {
                Err(_) => {
                    return Err(ApiError::RequestTimeout(format!(
                        "no part of the body arrived for {} ms (connections.bodyReadTimeoutMs)",
                        idle.as_millis()
                    )));
                }
                Ok(None) => None,
                Ok(Some(Err(e))) => {
                    return Err(ApiError::BadRequest(format!("cannot read the body: {e}")));
                }
                Ok(Some(Ok(bytes))) => Some(bytes),
            };
            let end = chunk.is_none();
            if let Some(bytes) = chunk {
                read += bytes.len() as u64;
                if read > limit {
                    return Err(ApiError::TooLarge(
                        usize::try_from(limit).unwrap_or(usize::MAX),
                    ));
                }
                pending.extend_from_slice(&bytes);
            }
            let cut = if end {
                pending.len()
            } else {
                match pending.iter().rposition(|&b| b == b'\n') {
                    Some(i) => i + 1,
                    None => continue,
                }
            };
            let lines: Vec<u8> = pending.drain(..cut).collect();
            let parsed = tokio::task::block_in_place(|| parse_lines(&lines, &mut line_no))?;
            for event in parsed {
                batch.push(event);
                if batch.len() == BATCH {
                    events += batch.len() as u64;
                    writer.write(&batch).await.map_err(internal)?;
                    batch.clear();
                }
            }
            if end {
                events += batch.len() as u64;
                writer.write(&batch).await.map_err(internal)?;
                return Ok(());
            }
        }
    }
    .await;
    if let Err(error) = outcome {
        if let Err(e) = writer.abort().await {
            tracing::warn!(
                "could not delete the files of a failed load (garbage collection will): {e}"
            );
        }
        return Err(error);
    }
    let files = writer.finish().await.map_err(internal)?;
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    let records = files.iter().map(|f| record(f, &run_id)).collect();
    state
        .store
        .commit_lake_files(
            caller.organization.clone(),
            dataset.id.clone(),
            run_id.clone(),
            records,
        )
        .await?;
    // Streaming jobs reading the dataset look at once.
    state.runs.committed.notify_waiters();
    Ok(Json(json!({
        "datasetId": dataset.id,
        "table": table,
        "runId": run_id,
        "events": events,
        "files": files.len(),
        "bytes": bytes,
        "elapsedMs": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    })))
}

/// The events of complete NDJSON lines; `line_no` counts the lines read so far.
fn parse_lines(text: &[u8], line_no: &mut u64) -> Result<Vec<LogEvent>, ApiError> {
    let mut events = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        *line_no += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let event: LogEvent = serde_json::from_slice(line).map_err(|e| {
            ApiError::BadRequest(format!(
                "line {line_no} of the body is not an event: {e} (one JSON object per line)"
            ))
        })?;
        events.push(event);
    }
    // `split` yields an empty piece after a final newline: it was not a line.
    if text.ends_with(b"\n") {
        *line_no -= 1;
    }
    Ok(events)
}

fn internal(error: jobgraph_lake::LakeError) -> ApiError {
    lake_error("writing the lake", error)
}

#[cfg(test)]
mod tests {
    /// The document states the names rule of `table` as `jobgraph_core::names` defines it.
    #[test]
    fn the_documented_table_parameter_is_the_names_rule() {
        let document = serde_json::to_value(crate::routes::openapi()).unwrap_or_default();
        let parameters = document["paths"]["/v1/datasets/{id}/load"]["post"]["parameters"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let table = parameters
            .iter()
            .find(|p| p["name"] == "table")
            .map(|p| p["schema"].clone())
            .unwrap_or_default();
        assert_eq!(table["pattern"], jobgraph_core::names::PATH_NAME_PATTERN);
        assert_eq!(table["maxLength"], jobgraph_core::names::PATH_NAME_MAX);
        assert_eq!(table["minLength"], 1);
    }
}
