//! Log events: the fields the engine reads, typed; everything else kept as given, so an event
//! read and written again is the same JSON value.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::json::kind_of;

/// An event's tags: key → values, in the order read.
pub type Tags = IndexMap<String, Vec<String>, FxBuildHasher>;

/// A log event.
///
/// ```
/// use jobgraph_model::LogEvent;
/// let text = r#"{"id":"1","message":"disk full","tags":{"host":["a"]},"type":"log"}"#;
/// let event = LogEvent::from_value(serde_json::from_str(text).unwrap()).unwrap();
/// assert_eq!(event.tags["host"], ["a"]);
/// assert_eq!(serde_json::to_string(&event).unwrap(), text);
/// ```
#[derive(Debug, Clone, Default)]
pub struct LogEvent {
    /// `id`, as given.
    pub id: Option<Value>,
    /// `eventTimestamp`: ISO 8601 text or epoch milliseconds, as given.
    pub event_timestamp: Option<Value>,
    /// `receivedTimestamp`, likewise.
    pub received_timestamp: Option<Value>,
    /// `message` (`None` when absent; queries read it as `""`).
    pub message: Option<String>,
    /// `severity`, as given (an OpenTelemetry severity number).
    pub severity: Option<Value>,
    /// `tags` (`None` when absent).
    pub tags: Tags,
    /// Whether the event had a `tags` field (written back only then, unless tags were added).
    had_tags: bool,
    /// `attributes`: the JSON object's text as read (parsed only where a query names a path:
    /// [`LogEvent::attribute`]).
    pub attributes: Option<Box<RawValue>>,
    /// Every other field, in input order.
    pub other: Map<String, Value>,
}

/// What is wrong with an event: the field and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} {problem}")]
pub struct EventError {
    /// The field, `tags.service` for a tag.
    pub field: String,
    /// What was expected and found.
    pub problem: String,
}

fn wrong(field: impl Into<String>, expected: &str, found: &Value) -> EventError {
    EventError {
        field: field.into(),
        problem: format!("must be {expected}, found {}", kind_of(found)),
    }
}

fn timestamp(field: &str, value: Value) -> Result<Value, EventError> {
    match &value {
        Value::Number(n) if n.as_i64().is_some() => Ok(value),
        Value::String(s) if looks_like_iso8601(s) => Ok(value),
        _ => Err(EventError {
            field: field.into(),
            problem: format!(
                "must be an ISO 8601 date-time (2026-11-25T18:00:00Z) or epoch milliseconds, found {}",
                short(&value)
            ),
        }),
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    }
}

/// `YYYY-MM-DD` then optionally `T` or a space and a time: the shape, not the calendar.
fn looks_like_iso8601(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && (b.len() == 10 || matches!(b.get(10), Some(b'T' | b't' | b' ')) && digits(11..13))
}

impl LogEvent {
    /// Reads an event from a JSON object, naming the field of the first problem.
    pub fn from_value(value: Value) -> Result<LogEvent, EventError> {
        let Value::Object(fields) = value else {
            return Err(wrong("the event", "a JSON object", &value));
        };
        let mut event = LogEvent::default();
        for (key, value) in fields {
            match key.as_str() {
                "id" => event.id = Some(value),
                "eventTimestamp" => {
                    event.event_timestamp = Some(timestamp("eventTimestamp", value)?)
                }
                "receivedTimestamp" => {
                    event.received_timestamp = Some(timestamp("receivedTimestamp", value)?)
                }
                "message" => match value {
                    Value::String(s) => event.message = Some(s),
                    other => return Err(wrong("message", "a string", &other)),
                },
                "severity" => match &value {
                    Value::Number(n) if n.as_u64().is_some() => event.severity = Some(value),
                    other => return Err(wrong("severity", "an integer (1-24)", other)),
                },
                "tags" => {
                    event.had_tags = true;
                    let Value::Object(tags) = value else {
                        return Err(wrong("tags", "an object of arrays of strings", &value));
                    };
                    for (tag, values) in tags {
                        let Value::Array(items) = values else {
                            return Err(wrong(
                                format!("tags.{tag}"),
                                "an array of strings",
                                &values,
                            ));
                        };
                        let mut list = Vec::with_capacity(items.len());
                        for item in items {
                            match item {
                                Value::String(s) => list.push(s),
                                other => {
                                    return Err(wrong(
                                        format!("tags.{tag}"),
                                        "an array of strings",
                                        &other,
                                    ));
                                }
                            }
                        }
                        event.tags.insert(tag, list);
                    }
                }
                "attributes" => match value {
                    Value::Object(map) => {
                        let text = serde_json::to_string(&map).map_err(|e| EventError {
                            field: "attributes".into(),
                            problem: e.to_string(),
                        })?;
                        event.attributes =
                            Some(RawValue::from_string(text).map_err(|e| EventError {
                                field: "attributes".into(),
                                problem: e.to_string(),
                            })?);
                    }
                    other => return Err(wrong("attributes", "an object", &other)),
                },
                _ => {
                    event.other.insert(key, value);
                }
            }
        }
        Ok(event)
    }

    /// The message, `""` when absent.
    pub fn message(&self) -> &str {
        self.message.as_deref().unwrap_or("")
    }

    /// The JSON text at a path (object keys, outermost first) into `attributes`.
    ///
    /// ```
    /// use jobgraph_model::read_events;
    /// let events = read_events(r#"{"attributes": {"http": {"status": 503}}}"#).unwrap();
    /// let path = ["http".to_owned(), "status".to_owned()];
    /// assert_eq!(events[0].attribute(&path).unwrap().get(), "503");
    /// ```
    pub fn attribute(&self, path: &[String]) -> Option<&RawValue> {
        if path.is_empty() {
            return None;
        }
        crate::attributes::find(self.attributes.as_deref()?, path)
    }

    /// A short name for the event in reports: its `id`, else its position.
    pub fn label(&self, index: usize) -> String {
        match &self.id {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => format!("#{}", index + 1),
        }
    }

    /// The event as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Events are equal when their fields are; `attributes` compare as text.
impl PartialEq for LogEvent {
    fn eq(&self, other: &LogEvent) -> bool {
        self.id == other.id
            && self.event_timestamp == other.event_timestamp
            && self.received_timestamp == other.received_timestamp
            && self.message == other.message
            && self.severity == other.severity
            && self.tags == other.tags
            && self.had_tags == other.had_tags
            && self.attributes.as_ref().map(|a| a.get())
                == other.attributes.as_ref().map(|a| a.get())
            && self.other == other.other
    }
}

impl Serialize for LogEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        if let Some(t) = &self.event_timestamp {
            map.serialize_entry("eventTimestamp", t)?;
        }
        if let Some(t) = &self.received_timestamp {
            map.serialize_entry("receivedTimestamp", t)?;
        }
        if let Some(m) = &self.message {
            map.serialize_entry("message", m)?;
        }
        if let Some(s) = &self.severity {
            map.serialize_entry("severity", s)?;
        }
        if self.had_tags || !self.tags.is_empty() {
            map.serialize_entry("tags", &self.tags)?;
        }
        if let Some(a) = &self.attributes {
            map.serialize_entry("attributes", a)?;
        }
        for (k, v) in &self.other {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Reads an event straight from JSON text (the fast path of [`read_events`]): typed fields are
/// deserialized as such, without a `Value` in between. On any problem the caller falls back to
/// [`LogEvent::from_value`], whose errors name the field.
impl<'de> Deserialize<'de> for LogEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EventVisitor)
    }
}

struct EventVisitor;

impl<'de> Visitor<'de> for EventVisitor {
    type Value = LogEvent;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a log event object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LogEvent, A::Error> {
        use serde::de::Error;
        let mut event = LogEvent::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "id" => event.id = Some(map.next_value()?),
                "eventTimestamp" => {
                    let v =
                        timestamp("eventTimestamp", map.next_value()?).map_err(A::Error::custom)?;
                    event.event_timestamp = Some(v);
                }
                "receivedTimestamp" => {
                    let v = timestamp("receivedTimestamp", map.next_value()?)
                        .map_err(A::Error::custom)?;
                    event.received_timestamp = Some(v);
                }
                "message" => event.message = Some(map.next_value()?),
                "severity" => {
                    let v: Value = map.next_value()?;
                    if v.as_u64().is_none() {
                        return Err(A::Error::custom("severity"));
                    }
                    event.severity = Some(v);
                }
                "tags" => {
                    event.had_tags = true;
                    event.tags = map.next_value()?;
                }
                "attributes" => {
                    let raw: Box<RawValue> = map.next_value()?;
                    if !raw.get().starts_with('{') {
                        return Err(A::Error::custom("attributes"));
                    }
                    event.attributes = Some(raw);
                }
                other => {
                    let value: Value = map.next_value()?;
                    event.other.insert(other.to_owned(), value);
                }
            }
        }
        Ok(event)
    }
}

/// One NDJSON line: the fast typed path, else the `Value` path for a precise error.
fn read_line(line: &str) -> Result<LogEvent, String> {
    if let Ok(event) = serde_json::from_str::<LogEvent>(line) {
        return Ok(event);
    }
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
    LogEvent::from_value(value).map_err(|e| e.to_string())
}

/// Why events could not be read: the line (NDJSON) or the array index, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid events: {place}: {problem}")]
pub struct EventsError {
    /// `line 3` (NDJSON), `event 3` (a JSON array, 1-based) or `the document`.
    pub place: String,
    /// What was wrong there.
    pub problem: String,
}

/// Reads events from NDJSON (one per line, blank lines skipped) or from one JSON array.
/// The first problem fails the whole read, naming its line or position.
pub fn read_events(text: &str) -> Result<Vec<LogEvent>, EventsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('[') {
        let value = crate::json::parse_json(text).map_err(|e| EventsError {
            place: "the document".into(),
            problem: e.to_string(),
        })?;
        let Value::Array(items) = value else {
            return Err(EventsError {
                place: "the document".into(),
                problem: "expected a JSON array of events".into(),
            });
        };
        return items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                LogEvent::from_value(item).map_err(|e| EventsError {
                    place: format!("event {}", i + 1),
                    problem: e.to_string(),
                })
            })
            .collect();
    }
    // Lines are parsed on every core: the text is cut at line ends into one piece per thread,
    // each piece read in order, the pieces joined in order; line numbers stay exact.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let pieces = split_lines(text, if text.len() < (1 << 20) { 1 } else { threads });
    let read_piece = |(first_line, piece): (usize, &str)| read_lines(first_line, piece);
    if pieces.len() == 1 {
        return read_piece(pieces[0]);
    }
    let results: Vec<Result<Vec<LogEvent>, EventsError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = pieces
            .iter()
            .map(|piece| scope.spawn(move || read_piece(*piece)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(EventsError {
                        place: "the document".into(),
                        problem: "a reading thread failed".into(),
                    })
                })
            })
            .collect()
    });
    let mut events = Vec::new();
    for result in results {
        events.extend(result?);
    }
    Ok(events)
}

/// Reads NDJSON `piece`, whose first line is line `first_line + 1` of the whole input.
#[doc(hidden)]
pub fn read_lines(first_line: usize, piece: &str) -> Result<Vec<LogEvent>, EventsError> {
    let mut events = Vec::with_capacity(piece.len() / 200);
    for (i, line) in piece.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        events.push(read_line(line).map_err(|problem| EventsError {
            place: format!("line {}", first_line + i + 1),
            problem,
        })?);
    }
    Ok(events)
}

/// Cuts `text` into at most `n` pieces at line ends, each with the number of lines before it.
fn split_lines(text: &str, n: usize) -> Vec<(usize, &str)> {
    let mut pieces = Vec::with_capacity(n);
    let mut rest = text;
    let mut line = 0;
    for k in (1..=n).rev() {
        if k == 1 || rest.is_empty() {
            pieces.push((line, rest));
            break;
        }
        let target = rest.len() / k;
        let cut = rest[target..]
            .find('\n')
            .map_or(rest.len(), |i| target + i + 1);
        let (piece, tail) = rest.split_at(cut);
        pieces.push((line, piece));
        line += piece.bytes().filter(|b| *b == b'\n').count();
        rest = tail;
    }
    pieces
}

/// Writes events as NDJSON, one per line, in order.
pub fn write_ndjson(events: &[LogEvent], mut out: impl std::io::Write) -> std::io::Result<()> {
    for event in events {
        serde_json::to_writer(&mut out, event)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_lossless() {
        let text = r#"{"id":"a","eventTimestamp":1732550400000,"message":"m","severity":17,"tags":{"k":["v"]},"attributes":{"n":1.50},"type":"log","x":[1]}"#;
        let event = LogEvent::from_value(serde_json::from_str(text).unwrap()).unwrap();
        assert_eq!(serde_json::to_string(&event).unwrap(), text);
    }

    #[test]
    fn bad_lines_name_their_line() {
        let err = read_events("{\"message\":\"a\"}\n\n{\"tags\":{\"k\":\"v\"}}\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid events: line 3: tags.k must be an array of strings, found a string"
        );
        let err = read_events("{\"message\":\"a\"}\nnot json\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Invalid events: line 2: not a JSON object"),
            "{err}"
        );
        let err = read_events("[{}, {\"eventTimestamp\": \"yesterday\"}]").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Invalid events: event 2: eventTimestamp must be an ISO 8601"),
            "{err}"
        );
    }

    #[test]
    fn large_inputs_are_read_in_pieces_with_exact_line_numbers() {
        let line = format!(
            "{{\"message\":\"{}\",\"tags\":{{\"k\":[\"v\"]}}}}\n",
            "x".repeat(100)
        );
        let mut text = line.repeat(15_000);
        let events = read_events(&text).unwrap();
        assert_eq!(events.len(), 15_000);
        text.push_str("{\"tags\":{\"k\":\"v\"}}\n");
        text.push_str(&line.repeat(100));
        let err = read_events(&text).unwrap_err();
        assert_eq!(err.place, "line 15001");
    }

    #[test]
    fn arrays_and_ndjson_read_alike() {
        let a = read_events("[{\"message\":\"x\"},{\"message\":\"y\"}]").unwrap();
        let b = read_events("{\"message\":\"x\"}\r\n{\"message\":\"y\"}").unwrap();
        assert_eq!(a, b);
    }
}
