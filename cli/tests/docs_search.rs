//! `docs:search` and `docs:get` as a user runs them: the real binary, its embedded index of
//! this repository's reference.
#![cfg(feature = "docs")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn jobgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jobgraph"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn json(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["docs:search", "-f", "json"];
    all.extend_from_slice(args);
    let text = ok(&jobgraph(&all));
    serde_json::from_str::<Vec<Value>>(&text).expect("a JSON array")
}

#[test]
fn heartbeat_token_finds_the_synchronous_runs_of_the_api_reference_first() {
    let hits = json(&["heartbeat", "token"]);
    assert_eq!(hits[0]["uri"], "doc://docs/api.md", "{hits:#?}");
    assert_eq!(
        hits[0]["sections"][0]["title"], "The data lake: loading, queries, sink jobs",
        "{hits:#?}"
    );
    // Only doc:// by default.
    assert!(
        hits.iter()
            .all(|h| h["uri"].as_str().is_some_and(|u| u.starts_with("doc://")))
    );
}

#[test]
fn oauth_token_client_credentials_finds_the_token_operation_among_api_operations() {
    let hits = json(&["oauth", "token", "client", "credentials", "-t", "api"]);
    assert_eq!(hits[0]["uri"], "api://issueToken", "{hits:#?}");
    assert!(
        hits.iter()
            .all(|h| h["uri"].as_str().is_some_and(|u| u.starts_with("api://")))
    );
}

#[test]
fn json_shape_limit_and_preview_cut() {
    let hits = json(&[
        "sandbox", "memory", "limit", "-t", "all", "-l", "3", "-p", "40",
    ]);
    assert_eq!(hits.len(), 3);
    let mut previous = f64::INFINITY;
    for hit in &hits {
        let object = hit.as_object().expect("an object");
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(keys, ["score", "uri", "sections"]);
        let score = hit["score"].as_f64().expect("a number");
        assert!(score > 0.0 && score <= previous, "best first: {hits:#?}");
        previous = score;
        let sections = hit["sections"].as_array().expect("sections");
        assert!(!sections.is_empty() && sections.len() <= 3);
        for section in sections {
            let keys: Vec<&str> = section
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(keys, ["title", "preview"]);
            let preview = section["preview"].as_str().expect("a preview");
            let chars = preview.chars().count();
            assert!(chars <= 41, "{preview:?}");
            if chars == 41 {
                assert!(preview.ends_with('…'), "{preview:?}");
            }
        }
    }
}

#[test]
fn schema_type_and_compact_format() {
    let out = jobgraph(&[
        "docs:search",
        "error",
        "body",
        "-t",
        "schema",
        "-f",
        "compact",
    ]);
    let text = ok(&out);
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    let hits: Vec<Value> = serde_json::from_str(&text).expect("JSON");
    assert_eq!(hits[0]["uri"], "schema://ErrorBody", "{hits:#?}");
    assert!(hits.iter().all(|h| {
        h["uri"]
            .as_str()
            .is_some_and(|u| u.starts_with("schema://"))
    }));
}

#[test]
fn pretty_format_without_colour_when_not_a_terminal() {
    let text = ok(&jobgraph(&[
        "docs:search",
        "heartbeat",
        "token",
        "-l",
        "2",
        "-p",
        "30",
    ]));
    assert!(text.starts_with("1. doc://docs/api.md  score "), "{text}");
    assert!(
        text.contains("\n   § The data lake: loading, queries, sink jobs\n"),
        "{text}"
    );
    assert!(text.contains("\n2. doc://"), "{text}");
    assert!(!text.contains('\x1b'), "no colour on a pipe: {text:?}");
    let preview = text.lines().nth(
        text.lines()
            .position(|l| l.starts_with("2. "))
            .expect("a second hit")
            - 2,
    );
    assert!(preview.is_some_and(|p| p.ends_with('…')), "{text}");
}

#[test]
fn no_match_is_success_with_a_note() {
    let out = jobgraph(&["docs:search", "zzzyqx", "-f", "json"]);
    assert_eq!(ok(&out).trim(), "[]");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "no match for \"zzzyqx\""
    );
    let out = jobgraph(&["docs:search", "zzzyqx"]);
    assert_eq!(ok(&out), "");
    // A limit of 0 is bad usage, not "no match".
    let out = jobgraph(&["docs:search", "token", "-l", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn get_prints_markdown_of_files_operations_and_schemas() {
    let text = ok(&jobgraph(&["docs:get", "doc://docs/api.md"]));
    let file = std::fs::read_to_string(root().join("docs/api.md")).expect("docs/api.md");
    assert_eq!(text, file);
    let text = ok(&jobgraph(&["docs:get", "api://issueToken"]));
    assert!(
        text.starts_with("# issueToken: POST /oauth/token\n"),
        "{text}"
    );
    assert!(text.contains("## Responses"), "{text}");
    let text = ok(&jobgraph(&["docs:get", "schema://ErrorBody"]));
    assert!(text.starts_with("# ErrorBody\n"), "{text}");
    assert!(text.contains("## Properties"), "{text}");
}

#[test]
fn get_unknown_uri_fails_with_suggestions() {
    let out = jobgraph(&["docs:get", "doc://docs/apii.md"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("Document not found: doc://docs/apii.md"),
        "{err}"
    );
    assert!(err.contains("doc://docs/api.md"), "{err}");
}

#[test]
fn list_names_every_kind_and_filters_by_type() {
    let all = ok(&jobgraph(&["docs:get", "--list"]));
    for uri in [
        "doc://README.md",
        "doc://docs/cli.md",
        "api://issueToken",
        "schema://ErrorBody",
    ] {
        assert!(all.lines().any(|l| l == uri), "{uri} missing from {all}");
    }
    let schemas = ok(&jobgraph(&["docs:get", "--list", "-t", "schema"]));
    assert!(
        schemas.lines().all(|l| l.starts_with("schema://")),
        "{schemas}"
    );
    // Every docs/*.md is there.
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".md") {
            let uri = format!("doc://docs/{name}");
            assert!(all.lines().any(|l| l == uri), "{uri} missing");
        }
    }
}

/// The catalog of operations reaches the reference: each vertex type's schema is found by
/// what it does, and `docs:get` shows its fields.
#[test]
fn vertex_types_of_the_catalog_are_schemas() {
    let hits = json(&[
        "docs:search",
        "reducer",
        "similarity",
        "threshold",
        "-t",
        "schema",
    ]);
    assert_eq!(hits[0]["uri"], "schema://LogReducerVertex", "{hits:#?}");
    let text = ok(&jobgraph(&["docs:get", "schema://LogsFilterVertex"]));
    assert!(
        text.contains("inverted") && text.contains("predicate"),
        "{text}"
    );
}
