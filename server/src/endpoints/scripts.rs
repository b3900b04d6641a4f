//! Running scripts for requests: template tests and job resolution, on tokio's blocking pool
//! (never on the async workers), in the organization's own view of the shared sandbox (its
//! scripts never share a worker process with another organization's), with one slot of the
//! organization's script quota per request.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;

use jobgraph_core::{FetchError, Resolver, Template, TemplateSet, TemplateSource, TestRequest};
use serde_json::Value;
use tokio::runtime::Handle;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Store, StoreError, TemplateRecord};

/// Templates of one organization, fetched from the store from the blocking thread that runs
/// the resolution.
struct StoreSource {
    store: Arc<dyn Store>,
    organization: String,
    runtime: Handle,
}

/// A stored version as the resolver's [`Template`].
pub fn to_template(record: TemplateRecord) -> Template {
    let fields = record.fields;
    Template {
        id: record.id,
        version: record.version,
        name: fields.name,
        description: fields.description,
        organization_id: Some(record.organization),
        created_at: None,
        updated_at: None,
        input_schema: fields.input_schema,
        template: fields.template,
        inputs: fields.inputs,
        outputs: fields.outputs,
        draft_outputs: fields.draft_outputs,
    }
}

impl TemplateSource for StoreSource {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        // Called on a blocking-pool thread (see `blocking`), where waiting is allowed.
        let found = self.runtime.block_on(self.store.template(
            self.organization.clone(),
            id.to_owned(),
            version,
        ));
        std::future::ready(match found {
            Ok(record) => Ok(to_template(record)),
            Err(StoreError::NotFound) => Err(FetchError::NotFound),
            Err(other) => Err(FetchError::Failed(other.to_string())),
        })
    }
}

/// A resolver error as an API error: the contract message, 400; a failing store is a 500.
fn resolution_error(error: jobgraph_core::Error) -> ApiError {
    match error.source_failure() {
        Some(message) => ApiError::Internal(message.to_owned()),
        None => ApiError::Resolution {
            message: error.to_string(),
            code: error.code(),
        },
    }
}

/// Runs `work` with a resolver for `caller` on the blocking pool, holding one of the
/// organization's script slots (429 when none is free within `fairness.scriptWaitMs`).
async fn blocking<S, T>(
    state: &AppState,
    caller: &Caller,
    source: S,
    work: impl FnOnce(&Resolver<S>) -> Result<T, jobgraph_core::Error> + Send + 'static,
) -> Result<T, ApiError>
where
    S: Send + 'static,
    T: Send + 'static,
{
    let slot = state.script_slot(&caller.organization).await?;
    // Scripts have their own share (the slots, the sandbox's per-organization share): the
    // request's place among its organization's requests is for others now.
    caller.leave_line();
    // The organization's own view of the pool: its scripts never run in a worker process that
    // ran another organization's (docs/sandbox.md, "Tenants").
    let sandbox = state
        .sandbox
        .for_tenant(&caller.organization)
        .unwrap_or_else(|| Arc::clone(&state.sandbox));
    let resolver = Resolver::builder(source)
        .shared_sandbox(sandbox)
        .options(state.config.resolve.clone())
        .user(caller.client_id.clone())
        .draft(false)
        .cache(state.cache.clone())
        .build();
    let outcome = tokio::task::spawn_blocking(move || {
        let outcome = work(&resolver);
        drop(slot);
        outcome
    })
    .await
    .map_err(|e| ApiError::Internal(format!("script task failed: {e}")))?;
    outcome.map_err(resolution_error)
}

/// `POST /v1/templates/test`: the graph the script yields.
pub async fn test(
    state: &AppState,
    caller: &Caller,
    request: TestRequest,
) -> Result<Value, ApiError> {
    blocking(state, caller, TemplateSet::new(), move |resolver| {
        resolver
            .test_blocking(&request)
            .map(|graph| graph.to_value())
    })
    .await
}

/// Resolves a job graph with the organization's templates: the resolved graph and the ids of
/// every template it used.
pub async fn resolve(
    state: &AppState,
    caller: &Caller,
    graph: Value,
) -> Result<(Value, Vec<String>), ApiError> {
    let source = StoreSource {
        store: Arc::clone(&state.store),
        organization: caller.organization.clone(),
        runtime: Handle::current(),
    };
    blocking(state, caller, source, move |resolver| {
        let resolved = resolver.resolve_document_blocking(&graph)?;
        // The job's own operations, and every template that produced a vertex (nested ones).
        let own = graph
            .get("vertices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|v| v.get("type").and_then(Value::as_str) == Some("template-operation"))
            .filter_map(|v| {
                v.get("templateId")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            });
        let ids: BTreeSet<String> = resolved
            .provenance
            .values()
            .map(|p| p.template_id.clone())
            .chain(own)
            .collect();
        Ok((resolved.document, ids.into_iter().collect()))
    })
    .await
}
