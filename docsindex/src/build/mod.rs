//! The build-time side (feature `build`): the corpus read from disk and indexed, for
//! `cli/build.rs`.
//!
//! The corpus, relative to the repository's root:
//! - `docs/*.md`, `README.md`, `pkg/README.md`, `vendor/README.md`, and every `README.md`
//!   under `examples/` and `tests/conformance/`, as `doc://<path>`;
//! - `docs/openapi.json`: each operation as `api://<operationId>`, each component schema as
//!   `schema://<Name>`, rendered as Markdown by [`openapi`].

pub mod openapi;

use std::path::{Path, PathBuf};

use crate::index::{Builder, Kind};

/// A corpus file that could not be read or understood.
#[derive(Debug)]
pub struct BuildError(String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

/// Single Markdown files of the corpus.
const FILES: &[&str] = &["README.md", "pkg/README.md", "vendor/README.md"];
/// Folders whose every `README.md` (at any depth) is in the corpus.
const README_TREES: &[&str] = &["examples", "tests/conformance"];
/// The OpenAPI document (`docs:search -t api|schema`).
pub const OPENAPI: &str = "docs/openapi.json";

/// The Markdown files of the corpus under `root`, as paths relative to it (`/`-separated),
/// sorted.
pub fn markdown_files(root: &Path) -> Result<Vec<String>, BuildError> {
    let mut files: Vec<String> = FILES.iter().map(|f| (*f).to_owned()).collect();
    let docs = root.join("docs");
    for entry in read_dir(&docs)? {
        if entry.extension().is_some_and(|e| e == "md") {
            files.push(relative(root, &entry));
        }
    }
    for tree in README_TREES {
        let mut stack = vec![root.join(tree)];
        while let Some(dir) = stack.pop() {
            for entry in read_dir(&dir)? {
                if entry.is_dir() {
                    stack.push(entry);
                } else if entry.file_name().is_some_and(|n| n == "README.md") {
                    files.push(relative(root, &entry));
                }
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Indexes the corpus under `root`; also returns every file and folder read (for
/// `cargo:rerun-if-changed`).
pub fn index(root: &Path) -> Result<(Builder, Vec<PathBuf>), BuildError> {
    let mut builder = Builder::default();
    let mut read = vec![
        root.join("docs"),
        root.join("examples"),
        root.join("tests/conformance"),
    ];
    for file in markdown_files(root)? {
        let path = root.join(&file);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| BuildError(format!("cannot read {}: {e}", path.display())))?;
        builder.add_markdown(&format!("doc://{file}"), Kind::Doc, &text);
        read.push(path);
    }
    let path = root.join(OPENAPI);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        BuildError(format!(
            "cannot read {}: {e} (regenerate it: JOBGRAPH_UPDATE_OPENAPI=1 cargo test -p jobgraph-cli --test openapi_drift)",
            path.display()
        ))
    })?;
    let document: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| BuildError(format!("{} is not JSON: {e}", path.display())))?;
    for (uri, kind, markdown) in openapi::render(&document) {
        builder.add_markdown(&uri, kind, &markdown);
    }
    read.push(path);
    Ok((builder, read))
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, BuildError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| BuildError(format!("cannot list {}: {e}", dir.display())))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| BuildError(format!("cannot list {}: {e}", dir.display())))?;
        paths.push(entry.path());
    }
    Ok(paths)
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
