//! The check of the `grok_rules` target: grok rule text, helper rules and a line (separated by
//! NUL bytes) compile and parse without panicking, deterministically, with well-formed errors.

use std::time::Duration;

use jobgraph_core::grok::{GrokError, GrokParser};

/// Probe lines parsed by every parser that compiles (besides the input's own line).
const PROBES: [&str; 4] = [
    "",
    "a",
    "127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 2",
    "é ✓ 42",
];

/// `rules\0helpers\0line`: no panic; `GrokParser::new` is deterministic; a rule error has a
/// 1-based line and column and starts `Invalid grok rule `; a parser parses the line and the
/// probes twice with the same result (a time limit is accepted), and a match names a rule of
/// the parser.
pub fn grok_rules(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, '\0');
    let rules = parts.next().unwrap_or_default();
    let helpers = parts.next().unwrap_or_default();
    let line = parts.next().unwrap_or_default();
    let first = GrokParser::new(rules, helpers);
    let again = GrokParser::new(rules, helpers);
    match (first, again) {
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "compiling {rules:?} is deterministic");
            let GrokError::Rule { line, column, .. } = &a else {
                panic!("compiling gave a time limit: {a}");
            };
            assert!(*line >= 1 && *column >= 1, "{a}");
            assert!(a.to_string().starts_with("Invalid grok rule "), "{a}");
        }
        (Ok(parser), Ok(_)) => {
            let parser = parser.with_time_limit(Duration::from_millis(20));
            let names: Vec<&str> = parser.rule_names().collect();
            for l in std::iter::once(line).chain(PROBES) {
                let one = parser.parse(l);
                let two = parser.parse(l);
                match (&one, &two) {
                    (Err(GrokError::TimeLimit { .. }), _)
                    | (_, Err(GrokError::TimeLimit { .. })) => {}
                    _ => assert_eq!(one, two, "parsing {l:?} is deterministic"),
                }
                if let Ok(Some(m)) = one {
                    assert!(names.contains(&m.matching_rule_name.as_str()), "{m:?}");
                    let _ = serde_json::to_string(&m);
                }
            }
        }
        (a, b) => panic!(
            "compiling {rules:?} twice: {:?} then {:?}",
            a.err(),
            b.err()
        ),
    }
}
