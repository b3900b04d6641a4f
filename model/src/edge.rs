//! Edge grammar: `from[:port] -> to[:port]`.
//!
//! An edge names a source endpoint and a target endpoint. Each endpoint is a vertex name,
//! optionally followed by `:` and a port name. White space around the arrow and at both ends is
//! ignored; vertex and port names themselves contain neither white space nor `:`.

use std::fmt;
use std::str::FromStr;

/// One end of an edge: a vertex and an optional port.
///
/// ```
/// use jobgraph_model::Endpoint;
/// let end: Endpoint = "parse:input".parse().unwrap();
/// assert_eq!(end.vertex, "parse");
/// assert_eq!(end.port.as_deref(), Some("input"));
/// assert_eq!(end.to_string(), "parse:input");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Name of the vertex.
    pub vertex: String,
    /// Port of the vertex, when one is named.
    pub port: Option<String>,
}

impl Endpoint {
    /// An endpoint naming `vertex` and, optionally, `port`.
    pub fn new(vertex: impl Into<String>, port: Option<&str>) -> Self {
        Endpoint {
            vertex: vertex.into(),
            port: port.map(str::to_owned),
        }
    }

    /// The same endpoint with `prefix` put before the vertex name.
    pub fn prefixed(&self, prefix: &str) -> Self {
        Endpoint {
            vertex: format!("{prefix}{}", self.vertex),
            port: self.port.clone(),
        }
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.port {
            Some(port) => write!(f, "{}:{port}", self.vertex),
            None => f.write_str(&self.vertex),
        }
    }
}

impl FromStr for Endpoint {
    type Err = EdgeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_endpoint(text.trim()).map_err(|reason| EdgeError {
            edge: text.to_owned(),
            reason,
        })
    }
}

/// A directed connection between two endpoints.
///
/// ```
/// use jobgraph_model::Edge;
/// let edge: Edge = "  source:output->sink ".parse().unwrap();
/// assert_eq!(edge.to_string(), "source:output -> sink");
/// assert!("source -> ".parse::<Edge>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Where data comes from.
    pub from: Endpoint,
    /// Where data goes to.
    pub to: Endpoint,
}

impl Edge {
    /// An edge from `from` to `to`.
    pub fn new(from: Endpoint, to: Endpoint) -> Self {
        Edge { from, to }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {}", self.from, self.to)
    }
}

impl FromStr for Edge {
    type Err = EdgeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_edge(text)
    }
}

/// A malformed edge or endpoint, quoting the text that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed edge {edge:?}: {reason}")]
pub struct EdgeError {
    /// The text as written.
    pub edge: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Parses `from[:port] -> to[:port]`.
///
/// ```
/// let edge = jobgraph_model::parse_edge("a:out -> b").unwrap();
/// assert_eq!(edge.from.port.as_deref(), Some("out"));
/// assert_eq!(edge.to.port, None);
/// ```
pub fn parse_edge(text: &str) -> Result<Edge, EdgeError> {
    let fail = |reason: String| EdgeError {
        edge: text.to_owned(),
        reason,
    };
    let mut parts = text.split("->");
    let (Some(from), Some(to)) = (parts.next(), parts.next()) else {
        return Err(fail(
            "expected `from[:port] -> to[:port]` but found no `->`".into(),
        ));
    };
    if parts.next().is_some() {
        return Err(fail("more than one `->`".into()));
    }
    let from = parse_endpoint(from.trim()).map_err(|r| fail(format!("source {r}")))?;
    let to = parse_endpoint(to.trim()).map_err(|r| fail(format!("target {r}")))?;
    Ok(Edge { from, to })
}

/// Writes an edge in its canonical form, `from[:port] -> to[:port]` with single spaces.
pub fn format_edge(edge: &Edge) -> String {
    edge.to_string()
}

fn parse_endpoint(text: &str) -> Result<Endpoint, String> {
    if text.is_empty() {
        return Err("is empty".into());
    }
    let (vertex, port) = match text.split_once(':') {
        Some((vertex, port)) => (vertex, Some(port)),
        None => (text, None),
    };
    check_name(vertex).map_err(|r| format!("vertex name {vertex:?} {r}"))?;
    if let Some(port) = port {
        if port.contains(':') {
            return Err(format!("{text:?} has more than one `:`"));
        }
        check_name(port).map_err(|r| format!("port name {port:?} of {vertex:?} {r}"))?;
    }
    Ok(Endpoint::new(vertex, port))
}

fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("is empty")
    } else if name.chars().any(char::is_whitespace) {
        Err("contains white space")
    } else {
        Ok(())
    }
}

/// Whether `name` is usable as a vertex name: non-empty, without `:` or white space.
pub fn is_valid_vertex_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(':') && !name.chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_four_shapes() {
        for (text, canonical) in [
            ("a -> b", "a -> b"),
            ("a:out -> b", "a:out -> b"),
            ("a->b:in", "a -> b:in"),
            ("\t a:x  ->  b:y \n", "a:x -> b:y"),
        ] {
            let edge = parse_edge(text).unwrap();
            assert_eq!(edge.to_string(), canonical);
            assert_eq!(parse_edge(canonical).unwrap(), edge);
        }
    }

    #[test]
    fn rejects_malformed_edges_and_quotes_them() {
        for (text, needle) in [
            ("a b", "no `->`"),
            ("a -> b -> c", "more than one"),
            (" -> b", "source is empty"),
            ("a -> ", "target is empty"),
            ("a: -> b", "port name \"\""),
            (":p -> b", "vertex name \"\""),
            ("a:p:q -> b", "more than one `:`"),
            ("a x -> b", "white space"),
            ("a -> b: c", "white space"),
        ] {
            let err = parse_edge(text).unwrap_err();
            let message = err.to_string();
            assert!(message.contains(&format!("{text:?}")), "{message}");
            assert!(message.contains(needle), "{message} lacks {needle}");
        }
    }

    #[test]
    fn endpoint_prefix_keeps_port() {
        let end = Endpoint::new("v", Some("p")).prefixed("op.");
        assert_eq!(end.to_string(), "op.v:p");
    }
}
