//! The event row schema (docs/lake.md § 3.2) and the conversions `LogEvent` ⇄ Arrow.
//!
//! Field ids (`PARQUET:field_id`): `event_time` 1, `event_timestamp` 2, `id` 3, `message` 4,
//! `severity` 5, `tags` 6 (key 7, value list 8, element 9), `attributes` 10, `other` 11, and for
//! the `i`-th promoted tag `tag_<key>` 100 + 2i (its element 101 + 2i). Nested fields use
//! Parquet's standard names `key_value` and `element` (§ 2.5).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    Int32Builder, ListBuilder, MapBuilder, MapFieldNames, StringBuilder,
    TimestampMicrosecondBuilder,
};
use arrow_array::{
    Array, ArrayRef, Int32Array, ListArray, MapArray, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Schema};
use jobgraph_model::LogEvent;
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};

use crate::constraints::{TagConstraints, tags_satisfy};
use crate::time::format_us;

/// Names of the fixed columns, in schema order (the promoted copies follow).
pub(crate) const BASE_COLUMNS: [&str; 8] = [
    "event_time",
    "event_timestamp",
    "id",
    "message",
    "severity",
    "tags",
    "attributes",
    "other",
];

/// The column of a promoted tag.
pub(crate) fn promoted_column(key: &str) -> String {
    format!("tag_{key}")
}

/// The field id of the `index`-th promoted tag's list column.
pub(crate) fn promoted_field_id(index: usize) -> i32 {
    100 + 2 * i32::try_from(index).unwrap_or(i32::MAX / 4)
}

fn with_id(field: Field, id: i32) -> Field {
    field.with_metadata(HashMap::from([(
        "PARQUET:field_id".to_owned(),
        id.to_string(),
    )]))
}

fn element(id: i32) -> FieldRef {
    Arc::new(with_id(Field::new("element", DataType::Utf8, true), id))
}

fn string_list(element_id: i32) -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new()).with_field(element(element_id))
}

/// Whether an event writes a `tags` field (`LogEvent` keeps that privately for empty tags).
fn has_tags(event: &LogEvent) -> bool {
    !event.tags.is_empty() || event.to_value().get("tags").is_some()
}

/// Arrow columns for a run of events (each with its `event_time`), in schema order.
pub(crate) fn encode(
    events: &[(i64, LogEvent)],
    promoted: &[String],
) -> Result<RecordBatch, ArrowError> {
    let n = events.len();
    let mut time = TimestampMicrosecondBuilder::with_capacity(n).with_timezone("UTC");
    let mut stamp = StringBuilder::new();
    let mut id = StringBuilder::new();
    let mut message = StringBuilder::new();
    let mut severity = Int32Builder::with_capacity(n);
    let names = MapFieldNames {
        entry: "key_value".into(),
        key: "key".into(),
        value: "value".into(),
    };
    let mut tags = MapBuilder::new(Some(names), StringBuilder::new(), string_list(9))
        .with_keys_field(with_id(Field::new("key", DataType::Utf8, false), 7))
        .with_values_field(with_id(
            Field::new("value", DataType::List(element(9)), true),
            8,
        ));
    let mut attributes = StringBuilder::new();
    let mut other = StringBuilder::new();
    let mut copies: Vec<ListBuilder<StringBuilder>> = (0..promoted.len())
        .map(|i| string_list(promoted_field_id(i) + 1))
        .collect();
    for (t, event) in events {
        time.append_value(*t);
        let mut extra = Map::new();
        match &event.event_timestamp {
            None => stamp.append_value(""),
            Some(Value::String(s)) if *s == format_us(*t) => stamp.append_null(),
            Some(Value::String(s)) => stamp.append_value(s),
            Some(v) => stamp.append_value(v.to_string()),
        }
        match &event.id {
            Some(Value::String(s)) => id.append_value(s),
            Some(v) => {
                id.append_null();
                extra.insert("id".into(), v.clone());
            }
            None => id.append_null(),
        }
        message.append_option(event.message.as_deref());
        match &event.severity {
            None => severity.append_null(),
            Some(v) => match small_int(v) {
                Some(i) => severity.append_value(i),
                None => {
                    severity.append_null();
                    extra.insert("severity".into(), v.clone());
                }
            },
        }
        if has_tags(event) {
            for (key, values) in &event.tags {
                tags.keys().append_value(key);
                for value in values {
                    tags.values().values().append_value(value);
                }
                tags.values().append(true);
            }
            tags.append(true)?;
        } else {
            tags.append(false)?;
        }
        attributes.append_option(event.attributes.as_ref().map(|a| a.get()));
        if let Some(t) = &event.received_timestamp {
            extra.insert("receivedTimestamp".into(), t.clone());
        }
        for (k, v) in &event.other {
            extra.insert(k.clone(), v.clone());
        }
        if extra.is_empty() {
            other.append_null();
        } else {
            other.append_value(Value::Object(extra).to_string());
        }
        for (key, copy) in promoted.iter().zip(copies.iter_mut()) {
            match event.tags.get(key) {
                Some(values) => {
                    for value in values {
                        copy.values().append_value(value);
                    }
                    copy.append(true);
                }
                None => copy.append(false),
            }
        }
    }
    let mut columns: Vec<(Field, ArrayRef)> = Vec::with_capacity(8 + promoted.len());
    let mut push = |name: &str, id: i32, nullable: bool, array: ArrayRef| {
        let field = with_id(Field::new(name, array.data_type().clone(), nullable), id);
        columns.push((field, array));
    };
    push("event_time", 1, false, Arc::new(time.finish()));
    push("event_timestamp", 2, true, Arc::new(stamp.finish()));
    push("id", 3, true, Arc::new(id.finish()));
    push("message", 4, true, Arc::new(message.finish()));
    push("severity", 5, true, Arc::new(severity.finish()));
    push("tags", 6, true, Arc::new(tags.finish()));
    push("attributes", 10, true, Arc::new(attributes.finish()));
    push("other", 11, true, Arc::new(other.finish()));
    for (i, (key, mut copy)) in promoted.iter().zip(copies).enumerate() {
        push(
            &promoted_column(key),
            promoted_field_id(i),
            true,
            Arc::new(copy.finish()),
        );
    }
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
}

/// A severity that fits the int32 column and prints back the same (else it goes to `other`).
fn small_int(value: &Value) -> Option<i32> {
    // The workspace's serde_json keeps number text (`arbitrary_precision`): `17` only, not `17.0`
    // or `1.7e1`, which would come back as `17`.
    let Value::Number(n) = value else {
        return None;
    };
    let text = n.as_str();
    if text.is_empty()
        || !text.bytes().all(|b| b.is_ascii_digit())
        || text.starts_with('0') && text.len() > 1
    {
        return None;
    }
    text.parse().ok()
}

fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> Result<&'a T, String> {
    batch
        .column_by_name(name)
        .ok_or_else(|| format!("column `{name}` is missing"))?
        .as_any()
        .downcast_ref::<T>()
        .ok_or_else(|| format!("column `{name}` has an unexpected type"))
}

fn text(array: &StringArray, row: usize) -> Option<&str> {
    array.is_valid(row).then(|| array.value(row))
}

/// The events of a batch read back: rows whose `event_time` is in `[start, end)` and whose
/// tags satisfy `constraints` (the query's tag equalities, [`TagConstraints`]), so that a row
/// the query cannot match is never turned into an event.
pub(crate) fn decode(
    batch: &RecordBatch,
    start_us: i64,
    end_us: i64,
    constraints: &TagConstraints,
) -> Result<Vec<LogEvent>, String> {
    Ok(decode_timed(batch, start_us, end_us, constraints)?
        .into_iter()
        .map(|(_, event)| event)
        .collect())
}

/// [`decode`], each event with its `event_time` (µs): what a sorted scan merges on.
pub(crate) fn decode_timed(
    batch: &RecordBatch,
    start_us: i64,
    end_us: i64,
    constraints: &TagConstraints,
) -> Result<Vec<(i64, LogEvent)>, String> {
    let time: &TimestampMicrosecondArray = column(batch, "event_time")?;
    let stamp: &StringArray = column(batch, "event_timestamp")?;
    let id: &StringArray = column(batch, "id")?;
    let message: &StringArray = column(batch, "message")?;
    let severity: &Int32Array = column(batch, "severity")?;
    let tags: &MapArray = column(batch, "tags")?;
    let attributes: &StringArray = column(batch, "attributes")?;
    let other: &StringArray = column(batch, "other")?;
    let keys = tags
        .keys()
        .as_any()
        .downcast_ref::<StringArray>()
        .ok_or("column `tags` has unexpected keys")?;
    let lists = tags
        .values()
        .as_any()
        .downcast_ref::<ListArray>()
        .ok_or("column `tags` has unexpected values")?;
    let items = lists
        .values()
        .as_any()
        .downcast_ref::<StringArray>()
        .ok_or("column `tags` has unexpected list items")?;
    let map_offsets = tags.value_offsets();
    let list_offsets = lists.value_offsets();
    let mut events = Vec::new();
    for row in 0..batch.num_rows() {
        let t = time.value(row);
        if t < start_us || t >= end_us {
            continue;
        }
        let tagged = tags.is_valid(row);
        let (from, to) = (map_offsets[row] as usize, map_offsets[row + 1] as usize);
        let may_match = constraints.is_empty()
            || tagged && tags_satisfy(constraints, from..to, keys, list_offsets, items);
        if !may_match {
            continue;
        }
        // `from_value` is the only way to a `LogEvent` that had a `tags` field (even `{}`).
        let mut event = if tagged {
            LogEvent::from_value(serde_json::json!({"tags": {}})).map_err(|e| e.to_string())?
        } else {
            LogEvent::default()
        };
        event.event_timestamp = match text(stamp, row) {
            None => Some(Value::String(format_us(t))),
            Some("") => None,
            Some(s) => Some(match serde_json::from_str::<Number>(s) {
                Ok(n) => Value::Number(n),
                Err(_) => Value::String(s.to_owned()),
            }),
        };
        event.id = text(id, row).map(|s| Value::String(s.to_owned()));
        event.message = text(message, row).map(str::to_owned);
        event.severity = severity
            .is_valid(row)
            .then(|| Value::from(severity.value(row)));
        if tagged {
            for entry in from..to {
                let (a, b) = (
                    list_offsets[entry] as usize,
                    list_offsets[entry + 1] as usize,
                );
                let values = (a..b).map(|i| items.value(i).to_owned()).collect();
                event.tags.insert(keys.value(entry).to_owned(), values);
            }
        }
        if let Some(a) = text(attributes, row) {
            event.attributes = Some(
                RawValue::from_string(a.to_owned())
                    .map_err(|e| format!("row {row}: `attributes` is not JSON: {e}"))?,
            );
        }
        if let Some(o) = text(other, row) {
            let fields: Map<String, Value> = serde_json::from_str(o)
                .map_err(|e| format!("row {row}: `other` is not a JSON object: {e}"))?;
            for (k, v) in fields {
                match k.as_str() {
                    "id" => event.id = Some(v),
                    "severity" => event.severity = Some(v),
                    "receivedTimestamp" => event.received_timestamp = Some(v),
                    _ => {
                        event.other.insert(k, v);
                    }
                }
            }
        }
        events.push((t, event));
    }
    Ok(events)
}
