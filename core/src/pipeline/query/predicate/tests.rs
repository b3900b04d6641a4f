//! Tests of the predicate forms: compiling, checking and matching each.

use super::*;
use crate::pipeline::LogEvent;
use serde_json::json;

fn event(message: Option<&str>) -> LogEvent {
    let mut value = json!({"tags": {"level": ["error"]}, "attributes": {"n": 3}});
    if let Some(m) = message {
        value["message"] = json!(m);
    }
    LogEvent::from_value(value).unwrap()
}

fn matches(predicate: Value, message: Option<&str>) -> bool {
    Query::from_predicate(&predicate)
        .unwrap()
        .matches(&event(message))
}

#[test]
fn message_length_bounds_are_inclusive_characters() {
    let p = json!({"type": "message-length", "minLength": 3, "maxLength": 5});
    assert!(!matches(p.clone(), Some("ab")));
    assert!(matches(p.clone(), Some("abc")));
    assert!(matches(p.clone(), Some("abcde")));
    assert!(!matches(p.clone(), Some("abcdef")));
    // Characters, not bytes: five two-byte and five four-byte characters.
    assert!(matches(p.clone(), Some("ééééé")));
    assert!(matches(p.clone(), Some("😀😀😀😀😀")));
    assert!(!matches(p.clone(), Some("😀😀😀😀😀😀")));
    // A missing message is the empty message: length 0.
    assert!(!matches(p, None));
    assert!(matches(
        json!({"type": "message-length", "maxLength": 0}),
        None
    ));
    assert!(matches(
        json!({"type": "message-length", "minLength": 0}),
        None
    ));
}

#[test]
fn structured_predicates_combine() {
    let q = |text: &str| json!({"type": "datadog-query", "query": text});
    let and = json!({"type": "and-predicate", "queries": [q("level:error"), {"type": "message-length", "minLength": 4}]});
    assert!(matches(and.clone(), Some("disk")));
    assert!(!matches(and, Some("ok")));
    let nested = json!({"type": "and-predicate", "queries": [
        {"type": "and-predicate", "queries": [q("level:info OR level:error"), "@n:>2"]},
        {"type": "message-length", "maxLength": 2}]});
    assert!(matches(nested.clone(), Some("ab")));
    assert!(!matches(nested, Some("abc")));
}

#[test]
fn text_and_tree_of_each_form() {
    let q =
        Query::from_predicate(&json!({"type": "datadog-query", "query": "level:error"})).unwrap();
    assert_eq!(q.text(), "level:error");
    assert_eq!(q, Query::parse("level:error").unwrap());
    let legacy = Query::from_predicate(&json!({"type": "simple-query", "predicate": "a"})).unwrap();
    assert_eq!(legacy.text(), "a");
    let p = json!({"type": "and-predicate", "queries": ["a", {"type": "message-length", "maxLength": 9}]});
    let q = Query::from_predicate(&p).unwrap();
    assert_eq!(q.text(), serde_json::to_string(&p).unwrap());
    assert_eq!(
        q.tree(),
        json!({"kind": "and", "items": [
            {"kind": "message", "word": "a"},
            {"kind": "message-length", "minLength": null, "maxLength": 9}]})
    );
}

#[test]
fn and_predicates_keep_tag_constraints() {
    let p = json!({"type": "and-predicate", "queries": [
        {"type": "datadog-query", "query": "service:web"},
        {"type": "message-length", "minLength": 40}]});
    let constraints = Query::from_predicate(&p).unwrap().tag_constraints();
    assert_eq!(constraints, vec![vec![("service".into(), "web".into())]]);
    let or = json!({"type": "datadog-query", "query": "service:web OR disk"});
    assert!(
        Query::from_predicate(&or)
            .unwrap()
            .tag_constraints()
            .is_empty()
    );
}

#[test]
fn errors_name_the_part_and_the_fix() {
    let cases = [
        (json!(7), "", "must be a predicate object"),
        (json!({"type": 3}), "/type", "must be a string"),
        (
            json!({"type": "x-predicate"}),
            "/type",
            "unknown predicate type `x-predicate`",
        ),
        (
            json!({"type": "newrelic-query", "query": "a"}),
            "/type",
            "not supported",
        ),
        (json!({"type": "datadog-query"}), "", "needs its text"),
        (
            json!({"type": "datadog-query", "query": "(a"}),
            "/query",
            "unbalanced parenthesis",
        ),
        (
            json!({"type": "and-predicate"}),
            "/queries",
            "needs its predicates",
        ),
        (
            json!({"type": "and-predicate", "queries": []}),
            "/queries",
            "at least one",
        ),
        (
            json!({"type": "and-predicate", "queries": {}}),
            "/queries",
            "must be an array",
        ),
        (
            json!({"type": "or-predicate", "queries": ["a"]}),
            "/type",
            "there is no `or-predicate`",
        ),
        (
            json!({"type": "metric-predicate", "query": "a"}),
            "/type",
            "not supported",
        ),
        (
            json!({"type": "and-predicate", "queries": ["a", {"type": "message-length", "minLength": -1}]}),
            "/queries/1/minLength",
            "whole number",
        ),
        (
            json!({"type": "message-length", "minLength": 1.5}),
            "/minLength",
            "found 1.5",
        ),
        (
            json!({"type": "message-length", "minLength": 5, "maxLength": 4}),
            "/maxLength",
            "less than",
        ),
    ];
    for (predicate, pointer, text) in cases {
        let err = Query::from_predicate(&predicate).unwrap_err();
        assert_eq!(err.pointer, pointer, "{predicate}: {err}");
        assert!(err.message.contains(text), "{predicate}: {err}");
    }
    let err = Query::from_predicate(&json!({"type": "datadog-query", "query": "(a"})).unwrap_err();
    assert_eq!(err.query.map(|q| q.column), Some(1));
}

#[test]
fn validation_wants_objects_with_their_type_and_leaves_text_to_the_run() {
    for (predicate, pointer) in [
        (json!("a"), ""),
        (json!({"query": "a"}), ""),
        (
            json!({"type": "and-predicate", "queries": [{"type": "datadog-query", "query": "a"}, "b"]}),
            "/queries/1",
        ),
    ] {
        let err = Query::check_predicate(&predicate).unwrap_err();
        assert_eq!(err.pointer, pointer, "{predicate}: {err}");
        assert!(err.message.starts_with(OBJECT), "{predicate}: {err}");
        assert!(Query::from_predicate(&predicate).is_ok(), "{predicate}");
    }
    let ok = json!({"type": "and-predicate", "queries": [
        {"type": "datadog-query", "query": "a"}, {"type": "message-length", "maxLength": 3}]});
    assert!(Query::check_predicate(&ok).is_ok());
    // A query's text is the run's to parse, with its column.
    let text = json!({"type": "datadog-query", "query": "(a"});
    assert!(Query::check_predicate(&text).is_ok());
    assert!(Query::from_predicate(&text).is_err());
    // Structure is checked all the same.
    let bounds = json!({"type": "message-length", "minLength": 2, "maxLength": 1});
    assert!(Query::check_predicate(&bounds).is_err());
}

#[test]
fn hostile_nesting_and_size_are_bounded() {
    let mut deep = json!("a");
    for _ in 0..100 {
        deep = json!({"type": "and-predicate", "queries": [deep]});
    }
    let err = Query::from_predicate(&deep).unwrap_err();
    assert!(err.message.contains("nested deeper than 32"), "{err}");
    let wide = json!({"type": "and-predicate", "queries": vec![json!("a"); 100_000]});
    let err = Query::from_predicate(&wide).unwrap_err();
    assert!(err.message.contains("more than 256 parts"), "{err}");
    assert_eq!(err.pointer, "/queries/255");
}

#[test]
fn length_shortcut_agrees_with_counting() {
    let texts = [
        "",
        "a",
        "ab",
        "é",
        "éé",
        "😀",
        "a😀é",
        "abcdefgh",
        "😀😀😀😀😀😀😀😀",
    ];
    for text in texts {
        let n = text.chars().count() as u64;
        for min in [None, Some(0), Some(1), Some(2), Some(3), Some(8)] {
            for max in [None, Some(0), Some(1), Some(2), Some(7), Some(8)] {
                let want = min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m);
                assert_eq!(
                    length_within(text, min, max),
                    want,
                    "{text:?} {min:?} {max:?}"
                );
            }
        }
    }
}
