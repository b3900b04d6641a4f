//! Events encoded as an OTLP `ExportLogsServiceRequest` (protobuf), for the OTLP sink.

use std::collections::HashMap;

use prost::Message as _;
use serde_json::{Map, Value};

use super::proto::{
    AnyValue, ArrayValue, ExportLogsServiceRequest, InstrumentationScope, KeyValue, KeyValueList,
    LogRecord, Resource, ResourceLogs, ScopeLogs, any_value::Value as Any,
};
use crate::Event;
use crate::event::{EventView, take_tag};

/// Encodes events as a protobuf `ExportLogsServiceRequest`, grouped by resource (their tags
/// other than `status`) and scope; see the module's documentation for the fields.
///
/// ```
/// use jobgraph_intake::otlp::{self, Encoding};
/// let event = serde_json::json!({"message": "hi", "severity": 9, "tags": {"service": ["api"], "env": ["prod"]}});
/// let body = otlp::encode(&[event.as_object().unwrap().clone()]);
/// let back = otlp::decode(&body, Encoding::Protobuf).unwrap();
/// assert_eq!(back[0]["tags"], serde_json::json!({"service.name": ["api"], "service": ["api"], "env": ["prod"]}));
/// ```
pub fn encode(events: &[Event]) -> Vec<u8> {
    let mut request = ExportLogsServiceRequest::default();
    let mut resources: HashMap<String, usize> = HashMap::new();
    for event in events {
        let view = EventView { event };
        let mut tags = view.tags();
        let status = take_tag(&mut tags, "status");
        let attributes = resource_attributes(tags);
        let key =
            serde_json::to_string(&attributes.iter().map(|(k, v)| (k, v)).collect::<Vec<_>>())
                .unwrap_or_default();
        let r = *resources.entry(key).or_insert_with(|| {
            request.resource_logs.push(ResourceLogs {
                resource: Some(Resource {
                    attributes: attributes
                        .into_iter()
                        .map(|(k, v)| key_value(k, strings(v)))
                        .collect(),
                    dropped_attributes_count: 0,
                }),
                ..ResourceLogs::default()
            });
            request.resource_logs.len() - 1
        });
        let Some(resource_logs) = request.resource_logs.get_mut(r) else {
            continue;
        };

        let mut attributes = view.attributes().cloned().unwrap_or_default();
        let name = take_string(&mut attributes, "otel.scope.name");
        let version = take_string(&mut attributes, "otel.scope.version");
        let s = match resource_logs.scope_logs.iter().position(|s| {
            s.scope
                .as_ref()
                .is_some_and(|sc| sc.name == name && sc.version == version)
        }) {
            Some(s) => s,
            None => {
                resource_logs.scope_logs.push(ScopeLogs {
                    scope: Some(InstrumentationScope {
                        name,
                        version,
                        ..InstrumentationScope::default()
                    }),
                    ..ScopeLogs::default()
                });
                resource_logs.scope_logs.len() - 1
            }
        };
        let Some(scope_logs) = resource_logs.scope_logs.get_mut(s) else {
            continue;
        };
        scope_logs
            .log_records
            .push(record(&view, status, attributes));
    }
    request.encode_to_vec()
}

fn record(view: &EventView, status: Vec<String>, mut attributes: Map<String, Value>) -> LogRecord {
    let nanos = |field: &str| {
        view.timestamp_ms(field)
            .and_then(|ms| u64::try_from(ms).ok())
            .and_then(|ms| ms.checked_mul(1_000_000))
            .unwrap_or(0)
    };
    let mut record = LogRecord {
        time_unix_nano: nanos("eventTimestamp"),
        observed_time_unix_nano: nanos("receivedTimestamp"),
        severity_number: view.severity().map_or(0, i32::from),
        severity_text: status.into_iter().next().unwrap_or_default(),
        ..LogRecord::default()
    };
    if let Some(message) = view.message() {
        let structured = attributes
            .get("body")
            .filter(|body| {
                !body.is_string()
                    && serde_json::to_string(body).ok().as_deref() == Some(message.as_str())
            })
            .is_some();
        record.body = Some(match structured {
            true => any(&attributes.shift_remove("body").unwrap_or_default()),
            false => AnyValue {
                value: Some(Any::StringValue(message)),
            },
        });
    }
    for (key, bytes, field) in [
        ("trace_id", 16, &mut record.trace_id),
        ("span_id", 8, &mut record.span_id),
    ] {
        if let Some(id) = attributes
            .get(key)
            .and_then(Value::as_str)
            .and_then(|text| unhex(text, bytes))
        {
            *field = id;
            attributes.shift_remove(key);
        }
    }
    if let Some(flags) = attributes
        .get("trace_flags")
        .and_then(Value::as_u64)
        .and_then(|f| u32::try_from(f).ok())
    {
        record.flags = flags;
        attributes.shift_remove("trace_flags");
    }
    record.attributes = attributes
        .iter()
        .map(|(k, v)| KeyValue {
            key: k.clone(),
            value: Some(any(v)),
        })
        .collect();
    record
}

/// Tags as resource attributes: `service` as `service.name` unless that is a tag too (then
/// only its values that `service.name` lacks stay `service`); likewise `host` and `host.name`.
fn resource_attributes(tags: Vec<(&str, Vec<String>)>) -> Vec<(String, Vec<String>)> {
    let values_of = |key: &str| tags.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    let (service_name, host_name) = (values_of("service.name"), values_of("host.name"));
    let mut out = Vec::with_capacity(tags.len());
    for (key, values) in &tags {
        let named = match *key {
            "service" => Some((&service_name, "service.name")),
            "host" => Some((&host_name, "host.name")),
            _ => None,
        };
        match named {
            Some((None, name)) => out.push((name.to_string(), values.clone())),
            Some((Some(named), _)) => {
                let extra: Vec<String> = values
                    .iter()
                    .filter(|v| !named.contains(v))
                    .cloned()
                    .collect();
                if !extra.is_empty() {
                    out.push((key.to_string(), extra));
                }
            }
            None => out.push((key.to_string(), values.clone())),
        }
    }
    out
}

fn strings(mut values: Vec<String>) -> AnyValue {
    let value = if values.len() == 1 {
        Any::StringValue(values.pop().unwrap_or_default())
    } else {
        Any::ArrayValue(ArrayValue {
            values: values
                .into_iter()
                .map(|v| AnyValue {
                    value: Some(Any::StringValue(v)),
                })
                .collect(),
        })
    };
    AnyValue { value: Some(value) }
}

fn key_value(key: String, value: AnyValue) -> KeyValue {
    KeyValue {
        key,
        value: Some(value),
    }
}

fn take_string(attributes: &mut Map<String, Value>, key: &str) -> String {
    match attributes.get(key) {
        Some(Value::String(_)) => match attributes.shift_remove(key) {
            Some(Value::String(s)) => s,
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// A JSON value as an `AnyValue`: integers that fit an int64 as ints, other numbers as doubles,
/// null as the empty value.
fn any(value: &Value) -> AnyValue {
    let value = match value {
        Value::Null => None,
        Value::Bool(b) => Some(Any::BoolValue(*b)),
        Value::Number(n) => Some(match n.as_i64() {
            Some(i) => Any::IntValue(i),
            None => Any::DoubleValue(n.as_f64().unwrap_or(f64::NAN)),
        }),
        Value::String(s) => Some(Any::StringValue(s.clone())),
        Value::Array(items) => Some(Any::ArrayValue(ArrayValue {
            values: items.iter().map(any).collect(),
        })),
        Value::Object(map) => Some(Any::KvlistValue(KeyValueList {
            values: map
                .iter()
                .map(|(k, v)| key_value(k.clone(), any(v)))
                .collect(),
        })),
    };
    AnyValue { value }
}

/// `bytes` bytes from exactly twice as many hexadecimal digits.
fn unhex(text: &str, bytes: usize) -> Option<Vec<u8>> {
    if text.len() != bytes * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..bytes)
        .map(|i| u8::from_str_radix(text.get(i * 2..i * 2 + 2)?, 16).ok())
        .collect()
}
