//! The OpenAPI schema of [`DatasetInput`] (feature `openapi`): what the service publishes in
//! its document **and** checks every `POST /v1/datasets` and `PUT /v1/datasets/{id}` body
//! against (jobgraph-server compiles this schema and validates with it), so the document and
//! the checks cannot disagree. The `maxLength` of `name` and `description` are the server's
//! `fieldLimits` settings: the document states their defaults, and a server checks with
//! [`dataset_input_schema`] of its own settings. What a schema cannot say is in the
//! descriptions: a name is unique among the organization's live datasets (409).
//!
//! Fields of an answer (`id`, `organizationId`, `createdAt`, `updatedAt`) are accepted and
//! ignored, so that a fetched dataset can be sent back; any other field is refused
//! (`additionalProperties: false`).

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, Array, ArrayBuilder, Object, ObjectBuilder, Schema, SchemaType, Type,
};

use super::DatasetInput;
use super::datasets::{
    DEFAULT_PROMOTED_TAGS, MAX_PROMOTED_TAGS, MAX_RETENTION_DAYS, PARTITIONINGS, TAG_KEY_PATTERN,
};

/// Holds a character other than white space (Unicode `White_Space`, what Rust's `trim` removes,
/// spelled out because `\s` differs between regular-expression engines).
pub const NOT_BLANK_PATTERN: &str =
    r"[^\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// The default `fieldLimits.name`: characters of a name.
pub const DEFAULT_NAME_CHARS: usize = 256;
/// The default `fieldLimits.description`: characters of a description.
pub const DEFAULT_DESCRIPTION_CHARS: usize = 4096;

/// The answer's fields a body may carry (ignored).
pub const READ_ONLY_FIELDS: &[&str] = &["id", "organizationId", "createdAt", "updatedAt"];

fn nullable(kind: Type) -> SchemaType {
    SchemaType::from_iter([kind, Type::Null])
}

fn name(max: usize) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(max))
        .pattern(Some(NOT_BLANK_PATTERN))
        .description(Some(format!(
            "Required: a name unique among the organization's live datasets (409 otherwise), not only white space, at most {max} characters (`fieldLimits.name`)."
        )))
        .build()
}

fn description(max: usize) -> Object {
    ObjectBuilder::new()
        .schema_type(nullable(Type::String))
        .max_length(Some(max))
        .description(Some(format!(
            "Description (default `\"\"`), at most {max} characters (`fieldLimits.description`)."
        )))
        .build()
}

fn partitioning() -> Object {
    let mut values: Vec<Option<&str>> = PARTITIONINGS.iter().copied().map(Some).collect();
    values.push(None);
    ObjectBuilder::new()
        .schema_type(nullable(Type::String))
        .enum_values(Some(values))
        .description(Some(
            "Time partitioning of the files: `HOUR` (default), `DAY`, `MONTH` or `YEAR`.",
        ))
        .build()
}

fn retention_days() -> Object {
    ObjectBuilder::new()
        .schema_type(nullable(Type::Integer))
        .minimum(Some(1))
        .maximum(Some(MAX_RETENTION_DAYS))
        .description(Some(format!(
            "Days data is kept, 1 to {MAX_RETENTION_DAYS} (100 years); absent or `null`: kept forever."
        )))
        .build()
}

fn promoted_tags() -> Array {
    ArrayBuilder::new()
        .schema_type(nullable(Type::Array))
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(TAG_KEY_PATTERN)),
        )
        .max_items(Some(MAX_PROMOTED_TAGS))
        .unique_items(true)
        .description(Some(format!(
            "Tag keys copied into their own prunable columns: at most {MAX_PROMOTED_TAGS}, each once, each `{TAG_KEY_PATTERN}`; absent or `null`: {DEFAULT_PROMOTED_TAGS:?}."
        )))
        .build()
}

fn team_ids() -> Array {
    ArrayBuilder::new()
        .schema_type(nullable(Type::Array))
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(128)),
        )
        .max_items(Some(32))
        .description(Some(
            "The teams it belongs to (team ids, at most 32); absent or `null`: none on a create (the organization's), unchanged on an update. Creating or moving it takes Edit on datasets in those teams (docs/api.md, \"People, login and roles\").",
        ))
        .build()
}

fn version() -> Object {
    ObjectBuilder::new()
        .schema_type(nullable(Type::Integer))
        .minimum(Some(1))
        .maximum(Some(i64::MAX))
        .description(Some(
            "Update only (a create ignores it): the version this update replaces, the current one; another is a 409 carrying `currentVersion`. Absent or `null`: replace whatever is current.",
        ))
        .build()
}

fn read_only(field: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .read_only(true)
        .description(Some(format!(
            "`{field}` of an answer: accepted and ignored, so that a fetched dataset can be sent back."
        )))
        .build()
}

/// The schema of a create or update body on a server whose `fieldLimits.name` is `name_max`
/// and `fieldLimits.description` is `description_max` (characters).
pub fn dataset_input_schema(name_max: usize, description_max: usize) -> RefOr<Schema> {
    let mut builder = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "The body of `POST /v1/datasets` and `PUT /v1/datasets/{id}`: absent fields take their defaults (a `PUT` replaces every field). The service checks every body against this schema; a field not listed is a 400.",
        ))
        .property("version", version())
        .property("name", name(name_max))
        .property("description", description(description_max))
        .property("partitioning", partitioning())
        .property("retentionDays", retention_days())
        .property("promotedTags", promoted_tags())
        .property("teamIds", team_ids())
        .required("name")
        .additional_properties(Some(AdditionalProperties::FreeForm(false)));
    for field in READ_ONLY_FIELDS {
        builder = builder.property(*field, read_only(field));
    }
    RefOr::T(Schema::Object(builder.build()))
}

impl utoipa::PartialSchema for DatasetInput {
    /// The schema with the default limits, as the document publishes it.
    fn schema() -> RefOr<Schema> {
        dataset_input_schema(DEFAULT_NAME_CHARS, DEFAULT_DESCRIPTION_CHARS)
    }
}

impl utoipa::ToSchema for DatasetInput {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("DatasetInput")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::PartialSchema;

    /// Every field of the Rust type is a property of the schema, and a full value of it is
    /// valid (the schema and the type cannot drift apart silently).
    #[test]
    fn the_schema_covers_the_type() {
        let schema = serde_json::to_value(DatasetInput::schema()).unwrap_or_default();
        let full = DatasetInput {
            version: Some(3),
            name: "web".into(),
            description: Some("d".into()),
            partitioning: Some("DAY".into()),
            retention_days: Some(30),
            promoted_tags: Some(vec!["service".into()]),
            team_ids: Some(vec!["devops".into()]),
        };
        let value = serde_json::to_value(&full).unwrap_or_default();
        for key in value.as_object().into_iter().flatten().map(|(k, _)| k) {
            assert!(schema["properties"].get(key).is_some(), "{key} in {schema}");
        }
        assert_eq!(schema["required"], serde_json::json!(["name"]));
        assert_eq!(schema["additionalProperties"], serde_json::json!(false));
        assert_eq!(
            schema["properties"]["promotedTags"]["type"],
            serde_json::json!(["array", "null"])
        );
        assert_eq!(schema["properties"]["promotedTags"]["maxItems"], 8);
        assert_eq!(schema["properties"]["retentionDays"]["maximum"], 36_500);
    }
}
