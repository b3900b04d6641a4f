//! Unit tests of the output formats: sorting, flattening, CSV quoting, tables.

use super::*;
use serde_json::json;

fn style(format: Format) -> Style {
    Style {
        format,
        sort: parse_sort("id:asc").unwrap(),
        max_depth: 1,
        max_lines: 4,
        no_timestamps: false,
        columns: Vec::new(),
        timezone: jiff::tz::TimeZone::UTC,
        color: false,
    }
}

#[test]
fn columns_follow_the_public_clients_order() {
    let mut columns: Vec<String> = [
        "zeta",
        "description",
        "tags.a",
        "version",
        "id",
        "alpha",
        "name",
        "message",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    order_columns(&mut columns);
    assert_eq!(
        columns,
        [
            "id",
            "name",
            "version",
            "tags.a",
            "description",
            "message",
            "alpha",
            "zeta"
        ]
    );
}

#[test]
fn sort_orders_and_errors() {
    let mut records = vec![
        json!({"id": "b", "v": 2}),
        json!({"id": "a", "v": 10}),
        json!({"v": 1}),
    ];
    sort_records(&mut records, &parse_sort("id").unwrap());
    assert_eq!(records[0]["id"], "a");
    assert!(records[2].get("id").is_none(), "missing values last");
    sort_records(&mut records, &parse_sort("v:desc").unwrap());
    assert_eq!(records[0]["v"], 10);
    assert!(parse_sort("id:up").is_err());
}

#[test]
fn csv_quotes_and_nested_json() {
    let records = json!([{"id": "a", "name": "x, \"y\"", "tags": {"k": "v"}}]);
    let text = render(records, Shape::List(&[]), &style(Format::Csv));
    assert_eq!(
        text,
        "id,name,tags\na,\"x, \"\"y\"\"\",\"{\"\"k\"\":\"\"v\"\"}\"\n"
    );
}

#[test]
fn max_depth_spreads_objects_into_columns() {
    let records = json!([{"id": "a", "tags": {"k": "v"}}]);
    let mut s = style(Format::Csv);
    s.max_depth = 2;
    assert_eq!(render(records, Shape::List(&[]), &s), "id,tags.k\na,v\n");
}

#[test]
fn raw_compact_pretty_and_empty_tables() {
    let records = json!([{"id": "b"}, {"id": "a"}]);
    assert_eq!(
        render(records.clone(), Shape::List(&[]), &style(Format::Raw)),
        "{\"id\":\"a\"}\n{\"id\":\"b\"}\n"
    );
    assert_eq!(
        render(records.clone(), Shape::List(&[]), &style(Format::Compact)),
        "[{\"id\":\"a\"},{\"id\":\"b\"}]\n"
    );
    assert!(render(records, Shape::List(&[]), &style(Format::Pretty)).starts_with("[\n  {"));
    assert_eq!(
        render(json!([]), Shape::List(&["id"]), &style(Format::Table)),
        "No data to display\n"
    );
}

#[test]
fn timestamps_in_the_time_zone_or_left_out() {
    let record = json!({"id": "a", "createdAt": "2026-11-23T13:10:37.123Z"});
    let mut s = style(Format::Csv);
    s.timezone = parse_timezone("Europe/Paris").unwrap();
    assert_eq!(
        render(record.clone(), Shape::One, &s),
        "id,createdAt\na,2026-11-23T14:10:37.123+01:00\n"
    );
    s.no_timestamps = true;
    assert_eq!(render(record, Shape::One, &s), "id\na\n");
}

#[test]
fn one_record_as_field_value_rows() {
    let text = render(
        json!({"name": "n", "id": "a", "tags": {"k": "v"}}),
        Shape::One,
        &style(Format::Table),
    );
    assert!(text.starts_with("+------+"), "{text}");
    assert!(text.contains("| id   | a "), "{text}");
    assert!(text.contains("|      |   \"k\": \"v\""), "{text}");
}
