//! Predicates: every form a vertex's `predicate` (or `query`) field takes (`docs/pipeline.md`,
//! "Predicates"), compiled into one [`Query`] tree so that matching, the parsed tree and the
//! lake's tag pruning treat them all alike.
//!
//! | form | meaning |
//! |---|---|
//! | `"level:error"` | a query in the query language |
//! | `{"type": "datadog-query", "query": "…"}` (also `simple-query`; the text also as `predicate`) | the same |
//! | `{"type": "and-predicate", "queries": [p, …]}` | every `p` matches |
//! | `{"type": "message-length", "minLength"?: n, "maxLength"?: n}` | the message has at least `minLength` and at most `maxLength` characters |
//!
//! The public service has no `or-predicate` nor `not-predicate` (neither its client nor its
//! documentation names one): `OR` and `NOT` are written inside a query, and a `logs-filter`
//! has `inverted`. Its `newrelic-query`, `nrql-query` and `metric-predicate` are refused,
//! naming the type.
//!
//! ```
//! use jobgraph_core::pipeline::{LogEvent, Query};
//! use serde_json::json;
//! let predicate = Query::from_predicate(&json!({"type": "and-predicate", "queries": [
//!     {"type": "datadog-query", "query": "level:error"},
//!     {"type": "message-length", "minLength": 10}]})).unwrap();
//! let event = |message: &str| LogEvent::from_value(json!({
//!     "message": message, "tags": {"level": ["error"]}})).unwrap();
//! assert!(predicate.matches(&event("disk full on /var")));
//! assert!(!predicate.matches(&event("oops")));
//! let err = Query::from_predicate(&json!({"type": "message-length"})).unwrap_err();
//! assert_eq!(err.pointer, "");
//! assert!(err.message.contains("minLength"), "{err}");
//! ```

use std::fmt;

use serde_json::{Map, Value};

use super::parse::{self, Node};
use super::{Query, QueryError};
use crate::json::kind_of;
use crate::pipeline::RunError;

/// Deepest nesting of `and-predicate`s accepted.
pub const MAX_PREDICATE_DEPTH: usize = 32;
/// Most predicates (of any form, nested ones included) one predicate may hold.
pub const MAX_PREDICATE_PARTS: usize = 256;

/// The predicate types accepted, for messages.
const ACCEPTED: &str = "datadog-query, simple-query, and-predicate or message-length";

/// A predicate that cannot be compiled: where inside it (a JSON pointer relative to the
/// predicate, `""` for the predicate itself) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredicateError {
    /// JSON pointer of the wrong part, relative to the predicate (`/queries/1/minLength`).
    pub pointer: String,
    /// What is wrong and how to fix it.
    pub message: String,
    /// The query language's own error, when the wrong part is a query's text.
    pub query: Option<QueryError>,
}

impl fmt::Display for PredicateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for PredicateError {}

impl PredicateError {
    fn at(pointer: &str, message: impl Into<String>) -> PredicateError {
        PredicateError {
            pointer: pointer.to_owned(),
            message: message.into(),
            query: None,
        }
    }
}

/// The shape every predicate of a job graph has: an object with its `type`.
const OBJECT: &str = "must be an object {type: string, query: string}";

impl Query {
    /// Compiles a predicate in any of the forms of the module documentation, as the engine
    /// reads it: a bare query string and a query object without `type` are read too. A query's
    /// text keeps its text ([`Query::text`]); a structured predicate's text is its compact JSON.
    pub fn from_predicate(value: &Value) -> Result<Query, PredicateError> {
        Query::read_predicate(value, false)
    }

    /// Checks a predicate's structure as job-graph validation does: every predicate, nested
    /// ones too, is an object with a string `type` (the public service's schema), so a bare
    /// string or a query object without `type` is refused, saying so; types, fields, bounds,
    /// nesting and size are checked. A query's **text** is not parsed here: the engine parses
    /// it when the graph runs ([`Query::from_predicate`]), where its error keeps its column.
    ///
    /// ```
    /// use jobgraph_core::pipeline::Query;
    /// use serde_json::json;
    /// let err = Query::check_predicate(&json!("level:error")).unwrap_err();
    /// assert!(err.message.starts_with("must be an object {type: string, query: string}, found a string"));
    /// assert!(Query::check_predicate(&json!({"type": "datadog-query", "query": "level:error"})).is_ok());
    /// ```
    pub fn check_predicate(value: &Value) -> Result<(), PredicateError> {
        Query::read_predicate(value, true).map(|_| ())
    }

    fn read_predicate(value: &Value, strict: bool) -> Result<Query, PredicateError> {
        let mut reader = Reader {
            parts: 0,
            depth: 0,
            strict,
        };
        let root = reader.read(value, "")?;
        let text = match value {
            Value::String(text) => text.clone(),
            Value::Object(object) => match language_text(object) {
                Some(Ok(text)) => text.to_owned(),
                _ => serde_json::to_string(value).unwrap_or_default(),
            },
            _ => String::new(),
        };
        Ok(Query { text, root })
    }
}

/// A vertex's predicate as written, with the field holding it: `predicate` (the public
/// service's name) wins over `query` (the interface document's) when both are given.
///
/// ```
/// use jobgraph_core::pipeline::vertex_predicate;
/// let fields = serde_json::json!({"query": "a", "predicate": "b"});
/// let (field, value) = vertex_predicate(fields.as_object().unwrap()).unwrap();
/// assert_eq!((field, value.as_str()), ("predicate", Some("b")));
/// ```
pub fn vertex_predicate(fields: &Map<String, Value>) -> Option<(&'static str, &Value)> {
    match (fields.get("predicate"), fields.get("query")) {
        (Some(p), _) => Some(("predicate", p)),
        (None, Some(q)) => Some(("query", q)),
        (None, None) => None,
    }
}

/// Compiles a predicate (every form of `docs/pipeline.md`, "Predicates") of `vertex`'s `field`.
pub(crate) fn read_predicate(vertex: &str, field: &str, value: &Value) -> Result<Query, RunError> {
    Query::from_predicate(value).map_err(|e| match e.query {
        Some(error) => RunError::Query {
            vertex: vertex.to_owned(),
            error,
        },
        None => RunError::Vertex {
            vertex: vertex.to_owned(),
            message: format!("/{field}{}: {}", e.pointer, e.message),
        },
    })
}

/// The text of a language query object (`datadog-query`, `simple-query` or no `type`; the
/// text as `query`, or `predicate` as older graphs have it): `None` for other forms.
fn language_text(object: &Map<String, Value>) -> Option<Result<&str, ()>> {
    match object.get("type").map(Value::as_str) {
        None | Some(Some("simple-query" | "datadog-query")) => {}
        _ => return None,
    }
    Some(
        match object.get("query").or_else(|| object.get("predicate")) {
            Some(Value::String(text)) => Ok(text),
            _ => Err(()),
        },
    )
}

struct Reader {
    parts: usize,
    depth: usize,
    /// Job-graph validation: objects with their `type` only, and a query's text not parsed.
    strict: bool,
}

impl Reader {
    fn read(&mut self, value: &Value, at: &str) -> Result<Node, PredicateError> {
        self.parts += 1;
        if self.parts > MAX_PREDICATE_PARTS {
            return Err(PredicateError::at(
                at,
                format!(
                    "the predicate has more than {MAX_PREDICATE_PARTS} parts: simplify it (a query's text can hold many terms)"
                ),
            ));
        }
        let object = match value {
            Value::String(_) if self.strict => {
                return Err(PredicateError::at(
                    at,
                    format!(
                        "{OBJECT}, found a string: write {{\"type\": \"datadog-query\", \"query\": …}}"
                    ),
                ));
            }
            Value::String(text) => return query(text, at),
            Value::Object(object) if self.strict && !object.contains_key("type") => {
                return Err(PredicateError::at(
                    at,
                    format!(
                        "{OBJECT}, found an object without `type`: add \"type\": \"datadog-query\" (or another predicate type: {ACCEPTED})"
                    ),
                ));
            }
            Value::Object(object) => object,
            other => {
                return Err(PredicateError::at(
                    at,
                    format!(
                        "must be a predicate object {{type, …}} ({ACCEPTED}) or a query string, found {}",
                        kind_of(other)
                    ),
                ));
            }
        };
        let kind = match object.get("type") {
            None => "simple-query",
            Some(Value::String(kind)) => kind.as_str(),
            Some(other) => {
                return Err(PredicateError::at(
                    &format!("{at}/type"),
                    format!("must be a string ({ACCEPTED}), found {}", kind_of(other)),
                ));
            }
        };
        match kind {
            "simple-query" | "datadog-query" => match language_text(object) {
                Some(Ok(_)) if self.strict => Ok(Node::All),
                Some(Ok(text)) => query(text, &format!("{at}/query")),
                _ => Err(PredicateError::at(
                    at,
                    format!(
                        "{OBJECT}, found an object without its `query` text: a {kind} predicate needs its text as a `query` string"
                    ),
                )),
            },
            "and-predicate" => Ok(Node::And(self.nested(object, "queries", at, kind)?)),
            "message-length" => message_length(object, at),
            "newrelic-query" | "nrql-query" | "metric-predicate" => Err(PredicateError::at(
                &format!("{at}/type"),
                format!(
                    "query type `{kind}` is not supported by this service: write the condition as a datadog-query (the query language of docs/pipeline.md)"
                ),
            )),
            "or-predicate" | "not-predicate" => Err(PredicateError::at(
                &format!("{at}/type"),
                format!(
                    "there is no `{kind}`: write OR and NOT inside a datadog-query (`a OR b`, `NOT a`), or use a logs-filter's `inverted`"
                ),
            )),
            other => Err(PredicateError::at(
                &format!("{at}/type"),
                format!("unknown predicate type `{other}`: use {ACCEPTED}"),
            )),
        }
    }

    fn deeper<T>(
        &mut self,
        at: &str,
        read: impl FnOnce(&mut Self) -> Result<T, PredicateError>,
    ) -> Result<T, PredicateError> {
        if self.depth >= MAX_PREDICATE_DEPTH {
            return Err(PredicateError::at(
                at,
                format!(
                    "predicates are nested deeper than {MAX_PREDICATE_DEPTH} levels: flatten them (an and-predicate takes many queries)"
                ),
            ));
        }
        self.depth += 1;
        let result = read(self);
        self.depth -= 1;
        result
    }

    /// The predicates of an and-predicate's `field`: a non-empty array.
    fn nested(
        &mut self,
        object: &Map<String, Value>,
        field: &str,
        at: &str,
        kind: &str,
    ) -> Result<Vec<Node>, PredicateError> {
        let items = match object.get(field) {
            Some(Value::Array(items)) if !items.is_empty() => items,
            Some(Value::Array(_)) => {
                return Err(PredicateError::at(
                    &format!("{at}/{field}"),
                    format!("an {kind} needs at least one predicate in `{field}`"),
                ));
            }
            Some(other) => {
                return Err(PredicateError::at(
                    &format!("{at}/{field}"),
                    format!("must be an array of predicates, found {}", kind_of(other)),
                ));
            }
            None => {
                return Err(PredicateError::at(
                    &format!("{at}/{field}"),
                    format!("an {kind} needs its predicates as an array `{field}`"),
                ));
            }
        };
        self.deeper(at, |reader| {
            items
                .iter()
                .enumerate()
                .map(|(i, item)| reader.read(item, &format!("{at}/{field}/{i}")))
                .collect()
        })
    }
}

fn query(text: &str, at: &str) -> Result<Node, PredicateError> {
    parse::parse(text).map_err(|error| PredicateError {
        pointer: at.to_owned(),
        message: error.to_string(),
        query: Some(error),
    })
}

fn message_length(object: &Map<String, Value>, at: &str) -> Result<Node, PredicateError> {
    let bound = |field: &str| -> Result<Option<u64>, PredicateError> {
        match object.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value.as_u64().map(Some).ok_or_else(|| {
                PredicateError::at(
                    &format!("{at}/{field}"),
                    format!(
                        "must be a whole number of characters (0 or more), found {}",
                        match value {
                            Value::Number(n) => n.to_string(),
                            other => kind_of(other).to_owned(),
                        }
                    ),
                )
            }),
        }
    };
    let min = bound("minLength")?;
    let max = bound("maxLength")?;
    match (min, max) {
        (None, None) => Err(PredicateError::at(
            at,
            "a message-length predicate needs `minLength`, `maxLength` or both (characters, inclusive)",
        )),
        (Some(low), Some(high)) if low > high => Err(PredicateError::at(
            &format!("{at}/maxLength"),
            format!("`maxLength` {high} is less than `minLength` {low}: no message could match"),
        )),
        _ => Ok(Node::MessageLength { min, max }),
    }
}

/// Whether `message` has between `min` and `max` characters (Unicode scalar values), both
/// inclusive; counting stops past `max`.
pub(crate) fn length_within(message: &str, min: Option<u64>, max: Option<u64>) -> bool {
    // Bytes bound characters from above, and a character is at most 4 bytes: most messages are
    // decided without counting.
    let bytes = message.len() as u64;
    if max.is_none_or(|max| bytes <= max) && min.is_none_or(|min| bytes.div_ceil(4) >= min) {
        return true;
    }
    let limit = max.map_or(u64::MAX, |max| max.saturating_add(1));
    let mut count = 0u64;
    for _ in message.chars() {
        count += 1;
        if count >= limit {
            break;
        }
    }
    min.is_none_or(|min| count >= min) && max.is_none_or(|max| count <= max)
}

#[cfg(test)]
mod tests;
