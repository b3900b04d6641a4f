//! The bodies of the service's API: one definition shared by the service (`jobgraph-server`,
//! which turns on the feature `openapi` to derive their OpenAPI schemas) and the client
//! (feature `client`). Compiled with neither feature, so that any program can read and write
//! the API's JSON.
//!
//! - Answers: [`TemplateOut`], [`TemplateSummary`], [`JobOut`], [`Items`],
//!   [`TriggerAccepted`], [`ErrorBody`].
//! - Requests: [`TemplateInput`] (create and update), [`TemplateTest`], [`CreateJob`],
//!   [`UpdateJob`], with [`Execution`] and [`Processing`].
//!
//! - Datasets and integrations: [`DatasetInput`], [`DatasetOut`], [`DatasetFile`],
//!   [`IntegrationOut`], [`IntegrationJob`]; integrations in the public service's shape,
//!   [`IntegrationRead`] of the [`INTEGRATION_TYPES`].
//! - `request_docs` (feature `openapi`): the request bodies as the OpenAPI document states
//!   them.
//!
//! Field names are the wire's (`camelCase`); `docs/api.md` lists every endpoint.

#[cfg(feature = "openapi")]
pub mod dataset_schema;
mod datasets;
mod integrations;
#[cfg(feature = "openapi")]
pub mod request_docs;
mod requests;
mod responses;

pub use datasets::{
    DEFAULT_PROMOTED_TAGS, DatasetFile, DatasetInput, DatasetOut, IntegrationJob, IntegrationOut,
    MAX_PROMOTED_TAGS, MAX_RETENTION_DAYS, PARTITIONINGS, TAG_KEY_PATTERN,
};
pub use integrations::{INTEGRATION_TYPES, IntegrationRead};
pub use requests::{
    CreateJob, Execution, Processing, TemplateInput, TemplateTest, TestValues, UpdateJob,
};
pub use responses::{ErrorBody, Items, JobOut, TemplateOut, TemplateSummary, TriggerAccepted};
