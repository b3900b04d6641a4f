//! `docs/openapi.json` (indexed into the binary for `docs:search -t api|schema`) is the
//! document the service generates: a change to an endpoint or a schema must come with the
//! regenerated file.
//!
//! Regenerate it with:
//! `JOBGRAPH_UPDATE_OPENAPI=1 cargo test -p jobgraph-cli --test openapi_drift`
#![cfg(feature = "server")]

use std::path::Path;

#[test]
fn committed_openapi_document_is_the_generated_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openapi.json");
    let generated = serde_json::to_string_pretty(&jobgraph_server::openapi())
        .expect("the OpenAPI document serializes")
        + "\n";
    if std::env::var_os("JOBGRAPH_UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).expect("docs/openapi.json is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/openapi.json differs from the document the service generates (GET /openapi.json); \
         regenerate it with `JOBGRAPH_UPDATE_OPENAPI=1 cargo test -p jobgraph-cli --test openapi_drift` \
         and rebuild jobgraph (docs:search indexes it)"
    );
}
