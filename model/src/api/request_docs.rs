//! The request bodies as the service's OpenAPI document states them (feature `openapi`). The
//! service's handlers read bodies field by field (so that a 400 names the field); these types exist only to describe
//! what those checks accept, as precisely as a schema can: required fields, non-empty strings,
//! enumerations, `vertex[:port]` patterns, positive versions. What no schema can say (that an
//! `inputSchema` is a valid JSON Schema, that edges name existing vertices, that a template id
//! exists) is in the descriptions and answered with 400.

#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, Object, ObjectBuilder, SchemaType, Type,
};

/// `vertex[:port]`: names without white space or `:`. White space is spelled out (Unicode
/// `White_Space`, what Rust's `char::is_whitespace` tests), because `\s` differs between
/// regular-expression engines.
pub const ENDPOINT_PATTERN: &str = r"^[^:\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+(:[^:\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+)?$";
/// An edge, `from[:port] -> to[:port]`, white space allowed around the parts (names in
/// edges without `>`, so that `->` is never part of a name).
pub const EDGE_PATTERN: &str = r"^[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[^:>\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+(:[^:>\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+)?[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*->[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[^:>\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+(:[^:>\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+)?[\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$";
/// A vertex name: no white space or `:`.
pub const VERTEX_PATTERN: &str =
    r"^[^:\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$";

fn nullable(kind: Type) -> SchemaType {
    SchemaType::from_iter([kind, Type::Null])
}

/// A map of external names to `vertex[:port]` (`inputs`, `outputs`).
fn endpoint_map() -> Object {
    ObjectBuilder::new()
        .schema_type(nullable(Type::Object))
        .additional_properties(Some(AdditionalProperties::RefOr(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(ENDPOINT_PATTERN))
                .into(),
        )))
        .description(Some("External name → internal `vertex[:port]`."))
        .build()
}

/// The parameters' JSON Schema.
fn input_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(nullable(Type::Object))
        .property(
            "type",
            ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["object"])),
        )
        .property(
            "properties",
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .additional_properties(Some(AdditionalProperties::RefOr(
                    ObjectBuilder::new()
                        .schema_type(SchemaType::from_iter([Type::Object, Type::Boolean]))
                        .into(),
                ))),
        )
        .property(
            "required",
            ArrayBuilder::new()
                .items(ObjectBuilder::new().schema_type(Type::String))
                .unique_items(true),
        )
        .description(Some(
            "A JSON Schema (2020-12) of an object: the template's parameters. It must compile as a JSON Schema; one that does not is a 400 naming `inputSchema`.",
        ))
        .build()
}

/// A job graph's edges.
fn edges() -> utoipa::openapi::schema::Array {
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(EDGE_PATTERN)),
        )
        .description(Some(
            "Edges `from[:port] -> to[:port]` between vertices of the graph (a name that is not a vertex of the graph is a 400).",
        ))
        .build()
}

/// A job graph's vertices.
/// Each is a `Vertex`, the catalog's `oneOf` of the operations' schemas
/// ([`crate::ops::schema`]), which the service adds to the document's components.
fn vertices() -> utoipa::openapi::schema::Array {
    ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name(
            crate::ops::schema::VERTEX,
        ))
        .build()
}

/// An output that exists only in draft mode.
#[derive(Debug, Serialize, ToSchema)]
pub struct DraftOutputDoc {
    /// Output name (non-empty).
    #[schema(min_length = 1)]
    name: String,
    /// Description.
    description: Option<String>,
    /// Internal vertex that supplies it.
    #[schema(
        pattern = r"^[^:\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$"
    )]
    vertex: String,
}

/// A template as `POST /v1/templates` takes it. Fields not listed (`id`, `version`,
/// `organizationId`, …) are ignored, so a fetched version can be sent back as it is.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateCreateDoc {
    /// Required, non-empty; at most `fieldLimits.name` characters (256 by default).
    #[schema(min_length = 1, max_length = 256)]
    name: String,
    /// Optional; at most `fieldLimits.description` characters (4096 by default).
    #[schema(max_length = 4096)]
    description: Option<String>,
    /// A JSON Schema of the parameters.
    #[schema(schema_with = input_schema)]
    input_schema: Option<Value>,
    /// Required, non-empty JavaScript source whose final expression is the job graph; at most
    /// `fieldLimits.template` characters (262 144 by default).
    #[schema(min_length = 1, max_length = 262144)]
    template: String,
    /// External input name → internal target `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    inputs: Option<BTreeMap<String, String>>,
    /// External output name → internal source `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    outputs: Option<BTreeMap<String, String>>,
    /// Outputs that exist only in draft mode.
    draft_outputs: Option<Vec<DraftOutputDoc>>,
    /// The teams it belongs to (default none: the organization's). Creating a template of
    /// teams takes Edit on templates of one of them (docs/api.md, "People, login and roles").
    #[schema(max_items = 32)]
    team_ids: Option<Vec<TeamId>>,
}

/// A template as `PUT /v1/templates/{id}` takes it: the fields of a new one, and the version
/// this write creates.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateUpdateDoc {
    /// The version this write creates (N+1 when the current one is N); another value is a
    /// 409 carrying `currentVersion`. Absent: the write appends.
    #[schema(minimum = 1)]
    version: Option<u64>,
    /// Required, non-empty; at most `fieldLimits.name` characters (256 by default).
    #[schema(min_length = 1, max_length = 256)]
    name: String,
    /// Optional; at most `fieldLimits.description` characters (4096 by default).
    #[schema(max_length = 4096)]
    description: Option<String>,
    /// A JSON Schema of the parameters.
    #[schema(schema_with = input_schema)]
    input_schema: Option<Value>,
    /// Required, non-empty; at most `fieldLimits.template` characters (262 144 by default).
    #[schema(min_length = 1, max_length = 262144)]
    template: String,
    /// External input name → internal target `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    inputs: Option<BTreeMap<String, String>>,
    /// External output name → internal source `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    outputs: Option<BTreeMap<String, String>>,
    /// Outputs that exist only in draft mode.
    draft_outputs: Option<Vec<DraftOutputDoc>>,
    /// Default: unchanged. Moving it between teams takes Edit on templates in both.
    #[schema(max_items = 32)]
    team_ids: Option<Vec<TeamId>>,
}

/// The template of a test request: only `template` is required.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestTemplateDoc {
    /// Optional in a test.
    name: Option<String>,
    /// Optional.
    description: Option<String>,
    /// A JSON Schema of the parameters.
    #[schema(schema_with = input_schema)]
    input_schema: Option<Value>,
    /// Required, non-empty.
    #[schema(min_length = 1)]
    template: String,
    /// External input name → internal target `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    inputs: Option<BTreeMap<String, String>>,
    /// External output name → internal source `vertex[:port]`.
    #[schema(schema_with = endpoint_map)]
    outputs: Option<BTreeMap<String, String>>,
    /// Outputs that exist only in draft mode.
    draft_outputs: Option<Vec<DraftOutputDoc>>,
}

/// The body of `POST /v1/templates/test`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestRequestDoc {
    /// The template to run.
    template: TestTemplateDoc,
    /// Inputs and draft flag.
    input: Option<TestInputDoc>,
    /// Check that the result is a valid job graph.
    check_valid_job_graph: Option<bool>,
    /// The public client's name for `checkValidJobGraph`.
    check_valid_grepr_job_graph: Option<bool>,
}

/// `input` of a test request.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestInputDoc {
    /// Draft mode.
    is_draft: Option<bool>,
    /// The public client's name for `isDraft`.
    draft: Option<bool>,
    /// Parameter values, checked against the template's `inputSchema` (a mismatch is a 400
    /// `Input validation failed`).
    #[schema(value_type = Option<Object>)]
    values: Option<Value>,
}

/// A job graph: `{vertices, edges}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobGraphDoc {
    /// Vertices, each with `type` and a unique `name`.
    #[schema(schema_with = vertices)]
    vertices: Vec<Value>,
    /// Edges `from[:port] -> to[:port]` between vertices of the graph.
    #[schema(schema_with = edges)]
    edges: Option<Vec<String>>,
}

/// How a job runs.
#[derive(Debug, Serialize, ToSchema)]
pub enum Execution {
    /// Streams results to the caller.
    #[serde(rename = "SYNCHRONOUS")]
    Synchronous,
    /// Runs in the background.
    #[serde(rename = "ASYNCHRONOUS")]
    Asynchronous,
}

/// What a job processes.
#[derive(Debug, Serialize, ToSchema)]
pub enum Processing {
    /// A bounded set of data.
    #[serde(rename = "BATCH")]
    Batch,
    /// Data as it arrives.
    #[serde(rename = "STREAMING")]
    Streaming,
}

/// The body of `POST /v1/jobs` and `POST /v1/jobs/async`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateJobDoc {
    /// Required, non-empty; at most `fieldLimits.name` characters (256 by default).
    #[schema(min_length = 1, max_length = 256)]
    name: String,
    /// Required.
    execution: Execution,
    /// Required.
    processing: Processing,
    /// Required; its template operations are resolved.
    job_graph: JobGraphDoc,
    /// String → string.
    tags: Option<BTreeMap<String, String>>,
    /// Default `RUNNING`; `RUNNING` or `STOPPED` (empty = the default).
    #[schema(pattern = "^(RUNNING|STOPPED)?$")]
    desired_state: Option<String>,
    /// The teams it belongs to (default none: the organization's); each a team id. Creating a
    /// job of teams takes Edit on jobs of one of them (docs/api.md, "People, login and roles").
    #[schema(max_items = 32)]
    team_ids: Option<Vec<TeamId>>,
}

/// A team id.
#[derive(Debug, Serialize, ToSchema)]
#[schema(min_length = 1, max_length = 128)]
pub struct TeamId(String);

/// The body of `PUT /v1/jobs/{id}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateJobDoc {
    /// The version this update is based on; another current version is a 409.
    #[schema(minimum = 1)]
    from_version: Option<u64>,
    /// The new graph (default: the current definition, resolved again). A body with
    /// `vertices` at the top level is read as the graph itself.
    job_graph: Option<JobGraphDoc>,
    /// Default: unchanged; `RUNNING` or `STOPPED` (empty = unchanged).
    #[schema(pattern = "^(RUNNING|STOPPED)?$")]
    desired_state: Option<String>,
    /// Default: unchanged; at most `fieldLimits.name` characters (256 by default).
    #[schema(min_length = 1, max_length = 256)]
    name: Option<String>,
    /// Default: unchanged.
    tags: Option<BTreeMap<String, String>>,
    /// Default: unchanged. Changing them takes Edit on jobs of the old teams and the new.
    #[schema(max_items = 32)]
    team_ids: Option<Vec<TeamId>>,
}

/// A form-encoded token request (`application/x-www-form-urlencoded`): the JSON request's
/// fields, as text.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenForm {
    /// The client id (or HTTP Basic credentials instead).
    #[schema(nullable = false)]
    client_id: Option<String>,
    /// The client secret (or HTTP Basic credentials instead).
    #[schema(nullable = false)]
    client_secret: Option<String>,
    /// Must be `client_credentials`.
    #[schema(pattern = "^client_credentials$")]
    grant_type: String,
    /// `service` when given.
    #[schema(nullable = false, pattern = "^service$")]
    audience: Option<String>,
    /// `service` when given.
    #[schema(nullable = false, pattern = "^service$")]
    scope: Option<String>,
}
