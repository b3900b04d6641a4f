//! How large one stored field may be, and how large one page of a listing may be.
//!
//! Every write of a template, a job or a dataset checks the size of each free-form field: text
//! in characters (Unicode code points, what JSON Schema's `maxLength` counts, so that the
//! OpenAPI document can state the limit exactly: the defaults are its `maxLength`s), objects
//! in bytes of their compact JSON text. One over its limit is a 400 naming the field as a JSON
//! pointer (`/name`, `/template/inputSchema`), its size and the limit, so that no record holds
//! more than a bounded amount and no page of a listing can grow without bound.
//! The same settings bound the pages of every listing (`docs/api.md`, "Pagination").

use serde::Deserialize;

use crate::error::ApiError;
use crate::store::TemplateFields;

/// The size limits of stored fields and the bounds of listing pages (the `fieldLimits` setting
/// of the configuration file; camelCase keys, missing ones take the default).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct FieldLimits {
    /// Largest template, job or dataset `name`, in characters. Default 256.
    pub name: usize,
    /// Largest template or dataset `description`, in characters. Default 4096.
    pub description: usize,
    /// Largest template script (`template`), in characters. Default 262 144.
    pub template: usize,
    /// Largest `inputSchema`, as compact JSON text, in bytes. Default 64 KiB.
    pub input_schema: usize,
    /// Largest `inputs`, `outputs`, `draftOutputs` of a template and `tags` of a job, each as
    /// compact JSON text, in bytes. Default 64 KiB.
    pub mappings: usize,
    /// Items a page holds when the request gives no `limit`. Default 100.
    pub default_page_size: usize,
    /// Largest `limit` a listing accepts (a 400 above it). Default 1000.
    pub max_page_size: usize,
    /// Bytes of records after which a page ends early (it always holds at least one item;
    /// `nextCursor` continues where it ended). Default 4 MiB.
    pub max_page_bytes: usize,
}

impl Default for FieldLimits {
    fn default() -> Self {
        FieldLimits {
            name: jobgraph_sdk::api::dataset_schema::DEFAULT_NAME_CHARS,
            description: jobgraph_sdk::api::dataset_schema::DEFAULT_DESCRIPTION_CHARS,
            template: 262_144,
            input_schema: 64 * 1024,
            mappings: 64 * 1024,
            default_page_size: 100,
            max_page_size: 1000,
            max_page_bytes: 4 * 1024 * 1024,
        }
    }
}

/// A 400 unless `size` (in `unit`s) is within `limit`: the message names the field's JSON
/// pointer, its size, the limit and the setting that sets it.
fn within_units(
    pointer: &str,
    size: usize,
    limit: usize,
    setting: &str,
    unit: &str,
) -> Result<(), ApiError> {
    if size <= limit {
        return Ok(());
    }
    Err(ApiError::BadRequest(format!(
        "field `{pointer}` is {size} {unit}, over its limit of {limit} {unit} \
         (the server's `fieldLimits.{setting}` setting): shorten it"
    )))
}

/// A 400 unless `size` bytes are within `limit` bytes (JSON text).
pub fn within(pointer: &str, size: usize, limit: usize, setting: &str) -> Result<(), ApiError> {
    within_units(pointer, size, limit, setting, "bytes")
}

/// A 400 unless `text` has at most `limit` characters (code points, as JSON Schema's
/// `maxLength` counts them).
pub fn within_chars(
    pointer: &str,
    text: &str,
    limit: usize,
    setting: &str,
) -> Result<(), ApiError> {
    // Every character is at least one byte: no need to count a text that short.
    if text.len() <= limit {
        return Ok(());
    }
    within_units(pointer, text.chars().count(), limit, setting, "characters")
}

/// The size of a value as compact JSON text.
fn json_size<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    let mut counter = ByteCounter(0);
    // Writing into a counter cannot fail but for a value that cannot be serialized, which the
    // values checked here (already parsed JSON, strings, maps of strings) never are.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

/// An `io::Write` that only counts.
struct ByteCounter(usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl FieldLimits {
    /// Checks every field of a template version; `prefix` is the pointer of the template
    /// object (empty for a request body that is the template, `/template` in a test request).
    pub fn check_template(&self, fields: &TemplateFields, prefix: &str) -> Result<(), ApiError> {
        let at = |name: &str| format!("{prefix}/{name}");
        within_chars(&at("name"), &fields.name, self.name, "name")?;
        if let Some(description) = &fields.description {
            within_chars(
                &at("description"),
                description,
                self.description,
                "description",
            )?;
        }
        within_chars(&at("template"), &fields.template, self.template, "template")?;
        if let Some(schema) = &fields.input_schema {
            within(
                &at("inputSchema"),
                json_size(schema),
                self.input_schema,
                "inputSchema",
            )?;
        }
        within(
            &at("inputs"),
            json_size(&fields.inputs),
            self.mappings,
            "mappings",
        )?;
        within(
            &at("outputs"),
            json_size(&fields.outputs),
            self.mappings,
            "mappings",
        )?;
        within(
            &at("draftOutputs"),
            json_size(&fields.draft_outputs),
            self.mappings,
            "mappings",
        )
    }

    /// Checks a job's `name` and `tags`.
    pub fn check_job(
        &self,
        name: &str,
        tags: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), ApiError> {
        within_chars("/name", name, self.name, "name")?;
        within("/tags", json_size(tags), self.mappings, "mappings")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_over_its_limit_is_named_with_its_size_and_the_limit() {
        let limits = FieldLimits::default();
        let fields = TemplateFields {
            name: "n".repeat(257),
            template: "1".into(),
            ..Default::default()
        };
        let message = limits.check_template(&fields, "").unwrap_err().to_string();
        assert!(message.contains("`/name`"), "{message}");
        assert!(message.contains("257 characters"), "{message}");
        assert!(message.contains("256 characters"), "{message}");
        // Characters, not bytes: 256 four-byte characters fit, 257 do not.
        let fields = TemplateFields {
            name: "😀".repeat(256),
            template: "1".into(),
            ..Default::default()
        };
        assert!(limits.check_template(&fields, "").is_ok());
        let fields = TemplateFields {
            name: "😀".repeat(257),
            ..fields
        };
        assert!(limits.check_template(&fields, "").is_err());
        let fields = TemplateFields {
            name: "n".into(),
            template: "1".into(),
            input_schema: Some(serde_json::json!({"description": "x".repeat(70_000)})),
            ..Default::default()
        };
        let message = limits
            .check_template(&fields, "/template")
            .unwrap_err()
            .to_string();
        assert!(message.contains("`/template/inputSchema`"), "{message}");
        assert!(limits.check_job("nightly", &Default::default()).is_ok());
    }

    /// The document states the default limits as `maxLength`s, where each body is described.
    #[test]
    fn the_document_states_the_default_limits() {
        let limits = FieldLimits::default();
        let document = serde_json::to_value(crate::routes::openapi()).unwrap_or_default();
        let schemas = &document["components"]["schemas"];
        let cases = [
            ("TemplateCreateDoc", "name", limits.name),
            ("TemplateCreateDoc", "description", limits.description),
            ("TemplateCreateDoc", "template", limits.template),
            ("TemplateUpdateDoc", "name", limits.name),
            ("TemplateUpdateDoc", "description", limits.description),
            ("TemplateUpdateDoc", "template", limits.template),
            ("CreateJobDoc", "name", limits.name),
            ("UpdateJobDoc", "name", limits.name),
            ("DatasetInput", "name", limits.name),
            ("DatasetInput", "description", limits.description),
        ];
        for (schema, field, limit) in cases {
            assert_eq!(
                schemas[schema]["properties"][field]["maxLength"], limit,
                "{schema}.{field}"
            );
        }
    }
}
