//! The router: every endpoint at the root and again under `/api`, the OpenAPI document, JSON
//! 404/405 answers, the body limit, and the layers of `layers.rs` (request id, log line,
//! panics, the deadline).

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use utoipa::openapi::OpenApi;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{self};
use crate::endpoints::datasets;
use crate::endpoints::grok;
use crate::endpoints::integrations;
use crate::endpoints::jobs;
use crate::endpoints::metrics;
use crate::endpoints::organization;
use crate::endpoints::revoke;
use crate::endpoints::sync_runs;
use crate::endpoints::tap;
use crate::endpoints::templates;
use crate::endpoints::triggers;
use crate::error::{ApiError, ErrorBody};
use crate::lake;
use crate::layers::{self, Deadline};
use crate::model::Health;
use crate::state::AppState;

/// Liveness and storage check: a query on the database, every time.
#[utoipa::path(
    get, path = "/healthz", operation_id = "health", tag = "service",
    responses(
        (status = 200, description = "Serving, and the database answers", body = Health),
        (status = 503, description = "The database does not answer now (`Retry-After: 1`)", body = ErrorBody),
        (status = 500, description = "Internal error: the cause is logged by the server, never sent", body = ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    state.store.ping().await?;
    Ok(Json(Health {
        status: "ok",
        database: state.store.kind(),
        intake: state.intake.as_ref().map(crate::intake_log::Intake::health),
    }))
}

/// The routes before state and layers: those answered within the request deadline, those
/// that stream a body for as long as it arrives (a dataset load), and their OpenAPI
/// description.
fn api() -> (Router<AppState>, Router<AppState>, OpenApi) {
    let (router, mut openapi) = OpenApiRouter::new()
        .routes(routes!(auth::issue_token))
        .routes(routes!(revoke::revoke_token))
        .routes(routes!(templates::create, templates::list))
        .routes(routes!(templates::test))
        .routes(routes!(
            templates::get,
            templates::update,
            templates::delete
        ))
        .routes(routes!(jobs::create, jobs::list))
        .routes(routes!(jobs::create_async))
        .routes(routes!(sync_runs::sync))
        .routes(routes!(sync_runs::heartbeat))
        .routes(routes!(jobs::get, jobs::update, jobs::delete))
        .routes(routes!(tap::tap))
        .routes(routes!(datasets::create, datasets::list))
        .routes(routes!(datasets::get, datasets::update, datasets::delete))
        .routes(routes!(datasets::files))
        .routes(routes!(integrations::list))
        .routes(routes!(integrations::get))
        .routes(routes!(integrations::get_of_type))
        .routes(routes!(grok::parse_batch))
        .routes(routes!(organization::get))
        .routes(routes!(metrics::metrics))
        .routes(routes!(triggers::create_trigger))
        .routes(routes!(health))
        .split_for_parts();
    let (streaming, load) = OpenApiRouter::new()
        .routes(routes!(lake::load::load))
        .split_for_parts();
    openapi.merge(load);
    openapi.info.title = "jobgraph service".into();
    openapi.info.version = env!("CARGO_PKG_VERSION").into();
    openapi.info.description = Some(
        "Templates, jobs, datasets, integrations, grok parsing and tokens of `jobgraph serve`. Every path is also served under `/api`. See docs/api.md.".into(),
    );
    let components = openapi.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "bearer",
        SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
    );
    every_operation_may_be_unavailable(&mut openapi);
    every_guarded_operation_may_be_forbidden(&mut openapi);
    crate::guards::fair::document_429(&mut openapi);
    (router, streaming, openapi)
}

/// Every endpoint reads or writes the database, so every one answers 503 (`Retry-After: 1`)
/// while it cannot be reached (and when the service is at its body budget or connection cap);
/// documented once here rather than on each handler.
fn every_operation_may_be_unavailable(openapi: &mut OpenApi) {
    document_everywhere(
        openapi,
        "503",
        "The database cannot be reached now, or the service is at its budget of request bodies in memory or at its connection cap with every connection busy; retry after `Retry-After` seconds",
        false,
    );
}

/// Every operation behind a bearer token checks the caller's roles (`access.rs`): each may
/// answer 403, documented once here.
fn every_guarded_operation_may_be_forbidden(openapi: &mut OpenApi) {
    document_everywhere(
        openapi,
        "403",
        "The caller's roles do not grant the permission this needs: the message names the permission (View, Edit, Write), the resource and the caller's roles (docs/api.md, \"People, login and roles\")",
        true,
    );
}

/// Adds a `status` answer with an `ErrorBody` to every operation (only those behind a bearer
/// token when `guarded`) that does not document that status itself.
fn document_everywhere(openapi: &mut OpenApi, status: &str, description: &str, guarded: bool) {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let response = ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build();
    for item in openapi.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
        {
            if guarded && operation.security.as_ref().is_none_or(|s| s.is_empty()) {
                continue;
            }
            operation
                .responses
                .responses
                .entry(status.into())
                .or_insert_with(|| RefOr::T(response.clone()));
        }
    }
}

/// The OpenAPI 3.1 document of the API, generated from the handlers, with the vertex schemas
/// of the catalog of operations (`jobgraph_model::ops::schema`) among its components.
pub fn openapi() -> serde_json::Value {
    document(&api().2)
}

/// `openapi` as JSON, with the catalog's vertex schemas added to its components.
fn document(openapi: &OpenApi) -> serde_json::Value {
    let mut document = serde_json::to_value(openapi).unwrap_or_default();
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(serde_json::Value::as_object_mut)
    {
        schemas.extend(jobgraph_model::ops::schema::components());
        schemas.sort_keys();
    }
    document
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint (see /openapi.json)".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// The service's router over `state`: mount it in any axum program, or run it with
/// `jobgraph serve`.
pub fn router(state: AppState) -> Router {
    integrations::configuration_read();
    let (api, streaming, openapi) = api();
    let document: Arc<str> = document(&openapi).to_string().into();
    #[cfg(test)]
    let api = api.merge(test_only::routes());
    let deadline = Deadline(std::time::Duration::from_millis(
        state.config.connections.request_timeout_ms,
    ));
    let api = deadline
        .apply(api)
        .merge(streaming)
        .merge(crate::login::routes())
        .route(
            "/openapi.json",
            get(move || {
                let document = Arc::clone(&document);
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        document.to_string(),
                    )
                        .into_response()
                }
            }),
        )
        .method_not_allowed_fallback(method_not_allowed);
    let limit = state.config.max_body_bytes;
    let router = Router::new()
        .merge(api.clone())
        .nest("/api", api)
        .merge(crate::endpoints::intake::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state);
    // Pages of any origin may call the API with a bearer token they hold (the draft-preview
    // page's live mode taps a running job): no cookie or other ambient credential is ever
    // read, so allowing every origin lends a page nothing it did not bring. (The login form's
    // CSRF cookie is compared with the form's own field, never taken as a credential.)
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods(tower_http::cors::Any)
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .max_age(std::time::Duration::from_secs(600));
    layers::around(router).layer(cors)
}

/// Routes that exist only in the server's own tests: a handler that panics and one that
/// outlives any short deadline (`layers/tests.rs`).
#[cfg(test)]
mod test_only {
    use axum::Router;
    use axum::routing::get;

    use super::AppState;

    pub(super) fn routes() -> Router<AppState> {
        Router::new()
            .route(
                "/v1/test-only/panic",
                get(|| async {
                    if true {
                        panic!("a test-only handler panicked");
                    }
                    "never"
                }),
            )
            .route(
                "/v1/test-only/slow",
                get(|| async {
                    tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                    "late"
                }),
            )
    }
}
