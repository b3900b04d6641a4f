//! Event times and partitions: `eventTimestamp` → microseconds, partition starts and names.

use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jobgraph_model::LogEvent;
use serde_json::Value;

use crate::Partitioning;

/// Microseconds in an hour.
pub(crate) const HOUR_US: i64 = 3_600_000_000;

/// The time an event is stored and pruned by, in microseconds since the Unix epoch (UTC).
///
/// `eventTimestamp` when it reads as a time (ISO 8601 with `Z` or an offset; without an offset,
/// or a date alone, it is taken as UTC; or epoch milliseconds), else `receivedTimestamp` read
/// the same way, else `now_us` (the writer's clock).
///
/// ```
/// use jobgraph_model::LogEvent;
/// let event = LogEvent::from_value(serde_json::json!({"eventTimestamp": "1970-01-01T00:00:01+00:00"})).unwrap();
/// assert_eq!(jobgraph_lake::event_time_us(&event, 7), 1_000_000);
/// assert_eq!(jobgraph_lake::event_time_us(&LogEvent::default(), 7), 7);
/// ```
pub fn event_time_us(event: &LogEvent, now_us: i64) -> i64 {
    event
        .event_timestamp
        .as_ref()
        .and_then(timestamp_us)
        .or_else(|| event.received_timestamp.as_ref().and_then(timestamp_us))
        .unwrap_or(now_us)
}

/// A timestamp value as microseconds: epoch milliseconds, or ISO 8601 text.
pub(crate) fn timestamp_us(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().map(|ms| ms.saturating_mul(1000)),
        Value::String(s) => parse_iso(s),
        _ => None,
    }
}

fn parse_iso(text: &str) -> Option<i64> {
    // Accept a space or a lower-case `t` between date and time, as the engine's shape check does.
    let mut owned;
    let mut s = text;
    if matches!(s.as_bytes().get(10), Some(b' ' | b't')) {
        owned = s.to_owned();
        owned.replace_range(10..11, "T");
        if owned.ends_with('z') {
            owned.pop();
            owned.push('Z');
        }
        s = owned.as_str();
    }
    if let Ok(t) = s.parse::<Timestamp>() {
        return Some(t.as_microsecond());
    }
    if let Ok(dt) = s.parse::<DateTime>() {
        return TimeZone::UTC
            .to_timestamp(dt)
            .ok()
            .map(|t| t.as_microsecond());
    }
    if let Ok(d) = s.parse::<Date>() {
        return TimeZone::UTC
            .to_timestamp(d.to_datetime(jiff::civil::Time::midnight()))
            .ok()
            .map(|t| t.as_microsecond());
    }
    None
}

/// The canonical text of a time (`2026-11-25T14:00:00.5Z`): what the reader gives back as
/// `eventTimestamp` when the writer stored no text of its own.
pub(crate) fn format_us(us: i64) -> String {
    match Timestamp::from_microsecond(us) {
        Ok(t) => t.to_string(),
        Err(_) => us.to_string(),
    }
}

/// The civil UTC date-time of a time; times outside jiff's range clamp to its ends.
fn civil(us: i64) -> DateTime {
    let t = Timestamp::from_microsecond(us).unwrap_or(if us < 0 {
        Timestamp::MIN
    } else {
        Timestamp::MAX
    });
    TimeZone::UTC.to_datetime(t)
}

fn to_us(dt: DateTime) -> i64 {
    TimeZone::UTC
        .to_timestamp(dt)
        .map(|t| t.as_microsecond())
        .unwrap_or(0)
}

/// The start of the partition holding a time.
pub(crate) fn partition_start(partitioning: Partitioning, us: i64) -> i64 {
    let dt = civil(us);
    let midnight = jiff::civil::Time::midnight();
    match partitioning {
        Partitioning::Hour => us.div_euclid(HOUR_US) * HOUR_US,
        Partitioning::Day => to_us(dt.date().to_datetime(midnight)),
        Partitioning::Month => to_us(dt.date().first_of_month().to_datetime(midnight)),
        Partitioning::Year => to_us(dt.date().first_of_year().to_datetime(midnight)),
    }
}

/// The partition directory (Iceberg's transform value): `event_hour=2026-11-25-14`,
/// `event_day=2026-11-25`, `event_month=2026-11`, `event_year=2026`.
pub(crate) fn partition_dir(partitioning: Partitioning, start_us: i64) -> String {
    let dt = civil(start_us);
    let (y, m, d, h) = (dt.year(), dt.month(), dt.day(), dt.hour());
    match partitioning {
        Partitioning::Hour => format!("event_hour={y:04}-{m:02}-{d:02}-{h:02}"),
        Partitioning::Day => format!("event_day={y:04}-{m:02}-{d:02}"),
        Partitioning::Month => format!("event_month={y:04}-{m:02}"),
        Partitioning::Year => format!("event_year={y:04}"),
    }
}
