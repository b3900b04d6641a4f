//! The `logs-event-sampler` vertex (`docs/pipeline.md`, "`logs-event-sampler`"): a token
//! bucket on **event time**. The bucket holds at most `maxBurstLimit` tokens and starts full;
//! it refills at `maxAllowedRate` tokens per second of event time; an event passes when a
//! whole token is left, and takes it. With a `filter`, only the events it matches are sampled:
//! the others pass and take no token.
//!
//! Time is the event's `eventTimestamp` (epoch milliseconds, or ISO 8601 text read by
//! [`super::time::epoch_millis`]). The bucket's clock is the latest event time seen: an event
//! later than it refills the bucket for the time between; an earlier one (out of order) refills
//! nothing and leaves the clock, so time never runs back. An event **without** an
//! `eventTimestamp` (or with text that names no instant, such as `2024-02-30`) is charged at the
//! bucket's clock: it takes a token if one is left and refills nothing.
//!
//! Tokens are counted in integers (billionths of a token, the rate rounded to millionths of an
//! event per second): no floating-point drift, the same answer natively and in WebAssembly,
//! whatever the order of the arithmetic.
//!
//! ```
//! use jobgraph_core::JobGraph;
//! use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
//! let graph: JobGraph = serde_json::from_value(serde_json::json!({
//!     "vertices": [
//!         {"type": "logs-iceberg-table-source", "name": "in"},
//!         {"type": "logs-event-sampler", "name": "s", "maxAllowedRate": 1, "maxBurstLimit": 2},
//!         {"type": "logs-sync-sink", "name": "out"}],
//!     "edges": ["in -> s", "s -> out"]})).unwrap();
//! // Five events in the same second, then one two seconds later: the burst (2) passes, the
//! // bucket is empty until time refills it.
//! let events = read_events(r#"{"id": "a", "eventTimestamp": 1000}
//! {"id": "b", "eventTimestamp": 1000}
//! {"id": "c", "eventTimestamp": 1000}
//! {"id": "d", "eventTimestamp": 1500}
//! {"id": "e", "eventTimestamp": 2000}
//! {"id": "f", "eventTimestamp": 4000}"#).unwrap();
//! let run = Pipeline::compile(&graph).unwrap()
//!     .run(RunInput { events, ..Default::default() }, &RunOptions::default()).unwrap();
//! let ids: Vec<_> = run.sinks["out"].iter().map(|e| e.id.clone().unwrap()).collect();
//! assert_eq!(ids, ["a", "b", "e", "f"]);
//! assert_eq!(run.vertices[1].events_dropped, 2);
//! ```

use serde_json::{Map, Value};

use super::RunError;
use super::query::Query;
use super::time::value_millis;
use super::typed::typed;
use jobgraph_model::LogEvent;
use jobgraph_model::ops::transforms::logs_event_sampler::{LogsEventSampler, OPERATION};

/// Billionths of a token in one token.
const UNIT: u128 = 1_000_000_000;

/// A compiled `logs-event-sampler`: its settings; a run starts a fresh [`Bucket`].
#[derive(Debug, Clone)]
pub(crate) struct Sampler {
    /// Tokens added per millisecond of event time, in billionths of a token (the rate in
    /// millionths of an event per second).
    per_ms: u128,
    /// The bucket's size, in billionths of a token.
    capacity: u128,
    /// Only the events it matches are sampled.
    filter: Option<Query>,
}

/// Reads the vertex's fields: `maxAllowedRate` (a number ≥ 0, default 10), `maxBurstLimit` (an
/// integer ≥ 1, default 2000), `filter` (an optional predicate).
pub(crate) fn compile(vertex: &str, fields: &Map<String, Value>) -> Result<Sampler, RunError> {
    let config: LogsEventSampler = typed(vertex, &OPERATION, fields)?;
    let rate = config.max_allowed_rate.unwrap_or(10.0);
    if !rate.is_finite() || rate < 0.0 {
        return Err(RunError::Vertex {
            vertex: vertex.to_owned(),
            message: format!(
                "/maxAllowedRate: must be a number of events per second of at least 0, found {rate}"
            ),
        });
    }
    let burst = config.max_burst_limit.unwrap_or(2000).max(1);
    let filter = config
        .filter
        .as_ref()
        .map(|value| super::query::read_predicate(vertex, "filter", value))
        .transpose()?;
    Ok(Sampler {
        // `as` saturates: a rate beyond u64's millionths is "always refilled".
        per_ms: u128::from((rate * 1e6).round() as u64),
        capacity: u128::from(burst) * UNIT,
        filter,
    })
}

/// The state of one run's bucket.
#[derive(Debug, Clone)]
pub(crate) struct Bucket<'s> {
    sampler: &'s Sampler,
    tokens: u128,
    /// The latest event time seen, epoch milliseconds.
    clock: Option<i64>,
}

/// A bucket's level and clock between the batches of a streaming run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Level {
    tokens: u128,
    clock: Option<i64>,
}

impl<'s> Bucket<'s> {
    /// A full bucket with no time seen yet.
    pub(crate) fn new(sampler: &'s Sampler) -> Self {
        Bucket {
            sampler,
            tokens: sampler.capacity,
            clock: None,
        }
    }

    /// The bucket of `sampler` at `level` (where an earlier batch, or a snapshot, left it;
    /// never fuller than the bucket can be).
    pub(crate) fn at(sampler: &'s Sampler, level: Level) -> Self {
        Bucket {
            sampler,
            tokens: level.tokens.min(sampler.capacity),
            clock: level.clock,
        }
    }

    /// Where it is now.
    pub(crate) fn level(&self) -> Level {
        Level {
            tokens: self.tokens,
            clock: self.clock,
        }
    }

    /// Whether `event` passes (taking a token when it is sampled).
    pub(crate) fn admit(&mut self, event: &LogEvent) -> bool {
        if let Some(filter) = &self.sampler.filter
            && !filter.matches(event)
        {
            return true;
        }
        if let Some(now) = event.event_timestamp.as_ref().and_then(value_millis) {
            match self.clock {
                Some(clock) if now > clock => {
                    let elapsed = u128::from(now.abs_diff(clock));
                    self.tokens = self
                        .tokens
                        .saturating_add(elapsed.saturating_mul(self.sampler.per_ms))
                        .min(self.sampler.capacity);
                    self.clock = Some(now);
                }
                Some(_) => {}
                None => self.clock = Some(now),
            }
        }
        if self.tokens >= UNIT {
            self.tokens -= UNIT;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sampler(fields: Value) -> Result<Sampler, RunError> {
        compile("s", fields.as_object().unwrap())
    }

    fn admitted(s: &Sampler, events: &[Value]) -> Vec<bool> {
        let mut bucket = Bucket::new(s);
        events
            .iter()
            .map(|e| bucket.admit(&LogEvent::from_value(e.clone()).unwrap()))
            .collect()
    }

    #[test]
    fn the_burst_passes_then_the_rate() {
        let s = sampler(json!({"maxAllowedRate": 2, "maxBurstLimit": 3})).unwrap();
        // 3 at t=0 (the burst), a 4th at t=0 dropped; 500 ms later one token is back.
        let events: Vec<Value> = [0, 0, 0, 0, 500, 500, 2000, 2000, 2000, 2000]
            .iter()
            .map(|t| json!({"eventTimestamp": t}))
            .collect();
        assert_eq!(
            admitted(&s, &events),
            [
                true, true, true, false, true, false, true, true, true, false
            ]
        );
    }

    #[test]
    fn fractional_rates_add_up_exactly() {
        // 0.1 events/s: one token every 10 s, never 9.999… s.
        let s = sampler(json!({"maxAllowedRate": 0.1, "maxBurstLimit": 1})).unwrap();
        let events: Vec<Value> = (0..=100)
            .map(|i| json!({"eventTimestamp": i * 1000}))
            .collect();
        let passed: Vec<usize> = admitted(&s, &events)
            .iter()
            .enumerate()
            .filter(|(_, p)| **p)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(passed, (0..=10).map(|k| k * 10).collect::<Vec<_>>());
    }

    #[test]
    fn time_never_runs_back_and_untimed_events_take_from_the_bucket() {
        let s = sampler(json!({"maxAllowedRate": 1, "maxBurstLimit": 1})).unwrap();
        let events = [
            json!({"eventTimestamp": 10_000}),
            // Out of order: no refill, the clock stays at 10 s.
            json!({"eventTimestamp": 1_000}),
            // One second after the clock: a token.
            json!({"eventTimestamp": "1970-01-01T00:00:11Z"}),
            // No time: charged at the clock, nothing left.
            json!({"id": "untimed"}),
            json!({"eventTimestamp": 12_000}),
            json!({"id": "untimed"}),
        ];
        assert_eq!(
            admitted(&s, &events),
            [true, false, true, false, true, false]
        );
    }

    #[test]
    fn a_filter_samples_only_what_it_matches() {
        let s = sampler(json!({"maxAllowedRate": 0, "maxBurstLimit": 1,
            "filter": {"type": "datadog-query", "query": "level:debug"}}))
        .unwrap();
        let debug = json!({"tags": {"level": ["debug"]}});
        let error = json!({"tags": {"level": ["error"]}});
        assert_eq!(
            admitted(&s, &[debug.clone(), error.clone(), debug, error]),
            [true, true, false, true]
        );
    }

    #[test]
    fn defaults_and_huge_values() {
        let s = sampler(json!({})).unwrap();
        assert_eq!(s.capacity, 2000 * UNIT);
        assert_eq!(s.per_ms, 10_000_000);
        let s = sampler(json!({"maxAllowedRate": 1e300, "maxBurstLimit": u64::MAX})).unwrap();
        let events = [
            json!({"eventTimestamp": i64::MIN}),
            json!({"eventTimestamp": i64::MAX}),
        ];
        assert_eq!(admitted(&s, &events), [true, true]);
    }

    #[test]
    fn bad_settings_name_the_field() {
        for (fields, piece) in [
            (
                json!({"maxBurstLimit": 0}),
                "/maxBurstLimit: must be an integer of at least 1",
            ),
            (
                json!({"maxAllowedRate": -1}),
                "/maxAllowedRate: must be a number of at least 0",
            ),
            (
                json!({"maxAllowedRate": "fast"}),
                "/maxAllowedRate: must be a number",
            ),
            (
                json!({"filter": "level:debug"}),
                "/filter: must be a predicate",
            ),
            (
                json!({"filter": {"type": "datadog-query", "query": "(a"}}),
                "unbalanced parenthesis",
            ),
        ] {
            let err = sampler(fields.clone()).unwrap_err().to_string();
            assert!(err.contains(piece), "{fields}: {err}");
            assert!(err.contains("vertex s"), "{err}");
        }
    }
}
