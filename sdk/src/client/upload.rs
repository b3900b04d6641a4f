//! `POST /v1/datasets/{id}/load`: a file of events streamed to the service as it is read,
//! never held whole, the bytes sent reported as they go.

use std::io::Read;
use std::path::Path;

use reqwest::Method;
use serde_json::Value;

use super::http::Outgoing;
use super::{Call, Client, ClientError, segment};

/// Bytes read from the file at a time.
const CHUNK: usize = 1 << 20;

impl Client {
    /// `POST /v1/datasets/{id}/load`: streams the NDJSON file at `path` into the dataset's
    /// `table` (the service's default `logs` when `None`), calling `progress` with the bytes
    /// sent so far; the service's answer (`{datasetId, table, runId, events, files, bytes,
    /// elapsedMs}`). The dataset is read first (a cheap call that also renews a stale token),
    /// because the upload itself is sent once.
    pub async fn load_dataset(
        &self,
        id: &str,
        table: Option<&str>,
        path: &Path,
        progress: impl Fn(u64) + Send + Sync + 'static,
    ) -> Result<Value, ClientError> {
        self.get_dataset(id).await?;
        let mut call = Call::new(Method::POST, format!("/v1/datasets/{}/load", segment(id)));
        if let Some(table) = table {
            call.query.push(("table", table.to_owned()));
        }
        let unreadable =
            |e: std::io::Error| ClientError::Config(format!("cannot read {}: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let chunks = futures_util::stream::unfold((file, 0u64, progress), |state| async move {
            let (mut file, sent, progress) = state;
            let mut buf = vec![0u8; CHUNK];
            match file.read(&mut buf) {
                Ok(0) => None,
                Ok(n) => {
                    buf.truncate(n);
                    let sent = sent + n as u64;
                    progress(sent);
                    Some((Ok::<_, std::io::Error>(buf), (file, sent, progress)))
                }
                Err(e) => Some((Err(e), (file, sent, progress))),
            }
        });
        let inner = &*self.inner;
        let lease = inner.tokens.get(&inner.http).await?;
        let out = Outgoing {
            method: call.method.clone(),
            url: self.url(&call)?,
            body: None,
            bearer: Some(lease.token.secret().expose().to_owned()),
            idempotent: false,
        };
        let answer = inner
            .http
            .upload(
                &out,
                reqwest::Body::wrap_stream(chunks),
                "application/x-ndjson",
            )
            .await?;
        if !(200..300).contains(&answer.status) {
            return Err(answer.into_error(&call.method, &call.path));
        }
        serde_json::from_slice(&answer.body).map_err(|e| ClientError::InvalidResponse {
            method: call.method.to_string(),
            path: call.path.clone(),
            status: answer.status,
            reason: e.to_string(),
        })
    }
}
