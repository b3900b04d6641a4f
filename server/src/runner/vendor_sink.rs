//! A running job's vendor sinks (`datadog-log-sink`, `splunk-log-sink`, `sumologic-log-sink`,
//! `newrelic-log-sink`;
//! `docs/intake.md`, "Delivery"): what reaches one is encoded in the vendor's intake format
//! (Datadog's JSON array, Splunk HEC events, OTLP/HTTP protobuf for Sumo Logic's OTLP source,
//! New Relic's Log API JSON)
//! with `jobgraph_intake`, gzipped, cut into the vendor's request sizes and sent to the
//! integration's `deliveryUrl` with its `deliveryKey`. One attempt here; the retries, the lease
//! renewals meanwhile and the dead letters are the driver's (`drive/delivery.rs`).

use std::time::Duration;

use jobgraph_core::pipeline::LogEvent;
use jobgraph_intake::Event;
use serde_json::{Map, Value};

use crate::integration_spec::Secret;
use crate::state::AppState;

/// The vendor sink types, with the integration type each delivers with.
pub(crate) const VENDOR_SINKS: &[(&str, &str)] = &[
    ("datadog-log-sink", "datadog"),
    ("splunk-log-sink", "splunk"),
    ("sumologic-log-sink", "sumo"),
    ("newrelic-log-sink", "newrelic"),
];

/// The vendors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vendor {
    Datadog,
    Splunk,
    /// Sumo Logic's OTLP/HTTP source (any OTLP/HTTP logs receiver): protobuf.
    Sumo,
    /// New Relic's Log API.
    NewRelic,
}

impl Vendor {
    fn path(self) -> &'static str {
        match self {
            Vendor::Datadog => "/api/v2/logs",
            Vendor::Splunk => "/services/collector/event",
            Vendor::Sumo => "/v1/logs",
            Vendor::NewRelic => "/log/v1",
        }
    }

    /// Events in one request: Datadog takes 1000 at most; Splunk's default limits are of
    /// bytes, 1000 keeps a request well under them.
    fn max_events(self) -> usize {
        1000
    }

    /// Bytes of one request before compression: Datadog's limit is 5 MB; New Relic's is
    /// 1 MB once compressed, and 1 MB before compression keeps a request within it.
    fn max_bytes(self) -> usize {
        match self {
            Vendor::NewRelic => 1_000_000,
            _ => 4_500_000,
        }
    }

    fn encode(self, events: &[Event]) -> Vec<u8> {
        match self {
            Vendor::Datadog => jobgraph_intake::datadog::encode(events),
            Vendor::Splunk => jobgraph_intake::splunk::encode(events),
            Vendor::Sumo => jobgraph_intake::otlp::encode(events),
            Vendor::NewRelic => jobgraph_intake::newrelic::encode(events),
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Vendor::Datadog | Vendor::Splunk | Vendor::NewRelic => "application/json",
            Vendor::Sumo => jobgraph_intake::otlp::Encoding::Protobuf.content_type(),
        }
    }
}

/// One request's body (gzipped) and the events it holds.
pub(crate) struct Request {
    pub body: Vec<u8>,
    /// The events, as they reached the sink (for the dead letters).
    pub events: Vec<LogEvent>,
}

/// What one attempt came to.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// The vendor took it (2xx).
    Delivered,
    /// Worth trying again (a 5xx, 408, 429, or no answer): after `after` when the vendor
    /// said (`Retry-After`).
    Retry {
        after: Option<Duration>,
        why: String,
    },
    /// The vendor will never take it (any other 4xx): a dead letter.
    Refused { status: u16, why: String },
}

/// A vendor sink of a run.
pub(crate) struct VendorSink {
    pub vertex: String,
    pub vendor: Vendor,
    url: String,
    /// The vendor's key; Sumo Logic's OTLP source has its token in its address instead.
    key: Option<Secret>,
    /// `key:value` tags added to every event (the integration's `additionalTags`, then the
    /// vertex's).
    tags: Vec<(String, String)>,
    client: reqwest::Client,
}

impl std::fmt::Debug for VendorSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VendorSink")
            .field("vertex", &self.vertex)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

fn tag_pairs(value: Option<&Value>) -> Vec<(String, String)> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|t| match t.split_once(':') {
            Some((k, v)) => (k.trim().to_owned(), v.trim().to_owned()),
            None => (t.trim().to_owned(), String::new()),
        })
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The HTTP client of the vendor sinks: 30 s per request, 10 s to connect.
pub(crate) fn client() -> Result<reqwest::Client, String> {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(30))
        .user_agent(concat!("jobgraph/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot build the HTTP client of the vendor sinks: {e}"))
}

impl VendorSink {
    /// The sink `vertex` (of type `kind`) of a job of `organization`.
    pub(crate) fn plan(
        state: &AppState,
        organization: &str,
        vertex: &str,
        kind: &str,
        fields: &Map<String, Value>,
        client: reqwest::Client,
    ) -> Result<VendorSink, String> {
        let (vendor, wanted) = match kind {
            "datadog-log-sink" => (Vendor::Datadog, "datadog"),
            "splunk-log-sink" => (Vendor::Splunk, "splunk"),
            "sumologic-log-sink" => (Vendor::Sumo, "sumo"),
            "newrelic-log-sink" => (Vendor::NewRelic, "newrelic"),
            other => {
                return Err(format!(
                    "vertex {vertex} ({other}): this service delivers to Datadog (datadog-log-sink), Splunk HEC (splunk-log-sink), Sumo Logic's OTLP/HTTP source (sumologic-log-sink) and New Relic's Log API (newrelic-log-sink)"
                ));
            }
        };
        let Some(id) = fields.get("integrationId").and_then(Value::as_str) else {
            return Err(format!(
                "vertex {vertex} ({kind}): `integrationId` is missing: name the {wanted} integration to deliver with"
            ));
        };
        let Some(spec) = state
            .config
            .integrations
            .iter()
            .find(|s| s.id == id && s.visible_to(organization))
        else {
            return Err(format!(
                "vertex {vertex} ({kind}): no integration {id:?} in this organization (`jobgraph integration:list`)"
            ));
        };
        if spec.public_type() != Some(wanted) {
            return Err(format!(
                "vertex {vertex} ({kind}): integration {id:?} is of type {:?}, not {wanted}",
                spec.kind
            ));
        }
        let payload = spec.payload();
        let url = match (&spec.delivery_url, vendor) {
            (Some(url), _) => url.trim_end_matches('/').to_owned(),
            (None, Vendor::Datadog) => format!(
                "https://http-intake.logs.{}",
                payload
                    .get("site")
                    .and_then(Value::as_str)
                    .unwrap_or("datadoghq.com")
            ),
            (None, Vendor::NewRelic) => {
                let site = payload
                    .get("site")
                    .and_then(Value::as_str)
                    .unwrap_or("newrelic.com");
                if site.contains("eu") {
                    "https://log-api.eu.newrelic.com".to_owned()
                } else {
                    "https://log-api.newrelic.com".to_owned()
                }
            }
            (None, Vendor::Splunk) => {
                return Err(format!(
                    "vertex {vertex} ({kind}): integration {id:?} has no `deliveryUrl` (the HEC's address, https://splunk.example.com:8088) in the service's --config"
                ));
            }
            (None, Vendor::Sumo) => {
                return Err(format!(
                    "vertex {vertex} ({kind}): integration {id:?} has no `deliveryUrl` (the OTLP/HTTP source's address without /v1/logs, https://endpoint.collection.sumologic.com/receiver/v1/otlp/TOKEN) in the service's --config"
                ));
            }
        };
        let key = spec.delivery_key.clone();
        if key.is_none() && vendor != Vendor::Sumo {
            return Err(format!(
                "vertex {vertex} ({kind}): integration {id:?} has no `deliveryKey` (the vendor's API key or token) in the service's --config"
            ));
        }
        let mut tags = tag_pairs(payload.get("additionalTags"));
        tags.extend(tag_pairs(fields.get("additionalTags")));
        Ok(VendorSink {
            vertex: vertex.to_owned(),
            vendor,
            url: format!("{url}{}", vendor.path()),
            key,
            tags,
            client,
        })
    }

    /// `events` as the vendor's requests, in order.
    pub(crate) fn requests(&self, events: &[LogEvent]) -> Vec<Request> {
        let mut requests = Vec::new();
        let mut batch: Vec<Event> = Vec::new();
        let mut originals: Vec<LogEvent> = Vec::new();
        let mut bytes = 0usize;
        for event in events {
            let mut fields = match serde_json::to_value(event) {
                Ok(Value::Object(fields)) => fields,
                _ => Map::new(),
            };
            self.add_tags(&mut fields);
            let size = serde_json::to_string(&fields).map_or(0, |t| t.len());
            if !batch.is_empty()
                && (batch.len() >= self.vendor.max_events()
                    || bytes + size > self.vendor.max_bytes())
            {
                requests
                    .push(self.request(std::mem::take(&mut batch), std::mem::take(&mut originals)));
                bytes = 0;
            }
            bytes += size;
            batch.push(fields);
            originals.push(event.clone());
        }
        if !batch.is_empty() {
            requests.push(self.request(batch, originals));
        }
        requests
    }

    fn add_tags(&self, fields: &mut Map<String, Value>) {
        if self.tags.is_empty() {
            return;
        }
        let tags = fields
            .entry("tags")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(tags) = tags else {
            return;
        };
        for (k, v) in &self.tags {
            let values = tags
                .entry(k.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(values) = values
                && !values.iter().any(|x| x.as_str() == Some(v))
            {
                values.push(Value::String(v.clone()));
            }
        }
    }

    fn request(&self, batch: Vec<Event>, events: Vec<LogEvent>) -> Request {
        use std::io::Write;
        let raw = self.vendor.encode(&batch);
        let mut gz = flate2::write::GzEncoder::new(
            Vec::with_capacity(raw.len() / 4),
            flate2::Compression::fast(),
        );
        let body = match gz.write_all(&raw).and_then(|()| gz.finish()) {
            Ok(body) => body,
            Err(_) => raw,
        };
        Request { body, events }
    }

    /// One attempt at `request`.
    pub(crate) async fn send(&self, request: &Request) -> Attempt {
        let builder = self
            .client
            .post(&self.url)
            .header("content-encoding", "gzip")
            .header("content-type", self.vendor.content_type())
            .body(request.body.clone());
        let builder = match (self.vendor, &self.key) {
            (_, None) => builder,
            (Vendor::Datadog, Some(key)) => builder.header("dd-api-key", key.expose()),
            (Vendor::Splunk, Some(key)) => {
                builder.header("authorization", format!("Splunk {}", key.expose()))
            }
            (Vendor::Sumo, Some(key)) => {
                builder.header("authorization", format!("Bearer {}", key.expose()))
            }
            (Vendor::NewRelic, Some(key)) => builder.header("api-key", key.expose()),
        };
        let response = match builder.send().await {
            Ok(response) => response,
            Err(e) => {
                return Attempt::Retry {
                    after: None,
                    why: format!("POST {}: no answer: {}", self.url, without_url(&e)),
                };
            }
        };
        let status = response.status().as_u16();
        if (200..300).contains(&status) {
            return Attempt::Delivered;
        }
        let after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(retry_after);
        let text = response.text().await.unwrap_or_default();
        let text: String = text.chars().take(300).collect();
        let why = format!("POST {} answered {status}: {text}", self.url);
        if status == 408 || status == 429 || status >= 500 {
            Attempt::Retry { after, why }
        } else {
            Attempt::Refused { status, why }
        }
    }
}

/// reqwest's error without the URL it repeats.
fn without_url(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    if let Some(url) = e.url() {
        text = text.replace(&format!(" ({url})"), "");
    }
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// A `Retry-After` value: seconds, or an HTTP date; at most 5 minutes.
pub(crate) fn retry_after(text: &str) -> Option<Duration> {
    let text = text.trim();
    let seconds = match text.parse::<u64>() {
        Ok(s) => s,
        Err(_) => {
            let at = jiff::fmt::rfc2822::parse(text).ok()?.timestamp();
            let now = jiff::Timestamp::now();
            u64::try_from(at.as_second() - now.as_second()).unwrap_or(0)
        }
    };
    Some(Duration::from_secs(seconds.min(300)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates_and_caps_them() {
        assert_eq!(retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(retry_after("100000"), Some(Duration::from_secs(300)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon"), None);
    }

    #[test]
    fn tags_are_pairs_and_bare_tags_have_an_empty_value() {
        let tags = tag_pairs(Some(&serde_json::json!(["env:prod", "bare", ":x", 3])));
        assert_eq!(
            tags,
            [
                ("env".to_owned(), "prod".to_owned()),
                ("bare".to_owned(), String::new())
            ]
        );
    }
}
