//! The query language of `logs-filter` and sources (`docs/pipeline.md`, "The query language"):
//! parsed once into a [`Query`], then matched against many events without allocating.

mod constraints;
mod lex;
mod parse;
mod predicate;
mod wildcard;

use std::cmp::Ordering;

use serde_json::Value;

pub use constraints::TagConstraints;
pub use lex::CompareOp;
use parse::{Bound, Node, Test, is_word_char};
pub use parse::{MAX_QUERY_CHARS, MAX_QUERY_DEPTH};
pub(crate) use predicate::read_predicate;
pub use predicate::{MAX_PREDICATE_DEPTH, MAX_PREDICATE_PARTS, PredicateError, vertex_predicate};

use super::LogEvent;
use super::attributes::{Scalar, any_scalar};

/// A query that could not be parsed: why, and where (1-based column, in characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid query: {reason}")]
pub struct QueryError {
    /// What is wrong, naming the column (`unbalanced parenthesis: `(` at column 14 is never closed`).
    pub reason: String,
    /// The 1-based column (characters) of the place.
    pub column: usize,
    /// The query as given.
    pub query: String,
}

impl QueryError {
    fn new(query: &str, column: usize, reason: String) -> QueryError {
        QueryError {
            reason,
            column,
            query: query.to_owned(),
        }
    }

    fn at(query: &str, byte: usize, reason: &str) -> QueryError {
        let column = query[..byte.min(query.len())].chars().count() + 1;
        let reason = if reason.contains("column") {
            reason.to_owned()
        } else if reason == "unterminated quoted text" {
            format!("unterminated quoted text starting at column {column}")
        } else if reason == "needs a value" {
            format!(
                "`{}` at column {column} needs a value",
                field_at(query, byte)
            )
        } else {
            format!("{reason} (column {column})")
        };
        QueryError::new(query, column, reason)
    }

    /// The query on one line and a caret under the column, for a terminal.
    pub fn caret(&self) -> String {
        let pad: String = self
            .query
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("  {}\n  {pad}^", self.query.replace(['\n', '\r'], " "))
    }
}

/// The `key:` written at `byte` (for "needs a value").
fn field_at(query: &str, byte: usize) -> String {
    let rest = &query[byte.min(query.len())..];
    match rest.find(':') {
        Some(end) => rest[..=end].to_owned(),
        None => rest.to_owned(),
    }
}

/// A compiled query.
///
/// ```
/// use jobgraph_core::pipeline::{LogEvent, Query};
/// let query = Query::parse("(level:warn OR level:error) AND NOT service:healthcheck").unwrap();
/// let event = LogEvent::from_value(serde_json::json!({
///     "message": "disk full", "tags": {"level": ["error"], "service": ["db"]}})).unwrap();
/// assert!(query.matches(&event));
/// let err = Query::parse("(level:error (service:web").unwrap_err();
/// assert_eq!(err.to_string(), "Invalid query: unbalanced parenthesis: `(` at column 14 is never closed");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    text: String,
    root: Node,
}

impl Query {
    /// Parses `text`; the error names the column.
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        Ok(Query {
            root: parse::parse(text)?,
            text: text.to_owned(),
        })
    }

    /// The query as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `event` matches.
    pub fn matches(&self, event: &LogEvent) -> bool {
        node_matches(&self.root, event)
    }

    /// The parsed tree as JSON, for `jobgraph query:check` and the page.
    pub fn tree(&self) -> Value {
        tree(&self.root)
    }
}

fn node_matches(node: &Node, event: &LogEvent) -> bool {
    match node {
        Node::All => true,
        Node::And(items) => items.iter().all(|n| node_matches(n, event)),
        Node::Or(items) => items.iter().any(|n| node_matches(n, event)),
        Node::Not(inner) => !node_matches(inner, event),
        Node::Words(words) => words_match(words, event.message()),
        Node::MessageNotEmpty => !event.message().is_empty(),
        Node::MessageLength { min, max } => predicate::length_within(event.message(), *min, *max),
        Node::Tag { key, test } => match event.tags.get(key) {
            None => false,
            Some(values) => match test {
                Test::Exists => true,
                _ => values.iter().any(|v| text_test(test, v)),
            },
        },
        Node::TagKey(pattern) => event.tags.keys().any(|k| pattern.matches(k)),
        Node::Attribute { path, test } => match event.attribute(path) {
            None => false,
            Some(value) => {
                matches!(test, Test::Exists) || any_scalar(value, &mut |s| scalar_test(test, s))
            }
        },
    }
}

/// The words of `message`, lazily.
fn words(message: &str) -> impl Iterator<Item = &str> + Clone {
    message
        .split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

fn words_match(patterns: &[wildcard::Pattern], message: &str) -> bool {
    let mut start = words(message);
    loop {
        let mut run = start.clone();
        if patterns
            .iter()
            .all(|p| run.next().is_some_and(|w| p.matches_folded(w)))
        {
            return true;
        }
        if start.next().is_none() {
            return false;
        }
    }
}

fn compare_text(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}

fn within(order: Ordering, bound: &Bound, low: bool) -> bool {
    match order {
        Ordering::Equal => bound.inclusive,
        Ordering::Greater => low,
        Ordering::Less => !low,
    }
}

/// A test on text (tag values, string attributes): patterns, lexicographic ranges.
fn text_test(test: &Test, text: &str) -> bool {
    match test {
        Test::Exists => true,
        Test::Equals { pattern, .. } => pattern.matches(text),
        Test::Range { low, high } => {
            low.as_ref()
                .is_none_or(|b| within(compare_text(text, &b.text), b, true))
                && high
                    .as_ref()
                    .is_none_or(|b| within(compare_text(text, &b.text), b, false))
        }
        Test::Compare { op, bound } => compare(*op, compare_text(text, &bound.text)),
    }
}

fn compare(op: CompareOp, order: Ordering) -> bool {
    match op {
        CompareOp::Greater => order == Ordering::Greater,
        CompareOp::GreaterOrEqual => order != Ordering::Less,
        CompareOp::Less => order == Ordering::Less,
        CompareOp::LessOrEqual => order != Ordering::Greater,
    }
}

fn number_order(value: f64, bound: &Bound) -> Option<Ordering> {
    bound.number.and_then(|b| value.partial_cmp(&b))
}

/// A test on an attribute's value (each item of an array: any).
fn scalar_test(test: &Test, value: Scalar) -> bool {
    match value {
        Scalar::Text(s) => text_test(test, &s),
        Scalar::Number(n) => {
            let Some(x) = n else { return false };
            match test {
                Test::Exists => true,
                Test::Equals { number, .. } => *number == Some(x),
                Test::Range { low, high } => {
                    low.as_ref()
                        .is_none_or(|b| number_order(x, b).is_some_and(|o| within(o, b, true)))
                        && high
                            .as_ref()
                            .is_none_or(|b| number_order(x, b).is_some_and(|o| within(o, b, false)))
                }
                Test::Compare { op, bound } => {
                    number_order(x, bound).is_some_and(|o| compare(*op, o))
                }
            }
        }
        Scalar::Bool(b) => {
            matches!(test, Test::Equals { pattern, .. } if pattern.matches(if b { "true" } else { "false" }))
        }
        Scalar::Null => matches!(test, Test::Equals { pattern, .. } if pattern.matches("null")),
        Scalar::Object => false,
    }
}

fn tree(node: &Node) -> Value {
    use serde_json::json;
    let test_tree = |test: &Test| match test {
        Test::Exists => json!({"exists": true}),
        Test::Equals { pattern, .. } => json!({"equals": pattern_text(pattern)}),
        Test::Range { low, high } => json!({
            "range": {
                "low": low.as_ref().map(|b| json!({"value": b.text, "inclusive": b.inclusive})),
                "high": high.as_ref().map(|b| json!({"value": b.text, "inclusive": b.inclusive})),
            }
        }),
        Test::Compare { op, bound } => {
            json!({"compare": {"op": op_text(*op), "value": bound.text}})
        }
    };
    match node {
        Node::All => json!({"kind": "all"}),
        Node::And(items) => {
            json!({"kind": "and", "items": items.iter().map(tree).collect::<Vec<_>>()})
        }
        Node::Or(items) => {
            json!({"kind": "or", "items": items.iter().map(tree).collect::<Vec<_>>()})
        }
        Node::Not(inner) => json!({"kind": "not", "item": tree(inner)}),
        Node::Words(words) if words.len() == 1 => {
            json!({"kind": "message", "word": pattern_text(&words[0])})
        }
        Node::Words(words) => {
            json!({"kind": "phrase", "words": words.iter().map(pattern_text).collect::<Vec<_>>()})
        }
        Node::MessageNotEmpty => json!({"kind": "message", "exists": true}),
        Node::MessageLength { min, max } => {
            json!({"kind": "message-length", "minLength": min, "maxLength": max})
        }
        Node::Tag { key, test } => {
            let mut t = json!({"kind": "tag", "key": key});
            merge(&mut t, test_tree(test));
            t
        }
        Node::TagKey(pattern) => json!({"kind": "tag-key", "key": pattern_text(pattern)}),
        Node::Attribute { path, test } => {
            let mut t = json!({"kind": "attribute", "path": path.join(".")});
            merge(&mut t, test_tree(test));
            t
        }
    }
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(a), Value::Object(b)) = (into, from) {
        a.extend(b);
    }
}

fn op_text(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Greater => ">",
        CompareOp::GreaterOrEqual => ">=",
        CompareOp::Less => "<",
        CompareOp::LessOrEqual => "<=",
    }
}

fn pattern_text(pattern: &wildcard::Pattern) -> String {
    pattern.display()
}
