//! `/v1/jobs` (create asynchronous or synchronous, list, get, update, delete) and
//! `/v1/triggers`.

use reqwest::Method;
use serde::Deserialize;
use serde_json::Value;

use super::{Call, Client, ClientError, read_error, segment};
use crate::api::{CreateJob, Execution, JobOut, Processing, TriggerAccepted, UpdateJob};

/// The filters of `GET /v1/jobs` (the public client's, plus `execution`). Empty fields are
/// not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobFilter {
    /// Any of these states (`state`, repeated).
    pub states: Vec<String>,
    /// Versions written since an ISO 8601 time or within an ISO 8601 duration before now
    /// (`PT24H`).
    pub since: Option<String>,
    /// This exact name.
    pub name: Option<String>,
    /// Any of these ids (`id`, repeated).
    pub ids: Vec<String>,
    /// Any of these kinds of processing.
    pub processing: Vec<Processing>,
    /// Any of these kinds of execution.
    pub execution: Vec<Execution>,
    /// Every version rather than the latest of each job (`latest=false`).
    pub all_versions: bool,
    /// The resolved graphs rather than the submitted ones (`resolved=true`).
    pub resolved: bool,
}

/// Which version of a job `GET /v1/jobs/{id}` answers with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JobVersion {
    /// This version (`None`: the latest).
    pub version: Option<u64>,
    /// The resolved graph rather than the submitted one.
    pub resolved: bool,
}

/// One record of a synchronous job's stream.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncRecord {
    /// `CONNECTING`, `CONNECTED`, `RUNNING`, `HEARTBEAT`, `FINISHED`, `FAILED`, `CANCELLED`,
    /// `TIMED_OUT`, `SCANNED_MAX`, …
    pub job_state: String,
    /// On a `RUNNING` record: one event that reached a sink (an array of events from servers
    /// before issue 34, read as well by [`SyncRecord::events`]). On a final record other than
    /// `FINISHED`: `{"message": why}`.
    #[serde(default)]
    pub data: Option<Value>,
    /// On `HEARTBEAT` records: what to send back to keep the job alive.
    #[serde(default)]
    pub heartbeat_token: Option<String>,
    /// On a final record: why it ended so (`jobgraph serve` sends it beside `data.message`).
    #[serde(default)]
    pub message: Option<String>,
}

impl SyncRecord {
    /// The events this record carries: its `data` on a `RUNNING` record (one event, or each
    /// of an array), none on any other record.
    ///
    /// ```
    /// use jobgraph_sdk::client::SyncRecord;
    /// let one: SyncRecord =
    ///     serde_json::from_str(r#"{"jobState":"RUNNING","data":{"id":"a"}}"#).unwrap();
    /// assert_eq!(one.events().len(), 1);
    /// let failed: SyncRecord =
    ///     serde_json::from_str(r#"{"jobState":"FAILED","data":{"message":"bad"}}"#).unwrap();
    /// assert!(failed.events().is_empty());
    /// assert_eq!(failed.reason(), Some("bad"));
    /// ```
    pub fn events(&self) -> Vec<Value> {
        if self.job_state != "RUNNING" {
            return Vec::new();
        }
        match &self.data {
            Some(Value::Array(items)) => items.clone(),
            Some(Value::Null) | None => Vec::new(),
            Some(other) => vec![other.clone()],
        }
    }

    /// Why a final record ended so: its `message`, else its `data.message` (the public
    /// service's place for it).
    pub fn reason(&self) -> Option<&str> {
        self.message.as_deref().or_else(|| {
            self.data
                .as_ref()
                .filter(|_| self.job_state != "RUNNING")
                .and_then(|d| d.get("message"))
                .and_then(Value::as_str)
        })
    }

    /// Whether the stream ends with this record.
    pub fn is_final(&self) -> bool {
        matches!(
            self.job_state.as_str(),
            "FINISHED" | "FAILED" | "CANCELLED" | "TIMED_OUT" | "SCANNED_MAX"
        )
    }

    /// Whether the job ended well (`FINISHED`).
    pub fn is_success(&self) -> bool {
        self.job_state == "FINISHED"
    }
}

/// Splits a synchronous job's answer into [`SyncRecord`]s: JSON records separated by `\r\n`
/// (a bare `\n` is accepted too), arriving in chunks cut anywhere.
#[derive(Debug, Default)]
pub struct SyncStream {
    pending: Vec<u8>,
}

impl SyncStream {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a chunk; returns the records it completed, or the first line that is not a record.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SyncRecord>, String> {
        self.pending.extend_from_slice(chunk);
        let mut records = Vec::new();
        // Every complete line is parsed in place, then the consumed bytes are dropped at once
        // (a chunk holds hundreds of one-event records: no copy of the rest per record).
        let mut start = 0;
        while let Some(end) = self.pending[start..].iter().position(|b| *b == b'\n') {
            let line = &self.pending[start..start + end + 1];
            start += end + 1;
            if let Some(record) = parse_line(line)? {
                records.push(record);
            }
        }
        self.pending.drain(..start);
        Ok(records)
    }

    /// The last record, if the stream ended without a line break after it.
    pub fn finish(&mut self) -> Result<Option<SyncRecord>, String> {
        let line = std::mem::take(&mut self.pending);
        parse_line(&line)
    }
}

fn parse_line(line: &[u8]) -> Result<Option<SyncRecord>, String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    serde_json::from_str(text).map(Some).map_err(|e| {
        format!(
            "not a job record ({e}): {}",
            text.chars().take(120).collect::<String>()
        )
    })
}

impl Client {
    /// `POST /v1/jobs/async`: creates an asynchronous job (its template operations resolved by
    /// the service).
    pub async fn create_job(&self, job: &CreateJob) -> Result<JobOut, ClientError> {
        self.call(Call::new(Method::POST, "/v1/jobs/async".into()).json(job)?)
            .await
    }

    /// `POST /v1/jobs/sync`: creates a synchronous job and reads its stream, calling
    /// `on_record` for each record (heartbeats answered on `POST /v1/jobs/sync/heartbeat`)
    /// up to the final one, which is returned.
    pub async fn create_job_sync(
        &self,
        job: &CreateJob,
        mut on_record: impl FnMut(&SyncRecord),
    ) -> Result<SyncRecord, ClientError> {
        self.create_job_sync_chunks(job, |records| records.iter().for_each(&mut on_record))
            .await
    }

    /// [`Client::create_job_sync`], with the records that arrived together (one piece of the
    /// answer) passed in one call, so that a caller writing them out writes once per piece
    /// rather than once per event.
    pub async fn create_job_sync_chunks(
        &self,
        job: &CreateJob,
        mut on_records: impl FnMut(&[SyncRecord]),
    ) -> Result<SyncRecord, ClientError> {
        let call = Call::new(Method::POST, "/v1/jobs/sync".into()).json(job)?;
        let (mut response, status) = self.open_streamed(&call).await?;
        let invalid = |reason: String| ClientError::InvalidResponse {
            method: "POST".into(),
            path: call.path.clone(),
            status,
            reason,
        };
        let mut stream = SyncStream::new();
        loop {
            let chunk = response
                .chunk()
                .await
                .map_err(|e| ClientError::Unreachable {
                    method: "POST".into(),
                    url: call.path.clone(),
                    reason: super::http::describe(&e),
                })?;
            let mut records = match &chunk {
                Some(bytes) => stream.push(bytes).map_err(invalid)?,
                None => stream.finish().map_err(invalid)?.into_iter().collect(),
            };
            // Nothing after the final record is read.
            if let Some(last) = records.iter().position(SyncRecord::is_final) {
                records.truncate(last + 1);
            }
            if !records.is_empty() {
                on_records(&records);
            }
            for record in &records {
                if let Some(token) = record.heartbeat_token.as_deref() {
                    self.heartbeat(token).await?;
                }
            }
            if let Some(end) = records.pop().filter(SyncRecord::is_final) {
                return Ok(end);
            }
            if chunk.is_none() {
                return Err(invalid("the stream ended before a final job state".into()));
            }
        }
    }

    /// Opens a streamed answer: the response and its status when it is a success, the error
    /// its body says otherwise.
    async fn open_streamed(&self, call: &Call) -> Result<(reqwest::Response, u16), ClientError> {
        let response = self.open(call).await?;
        let status = response.status().as_u16();
        if (200..300).contains(&status) {
            return Ok((response, status));
        }
        let body = response
            .bytes()
            .await
            .map(|b| b.to_vec())
            .unwrap_or_default();
        Err(super::http::Answer {
            status,
            body,
            ..Default::default()
        }
        .into_error(&call.method, &call.path))
    }

    /// `POST /v1/jobs/sync/heartbeat`: keeps a synchronous job alive.
    async fn heartbeat(&self, token: &str) -> Result<(), ClientError> {
        let mut call = Call::new(Method::POST, "/v1/jobs/sync/heartbeat".into());
        call.body = Some((token.as_bytes().to_vec(), "text/plain"));
        let response = self.open(&call).await?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(ClientError::Api {
                method: "POST".into(),
                path: call.path,
                status,
                message: read_error(response).await,
                code: None,
                current_version: None,
            });
        }
        Ok(())
    }

    /// `GET /v1/jobs` with filters: every page.
    pub async fn list_jobs(&self, filter: &JobFilter) -> Result<Vec<JobOut>, ClientError> {
        self.list_jobs_up_to(filter, None).await
    }

    /// `GET /v1/jobs` with filters, page after page until the last or until `max_items` are
    /// listed.
    pub async fn list_jobs_up_to(
        &self,
        filter: &JobFilter,
        max_items: Option<usize>,
    ) -> Result<Vec<JobOut>, ClientError> {
        let mut call = Call::new(Method::GET, "/v1/jobs".into());
        for state in &filter.states {
            call = call.query("state", state.clone());
        }
        if let Some(since) = &filter.since {
            call = call.query("since", since.clone());
        }
        if let Some(name) = &filter.name {
            call = call.query("name", name.clone());
        }
        for id in &filter.ids {
            call = call.query("id", id.clone());
        }
        for p in &filter.processing {
            call = call.query("processing", p.as_str());
        }
        for e in &filter.execution {
            call = call.query("execution", e.as_str());
        }
        if filter.all_versions {
            call = call.query("latest", "false");
        }
        if filter.resolved {
            call = call.query("resolved", "true");
        }
        self.list_pages(call, max_items).await
    }

    /// `GET /v1/jobs/{id}`: the latest version or another, as submitted or resolved.
    pub async fn get_job(&self, id: &str, which: JobVersion) -> Result<JobOut, ClientError> {
        let mut call = Call::new(Method::GET, format!("/v1/jobs/{}", segment(id)));
        if let Some(version) = which.version {
            call = call.query("version", version.to_string());
        }
        if which.resolved {
            call = call.query("resolved", "true");
        }
        self.call(call).await
    }

    /// `PUT /v1/jobs/{id}` (`?rollbackEnabled=true` when asked): a new version. With
    /// `fromVersion` it is conditional (409 with the current version otherwise) and retried
    /// like an idempotent request.
    pub async fn update_job(
        &self,
        id: &str,
        update: &UpdateJob,
        rollback_enabled: bool,
    ) -> Result<JobOut, ClientError> {
        let mut call = Call::new(Method::PUT, format!("/v1/jobs/{}", segment(id))).json(update)?;
        if rollback_enabled {
            call = call.query("rollbackEnabled", "true");
        }
        call.idempotent = update.from_version.is_some();
        self.call(call).await
    }

    /// `GET /v1/jobs/{id}/tap`: up to `limit` events passing `vertex` (the job's source when
    /// `None`) of a running job, each line of NDJSON handed to `on_event` as it arrives, for at
    /// most `wait_ms`. Returns how many events came.
    pub async fn tap_job(
        &self,
        id: &str,
        vertex: Option<&str>,
        limit: Option<u64>,
        wait_ms: Option<u64>,
        mut on_event: impl FnMut(&str),
    ) -> Result<u64, ClientError> {
        let mut call = Call::new(Method::GET, format!("/v1/jobs/{}/tap", segment(id)));
        if let Some(vertex) = vertex {
            call = call.query("vertex", vertex);
        }
        if let Some(limit) = limit {
            call = call.query("limit", limit.to_string());
        }
        if let Some(wait) = wait_ms {
            call = call.query("waitMs", wait.to_string());
        }
        let (mut response, _) = self.open_streamed(&call).await?;
        let mut pending: Vec<u8> = Vec::new();
        let mut events = 0u64;
        let mut emit = |line: &[u8], events: &mut u64| {
            let text = String::from_utf8_lossy(line);
            let text = text.trim();
            if !text.is_empty() {
                on_event(text);
                *events += 1;
            }
        };
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| ClientError::Unreachable {
                method: "GET".into(),
                url: call.path.clone(),
                reason: super::http::describe(&e),
            })?
        {
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                emit(&line, &mut events);
            }
        }
        emit(&pending, &mut events);
        Ok(events)
    }

    /// `DELETE /v1/jobs/{id}`.
    pub async fn delete_job(&self, id: &str) -> Result<(), ClientError> {
        self.call_empty(Call::new(
            Method::DELETE,
            format!("/v1/jobs/{}", segment(id)),
        ))
        .await
    }

    /// `POST /v1/triggers?job=JOB_ID` (no token needed): stores any JSON value (64 KiB at most
    /// by default) for job `job_id`, which gives the trigger its organization. A job that does
    /// not exist is a not-found error ([`ClientError::is_not_found`]); too many triggers, a 429
    /// (retried as the client retries every 429, within its retry budget).
    pub async fn create_trigger(
        &self,
        job_id: &str,
        payload: &Value,
    ) -> Result<TriggerAccepted, ClientError> {
        let mut call = Call::new(Method::POST, "/v1/triggers".into())
            .query("job", job_id.to_owned())
            .json(payload)?;
        call.auth = false;
        self.call(call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_across_chunks() {
        let mut stream = SyncStream::new();
        let text = "{\"jobState\":\"CONNECTED\"}\r\n{\"jobState\":\"HEARTBEAT\",\"heartbeatToken\":\"h1\"}\r\n{\"jobState\":\"RUNNING\",\"data\":{\"n\":1}}\r\n\r\n{\"jobState\":\"FINISHED\"}";
        let mut seen = Vec::new();
        for chunk in text.as_bytes().chunks(7) {
            seen.extend(stream.push(chunk).unwrap());
        }
        seen.extend(stream.finish().unwrap());
        let states: Vec<&str> = seen.iter().map(|r| r.job_state.as_str()).collect();
        assert_eq!(states, ["CONNECTED", "HEARTBEAT", "RUNNING", "FINISHED"]);
        assert_eq!(seen[1].heartbeat_token.as_deref(), Some("h1"));
        assert_eq!(seen[2].data, Some(serde_json::json!({"n": 1})));
        assert!(seen[3].is_final() && seen[3].is_success());
        assert!(!seen[2].is_final());
    }

    #[test]
    fn a_chunk_of_many_one_event_records_is_read_whole() {
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!(
                "{{\"jobState\":\"RUNNING\",\"data\":{{\"id\":\"{i}\"}}}}\r\n"
            ));
        }
        text.push_str("{\"jobState\":\"RUNN");
        let mut stream = SyncStream::new();
        let records = stream.push(text.as_bytes()).unwrap();
        assert_eq!(records.len(), 1000);
        assert_eq!(records[999].events(), [serde_json::json!({"id": "999"})]);
        let rest = stream.push(b"ING\"}\r\n").unwrap();
        assert_eq!(rest.len(), 1);
        assert!(rest[0].events().is_empty());
        assert_eq!(stream.finish().unwrap(), None);
    }

    #[test]
    fn a_line_that_is_not_a_record_is_an_error() {
        let mut stream = SyncStream::new();
        let err = stream.push(b"<html>\n").unwrap_err();
        assert!(err.contains("not a job record"), "{err}");
    }
}
