//! Log intake and delivery wire formats (`docs/intake.md`): what agents send and vendors
//! receive, decoded into jobgraph events (JSON objects of the event shape of `docs/pipeline.md`)
//! and encoded from them. Pure functions: no server, no I/O.
//!
//! - [`decompress`]: a request body undone from its `Content-Encoding` (gzip, deflate, zstd),
//!   never past a limit.
//! - [`datadog`]: the Datadog HTTP log intake (`POST /api/v2/logs`).
//! - [`otlp`]: OTLP/HTTP logs (`POST /v1/logs`), protobuf and JSON.
//! - [`splunk`]: the Splunk HTTP Event Collector (`/services/collector/event`, `…/raw`).
//! - [`severity`]: OpenTelemetry severity numbers from and to the protocols' level words.
//!
//! Every decoder takes hostile input: it never panics, and what it builds is bounded by a
//! [`Limits`] (each protocol has its defaults, `datadog::LIMITS` and so on). Decoders write events
//! with, in this order and only when known: `eventTimestamp` (epoch milliseconds), `message`,
//! `severity` (1–24), `tags` (key → array of strings) and `attributes` (an object). They never
//! write `id` or `receivedTimestamp` (the server sets them); encoders ignore both except the
//! OTLP encoder, which sends `receivedTimestamp` as `observedTimeUnixNano`.
//!
//! ```
//! let body = br#"[{"message":"disk full","status":"error","hostname":"web-1"}]"#;
//! let events = jobgraph_intake::datadog::decode(body).unwrap();
//! assert_eq!(events[0]["message"], "disk full");
//! assert_eq!(events[0]["severity"], 17);
//! assert_eq!(events[0]["tags"]["host"][0], "web-1");
//! ```

#![warn(missing_docs)]

pub mod datadog;
mod decompress;
mod event;
pub mod newrelic;
pub mod otlp;
pub mod severity;
pub mod splunk;

pub use decompress::{DecompressError, decompress};

/// A jobgraph event: a JSON object (see the crate documentation for its fields).
pub type Event = serde_json::Map<String, serde_json::Value>;

/// How much one request may carry. Each protocol has its defaults (`datadog::LIMITS`,
/// `otlp::LIMITS`, `splunk::LIMITS`); its `decode_with` functions take others.
///
/// ```
/// use jobgraph_intake::{Limits, datadog};
/// let small = Limits { max_events: 1, ..datadog::LIMITS };
/// let err = datadog::decode_with(br#"[{"message":"a"},{"message":"b"}]"#, &small).unwrap_err();
/// assert_eq!(err.status(), 413);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most events one request may carry.
    pub max_events: usize,
    /// Most bytes one event may take on the wire: its JSON object (Datadog, Splunk events), its
    /// line (Splunk raw), its log record (OTLP).
    pub max_event_bytes: usize,
    /// Most bytes all the events of a request may be decoded from, together. For OTLP a
    /// resource's and a scope's bytes count once for each record they apply to (each event
    /// carries them), so that a large resource cannot be copied into many events.
    pub max_total_bytes: usize,
}

#[cfg(test)]
mod hostile_tests;
