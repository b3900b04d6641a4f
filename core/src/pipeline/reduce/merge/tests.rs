//! Tests of `reduce::merge`.
use super::*;
use serde_json::json;

fn merge(default: &[Strategy], paths: &[(Vec<String>, Vec<Strategy>)], events: &[Value]) -> Value {
    let rules = Rules { default, paths };
    let mut m = Merger::default();
    for e in events {
        m.add(&rules, e.as_object().unwrap());
    }
    Value::Object(m.finish(&rules))
}

#[test]
fn exact_match_keeps_agreeing_values_and_stars_the_others() {
    let out = merge(
        &[Strategy::Exact],
        &[],
        &[
            json!({"host": "a", "http": {"status": 200, "method": "GET"}, "tags": [1, 2]}),
            json!({"host": "a", "http": {"status": 500, "method": "GET"}, "tags": [1, 2]}),
            json!({"host": "a", "extra": true}),
        ],
    );
    assert_eq!(
        out,
        json!({"host": "a", "http": {"status": "*", "method": "GET"}, "tags": [1, 2], "extra": true})
    );
}

#[test]
fn numeric_strategies_ignore_what_is_not_a_number() {
    let path = |p: &str| p.split('.').map(str::to_owned).collect::<Vec<_>>();
    let paths = vec![
        (
            path("bytes"),
            vec![Strategy::Sum, Strategy::Avg, Strategy::Min, Strategy::Max],
        ),
        (path("codes"), vec![Strategy::Sum]),
        (
            path("user"),
            vec![Strategy::Sample {
                limit: 2,
                unique: true,
            }],
        ),
        (path("obj"), vec![Strategy::Exact]),
    ];
    let out = merge(
        &[Strategy::Ignore],
        &paths,
        &[
            json!({"bytes": 10, "codes": [1, 2], "user": "u1", "obj": {"a": 1}, "first": "x"}),
            json!({"bytes": "n/a", "codes": [1, 2, 3], "user": "u1", "obj": {"a": 1}, "first": "y"}),
            json!({"bytes": 30, "user": "u2", "obj": {"a": 1}}),
            json!({"bytes": 2, "user": "u3"}),
        ],
    );
    assert_eq!(
        out,
        json!({
            "bytes": 42.0, "bytes_sum": 42.0, "bytes_avg": 14.0, "bytes_min": 2.0, "bytes_max": 30.0,
            "codes": [2.0, 4.0, 3.0], "user": ["u1", "u2"], "obj": {"a": 1}, "first": "x"
        })
    );
}

#[test]
fn preserve_overflows_where_sample_drops() {
    let rules_paths = vec![(
        vec!["id".to_owned()],
        vec![Strategy::Preserve {
            limit: 2,
            unique: false,
        }],
    )];
    let rules = Rules {
        default: &[Strategy::Exact],
        paths: &rules_paths,
    };
    let mut m = Merger::default();
    for id in [1, 2] {
        let e = json!({"id": id});
        assert!(!m.overflows(&rules, e.as_object().unwrap()));
        m.add(&rules, e.as_object().unwrap());
    }
    assert!(m.overflows(&rules, json!({"id": 3}).as_object().unwrap()));
    assert!(!m.overflows(&rules, json!({"other": 3}).as_object().unwrap()));
    assert!(rules.preserves());
}

#[test]
fn composites_are_read_and_checked() {
    let s = json!({"type": "composite", "strategies": [{"type": "sum"}, {"type": "avg"}]});
    assert_eq!(
        Strategy::read(&s, "r", "f").unwrap(),
        [Strategy::Sum, Strategy::Avg]
    );
    let error = |v: Value| Strategy::read(&v, "r", "f").unwrap_err().to_string();
    let twice = json!({"type": "composite", "strategies": [{"type": "sum"}, {"type": "sum"}]});
    assert!(error(twice).contains("`f.strategies[1]` repeats the strategy `sum`"));
    assert!(error(json!({"type": "composite"})).contains("is empty"));
    assert!(error(json!({"type": "median"})).contains("`f.type` is `median`"));
    let limited = json!({"type": "preserve", "limit": 3, "unique": true});
    assert_eq!(
        Strategy::read(&limited, "r", "f").unwrap(),
        [Strategy::Preserve {
            limit: 3,
            unique: true
        }]
    );
}
