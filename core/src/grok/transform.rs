//! Turning a matched text into a value: the matcher's conversion, then the transformer (the
//! third part of `%{MATCHER:EXTRACTOR:TRANSFORMER}`). A value that cannot be converted is
//! dropped (the attribute is not set), as is `nullIf`'s null.

use serde_json::{Map, Number, Value};

use super::dates;
use super::matchers::Conversion;
use super::useragent;

/// A transformer.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Transformer {
    Number,
    Integer,
    Boolean,
    Lowercase,
    Uppercase,
    Json,
    KeyValue(KeyValue),
    UserAgent,
    Scale(f64),
    IsoDateTimeToMillis,
    NullIf(String),
}

/// `keyvalue([separator[, allowed characters[, quoting]]])`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeyValue {
    separator: String,
    allowed: String,
    quotes: Vec<(char, char)>,
}

impl Transformer {
    /// The transformer `name(args)`, `Ok(None)` when there is no such transformer.
    pub(super) fn new(name: &str, args: &[String]) -> Result<Option<Self>, String> {
        let no_args = |t: Transformer| {
            if args.is_empty() {
                Ok(Some(t))
            } else {
                Err(format!("transformer {name} takes no arguments"))
            }
        };
        match name {
            "number" => no_args(Transformer::Number),
            "integer" => no_args(Transformer::Integer),
            "boolean" => no_args(Transformer::Boolean),
            "lowercase" => no_args(Transformer::Lowercase),
            "uppercase" => no_args(Transformer::Uppercase),
            "json" => no_args(Transformer::Json),
            "useragent" => no_args(Transformer::UserAgent),
            "isoDateTimeToMillis" => no_args(Transformer::IsoDateTimeToMillis),
            "scale" => match args {
                [f] => f
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .map(|f| Some(Transformer::Scale(f)))
                    .ok_or_else(|| format!("scale takes a number: scale(1000), not scale({f})")),
                _ => Err("scale takes one number: scale(1000)".into()),
            },
            "nullIf" => match args {
                [v] => Ok(Some(Transformer::NullIf(v.clone()))),
                _ => Err("nullIf takes one value: nullIf(\"-\")".into()),
            },
            "keyvalue" => {
                if args.len() > 3 {
                    return Err("keyvalue takes at most three arguments: keyvalue(\"=\", \"allowed characters\", \"quotes\")".into());
                }
                let separator = args.first().cloned().unwrap_or_else(|| "=".into());
                if separator.is_empty() {
                    return Err("keyvalue's separator cannot be empty".into());
                }
                let allowed = args.get(1).cloned().unwrap_or_default();
                let quotes = match args.get(2) {
                    None => vec![('"', '"'), ('\'', '\''), ('<', '>')],
                    Some(q) => {
                        let q: Vec<char> = q.chars().collect();
                        if !q.len().is_multiple_of(2) {
                            return Err("keyvalue's quoting is pairs of opening and closing characters, such as \"()[]\"".into());
                        }
                        q.chunks(2).map(|p| (p[0], p[1])).collect()
                    }
                };
                Ok(Some(Transformer::KeyValue(KeyValue {
                    separator,
                    allowed,
                    quotes,
                })))
            }
            _ => Ok(None),
        }
    }

    /// Whether the result is an object merged at the extractor's place (`json`, `keyvalue`).
    pub(super) fn makes_object(&self) -> bool {
        matches!(
            self,
            Transformer::Json | Transformer::KeyValue(_) | Transformer::UserAgent
        )
    }
}

/// The matcher's conversion of `text`; `None`: no value.
pub(super) fn convert(conversion: &Conversion, text: &str) -> Option<Value> {
    match conversion {
        Conversion::Text => Some(Value::String(text.to_owned())),
        Conversion::Integer => integer(text),
        Conversion::Number => number(text),
        Conversion::Boolean => boolean(text),
        Conversion::Date(format) => format.millis(text, dates::current_year).map(Value::from),
        Conversion::Unquote => {
            let inner = text
                .get(1..text.len().saturating_sub(1))
                .unwrap_or_default();
            Some(Value::String(inner.to_owned()))
        }
    }
}

/// Applies a transformer to a converted value; `None`: no value.
pub(super) fn apply(transformer: &Transformer, value: Value) -> Option<Value> {
    let text = match &value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match transformer {
        Transformer::Number => number(&text),
        Transformer::Integer => integer(&text),
        Transformer::Boolean => boolean(&text),
        Transformer::Lowercase => Some(Value::String(text.to_lowercase())),
        Transformer::Uppercase => Some(Value::String(text.to_uppercase())),
        Transformer::Json => serde_json::from_str(&text).ok(),
        Transformer::KeyValue(kv) => Some(Value::Object(key_values(kv, &text))),
        Transformer::UserAgent => Some(useragent::parse(&text)),
        Transformer::Scale(f) => {
            let n = match &value {
                Value::Number(n) => n.as_f64(),
                _ => text.trim().parse::<f64>().ok(),
            }?;
            Number::from_f64(n * f).map(Value::Number)
        }
        Transformer::IsoDateTimeToMillis => dates::iso_millis(&text).map(Value::from),
        Transformer::NullIf(v) => (text != *v).then_some(value),
    }
}

fn integer(text: &str) -> Option<Value> {
    let t = text.strip_prefix('+').unwrap_or(text);
    t.parse::<i64>().ok().map(Value::from)
}

fn number(text: &str) -> Option<Value> {
    let t = text.strip_prefix('+').unwrap_or(text);
    t.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}

fn boolean(text: &str) -> Option<Value> {
    if text.eq_ignore_ascii_case("true") {
        Some(Value::Bool(true))
    } else if text.eq_ignore_ascii_case("false") {
        Some(Value::Bool(false))
    } else {
        None
    }
}

/// Datadog's key-value filter: `key<sep>value` pairs anywhere in the text; keys are word
/// characters (and `.`, `-`, `@`), values either quoted (any quoting pair) or a run of word
/// characters, `.`, `-`, `_`, `@` and the allowed characters; empty values are skipped; a key
/// seen twice keeps its last value.
fn key_values(kv: &KeyValue, text: &str) -> Map<String, Value> {
    let is_key = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '@');
    let is_value = |c: char| is_key(c) || kv.allowed.contains(c);
    let mut out = Map::new();
    let mut rest = text;
    while let Some(at) = rest.find(kv.separator.as_str()) {
        let before = &rest[..at];
        let key_start = before
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_key(c))
            .last()
            .map_or(at, |(i, _)| i);
        let key = &before[key_start..];
        let after = &rest[at + kv.separator.len()..];
        let (value, consumed) = match after.chars().next() {
            Some(open) if kv.quotes.iter().any(|(o, _)| *o == open) => {
                let close = kv
                    .quotes
                    .iter()
                    .find(|(o, _)| *o == open)
                    .map_or(open, |(_, c)| *c);
                let inner = &after[open.len_utf8()..];
                match inner.find(close) {
                    Some(end) => (&inner[..end], open.len_utf8() + end + close.len_utf8()),
                    None => (inner, after.len()),
                }
            }
            _ => {
                let end = after
                    .char_indices()
                    .find(|&(_, c)| !is_value(c))
                    .map_or(after.len(), |(i, _)| i);
                (&after[..end], end)
            }
        };
        if !key.is_empty() && !value.is_empty() {
            out.insert(key.to_owned(), Value::String(value.to_owned()));
        }
        rest = &after[consumed..];
    }
    out
}
