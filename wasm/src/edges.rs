//! `parseEdge` and `formatEdge`: edges as `{from: {vertex, port?}, to: {vertex, port?}}`.

use jobgraph_core::parse_edge;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::convert::{RawError, to_js};

/// Parses an edge into `{from: {vertex, port?}, to: {vertex, port?}}`.
#[wasm_bindgen(js_name = parseEdge)]
pub fn parse_edge_js(text: &str) -> Result<JsValue, JsValue> {
    let edge = parse_edge(text)
        .map_err(|e| RawError::new("MALFORMED_EDGE", "malformed edge", e.to_string()).into_js())?;
    to_js(&EdgeJs::from(&edge))
}

/// The canonical text of an edge: `from[:port] -> to[:port]`.
#[wasm_bindgen(js_name = formatEdge)]
pub fn format_edge_js(edge: JsValue) -> Result<String, JsValue> {
    let edge: EdgeJs = serde_wasm_bindgen::from_value(edge)
        .map_err(|e| RawError::usage(format!("edge: {e}")).into_js())?;
    let text = format!("{} -> {}", edge.from.text(), edge.to.text());
    // Round-trip through the parser so that only well-formed edges are written.
    parse_edge(&text)
        .map(|e| e.to_string())
        .map_err(|e| RawError::usage(e.to_string()).into_js())
}

/// An edge as JavaScript sees it.
#[derive(Serialize, Deserialize)]
struct EdgeJs {
    from: EndpointJs,
    to: EndpointJs,
}

#[derive(Serialize, Deserialize)]
struct EndpointJs {
    vertex: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    port: Option<String>,
}

impl EndpointJs {
    fn text(&self) -> String {
        match &self.port {
            Some(port) => format!("{}:{port}", self.vertex),
            None => self.vertex.clone(),
        }
    }
}

impl From<&jobgraph_core::Edge> for EdgeJs {
    fn from(edge: &jobgraph_core::Edge) -> Self {
        let end = |e: &jobgraph_core::Endpoint| EndpointJs {
            vertex: e.vertex.clone(),
            port: e.port.clone(),
        };
        EdgeJs {
            from: end(&edge.from),
            to: end(&edge.to),
        }
    }
}
