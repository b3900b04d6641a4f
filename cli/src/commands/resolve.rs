//! `resolve`: every template operation of a job replaced by what its template generates,
//! with templates from a folder or from the service.

use jobgraph_sdk::DirectorySource;
use jobgraph_sdk::client::RemoteSource;
use serde_json::Value;

use crate::args::{Global, ResolveArgs};
use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_json;
use crate::output::print_document;
use crate::session::Session;
use crate::term::Ui;

/// `resolve`: offline with `--templates DIR`, else against the service.
pub fn run(args: ResolveArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let job = read_json(&args.job_file)?;
    let Some(templates) = &args.templates else {
        return resolve_remote(job, &args, ctx);
    };
    let source = DirectorySource::open(templates).map_err(|e| Failure::usage(e.to_string()))?;
    let resolver = args
        .common
        .resolver(source, args.draft, args.common.user(None))?;
    let resolved = resolver
        .resolve_document_blocking(&job)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let document = with_provenance(resolved, args.provenance);
    warn_unknown_fields(&document, global);
    print_document(document, &args.output, args.common.compact, global)
}

/// Warns, on standard error, of each field a vertex of a known type has and its type does not
/// name (`docs/pipeline.md`, "Unknown fields"): kept in the document, never refused.
fn warn_unknown_fields(document: &Value, global: &Global) {
    if global.quiet {
        return;
    }
    for warning in jobgraph_model::ops::unknown_field_warnings(document) {
        eprintln!("warning: {warning}");
    }
}

/// The resolved document, with its `provenance` object when asked for.
fn with_provenance(resolved: jobgraph_core::ResolvedDocument, provenance: bool) -> Value {
    let mut document = resolved.document;
    if provenance && let Value::Object(map) = &mut document {
        let origins = serde_json::to_value(resolved.provenance).unwrap_or_default();
        map.insert("provenance".into(), origins);
    }
    document
}

/// `resolve` against the service: templates through a [`RemoteSource`], scripts here as the
/// service would run them (as the client id, unless `--user`).
fn resolve_remote(job: Value, args: &ResolveArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let session = Session::open(ctx)?;
    let ui = Ui::new(global, false);
    let user = args.common.user(Some(session.client.client_id()));
    // A token first: a wrong secret or an unreachable service is reported as such, not as a
    // template that could not be fetched.
    session
        .runtime
        .block_on(session.client.token())
        .map_err(|e| session.failure(e))?;
    let source = RemoteSource::new(session.client.clone());
    let resolver = args.common.resolver(&source, args.draft, user)?;
    let resolved = session
        .runtime
        .block_on(ui.spin("resolving", resolver.resolve_document(&job)));
    let stats = source.stats();
    if global.debug {
        eprintln!(
            "debug: {} template requests, at most {} outstanding at once",
            stats.requests, stats.peak_outstanding
        );
    }
    let resolved = resolved.map_err(|e| Failure::failed(e.to_string()))?;
    let document = with_provenance(resolved, args.provenance);
    warn_unknown_fields(&document, global);
    print_document(document, &args.output, args.common.compact, global)
}
