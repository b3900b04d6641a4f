//! Unit tests of input validation: default filling, the JSON Schema Test Suite with both pattern
//! engines, ECMA-262 pattern corner cases.

use super::*;
use serde_json::json;

#[test]
fn fills_nested_defaults_and_refs() {
    let schema = json!({
        "type": "object",
        "$defs": {"port": {"type": "integer", "default": 8080}},
        "properties": {
            "server": {
                "type": "object",
                "default": {},
                "properties": {
                    "host": {"type": "string", "default": "localhost"},
                    "port": {"$ref": "#/$defs/port"}
                }
            },
            "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"default": "x"}}}},
            "given": {"type": "string", "default": "unused"}
        }
    });
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    let filled = compiled
        .check(json!({"tags": [{}, {"k": "y"}], "given": "mine"}))
        .unwrap();
    assert_eq!(
        filled,
        json!({"tags": [{"k": "x"}, {"k": "y"}], "given": "mine",
               "server": {"host": "localhost", "port": 8080}})
    );
}

#[test]
fn reports_every_violation() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "number", "minimum": 1}, "b": {"enum": ["x", "y"]}},
        "required": ["c"]
    });
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    let mut problems = compiled.check(json!({"a": 0, "b": "z"})).unwrap_err();
    problems.sort_by(|x, y| x.pointer.cmp(&y.pointer));
    let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(pointers, ["", "/a", "/b"]);
    assert!(
        problems[0].message.contains("\"c\" is a required property"),
        "{}",
        problems[0]
    );
}

/// Regression (fuzz target `template_loading`): self-references that fan out made default
/// filling run 2^32 steps; it now stops after `MAX_DEFAULT_VISITS`.
#[test]
fn fanned_out_self_references_stay_bounded() {
    let started = std::time::Instant::now();
    let schema = json!({"allOf": [{"$ref": "#"}, {"$ref": "#"}],
                        "properties": {"x": {"default": 1}}});
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    assert_eq!(compiled.check(json!({})).unwrap(), json!({"x": 1}));
    let schema = json!({"type": "object", "properties": {
        "a": {"$ref": "#", "default": {}}, "b": {"$ref": "#", "default": {}}}});
    let mut filled = json!({});
    fill_defaults(&schema, &schema, &mut filled, 0);
    assert!(
        filled["a"]["a"]["a"].is_object() && filled["b"].is_object(),
        "defaults are filled a few levels deep"
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
}

/// Every test of the JSON Schema Test Suite copy (required 2020-12 tests and the optional
/// ECMA-262 regex tests), run with both pattern engines: both give the expected verdict.
#[test]
fn both_pattern_engines_pass_the_suite() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .chain(std::fs::read_dir(dir.join("optional")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut run, mut failures) = (0, Vec::new());
    for file in &files {
        let groups: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for group in &groups {
            if group["schema"].to_string().contains("localhost:1234") {
                continue;
            }
            for engine in [Patterns::BuiltIn, Patterns::Ecma] {
                let schema = InputSchema::compile_with(Some(&group["schema"]), engine)
                    .unwrap_or_else(|e| panic!("{file:?} {}: {e}", group["description"]));
                for test in group["tests"].as_array().unwrap() {
                    run += 1;
                    if schema.is_valid(&test["data"]) != test["valid"].as_bool().unwrap() {
                        failures.push(format!(
                            "{engine:?}: {} / {}",
                            group["description"], test["description"]
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(run > 2 * 1300, "only {run} runs");
}

/// Patterns where a naive engine goes wrong: both engines read them as ECMA-262 does.
#[test]
fn both_pattern_engines_agree_on_ecma_262() {
    let cases: &[(&str, &str, bool)] = &[
        (r"^\d+$", "123", true),
        (r"^\d+$", "\u{0664}", false), // Arabic-Indic digit: \d is ASCII only
        (r"^\w+$", "é", false),        // \w is ASCII only
        (r"^\s$", "\u{2003}", true),   // \s includes Unicode spaces
        (r"^abc$", "abc\n", false),    // $ is the end of input, not before a newline
        (r"(?<=a)b", "ab", true),      // look-behind
        (r"(?<!a)b", "ab", false),
        (r"^(a)\1$", "aa", true), // backreference
        (r"^\p{Lu}+$", "ÀB", true),
        (r"^.$", "🐲", true), // one code point, not two UTF-16 units
        (r"^[^x]$", "🐲", true),
        (r"a{2,3}", "xaay", true),
        (r"\_", "a_b", true), // identity escape, valid without the `u` flag
        (r"a\-b\@", "a-b@", true),
        (r"^[\_\-]+$", "_-", true),
        (r"^[\_\-]+$", "_a", false),
    ];
    for engine in [Patterns::BuiltIn, Patterns::Ecma] {
        for (pattern, text, expected) in cases {
            let schema = InputSchema::compile_with(Some(&json!({"pattern": pattern})), engine)
                .unwrap_or_else(|e| panic!("{engine:?} {pattern}: {e}"));
            assert_eq!(
                schema.is_valid(&json!(text)),
                *expected,
                "{engine:?}: {pattern} on {text:?}"
            );
            let schema = InputSchema::compile_with(
                Some(&json!({"patternProperties": {*pattern: false}})),
                engine,
            )
            .unwrap();
            assert_eq!(
                schema.is_valid(&json!({*text: 1})),
                !*expected,
                "{engine:?}: patternProperties {pattern} on {text:?}"
            );
        }
        for invalid in ["(", "[a-", "a**", r"\p{NoSuchProperty}"] {
            let err = InputSchema::compile_with(Some(&json!({"pattern": invalid})), engine)
                .err()
                .unwrap_or_else(|| panic!("{engine:?} accepted {invalid}"));
            assert!(
                err.to_string().contains("regex"),
                "{engine:?} {invalid}: {err}"
            );
        }
    }
}

#[test]
fn invalid_schema_is_an_error() {
    let err = InputSchema::compile(Some(&json!({"type": "objekt"}))).unwrap_err();
    assert!(err.to_string().contains("objekt"), "{err}");
}

/// A budget of `ms` milliseconds as the script time limit.
fn budget(ms: u64) -> MatchBudget {
    MatchBudget::new(
        &Limits {
            timeout_ms: ms,
            ..Limits::default()
        },
        None,
    )
}

#[test]
fn a_catastrophic_pattern_stops_at_the_budget_and_names_where() {
    let schema =
        json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "^(a|a)*$"}}});
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    let started = web_time::Instant::now();
    let problems = compiled
        .check_within(json!({"x": format!("{}!", "a".repeat(40))}), &budget(200))
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(elapsed.as_millis() < 2_000, "took {elapsed:?}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].pointer, "/x");
    assert_eq!(
        problems[0].message,
        "pattern matching exceeded the time limit of 200 ms (schema /properties/x/pattern; raise `timeoutMs`, CLI `--timeout-ms`)"
    );
    // The next validation on this thread is not affected.
    assert!(compiled.check(json!({"x": "aaa"})).is_ok());
    assert!(compiled.is_valid(&json!({"x": "aaa"})));
    // `is_valid` runs under the default budget (1000 ms): a bomb is invalid, not a hang.
    assert!(!compiled.is_valid(&json!({"x": format!("{}!", "a".repeat(40))})));
    assert!(compiled.check(json!({"x": "b"})).is_err());
}

#[test]
fn a_catastrophic_key_pattern_stops_too() {
    let schema = json!({"type": "object", "patternProperties": {"^(a|aa)+$": {"type": "string"}}});
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    let key = format!("{}!", "a".repeat(40));
    let problems = compiled
        .check_within(json!({ key.clone(): "v" }), &budget(100))
        .unwrap_err();
    assert_eq!(problems[0].pointer, format!("/{key}"));
    assert!(
        problems[0]
            .message
            .contains("(schema /patternProperties/^(a|aa)+$; raise"),
        "{problems:?}"
    );
}

#[test]
fn the_resolution_deadline_is_named_when_it_comes_first() {
    let limits = Limits::default();
    let end = web_time::Instant::now() + std::time::Duration::from_millis(50);
    let budget = MatchBudget::new(&limits, Some(end));
    let schema = json!({"properties": {"x": {"pattern": "^(a+)+$"}}});
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    let problems = compiled
        .check_within(json!({"x": format!("{}b", "a".repeat(40))}), &budget)
        .unwrap_err();
    assert!(
        problems[0]
            .message
            .starts_with("pattern matching exceeded the resolution time limit of 10000 ms"),
        "{problems:?}"
    );
}

#[test]
fn patterns_a_linear_engine_refuses_are_valid_everywhere() {
    // `regex` refused this as too large natively, while the npm package accepted it: regress
    // decides in every build now.
    let schema = json!({"properties": {"x": {"pattern": "^((a{1,100}){1,100}){1,100}$"}}});
    let compiled = InputSchema::compile(Some(&schema)).unwrap();
    assert!(compiled.check(json!({"x": "aaaa"})).is_ok());
    assert!(
        compiled
            .check_within(json!({"x": "b"}), &budget(200))
            .is_err()
    );
}

#[test]
fn schemas_past_a_bound_are_refused_with_the_place() {
    let too_many_enums = json!({"properties": {"x": {"enum": (0..10_001).collect::<Vec<_>>()}}});
    let err = InputSchema::compile(Some(&too_many_enums)).unwrap_err();
    assert_eq!(err.schema_path, "/properties/x/enum");
    assert!(err.message.contains("more than 10000 values"), "{err}");

    let long = json!({"pattern": "a".repeat(1001)});
    let err = InputSchema::compile(Some(&long)).unwrap_err();
    assert_eq!(err.schema_path, "/pattern");

    let mut deep = json!({});
    for _ in 0..70 {
        deep = json!({"items": deep});
    }
    let err = InputSchema::compile(Some(&deep)).unwrap_err();
    assert!(err.message.contains("nests deeper than 64 levels"), "{err}");

    let mut defs = serde_json::Map::new();
    for i in 0..300 {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert("d300".into(), json!({}));
    let chain = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let err = InputSchema::compile(Some(&chain)).unwrap_err();
    assert!(err.message.contains("more than 256 $ref keywords"), "{err}");

    let big = json!({"description": "x".repeat(300 * 1024)});
    let err = InputSchema::compile(Some(&big)).unwrap_err();
    assert!(err.message.contains("bytes as compact JSON"), "{err}");
}
