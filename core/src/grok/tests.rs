//! The engine against real rules and lines (the conformance suite in `tests/conformance/grok`
//! covers the dialect case by case).

use serde_json::json;

use super::*;

fn parse(rules: &str, helpers: &str, line: &str) -> Option<GrokMatch> {
    GrokParser::new(rules, helpers)
        .unwrap()
        .parse(line)
        .unwrap()
}

#[test]
fn datadog_example() {
    let m = parse(
        r#"MyParsingRule %{word:user} %{word:tags.lastname} connected on %{date("MM/dd/yyyy"):date} from %{ipv4:ip}"#,
        "",
        "john doe connected on 11/08/2017 from 127.0.0.1",
    )
    .unwrap();
    assert_eq!(m.matching_rule_name, "MyParsingRule");
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"matchingRuleName": "MyParsingRule",
               "attributes": {"user": "john", "date": 1_510_099_200_000_i64, "ip": "127.0.0.1"},
               "tags": {"lastname": ["doe"]}, "topLevelFields": {}})
    );
}

#[test]
fn combined_log_and_helpers() {
    let line = r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)""#;
    let m = parse("Access %{COMBINEDAPACHELOG}", "", line).unwrap();
    assert!(m.attributes.is_empty());
    let m = parse(
        "Access %{ipOrHost:network.client.ip} %{notSpace} %{notSpace:user} \\[%{httpDate:ts}\\] \"%{word:verb} %{notSpace:path} HTTP/%{number:v}\" %{integer:status} %{integer:bytes} %{quotedString:referer} %{quotedString:ua:useragent}",
        "httpDate %{date(\"dd/MMM/yyyy:HH:mm:ss Z\")}",
        line,
    )
    .unwrap();
    assert_eq!(
        m.attributes["network"],
        json!({"client": {"ip": "127.0.0.1"}})
    );
    assert_eq!(m.attributes["status"], json!(200));
    assert_eq!(m.attributes["v"], json!(1.0));
    assert_eq!(m.attributes["ts"], json!("10/Oct/2000:13:55:36 -0700"));
}

#[test]
fn errors_name_rule_line_and_column() {
    let e = GrokParser::new("\nA %{word:x} %{nope:y}", "").unwrap_err();
    assert!(
        matches!(e, GrokError::Rule { ref rule, line: 2, column: 13, .. } if rule == "A"),
        "{e}"
    );
    let e = GrokParser::new("A %{h}", "h %{g}\ng %{h}").unwrap_err();
    assert!(e.to_string().contains("cycle"), "{e}");
    let e = GrokParser::new("A %{word:x", "").unwrap_err();
    assert!(matches!(e, GrokError::Rule { column: 3, .. }), "{e}");
}

#[test]
fn catastrophic_backtracking_stops_at_the_limit() {
    let parser = GrokParser::new(r#"Bad %{regex("(a+)+b")}"#, "")
        .unwrap()
        .with_time_limit(std::time::Duration::from_millis(50));
    let line = "a".repeat(40);
    let e = parser.parse(&line).unwrap_err();
    assert!(
        matches!(e, GrokError::TimeLimit { ref rule, limit_ms: 50 } if rule == "Bad"),
        "{e}"
    );
    // The next line is parsed normally.
    assert!(parser.parse("aab").unwrap().is_some());
}

#[test]
fn parser_is_shared_across_threads() {
    fn shared<T: Send + Sync + Clone>() {}
    shared::<GrokParser>();
    let parser = GrokParser::new("R %{integer:n}", "").unwrap();
    let other = parser.clone();
    let handle = std::thread::spawn(move || other.parse("7").unwrap());
    assert_eq!(handle.join().unwrap().unwrap().attributes["n"], json!(7));
    assert_eq!(parser.rule_names().collect::<Vec<_>>(), ["R"]);
}

#[test]
fn astral_characters_are_two_units() {
    // `.` is one UTF-16 unit (no `u` flag): an emoji is matched by `..`, and a capture that
    // would split it sets nothing.
    assert!(parse(r#"R %{regex("..."):x}"#, "", "a🚀").is_some());
    let m = parse(r#"R %{regex("."):x}%{regex("."):y}"#, "", "🚀").unwrap();
    assert!(m.attributes.is_empty(), "{m:?}");
}

#[test]
fn first_character_prefilter_keeps_results() {
    // Rules starting with a literal are skipped for lines that start otherwise; the others
    // (alternation, quantified first character, escapes) still run.
    let rules = "A \\[%{word:a}\\]\nB x?%{integer:b}\nC (?:y|z)-%{word:c}\nD a|%{integer:d}";
    assert_eq!(parse(rules, "", "[w]").unwrap().matching_rule_name, "A");
    assert_eq!(parse(rules, "", "7").unwrap().matching_rule_name, "B");
    assert_eq!(parse(rules, "", "z-q").unwrap().matching_rule_name, "C");
    assert_eq!(parse(rules, "", "a").unwrap().matching_rule_name, "D");
    assert!(parse(rules, "", "]").is_none());
}

#[test]
fn rules_as_arrays_equal_rules_as_text() {
    let list = GrokRules::List(vec!["a %{word:w}".into(), "b %{integer:n}".into()]);
    let helpers = GrokRules::List(vec![]);
    let parser = GrokParser::from_rules(&list, &helpers).unwrap();
    assert_eq!(parser.rule_names().collect::<Vec<_>>(), ["a", "b"]);
    let text = GrokParser::new("a %{word:w}\nb %{integer:n}", "").unwrap();
    for line in ["x", "7", "x y"] {
        assert_eq!(
            parser.parse(line).unwrap(),
            text.parse(line).unwrap(),
            "{line}"
        );
    }
    // Errors name the item as a JSON pointer; the line counts items as lines.
    let bad = GrokRules::List(vec!["a %{word:w}".into(), "b %{nope:x}".into()]);
    let e = GrokParser::from_rules(&bad, &helpers).unwrap_err();
    assert!(
        matches!(
            e,
            GrokError::Rule {
                index: Some(1),
                line: 2,
                column: 3,
                helper: false,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.pointer().as_deref(), Some("/grokParsingRules/1"));
    assert!(
        e.to_string()
            .starts_with("Invalid grok rule b at 2:3 (/grokParsingRules/1): unknown matcher nope"),
        "{e}"
    );
    let e = GrokParser::from_rules(
        &"r %{h}".into(),
        &GrokRules::List(vec!["h %{word:a}".into(), "g %{word".into()]),
    )
    .unwrap_err();
    assert_eq!(e.pointer().as_deref(), Some("/grokHelperRules/1"));
    // A string keeps its pointer without an item.
    let e = GrokParser::new("a %{nope}", "").unwrap_err();
    assert_eq!(e.pointer().as_deref(), Some("/grokParsingRules"));
}

#[test]
fn quoted_arguments_are_string_literals() {
    // `\\` is one backslash (Datadog's spelling), a single one stays (ours before): both are \d.
    for rule in [r#"R %{regex("\\d{2}"):n}"#, r#"R %{regex("\d{2}"):n}"#] {
        let m = parse(rule, "", "42").unwrap_or_else(|| panic!("{rule}"));
        assert_eq!(m.attributes["n"], json!("42"), "{rule}");
    }
    // Four backslashes are a regular expression matching one backslash.
    assert!(parse(r#"R %{regex("a\\\\b")}"#, "", r"a\b").is_some());
    assert!(parse(r#"R %{regex("a\\\\b")}"#, "", "ab").is_none());
    // The quote inside its string.
    let m = parse(r#"R %{regex("\"[a-z]+\""):q}"#, "", "\"hi\"").unwrap();
    assert_eq!(m.attributes["q"], json!("\"hi\""));
    let e = GrokParser::new(r#"R %{regex("a" b):x}"#, "").unwrap_err();
    assert!(
        e.to_string().contains("unterminated or unescaped string"),
        "{e}"
    );
}
