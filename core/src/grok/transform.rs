//! Turning a matched text into a value: the matcher's conversion, then the transformer (the
//! third part of `%{MATCHER:EXTRACTOR:TRANSFORMER}`). A value that cannot be converted is
//! dropped (the attribute is not set), as is `nullIf`'s null.

use serde_json::{Number, Value};

use super::dates;
use super::matchers::Conversion;
use super::pairs::{Csv, KeyValue};
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
    Csv(Csv),
    UserAgent,
    Scale(f64),
    IsoDateTimeToMillis,
    NullIf(String),
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
            "keyvalue" => KeyValue::new(args).map(|kv| Some(Transformer::KeyValue(kv))),
            "csv" => Csv::new(args).map(|csv| Some(Transformer::Csv(csv))),
            _ => Ok(None),
        }
    }

    /// Whether the result is an object merged at the extractor's place (`json`, `keyvalue`).
    pub(super) fn makes_object(&self) -> bool {
        matches!(
            self,
            Transformer::Json
                | Transformer::KeyValue(_)
                | Transformer::Csv(_)
                | Transformer::UserAgent
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
        Transformer::KeyValue(kv) => Some(Value::Object(kv.apply(&text))),
        Transformer::Csv(csv) => Some(Value::Object(csv.apply(&text))),
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
