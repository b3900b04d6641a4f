//! Helpers for JSON values shared by the model, validation and error messages.

use serde_json::Value;

/// Names a JSON value's type the way error messages do: `a string`, `an array`, ….
#[doc(hidden)]
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Why a JSON document could not be read: where (1-based line and column) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct JsonError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// Nesting depth past which a document is refused (`serde_json`'s recursion limit).
pub const MAX_JSON_DEPTH: usize = 128;

/// Reads a JSON document strictly, the way every entry point reads jobs, templates and values:
/// a leading UTF-8 byte-order mark is skipped; a key that occurs twice in one object is an
/// error naming the key (instead of the last one silently winning); nesting deeper than
/// [`MAX_JSON_DEPTH`] says so.
///
/// ```
/// use jobgraph_model::parse_json;
/// assert_eq!(parse_json("\u{feff}{\"a\": 1}").unwrap(), serde_json::json!({"a": 1}));
/// let err = parse_json("{\"a\": 1,\n \"a\": 2}").unwrap_err();
/// assert_eq!(err.to_string(), "duplicate key \"a\" at line 2, column 4");
/// let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
/// assert!(parse_json(&deep).unwrap_err().message.contains("deeper than 128"));
/// ```
pub fn parse_json(text: &str) -> Result<Value, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let error = |e: serde_json::Error| {
        let message = if e.to_string().starts_with("recursion limit exceeded") {
            format!("JSON nested deeper than {MAX_JSON_DEPTH} levels")
        } else {
            let text = e.to_string();
            // serde_json appends " at line L column C"; the position is reported separately.
            match text.rfind(" at line ") {
                Some(i) => text[..i].to_owned(),
                None => text,
            }
        };
        JsonError {
            message,
            line: e.line(),
            column: e.column(),
        }
    };
    // First pass: duplicate keys (serde_json keeps the last silently).
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde::de::Deserializer::deserialize_any(&mut deserializer, duplicates::Check)
        .map_err(error)?;
    serde_json::from_str(text).map_err(error)
}

/// A visitor that walks a document and fails at the first key seen twice in one object.
mod duplicates {
    use std::collections::HashSet;
    use std::fmt;

    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

    pub(super) struct Check;

    impl<'de> DeserializeSeed<'de> for Check {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(Check)
        }
    }

    impl<'de> Visitor<'de> for Check {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Check)?.is_some() {}
            Ok(())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(de::Error::custom(format_args!(
                        "duplicate key {:?}",
                        super::excerpt(&key, 200)
                    )));
                }
                map.next_value_seed(Check)?;
            }
            Ok(())
        }
    }
}

/// At most `max` characters of `text`, with `…` when cut.
#[doc(hidden)]
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
