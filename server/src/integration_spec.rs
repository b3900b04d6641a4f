//! The `integrations` setting of the `--config` file: what `/v1/integrations` lists
//! (`docs/api.md`, "Integrations"). Kept apart from the handlers so that the settings depend
//! on nothing of the service.

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The integration types of the public service's API, as its client walks them
/// (`GET /v1/integrations/{type}`), in its order.
pub use jobgraph_sdk::api::INTEGRATION_TYPES as PUBLIC_TYPES;

/// An integration as the `--config` file declares it (`integrations: [{id, name, type,
/// organizations?, payload?}]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntegrationSpec {
    /// Identifier, as a `logs-sync-sink`'s `integration` names it (unique in the file, and
    /// none of [`PUBLIC_TYPES`]).
    pub id: String,
    /// Name shown to clients.
    pub name: String,
    /// Type (free text: `splunk`, `s3`, …; [`IntegrationSpec::public_type`] maps it to one of
    /// [`PUBLIC_TYPES`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// The organizations that see it; absent: every organization.
    #[serde(default)]
    pub organizations: Option<Vec<String>>,
    /// Fields of its `payload` in the public shape (`GET /v1/integrations/{type}/{id}`), over
    /// the defaults of its type ([`IntegrationSpec::payload`]). Shown to every organization
    /// that sees the integration: no secrets.
    #[serde(default, deserialize_with = "object")]
    pub payload: Option<Map<String, Value>>,
    /// The key agents send this integration's logs with (`docs/intake.md`): Datadog's
    /// `DD-API-KEY`, OTLP's `Authorization: Bearer …` (or `X-Api-Key`), Splunk's
    /// `Authorization: Splunk …`. It says which integration the logs are for; without one,
    /// the integration takes no logs. Never listed, logged or shown (`Debug` says `<redacted>`).
    #[serde(default, rename = "ingestKey")]
    pub ingest_key: Option<Secret>,
    /// Where sinks naming this integration deliver (`docs/intake.md`, "Delivery"): the
    /// vendor's intake, without its path (`https://http-intake.logs.datadoghq.eu`,
    /// `https://splunk.example.com:8088`). Datadog's default is
    /// `https://http-intake.logs.{payload.site}`.
    #[serde(default, rename = "deliveryUrl")]
    pub delivery_url: Option<String>,
    /// The vendor's key the sinks send (Datadog's API key, Splunk's HEC token, an OTLP
    /// bearer token). Never listed, logged or shown.
    #[serde(default, rename = "deliveryKey")]
    pub delivery_key: Option<Secret>,
    /// The teams it belongs to (`teamIds`); empty: the organization's. A team's Leaders and
    /// Members may send events through it (Write), where an organization's integration takes
    /// an organization Admin or Member (`docs/api.md`, "People, login and roles").
    #[serde(default, rename = "teamIds")]
    pub team_ids: Vec<String>,
}

/// A secret of the `--config` file: compared in constant time, never shown.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Whether `given` is this secret, in time that does not depend on where they differ.
    pub fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        let mut diff = u8::from(a.len() != b.len());
        for (i, x) in a.iter().enumerate() {
            diff |= x ^ b.get(i).copied().unwrap_or(0);
        }
        diff == 0
    }

    /// The secret, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// `payload`: a JSON object, or a message that says so (serde's own names no field).
fn object<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Map<String, Value>>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(serde::de::Error::custom(format!(
            "`payload` of an integration must be a JSON object of its settings (for example {{\"site\": \"datadoghq.eu\"}}), found {}",
            match other {
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                _ => "an array",
            }
        ))),
    }
}

impl IntegrationSpec {
    /// Whether `organization` sees this integration.
    pub fn visible_to(&self, organization: &str) -> bool {
        self.organizations
            .as_ref()
            .is_none_or(|orgs| orgs.iter().any(|o| o == organization))
    }

    /// The public type this integration is listed under, from its `type` (case and the
    /// spellings below aside); `None` for any other type, which only `GET /v1/integrations`
    /// lists.
    ///
    /// | `type` | public type |
    /// |---|---|
    /// | `datadog` | `datadog` |
    /// | `newrelic`, `new-relic`, `new_relic` | `newrelic` |
    /// | `otlp`, `otel`, `opentelemetry` | `otlp` |
    /// | `splunk` | `splunk` |
    /// | `sumo`, `sumologic`, `sumo-logic` | `sumo` |
    /// | `data-warehouse` | `data-warehouse` |
    /// | `s3-data-warehouse`, `s3` | `s3-data-warehouse` |
    ///
    /// ```
    /// use jobgraph_server::integration_spec::IntegrationSpec;
    /// let spec: IntegrationSpec =
    ///     serde_json::from_str(r#"{"id": "archive", "name": "Archive", "type": "S3"}"#).unwrap();
    /// assert_eq!(spec.public_type(), Some("s3-data-warehouse"));
    /// ```
    pub fn public_type(&self) -> Option<&'static str> {
        Some(match self.kind.trim().to_ascii_lowercase().as_str() {
            "datadog" => "datadog",
            "newrelic" | "new-relic" | "new_relic" => "newrelic",
            "otlp" | "otel" | "opentelemetry" => "otlp",
            "splunk" => "splunk",
            "sumo" | "sumologic" | "sumo-logic" => "sumo",
            "data-warehouse" => "data-warehouse",
            "s3-data-warehouse" | "s3" => "s3-data-warehouse",
            _ => return None,
        })
    }

    /// Its `payload` in the public shape: the fields the public client's schema requires for
    /// its type, with these defaults, then the `payload` of the declaration over them.
    ///
    /// | type | defaults |
    /// |---|---|
    /// | `datadog` | `additionalTags: []`, `filterQuery: ""`, `site: "datadoghq.com"` |
    /// | `newrelic` | `site: "newrelic.com"` |
    /// | `otlp` | `endpoint: ""` |
    /// | `splunk` | `additionalTags: []`, `filterQuery: ""` |
    /// | `s3-data-warehouse` | `bucketName: ""` |
    /// | `sumo`, `data-warehouse`, other | nothing |
    pub fn payload(&self) -> Map<String, Value> {
        let defaults = match self.public_type() {
            Some("datadog") => {
                json!({"additionalTags": [], "filterQuery": "", "site": "datadoghq.com"})
            }
            Some("newrelic") => json!({"site": "newrelic.com"}),
            Some("otlp") => json!({"endpoint": ""}),
            Some("splunk") => json!({"additionalTags": [], "filterQuery": ""}),
            Some("s3-data-warehouse") => json!({"bucketName": ""}),
            _ => json!({}),
        };
        let Value::Object(mut payload) = defaults else {
            return Map::new();
        };
        if let Some(given) = &self.payload {
            payload.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        payload
    }
}

/// What is wrong with a list of integrations, if anything: an empty field, an id given
/// twice, or an id that is one of [`PUBLIC_TYPES`] (`GET /v1/integrations/{x}` reads a type
/// name as the type) (`integrations[N].field …`).
pub fn check_integrations(specs: &[IntegrationSpec]) -> Result<(), String> {
    for (i, spec) in specs.iter().enumerate() {
        for (field, value) in [("id", &spec.id), ("name", &spec.name), ("type", &spec.kind)] {
            if value.trim().is_empty() {
                return Err(format!("integrations[{i}].{field} must not be empty"));
            }
        }
        if PUBLIC_TYPES.contains(&spec.id.as_str()) {
            return Err(format!(
                "integrations[{i}].id {:?} is the name of an integration type: GET /v1/integrations/{} lists the integrations of that type, so no integration can be read at that path; choose another id (for example {:?})",
                spec.id,
                spec.id,
                format!("{}-1", spec.id)
            ));
        }
        if let Some(first) = specs[..i].iter().position(|s| s.id == spec.id) {
            return Err(format!(
                "integrations[{i}].id {:?} is already the id of integrations[{first}]: give each integration its own id",
                spec.id
            ));
        }
        if let Some(key) = &spec.ingest_key {
            if key.0.trim().len() < 16 {
                return Err(format!(
                    "integrations[{i}].ingestKey is shorter than 16 characters: anyone could guess it; use a random key (for example `openssl rand -hex 24`)"
                ));
            }
            if let Some(other) = specs[..i]
                .iter()
                .position(|s| s.ingest_key.as_ref().is_some_and(|k| k.0 == key.0))
            {
                return Err(format!(
                    "integrations[{i}].ingestKey is already the ingestKey of integrations[{other}]: the key says which integration logs are for, so give each its own"
                ));
            }
        }
        if spec.organizations.as_ref().is_some_and(|o| o.is_empty()) {
            return Err(format!(
                "integrations[{i}].organizations is empty, so no organization would see it: list organizations, or leave the key out for all"
            ));
        }
    }
    Ok(())
}
