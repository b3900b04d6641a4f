//! OTLP JSON read into the protobuf messages, each value checked with its JSON pointer.

use std::fmt;

use base64::Engine as _;
use serde_json::{Map, Value};

use super::proto::{
    AnyValue, ArrayValue, InstrumentationScope, KeyValue, KeyValueList, LogRecord, Resource,
    any_value,
};
use super::{OtlpError, ResourceCtx, ScopeCtx, Sink};
use crate::event::kind_of;
use crate::severity;

/// A JSON pointer, built only when an error needs it.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn key<'a>(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    fn index(&self, index: usize) -> Path<'_> {
        Path::Index(self, index)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                write!(f, "{parent}/{}", key.replace('~', "~0").replace('/', "~1"))
            }
            Path::Index(parent, index) => write!(f, "{parent}/{index}"),
        }
    }
}

fn wrong(path: &Path, expected: &'static str, found: &Value) -> OtlpError {
    let found = match found {
        Value::String(s) if s.chars().count() > 40 => {
            format!("the string \"{}…\"", s.chars().take(40).collect::<String>())
        }
        Value::String(s) => format!("the string \"{s}\""),
        Value::Number(n) => format!("the number {n}"),
        other => kind_of(other).to_string(),
    };
    let pointer = match path.to_string() {
        p if p.is_empty() => "the body".to_string(),
        p => format!("JSON pointer {p}"),
    };
    OtlpError::JsonValue {
        pointer,
        expected,
        found,
    }
}

/// The field `name` (lowerCamelCase) or its snake_case spelling; `null` reads as absent.
fn field<'v>(
    object: &'v Map<String, Value>,
    name: &'static str,
) -> Option<(&'v Value, &'static str)> {
    let found = object.get(name).map(|v| (v, name)).or_else(|| {
        let snake = SNAKE.iter().find(|(camel, _)| *camel == name)?.1;
        object.get(snake).map(|v| (v, snake))
    });
    found.filter(|(v, _)| !v.is_null())
}

const SNAKE: &[(&str, &str)] = &[
    ("resourceLogs", "resource_logs"),
    ("scopeLogs", "scope_logs"),
    ("logRecords", "log_records"),
    ("timeUnixNano", "time_unix_nano"),
    ("observedTimeUnixNano", "observed_time_unix_nano"),
    ("severityNumber", "severity_number"),
    ("severityText", "severity_text"),
    ("traceId", "trace_id"),
    ("spanId", "span_id"),
    ("eventName", "event_name"),
    ("stringValue", "string_value"),
    ("boolValue", "bool_value"),
    ("intValue", "int_value"),
    ("doubleValue", "double_value"),
    ("arrayValue", "array_value"),
    ("kvlistValue", "kvlist_value"),
    ("bytesValue", "bytes_value"),
];

fn object<'v>(
    value: &'v Value,
    path: &Path,
    what: &'static str,
) -> Result<&'v Map<String, Value>, OtlpError> {
    value.as_object().ok_or_else(|| wrong(path, what, value))
}

/// The array field `name` of `object` (absent: empty), with its path.
fn array<'v>(
    object: &'v Map<String, Value>,
    name: &'static str,
    path: &Path,
) -> Result<(&'v [Value], &'static str), OtlpError> {
    match field(object, name) {
        None => Ok((&[], name)),
        Some((Value::Array(items), key)) => Ok((items, key)),
        Some((other, key)) => Err(wrong(&path.key(key), "an array", other)),
    }
}

fn string(
    object: &Map<String, Value>,
    name: &'static str,
    path: &Path,
) -> Result<String, OtlpError> {
    match field(object, name) {
        None => Ok(String::new()),
        Some((Value::String(s), _)) => Ok(s.clone()),
        Some((other, key)) => Err(wrong(&path.key(key), "a string", other)),
    }
}

/// A 64-bit unsigned integer: a number or its decimal text.
fn uint64(object: &Map<String, Value>, name: &'static str, path: &Path) -> Result<u64, OtlpError> {
    let Some((value, key)) = field(object, name) else {
        return Ok(0);
    };
    let parsed = match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            let f = n.as_f64()?;
            ((0.0..1.8e19).contains(&f) && f.fract() == 0.0).then_some(f as u64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    parsed.ok_or_else(|| {
        wrong(
            &path.key(key),
            "an unsigned 64-bit integer (a number or its decimal text)",
            value,
        )
    })
}

/// The size of a value written as compact JSON (strings counted without their escapes).
fn json_size(value: &Value) -> usize {
    let commas = |n: usize| n.saturating_sub(1);
    match value {
        Value::Null => 4,
        Value::Bool(_) => 5,
        Value::Number(n) => n.to_string().len(),
        Value::String(s) => s.len() + 2,
        Value::Array(items) => items.iter().map(json_size).sum::<usize>() + commas(items.len()) + 2,
        Value::Object(map) => {
            map.iter()
                .map(|(k, v)| k.len() + 3 + json_size(v))
                .sum::<usize>()
                + commas(map.len())
                + 2
        }
    }
}

/// Walks an OTLP JSON `ExportLogsServiceRequest` into `sink`.
pub(super) fn walk(body: &[u8], sink: &mut Sink) -> Result<(), OtlpError> {
    let root: Value = serde_json::from_slice(body).map_err(|e| OtlpError::Json(e.to_string()))?;
    let path = Path::Root;
    let root = object(&root, &path, "an object (an ExportLogsServiceRequest)")?;
    let (resource_logs, key) = array(root, "resourceLogs", &path)?;
    let path = path.key(key);
    for (r, item) in resource_logs.iter().enumerate() {
        let path = path.index(r);
        let item = object(item, &path, "an object (a ResourceLogs)")?;
        let (resource, size) = match field(item, "resource") {
            None => (Resource::default(), 0),
            Some((value, key)) => (resource_of(value, &path.key(key))?, json_size(value)),
        };
        let resource = ResourceCtx::new(&resource, size);
        let (scope_logs, key) = array(item, "scopeLogs", &path)?;
        let path = path.key(key);
        for (s, item) in scope_logs.iter().enumerate() {
            let path = path.index(s);
            let item = object(item, &path, "an object (a ScopeLogs)")?;
            let scope = match field(item, "scope") {
                None => ScopeCtx {
                    name: String::new(),
                    version: String::new(),
                    size: 0,
                },
                Some((value, key)) => {
                    let scope = scope_of(value, &path.key(key))?;
                    ScopeCtx {
                        name: scope.name,
                        version: scope.version,
                        size: json_size(value),
                    }
                }
            };
            let (records, key) = array(item, "logRecords", &path)?;
            let path = path.key(key);
            for (l, record) in records.iter().enumerate() {
                let path = path.index(l);
                sink.admit(
                    &resource,
                    &scope,
                    json_size(record),
                    &format_args!("JSON pointer {path}"),
                )?;
                let record = log_record(record, &path)?;
                sink.push(&resource, &scope, record);
            }
        }
    }
    Ok(())
}

fn resource_of(value: &Value, path: &Path) -> Result<Resource, OtlpError> {
    let object = object(value, path, "an object (a Resource)")?;
    Ok(Resource {
        attributes: key_values(object, "attributes", path)?,
        dropped_attributes_count: 0,
    })
}

fn scope_of(value: &Value, path: &Path) -> Result<InstrumentationScope, OtlpError> {
    let object = object(value, path, "an object (an InstrumentationScope)")?;
    Ok(InstrumentationScope {
        name: string(object, "name", path)?,
        version: string(object, "version", path)?,
        ..InstrumentationScope::default()
    })
}

fn log_record(value: &Value, path: &Path) -> Result<LogRecord, OtlpError> {
    let object = object(value, path, "an object (a LogRecord)")?;
    let flags = uint64(object, "flags", path)?;
    Ok(LogRecord {
        time_unix_nano: uint64(object, "timeUnixNano", path)?,
        observed_time_unix_nano: uint64(object, "observedTimeUnixNano", path)?,
        severity_number: severity_number(object, path)?,
        severity_text: string(object, "severityText", path)?,
        body: field(object, "body")
            .map(|(v, key)| any_value(v, &path.key(key)))
            .transpose()?,
        attributes: key_values(object, "attributes", path)?,
        dropped_attributes_count: 0,
        flags: u32::try_from(flags).map_err(|_| {
            wrong(
                &path.key("flags"),
                "a 32-bit unsigned integer",
                &Value::from(flags),
            )
        })?,
        trace_id: id(object, "traceId", 16, path)?,
        span_id: id(object, "spanId", 8, path)?,
        event_name: string(object, "eventName", path)?,
    })
}

/// `severityNumber`: a number (the protocol's way), its decimal text or the enum's name.
fn severity_number(object: &Map<String, Value>, path: &Path) -> Result<i32, OtlpError> {
    let Some((value, key)) = field(object, "severityNumber") else {
        return Ok(0);
    };
    let parsed = match value {
        Value::Number(n) => n.as_i64().and_then(|n| i32::try_from(n).ok()),
        Value::String(s) if s == "SEVERITY_NUMBER_UNSPECIFIED" => Some(0),
        Value::String(s) => s.parse().ok().or_else(|| {
            s.strip_prefix("SEVERITY_NUMBER_")
                .and_then(severity::from_text)
                .map(i32::from)
        }),
        _ => None,
    };
    parsed.ok_or_else(|| {
        wrong(
            &path.key(key),
            "a severity number (an integer, 0–24)",
            value,
        )
    })
}

/// `traceId` (16 bytes) or `spanId` (8 bytes): hexadecimal text, empty for none.
fn id(
    object: &Map<String, Value>,
    name: &'static str,
    bytes: usize,
    path: &Path,
) -> Result<Vec<u8>, OtlpError> {
    let Some((value, key)) = field(object, name) else {
        return Ok(Vec::new());
    };
    let expected = if bytes == 16 {
        "32 hexadecimal digits (a 16-byte trace id; OTLP JSON writes ids in hex, not base64)"
    } else {
        "16 hexadecimal digits (an 8-byte span id; OTLP JSON writes ids in hex, not base64)"
    };
    let text = value
        .as_str()
        .ok_or_else(|| wrong(&path.key(key), expected, value))?;
    if text.is_empty() {
        return Ok(Vec::new());
    }
    if text.len() != bytes * 2 {
        return Err(wrong(&path.key(key), expected, value));
    }
    let digits: Option<Vec<u8>> = text
        .chars()
        .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
        .collect();
    let digits = digits.ok_or_else(|| wrong(&path.key(key), expected, value))?;
    Ok(digits
        .chunks(2)
        .map(|pair| pair.iter().fold(0u8, |acc, d| acc << 4 | d))
        .collect())
}

fn key_values(
    object: &Map<String, Value>,
    name: &'static str,
    path: &Path,
) -> Result<Vec<KeyValue>, OtlpError> {
    let (items, key) = array(object, name, path)?;
    let path = path.key(key);
    items
        .iter()
        .enumerate()
        .map(|(i, item)| key_value(item, &path.index(i)))
        .collect()
}

fn key_value(value: &Value, path: &Path) -> Result<KeyValue, OtlpError> {
    let object = object(
        value,
        path,
        "an object (a KeyValue, {\"key\":…,\"value\":{…}})",
    )?;
    Ok(KeyValue {
        key: string(object, "key", path)?,
        value: field(object, "value")
            .map(|(v, key)| any_value(v, &path.key(key)))
            .transpose()?,
    })
}

fn any_value(value: &Value, path: &Path) -> Result<AnyValue, OtlpError> {
    use any_value::Value as Any;
    let kinds = object(
        value,
        path,
        "an object (an AnyValue such as {\"stringValue\":\"…\"})",
    )?;
    let mut found = None;
    // The last of several kinds wins, as protobuf's last oneof field does.
    for (key, v) in kinds {
        if v.is_null() {
            continue;
        }
        let path = path.key(key);
        let any = match key.as_str() {
            "stringValue" | "string_value" => Any::StringValue(
                v.as_str()
                    .ok_or_else(|| wrong(&path, "a string", v))?
                    .to_string(),
            ),
            "boolValue" | "bool_value" => {
                Any::BoolValue(v.as_bool().ok_or_else(|| wrong(&path, "a boolean", v))?)
            }
            "intValue" | "int_value" => Any::IntValue(
                match v {
                    Value::Number(n) => n.as_i64(),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                }
                .ok_or_else(|| {
                    wrong(&path, "a 64-bit integer (a number or its decimal text)", v)
                })?,
            ),
            "doubleValue" | "double_value" => Any::DoubleValue(
                match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => match s.as_str() {
                        "NaN" => Some(f64::NAN),
                        "Infinity" => Some(f64::INFINITY),
                        "-Infinity" => Some(f64::NEG_INFINITY),
                        other => other.trim().parse().ok(),
                    },
                    _ => None,
                }
                .ok_or_else(|| {
                    wrong(
                        &path,
                        "a number (or \"NaN\", \"Infinity\", \"-Infinity\")",
                        v,
                    )
                })?,
            ),
            "bytesValue" | "bytes_value" => {
                let text = v.as_str().ok_or_else(|| wrong(&path, "base64 text", v))?;
                Any::BytesValue(base64_bytes(text).ok_or_else(|| wrong(&path, "base64 text", v))?)
            }
            "arrayValue" | "array_value" => {
                let inner = object(v, &path, "an object (an ArrayValue, {\"values\":[…]})")?;
                let (items, key) = array(inner, "values", &path)?;
                let path = path.key(key);
                let values = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| any_value(item, &path.index(i)))
                    .collect::<Result<_, _>>()?;
                Any::ArrayValue(ArrayValue { values })
            }
            "kvlistValue" | "kvlist_value" => {
                let inner = object(v, &path, "an object (a KeyValueList, {\"values\":[…]})")?;
                Any::KvlistValue(KeyValueList {
                    values: key_values(inner, "values", &path)?,
                })
            }
            _ => continue,
        };
        found = Some(any);
    }
    Ok(AnyValue { value: found })
}

/// Standard base64, padded or not (URL-safe accepted too).
fn base64_bytes(text: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
}
