//! The `keyvalue-processor` vertex (`docs/pipeline.md`, "`keyvalue-processor`"): the
//! `key=value` pairs of each event's message become attributes.
//!
//! The message is cut into pairs at `fieldSeparator` (default a space) and each pair at its
//! first `valueSeparator` (default `=`); spaces around keys and values are trimmed. A value may
//! be quoted with `"` or `'`: separators inside the quotes belong to it, and inside them a `\`
//! makes the next character literal (`msg="a \"b\" c"` is `a "b" c`). Then:
//! - a piece without the value separator, an empty key, an empty value (`k=`, `k=""`) and an
//!   unquoted `null` are skipped;
//! - a repeated key keeps its last value (and its first place);
//! - values stay strings (`n=5` is `"5"`), and a key is one attribute even when it holds a dot
//!   (`http.status=200` is the attribute `"http.status"`, not a path);
//! - each pair is set at the root of `attributes`, replacing an attribute of that name; the
//!   message is not changed. An event with no pair is left as it is.
//!
//! At most [`MAX_PAIRS`] pairs are read from one message (the run notes a message that had
//! more): a message cannot blow up into an attribute object without bound.
//!
//! ```
//! use jobgraph_core::JobGraph;
//! use jobgraph_core::pipeline::{Pipeline, RunInput, RunOptions, read_events};
//! let graph: JobGraph = serde_json::from_value(serde_json::json!({
//!     "vertices": [
//!         {"type": "logs-iceberg-table-source", "name": "in"},
//!         {"type": "keyvalue-processor", "name": "kv"},
//!         {"type": "logs-sync-sink", "name": "out"}],
//!     "edges": ["in -> kv", "kv -> out"]})).unwrap();
//! let events = read_events(r#"{"message": "user=john action=\"log in\" id=123 empty= flag"}"#).unwrap();
//! let run = Pipeline::compile(&graph).unwrap()
//!     .run(RunInput { events, ..Default::default() }, &RunOptions::default()).unwrap();
//! assert_eq!(run.sinks["out"][0].attributes.as_ref().unwrap().get(),
//!     r#"{"user":"john","action":"log in","id":"123"}"#);
//! ```

use serde_json::{Map, Value};

use super::RunError;
use super::attr_tree;
use super::typed::typed;
use jobgraph_model::LogEvent;
use jobgraph_model::ops::transforms::keyvalue_processor::{KeyvalueProcessor, OPERATION};

/// Pairs read from one message at most.
pub const MAX_PAIRS: usize = 1024;

/// A compiled `keyvalue-processor`.
#[derive(Debug, Clone)]
pub(crate) struct KeyValueStage {
    field_separator: String,
    value_separator: String,
}

/// Reads `fieldSeparator` and `valueSeparator`: non-empty, different strings.
pub(crate) fn compile(
    vertex: &str,
    fields: &Map<String, Value>,
) -> Result<KeyValueStage, RunError> {
    let config: KeyvalueProcessor = typed(vertex, &OPERATION, fields)?;
    let field_separator = config.field_separator.unwrap_or_else(|| " ".into());
    let value_separator = config.value_separator.unwrap_or_else(|| "=".into());
    let problem = |field: &str, message: &str| RunError::Vertex {
        vertex: vertex.to_owned(),
        message: format!("/{field}: {message}"),
    };
    for (field, separator) in [
        ("fieldSeparator", &field_separator),
        ("valueSeparator", &value_separator),
    ] {
        if separator.is_empty() {
            return Err(problem(
                field,
                "must not be empty: give the text between pairs (default \" \") or between a key and its value (default \"=\")",
            ));
        }
        if separator.contains(['"', '\'', '\\']) {
            return Err(problem(
                field,
                "must not contain a quote or a backslash, which quote values",
            ));
        }
    }
    if field_separator.contains(value_separator.as_str())
        || value_separator.contains(field_separator.as_str())
    {
        return Err(problem(
            "valueSeparator",
            &format!(
                "{value_separator:?} and fieldSeparator {field_separator:?} must differ, and neither may contain the other"
            ),
        ));
    }
    Ok(KeyValueStage {
        field_separator,
        value_separator,
    })
}

impl KeyValueStage {
    /// Reads the pairs of one event's message into its attributes; `true` when the message had
    /// more than [`MAX_PAIRS`].
    pub(crate) fn apply(&self, event: &mut LogEvent) -> bool {
        let Some(message) = event.message.as_deref() else {
            return false;
        };
        let (pairs, truncated) = self.pairs(message);
        if pairs.is_empty() {
            return truncated;
        }
        let Ok(existing) = attr_tree::read(event) else {
            return truncated;
        };
        let mut attributes = existing.unwrap_or_default();
        for (key, value) in pairs {
            attributes.insert(key, value);
        }
        attr_tree::write(event, attributes);
        truncated
    }

    /// The pairs of `text`, in order (a repeated key once, with its last value).
    fn pairs(&self, text: &str) -> (Map<String, Value>, bool) {
        let mut out = Map::new();
        let mut rest = text;
        let mut read = 0usize;
        while !rest.is_empty() {
            if read == MAX_PAIRS {
                return (out, true);
            }
            let (piece, after) = self.next_piece(rest);
            rest = after;
            read += 1;
            let Some((key, value)) = piece.split_once(self.value_separator.as_str()) else {
                continue;
            };
            let (key, _) = unquote(key.trim());
            let (value, quoted) = unquote(value.trim());
            if key.is_empty() || value.is_empty() || (!quoted && value == "null") {
                continue;
            }
            out.insert(key, Value::String(value));
        }
        (out, false)
    }

    /// The text up to the next field separator outside quotes, and the text after it.
    fn next_piece<'t>(&self, text: &'t str) -> (&'t str, &'t str) {
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for (i, c) in text.char_indices() {
            match quote {
                Some(_) if escaped => escaped = false,
                Some(_) if c == '\\' => escaped = true,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if text[i..].starts_with(self.field_separator.as_str()) => {
                    return (&text[..i], &text[i + self.field_separator.len()..]);
                }
                None => {}
            }
        }
        (text, "")
    }
}

/// Text without its surrounding quotes (`"…"` or `'…'`, `\` escaping the next character), and
/// whether it was quoted; other text as it is.
fn unquote(text: &str) -> (String, bool) {
    let mut chars = text.chars();
    let (Some(open @ ('"' | '\'')), Some(close)) = (chars.next(), text.chars().last()) else {
        return (text.to_owned(), false);
    };
    if text.len() < 2 || close != open {
        return (text.to_owned(), false);
    }
    let inner = &text[1..text.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut escaped = false;
    for c in inner.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    (out, true)
}

#[cfg(test)]
mod tests;
