//! `docs:search` and `docs:get`: the reference (docs, READMEs, the API's operations and
//! schemas) indexed at build time (`build.rs`, crate `jobgraph-docsindex`) and embedded here.

use std::fmt::Write as _;

use jobgraph_docsindex::{Hit, Index, Kind, SearchOptions};
use serde_json::{Value, json};

use crate::args::{DocType, DocsGetArgs, DocsSearchArgs, Global, SearchFormat};
use crate::failure::Failure;
use crate::output::emit_bytes;
use crate::term::{Ui, stdout_color};

/// The index `build.rs` wrote.
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/reference-index.bin"));

fn index() -> Result<Index<'static>, Failure> {
    Index::decode(INDEX).map_err(|e| Failure::failed(e.to_string()))
}

fn kind(t: DocType) -> Option<Kind> {
    match t {
        DocType::Doc => Some(Kind::Doc),
        DocType::Api => Some(Kind::Api),
        DocType::Schema => Some(Kind::Schema),
        DocType::All => None,
    }
}

/// `docs:search`.
pub fn search(args: DocsSearchArgs, global: &Global) -> Result<(), Failure> {
    let index = index()?;
    let query = args.query.join(" ");
    let options = SearchOptions {
        limit: args.limit,
        kind: kind(args.kind),
        preview: args.preview,
    };
    let hits = index.search(&query, &options);
    if hits.is_empty() {
        Ui::new(global, false).note(&format!("no match for \"{query}\""));
    }
    let text = match args.format {
        SearchFormat::Pretty => pretty(&hits, stdout_color(global)),
        SearchFormat::Json => {
            let mut text = serde_json::to_string_pretty(&to_json(&hits))
                .map_err(|e| Failure::failed(e.to_string()))?;
            text.push('\n');
            text
        }
        SearchFormat::Compact => to_json(&hits).to_string() + "\n",
    };
    emit_bytes(text.as_bytes(), global)
}

/// `[{score, uri, sections: [{title, preview}]}]`, scores to three decimals.
fn to_json(hits: &[Hit]) -> Value {
    Value::Array(
        hits.iter()
            .map(|hit| {
                json!({
                    "score": round(hit.score),
                    "uri": hit.uri,
                    "sections": hit.sections.iter()
                        .map(|s| json!({"title": s.title, "preview": s.preview}))
                        .collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

fn round(score: f32) -> f64 {
    (f64::from(score) * 1000.0).round() / 1000.0
}

/// For reading: `1. URI  score`, its sections, the best one's preview.
fn pretty(hits: &[Hit], color: bool) -> String {
    let paint = |code: &str, text: &str| {
        if color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    };
    let mut out = String::new();
    for (i, hit) in hits.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{}. {}  {}",
            i + 1,
            paint("1;36", &hit.uri),
            paint("2", &format!("score {:.3}", hit.score))
        );
        for section in &hit.sections {
            let _ = writeln!(out, "   § {}", paint("33", &section.title));
        }
        if let Some(best) = hit.sections.first().filter(|s| !s.preview.is_empty()) {
            let _ = writeln!(out, "   {}", best.preview);
        }
    }
    out
}

/// `docs:get`.
pub fn get(args: DocsGetArgs, global: &Global) -> Result<(), Failure> {
    let index = index()?;
    let Some(uri) = args.uri.filter(|_| !args.list) else {
        let wanted = kind(args.kind);
        let mut text = String::new();
        for doc in index
            .docs
            .iter()
            .filter(|d| wanted.is_none_or(|k| d.kind == k))
        {
            text.push_str(doc.uri);
            text.push('\n');
        }
        return emit_bytes(text.as_bytes(), global);
    };
    match index.get(&uri) {
        Some(doc) => {
            let mut text = doc.markdown.to_owned();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            emit_bytes(text.as_bytes(), global)
        }
        None => {
            let nearest = index.nearest(&uri, 3);
            let hint = if nearest.is_empty() {
                " (docs:get --list lists every document)".to_owned()
            } else {
                format!(" (did you mean {}?)", nearest.join(", "))
            };
            Err(Failure::failed(format!("Document not found: {uri}{hint}")))
        }
    }
}
