//! Fairness between organizations: per-organization gates with a bounded wait. One gate
//! bounds the requests an organization has being served at once (the `Caller` extractor takes
//! a place, so one organization's flood of heavy reads leaves the database's connections and
//! the CPU to the others and to `/healthz`); another bounds its requests that run scripts.
//! A request that finds its organization's gate full waits in line for at most the configured
//! time, then is answered 429 with `Retry-After`. `docs/api.md`, "Fairness between
//! organizations", states the policy.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// How organizations share the service (the `fairness` settings). JSON names are camelCase;
/// missing fields take the default.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct FairnessConfig {
    /// Authenticated requests one organization may have being served at once; the next ones
    /// wait in line. 0 (the default): as many as the machine has cores.
    pub requests_per_organization: usize,
    /// How long a request waits for its organization's turn before a 429. Default 2000 ms.
    pub request_wait_ms: u64,
    /// How long a request that runs scripts waits for one of its organization's
    /// `maxConcurrentScripts` slots before a 429. Default 0: at once, as before this setting
    /// (its scripts wait in the sandbox's per-organization queue anyway).
    pub script_wait_ms: u64,
    /// Synchronous runs that read or write the lake one organization may have running at once
    /// (a query streams for up to `lake.queryTimeoutMs` after its request has left the
    /// request line); the next one waits `requestWaitMs` for one to end, then gets a 429.
    /// 0 (the default): as many as the machine has cores.
    pub lake_runs_per_organization: usize,
}

impl Default for FairnessConfig {
    fn default() -> Self {
        FairnessConfig {
            requests_per_organization: 0,
            request_wait_ms: 2000,
            script_wait_ms: 0,
            lake_runs_per_organization: 0,
        }
    }
}

impl FairnessConfig {
    /// [`FairnessConfig::requests_per_organization`], 0 resolved to the number of cores.
    pub fn requests(&self) -> usize {
        or_cores(self.requests_per_organization)
    }

    /// [`FairnessConfig::lake_runs_per_organization`], 0 resolved to the number of cores.
    pub fn lake_runs(&self) -> usize {
        or_cores(self.lake_runs_per_organization)
    }
}

fn or_cores(places: usize) -> usize {
    match places {
        0 => std::thread::available_parallelism().map_or(2, usize::from),
        n => n,
    }
}

/// One semaphore per organization, each with the same number of places.
#[derive(Clone)]
pub(crate) struct Gates {
    places: usize,
    wait: Duration,
    /// What the 429 says is full, e.g. "requests being served".
    what: &'static str,
    map: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
}

impl Gates {
    /// Gates of `places` places each (at least 1); a request waits `wait` at most.
    pub(crate) fn new(places: usize, wait: Duration, what: &'static str) -> Self {
        Gates {
            places: places.max(1),
            wait,
            what,
            map: Arc::default(),
        }
    }

    /// A place in `organization`'s gate, waiting in line (first come, first served) for at
    /// most the configured time; a 429 with `Retry-After: 1` past it.
    pub(crate) async fn enter(&self, organization: &str) -> Result<OwnedSemaphorePermit, ApiError> {
        let semaphore = {
            let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(
                map.entry(organization.to_owned())
                    .or_insert_with(|| Arc::new(Semaphore::new(self.places))),
            )
        };
        let refused = || ApiError::TooManyRequests {
            message: format!(
                "organization {organization:?} already has {} {} and none ended within {} ms; retry later",
                self.places,
                self.what,
                self.wait.as_millis()
            ),
            retry_after: 1,
        };
        if let Ok(permit) = Arc::clone(&semaphore).try_acquire_owned() {
            return Ok(permit);
        }
        match tokio::time::timeout(self.wait, semaphore.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(refused()),
        }
    }
}

/// Documents the 429 of the request line on every operation that needs a token (those that
/// already document a 429, for their script slots, get its reason appended).
pub(crate) fn document_429(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, HeaderBuilder, Ref, RefOr, ResponseBuilder};
    let response = ResponseBuilder::new()
        .description(
            "The organization has `fairness.requestsPerOrganization` requests being served and none ended within `fairness.requestWaitMs`; retry after `Retry-After` seconds (docs/api.md, \"Fairness between organizations\")",
        )
        .header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(Some(utoipa::openapi::schema::Object::with_type(
                    utoipa::openapi::schema::Type::Integer,
                )))
                .description(Some("Seconds to wait before retrying"))
                .build(),
        )
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
            if operation.security.as_ref().is_some_and(|s| !s.is_empty()) {
                let entry = operation
                    .responses
                    .responses
                    .entry("429".into())
                    .or_insert_with(|| RefOr::T(response.clone()));
                // A 429 already documented (script slots): the line's reason is one more.
                if let RefOr::T(existing) = entry
                    && existing.description != response.description
                {
                    existing.description =
                        format!("{}; or: {}", existing.description, response.description);
                    for (name, header) in &response.headers {
                        existing
                            .headers
                            .entry(name.clone())
                            .or_insert_with(|| header.clone());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_gate_waits_then_refuses_and_other_organizations_pass() {
        let gates = Gates::new(1, Duration::from_millis(30), "requests");
        let held = gates.enter("a").await.unwrap();
        let refused = gates.enter("a").await.unwrap_err();
        assert!(matches!(
            refused,
            ApiError::TooManyRequests { retry_after: 1, .. }
        ));
        assert!(refused.to_string().contains("\"a\" already has 1 requests"));
        assert!(gates.enter("b").await.is_ok());
        let waiting = tokio::spawn({
            let gates = gates.clone();
            async move { gates.enter("a").await.is_ok() }
        });
        drop(held);
        assert!(waiting.await.unwrap());
    }
}
