//! Result formatting: `-f table|csv|pretty|raw|compact`, `-s column:order`, `--max-depth`,
//! `--max-lines`, `--no-timestamps`, `--timezone`, colours. Pure functions of the records and
//! the options, so that golden files can pin every format.

mod emit;
mod table;
mod time;

use std::cmp::Ordering;

use serde_json::{Map, Value};

pub use time::{TIMESTAMP_KEYS, parse_timezone};

pub use crate::args::{Format, OutputArgs};
pub use emit::{emit, emit_bytes, emit_pieces, print_document, style};

/// What is printed: a list of records or one record (or document).
#[derive(Clone, Copy)]
pub enum Shape<'a> {
    /// A list; `summary` names the columns a table shows by default.
    List(&'a [&'a str]),
    /// One record (a table shows it as field/value rows).
    One,
}

/// How to print.
pub struct Style {
    pub format: Format,
    pub sort: Vec<(String, bool)>,
    pub max_depth: usize,
    pub max_lines: usize,
    pub no_timestamps: bool,
    pub columns: Vec<String>,
    pub timezone: jiff::tz::TimeZone,
    pub color: bool,
}

impl Style {
    /// The style of `args`; `default` is the format when none is asked for.
    pub fn new(
        args: &OutputArgs,
        default: Format,
        timezone: jiff::tz::TimeZone,
        color: bool,
    ) -> Result<Style, String> {
        Ok(Style {
            format: args.format.unwrap_or(default),
            sort: parse_sort(args.sort.as_deref().unwrap_or("id:asc"))?,
            max_depth: args.max_depth.max(1),
            max_lines: args.max_lines,
            no_timestamps: args.no_timestamps,
            columns: args.columns.iter().map(|c| c.trim().to_owned()).collect(),
            timezone,
            color,
        })
    }
}

/// `column[:asc|desc]`, comma-separated.
pub fn parse_sort(text: &str) -> Result<Vec<(String, bool)>, String> {
    let mut keys = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (column, order) = part.rsplit_once(':').unwrap_or((part, "asc"));
        let ascending = match order.to_ascii_lowercase().as_str() {
            "asc" => true,
            "desc" => false,
            other => {
                return Err(format!(
                    "--sort {part:?}: the order is `asc` or `desc`, not {other:?}"
                ));
            }
        };
        if column.is_empty() {
            return Err(format!("--sort {part:?}: no column"));
        }
        keys.push((column.to_owned(), ascending));
    }
    Ok(keys)
}

/// The columns first, in this order (the public client's); then dotted columns A–Z, then
/// `description` and `message`, then the rest A–Z.
const PRIORITY: &[&str] = &[
    "id",
    "name",
    "type",
    "state",
    "status",
    "version",
    "createdAt",
    "updatedAt",
    "eventTimestamp",
    "receivedTimestamp",
    "severity",
    "tags",
    "organizationId",
    "execution",
    "processing",
];

fn column_rank(column: &str) -> (usize, usize, String) {
    if let Some(i) = PRIORITY.iter().position(|c| *c == column) {
        return (0, i, String::new());
    }
    if column.contains('.') {
        return (1, 0, column.to_owned());
    }
    match column {
        "description" => (2, 0, String::new()),
        "message" => (2, 1, String::new()),
        _ => (3, 0, column.to_owned()),
    }
}

/// Orders columns by the rule above.
pub fn order_columns(columns: &mut [String]) {
    columns.sort_by_key(|c| column_rank(c));
}

/// The value at a dotted path.
fn lookup<'a>(record: &'a Value, path: &str) -> Option<&'a Value> {
    if let Some(v) = record.get(path) {
        return Some(v);
    }
    let mut current = record;
    for part in path.split('.') {
        current = current.get(part)?;
    }
    Some(current)
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None | Some(Value::Null), None | Some(Value::Null)) => Ordering::Equal,
        (None | Some(Value::Null), _) => Ordering::Greater,
        (_, None | Some(Value::Null)) => Ordering::Less,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x
            .as_f64()
            .partial_cmp(&y.as_f64())
            .unwrap_or(Ordering::Equal),
        (Some(Value::String(x)), Some(Value::String(y))) => x.cmp(y),
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x.cmp(y),
        (Some(x), Some(y)) => x.to_string().cmp(&y.to_string()),
    }
}

/// Sorts records (stable: equal records keep the service's order); missing values last.
pub fn sort_records(records: &mut [Value], keys: &[(String, bool)]) {
    records.sort_by(|a, b| {
        for (column, ascending) in keys {
            let order = compare(lookup(a, column), lookup(b, column));
            let order = if *ascending { order } else { order.reverse() };
            if order != Ordering::Equal {
                return order;
            }
        }
        Ordering::Equal
    });
}

/// Removes the top-level timestamp fields.
fn strip_timestamps(record: &mut Value) {
    if let Value::Object(map) = record {
        map.retain(|k, _| !TIMESTAMP_KEYS.contains(&k.as_str()));
    }
}

/// A record spread into columns down to `depth` levels (1: top-level fields only).
fn flatten(record: &Value, depth: usize) -> Map<String, Value> {
    fn walk(prefix: &str, value: &Value, depth: usize, out: &mut Map<String, Value>) {
        match value {
            Value::Object(map) if depth > 0 && !map.is_empty() => {
                for (k, v) in map {
                    walk(&format!("{prefix}.{k}"), v, depth - 1, out);
                }
            }
            _ => {
                out.insert(prefix.to_owned(), value.clone());
            }
        }
    }
    let mut out = Map::new();
    match record {
        Value::Object(map) => {
            for (k, v) in map {
                walk(k, v, depth.saturating_sub(1), &mut out);
            }
        }
        other => {
            out.insert("value".into(), other.clone());
        }
    }
    out
}

/// A cell's text: strings as they are (timestamps in the time zone), JSON for the rest.
fn cell(column: &str, value: Option<&Value>, style: &Style, pretty: bool) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => {
            let key = column.rsplit('.').next().unwrap_or(column);
            if TIMESTAMP_KEYS.contains(&key)
                && let Some(local) = time::localize(text, &style.timezone, style.format)
            {
                return local;
            }
            text.clone()
        }
        Some(v @ (Value::Object(_) | Value::Array(_))) if pretty => {
            serde_json::to_string_pretty(v).unwrap_or_default()
        }
        Some(v) => v.to_string(),
    }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '\n', '\r', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn json(value: &Value, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    text.unwrap_or_default()
}

/// The columns of flattened records: every key, in the rule's order.
fn all_columns(rows: &[Map<String, Value>]) -> Vec<String> {
    let mut columns: Vec<String> = Vec::new();
    for row in rows {
        for key in row.keys() {
            if !columns.contains(key) {
                columns.push(key.clone());
            }
        }
    }
    order_columns(&mut columns);
    columns
}

/// Renders `value` (a list of records, or one record or document) as text ending with a line
/// break.
pub fn render(value: Value, shape: Shape<'_>, style: &Style) -> String {
    let mut records = match (&shape, value) {
        (Shape::List(_), Value::Array(items)) => items,
        (_, other) => vec![other],
    };
    if matches!(shape, Shape::List(_)) {
        sort_records(&mut records, &style.sort);
    }
    if style.no_timestamps {
        records.iter_mut().for_each(strip_timestamps);
    }
    let list = matches!(shape, Shape::List(_));
    let mut out = match style.format {
        Format::Pretty | Format::Compact => {
            let pretty = style.format == Format::Pretty;
            if list {
                json(&Value::Array(records), pretty)
            } else {
                json(&records.pop().unwrap_or(Value::Null), pretty)
            }
        }
        Format::Raw => records
            .iter()
            .map(|r| json(r, false))
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Csv => {
            let rows: Vec<Map<String, Value>> = records
                .iter()
                .map(|r| flatten(r, style.max_depth))
                .collect();
            let columns = match style.columns.as_slice() {
                [] => all_columns(&rows),
                [all] if all == "all" => all_columns(&rows),
                asked => asked.to_vec(),
            };
            let mut lines = vec![
                columns
                    .iter()
                    .map(|c| csv_field(c))
                    .collect::<Vec<_>>()
                    .join(","),
            ];
            for row in &rows {
                lines.push(
                    columns
                        .iter()
                        .map(|c| csv_field(&cell(c, row.get(c), style, false)))
                        .collect::<Vec<_>>()
                        .join(","),
                );
            }
            lines.join("\n")
        }
        Format::Table => {
            let rows: Vec<Map<String, Value>> = records
                .iter()
                .map(|r| flatten(r, style.max_depth))
                .collect();
            if rows.is_empty() || (list && rows.iter().all(Map::is_empty)) {
                return "No data to display\n".into();
            }
            let mut columns = all_columns(&rows);
            let chosen: Vec<String> = match (&shape, style.columns.as_slice()) {
                (_, [all]) if all == "all" => Vec::new(),
                (_, []) => match &shape {
                    Shape::List(summary) => summary.iter().map(|s| (*s).to_owned()).collect(),
                    Shape::One => Vec::new(),
                },
                (_, asked) => asked.to_vec(),
            };
            if !chosen.is_empty() {
                // Asked-for columns in the order given; a summary in the rule's order.
                let explicit = !style.columns.is_empty();
                columns = if explicit {
                    chosen
                } else {
                    columns.retain(|c| {
                        chosen
                            .iter()
                            .any(|s| c == s || c.starts_with(&format!("{s}.")))
                    });
                    columns
                };
            }
            let table = if list {
                table::Table {
                    header: Some(columns.clone()),
                    rows: rows
                        .iter()
                        .map(|row| {
                            columns
                                .iter()
                                .map(|c| cell(c, row.get(c), style, true))
                                .collect()
                        })
                        .collect(),
                    max_lines: style.max_lines,
                    color: style.color,
                }
            } else {
                let row = &rows[0];
                table::Table {
                    header: None,
                    rows: columns
                        .iter()
                        .filter(|c| row.contains_key(*c))
                        .map(|c| vec![c.clone(), cell(c, row.get(c), style, true)])
                        .collect(),
                    max_lines: style.max_lines,
                    color: style.color,
                }
            };
            return table.render();
        }
    };
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
