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
mod tests {
    use super::*;
    use crate::pipeline::LogEvent;
    use serde_json::json;

    fn event(message: Option<&str>) -> LogEvent {
        let mut value = json!({"tags": {"level": ["error"]}, "attributes": {"n": 3}});
        if let Some(m) = message {
            value["message"] = json!(m);
        }
        LogEvent::from_value(value).unwrap()
    }

    fn matches(predicate: Value, message: Option<&str>) -> bool {
        Query::from_predicate(&predicate)
            .unwrap()
            .matches(&event(message))
    }

    #[test]
    fn message_length_bounds_are_inclusive_characters() {
        let p = json!({"type": "message-length", "minLength": 3, "maxLength": 5});
        assert!(!matches(p.clone(), Some("ab")));
        assert!(matches(p.clone(), Some("abc")));
        assert!(matches(p.clone(), Some("abcde")));
        assert!(!matches(p.clone(), Some("abcdef")));
        // Characters, not bytes: five two-byte and five four-byte characters.
        assert!(matches(p.clone(), Some("ééééé")));
        assert!(matches(p.clone(), Some("😀😀😀😀😀")));
        assert!(!matches(p.clone(), Some("😀😀😀😀😀😀")));
        // A missing message is the empty message: length 0.
        assert!(!matches(p, None));
        assert!(matches(
            json!({"type": "message-length", "maxLength": 0}),
            None
        ));
        assert!(matches(
            json!({"type": "message-length", "minLength": 0}),
            None
        ));
    }

    #[test]
    fn structured_predicates_combine() {
        let q = |text: &str| json!({"type": "datadog-query", "query": text});
        let and = json!({"type": "and-predicate", "queries": [q("level:error"), {"type": "message-length", "minLength": 4}]});
        assert!(matches(and.clone(), Some("disk")));
        assert!(!matches(and, Some("ok")));
        let nested = json!({"type": "and-predicate", "queries": [
            {"type": "and-predicate", "queries": [q("level:info OR level:error"), "@n:>2"]},
            {"type": "message-length", "maxLength": 2}]});
        assert!(matches(nested.clone(), Some("ab")));
        assert!(!matches(nested, Some("abc")));
    }

    #[test]
    fn text_and_tree_of_each_form() {
        let q = Query::from_predicate(&json!({"type": "datadog-query", "query": "level:error"}))
            .unwrap();
        assert_eq!(q.text(), "level:error");
        assert_eq!(q, Query::parse("level:error").unwrap());
        let legacy =
            Query::from_predicate(&json!({"type": "simple-query", "predicate": "a"})).unwrap();
        assert_eq!(legacy.text(), "a");
        let p = json!({"type": "and-predicate", "queries": ["a", {"type": "message-length", "maxLength": 9}]});
        let q = Query::from_predicate(&p).unwrap();
        assert_eq!(q.text(), serde_json::to_string(&p).unwrap());
        assert_eq!(
            q.tree(),
            json!({"kind": "and", "items": [
                {"kind": "message", "word": "a"},
                {"kind": "message-length", "minLength": null, "maxLength": 9}]})
        );
    }

    #[test]
    fn and_predicates_keep_tag_constraints() {
        let p = json!({"type": "and-predicate", "queries": [
            {"type": "datadog-query", "query": "service:web"},
            {"type": "message-length", "minLength": 40}]});
        let constraints = Query::from_predicate(&p).unwrap().tag_constraints();
        assert_eq!(constraints, vec![vec![("service".into(), "web".into())]]);
        let or = json!({"type": "datadog-query", "query": "service:web OR disk"});
        assert!(
            Query::from_predicate(&or)
                .unwrap()
                .tag_constraints()
                .is_empty()
        );
    }

    #[test]
    fn errors_name_the_part_and_the_fix() {
        let cases = [
            (json!(7), "", "must be a predicate object"),
            (json!({"type": 3}), "/type", "must be a string"),
            (
                json!({"type": "x-predicate"}),
                "/type",
                "unknown predicate type `x-predicate`",
            ),
            (
                json!({"type": "newrelic-query", "query": "a"}),
                "/type",
                "not supported",
            ),
            (json!({"type": "datadog-query"}), "", "needs its text"),
            (
                json!({"type": "datadog-query", "query": "(a"}),
                "/query",
                "unbalanced parenthesis",
            ),
            (
                json!({"type": "and-predicate"}),
                "/queries",
                "needs its predicates",
            ),
            (
                json!({"type": "and-predicate", "queries": []}),
                "/queries",
                "at least one",
            ),
            (
                json!({"type": "and-predicate", "queries": {}}),
                "/queries",
                "must be an array",
            ),
            (
                json!({"type": "or-predicate", "queries": ["a"]}),
                "/type",
                "there is no `or-predicate`",
            ),
            (
                json!({"type": "metric-predicate", "query": "a"}),
                "/type",
                "not supported",
            ),
            (
                json!({"type": "and-predicate", "queries": ["a", {"type": "message-length", "minLength": -1}]}),
                "/queries/1/minLength",
                "whole number",
            ),
            (
                json!({"type": "message-length", "minLength": 1.5}),
                "/minLength",
                "found 1.5",
            ),
            (
                json!({"type": "message-length", "minLength": 5, "maxLength": 4}),
                "/maxLength",
                "less than",
            ),
        ];
        for (predicate, pointer, text) in cases {
            let err = Query::from_predicate(&predicate).unwrap_err();
            assert_eq!(err.pointer, pointer, "{predicate}: {err}");
            assert!(err.message.contains(text), "{predicate}: {err}");
        }
        let err =
            Query::from_predicate(&json!({"type": "datadog-query", "query": "(a"})).unwrap_err();
        assert_eq!(err.query.map(|q| q.column), Some(1));
    }

    #[test]
    fn validation_wants_objects_with_their_type_and_leaves_text_to_the_run() {
        for (predicate, pointer) in [
            (json!("a"), ""),
            (json!({"query": "a"}), ""),
            (
                json!({"type": "and-predicate", "queries": [{"type": "datadog-query", "query": "a"}, "b"]}),
                "/queries/1",
            ),
        ] {
            let err = Query::check_predicate(&predicate).unwrap_err();
            assert_eq!(err.pointer, pointer, "{predicate}: {err}");
            assert!(err.message.starts_with(OBJECT), "{predicate}: {err}");
            assert!(Query::from_predicate(&predicate).is_ok(), "{predicate}");
        }
        let ok = json!({"type": "and-predicate", "queries": [
            {"type": "datadog-query", "query": "a"}, {"type": "message-length", "maxLength": 3}]});
        assert!(Query::check_predicate(&ok).is_ok());
        // A query's text is the run's to parse, with its column.
        let text = json!({"type": "datadog-query", "query": "(a"});
        assert!(Query::check_predicate(&text).is_ok());
        assert!(Query::from_predicate(&text).is_err());
        // Structure is checked all the same.
        let bounds = json!({"type": "message-length", "minLength": 2, "maxLength": 1});
        assert!(Query::check_predicate(&bounds).is_err());
    }

    #[test]
    fn hostile_nesting_and_size_are_bounded() {
        let mut deep = json!("a");
        for _ in 0..100 {
            deep = json!({"type": "and-predicate", "queries": [deep]});
        }
        let err = Query::from_predicate(&deep).unwrap_err();
        assert!(err.message.contains("nested deeper than 32"), "{err}");
        let wide = json!({"type": "and-predicate", "queries": vec![json!("a"); 100_000]});
        let err = Query::from_predicate(&wide).unwrap_err();
        assert!(err.message.contains("more than 256 parts"), "{err}");
        assert_eq!(err.pointer, "/queries/255");
    }

    #[test]
    fn length_shortcut_agrees_with_counting() {
        let texts = [
            "",
            "a",
            "ab",
            "é",
            "éé",
            "😀",
            "a😀é",
            "abcdefgh",
            "😀😀😀😀😀😀😀😀",
        ];
        for text in texts {
            let n = text.chars().count() as u64;
            for min in [None, Some(0), Some(1), Some(2), Some(3), Some(8)] {
                for max in [None, Some(0), Some(1), Some(2), Some(7), Some(8)] {
                    let want = min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m);
                    assert_eq!(
                        length_within(text, min, max),
                        want,
                        "{text:?} {min:?} {max:?}"
                    );
                }
            }
        }
    }
}
