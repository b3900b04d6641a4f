//! The conformance case runner: loads the JSON cases of `tests/conformance/cases`, runs each
//! through `jobgraph-core` and checks the outcome against the case's expectation.

pub mod grok;
pub mod pipelines;
pub mod queries;

use std::path::{Path, PathBuf};

use jobgraph_core::{
    ExecutionCache, Limits, ResolveOptions, Resolver, Template, TemplateSet, TestRequest,
    parse_edge, validate_job_graph,
};
use serde::Deserialize;
use serde_json::{Value, json};

/// One case, as written in a case file.
#[derive(Debug, Clone, Deserialize)]
pub struct Case {
    /// Unique name.
    pub name: String,
    /// The rule it covers.
    #[serde(default)]
    pub rule: String,
    /// `resolve`, `test`, `validate` or `parseEdge`.
    pub operation: String,
    /// Operation input.
    pub input: Value,
    /// Expected outcome.
    pub expect: Value,
}

/// The folder of the case files.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/cases")
}

/// Every `*.json` file of `dir` read as `T`, with its file name, in file-name order.
pub fn read_json_files<T: serde::de::DeserializeOwned>(
    dir: &Path,
) -> Result<Vec<(String, T)>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let parsed: T =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((name, parsed))
        })
        .collect()
}

/// Every case of every file, with the file it came from, in file-name order.
pub fn load_cases(dir: &Path) -> Result<Vec<(String, Case)>, String> {
    let files: Vec<(String, Vec<Case>)> = read_json_files(dir)?;
    Ok(files
        .into_iter()
        .flat_map(|(name, list)| list.into_iter().map(move |c| (name.clone(), c)))
        .collect())
}

/// Runs a case and returns its outcome: `{"output", "provenance"?}` or `{"error": {code, message}}`.
pub fn run_case(case: &Case) -> Result<Value, String> {
    let input = &case.input;
    let limits: Limits = match input
        .get("limits")
        .or_else(|| input.pointer("/options/limits"))
    {
        Some(l) => serde_json::from_value(l.clone()).map_err(|e| format!("limits: {e}"))?,
        None => Limits::default(),
    };
    let error =
        |e: jobgraph_core::Error| json!({"error": {"code": e.code(), "message": e.to_string()}});
    Ok(match case.operation.as_str() {
        "resolve" => {
            let templates: Vec<Template> = serde_json::from_value(
                input.get("templates").cloned().unwrap_or_else(|| json!([])),
            )
            .map_err(|e| format!("templates: {e}"))?;
            let set: TemplateSet = templates.into_iter().collect();
            let mut options: ResolveOptions = match input.get("options") {
                Some(o) => {
                    serde_json::from_value(o.clone()).map_err(|e| format!("options: {e}"))?
                }
                None => ResolveOptions::default(),
            };
            options.limits = limits;
            let job = input.get("job").ok_or("resolve needs input.job")?;
            let resolver = Resolver::builder(set)
                .options(options)
                .cache(ExecutionCache::disabled())
                .build();
            match resolver.resolve_document_blocking(job) {
                Ok(resolved) => {
                    json!({"output": resolved.document, "provenance": resolved.provenance})
                }
                Err(e) => error(e),
            }
        }
        "test" => {
            let request: TestRequest = serde_json::from_value(
                input
                    .get("request")
                    .cloned()
                    .ok_or("test needs input.request")?,
            )
            .map_err(|e| format!("request: {e}"))?;
            let user = input
                .get("user")
                .and_then(Value::as_str)
                .unwrap_or("anonymous");
            let resolver = Resolver::builder(TemplateSet::new())
                .user(user)
                .limits(limits)
                .cache(ExecutionCache::disabled())
                .build();
            match resolver.test_blocking(&request) {
                Ok(graph) => json!({"output": graph}),
                Err(e) => error(e),
            }
        }
        "validate" => {
            let graph = input.get("graph").ok_or("validate needs input.graph")?;
            json!({"problems": validate_job_graph(graph)})
        }
        "parseEdge" => {
            let text = input
                .get("text")
                .and_then(Value::as_str)
                .ok_or("parseEdge needs input.text")?;
            match parse_edge(text) {
                Ok(edge) => json!({"output": edge.to_string()}),
                Err(e) => json!({"error": {"code": "MALFORMED_EDGE", "message": e.to_string()}}),
            }
        }
        other => return Err(format!("unknown operation {other:?}")),
    })
}

/// Compares an outcome with the case's expectation; `Err` says how they differ.
pub fn check(case: &Case, outcome: &Value) -> Result<(), String> {
    let expect = &case.expect;
    if let Some(want) = expect.get("error") {
        let Some(message) = outcome.pointer("/error/message").and_then(Value::as_str) else {
            return Err(format!("expected an error, got {}", pretty(outcome)));
        };
        if let Some(prefix) = want.get("prefix").and_then(Value::as_str) {
            let rest = message.strip_prefix(prefix);
            if !rest.is_some_and(|r| r.is_empty() || r.starts_with(':') || r.starts_with(" (")) {
                return Err(format!(
                    "message {message:?} does not start with {prefix:?}"
                ));
            }
        }
        for needle in want
            .get("contains")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let needle = needle.as_str().unwrap_or_default();
            if !message.contains(needle) {
                return Err(format!("message {message:?} lacks {needle:?}"));
            }
        }
        return Ok(());
    }
    if let Some(error) = outcome.get("error") {
        return Err(format!("unexpected error: {}", pretty(error)));
    }
    if let Some(want) = expect.get("problems") {
        let got = outcome
            .get("problems")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let want = want.as_array().cloned().unwrap_or_default();
        let summary = || pretty(&Value::Array(got.clone()));
        if got.len() != want.len() {
            return Err(format!(
                "expected {} problems, got {}",
                want.len(),
                summary()
            ));
        }
        for (g, w) in got.iter().zip(&want) {
            if g.get("pointer") != w.get("pointer") {
                return Err(format!(
                    "expected pointer {}, got {}",
                    w["pointer"],
                    summary()
                ));
            }
            if let Some(needle) = w.get("contains").and_then(Value::as_str) {
                let message = g.get("message").and_then(Value::as_str).unwrap_or_default();
                if !message.contains(needle) {
                    return Err(format!("problem {message:?} lacks {needle:?}"));
                }
            }
        }
    }
    if let Some(want) = expect.get("output")
        && outcome.get("output") != Some(want)
    {
        return Err(format!(
            "output differs.\nexpected: {}\nactual:   {}",
            pretty(want),
            pretty(outcome.get("output").unwrap_or(&Value::Null))
        ));
    }
    if let Some(want) = expect.get("provenance")
        && outcome.get("provenance") != Some(want)
    {
        return Err(format!(
            "provenance differs.\nexpected: {}\nactual:   {}",
            pretty(want),
            pretty(outcome.get("provenance").unwrap_or(&Value::Null))
        ));
    }
    Ok(())
}

fn pretty(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
