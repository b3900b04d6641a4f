//! `edge_parser`: the edge grammar's parse/format round trip.

use jobgraph_core::{format_edge, parse_edge};

/// `edge_parser`: any string → `parse_edge`; a parsed edge formats to a canonical text that
/// parses to the same edge and formats to itself; an error quotes the text.
pub fn edge_parser(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_edge_text(text);
    // The same text as an endpoint pair, so that the endpoint grammar is reached directly too.
    if let Some((from, to)) = text.split_once('\n') {
        check_edge_text(&format!("{from}->{to}"));
    }
}

fn check_edge_text(text: &str) {
    match parse_edge(text) {
        Ok(edge) => {
            let canonical = format_edge(&edge);
            let again = parse_edge(&canonical)
                .unwrap_or_else(|e| panic!("canonical form {canonical:?} of {text:?} fails: {e}"));
            assert_eq!(again, edge, "roundtrip of {text:?} via {canonical:?}");
            assert_eq!(
                format_edge(&again),
                canonical,
                "canonical form is not a fixed point"
            );
            assert_eq!(edge.to_string(), canonical);
            // Names never carry the characters that delimit them.
            for end in [&edge.from, &edge.to] {
                for name in std::iter::once(&end.vertex).chain(end.port.as_ref()) {
                    assert!(!name.is_empty(), "empty name in {text:?}");
                    assert!(!name.contains(':'), "`:` in name {name:?} of {text:?}");
                    assert!(!name.contains("->"), "`->` in name {name:?} of {text:?}");
                    assert!(!name.chars().any(char::is_whitespace), "space in {name:?}");
                }
            }
            // The endpoints parse on their own to the same endpoints.
            for end in [&edge.from, &edge.to] {
                let parsed: jobgraph_core::Endpoint = end.to_string().parse().unwrap();
                assert_eq!(&parsed, end);
            }
        }
        Err(e) => {
            assert_eq!(e.edge, text, "the error quotes the text");
            assert!(!e.reason.is_empty());
            assert!(e.to_string().contains(&format!("{text:?}")));
        }
    }
}
