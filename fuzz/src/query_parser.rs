//! `query_parser`: the query language of `logs-filter` (jobgraph_core::pipeline::Query).

use jobgraph_core::pipeline::{LogEvent, Query};

/// A few events of every shape the matcher reads: words, tags, attributes of each JSON kind.
fn events() -> Vec<LogEvent> {
    [
        r#"{"id":"a","message":"Connection timeout after 30s on db-1","tags":{"level":["error"],"service":["web-app"]},"attributes":{"http":{"status":500},"n":5,"ok":true,"p":null,"list":[1,"x"]}}"#,
        r#"{"id":"b","message":"ÉCOLE straße λόγος 東京 _under_score","tags":{"env":[],"v":["1","9"]},"attributes":{"s":"b"}}"#,
        r#"{"id":"c"}"#,
    ]
    .iter()
    .filter_map(|text| serde_json::from_str(text).ok().and_then(|v| LogEvent::from_value(v).ok()))
    .collect()
}

/// `query_parser`: any string → `Query::parse`. A query parses the same way twice, its tree
/// serializes, and matching never panics; an error names a column within the query (or just past
/// its end) and says `Invalid query: `.
pub fn query_parser(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Query::parse(text) {
        Ok(query) => {
            let again =
                Query::parse(text).unwrap_or_else(|e| panic!("{text:?} parsed, then failed: {e}"));
            assert_eq!(again, query, "parsing {text:?} is deterministic");
            let tree = query.tree();
            assert!(tree.get("kind").is_some(), "tree of {text:?}: {tree}");
            for event in events() {
                let _ = query.matches(&event);
            }
        }
        Err(e) => {
            let chars = text.chars().count();
            assert!(e.column >= 1, "column of {text:?}: {}", e.column);
            assert!(
                e.column <= chars + 1 || chars > jobgraph_core::pipeline::query::MAX_QUERY_CHARS,
                "column {} past the end of {text:?}",
                e.column
            );
            assert!(e.to_string().starts_with("Invalid query: "), "{e}");
            assert_eq!(e.query, text);
            let _ = e.caret();
        }
    }
}
