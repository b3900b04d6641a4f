//! The `integrations` setting of the `--config` file: what `/v1/integrations` lists
//! (`docs/api.md`, "Integrations"). Kept apart from the handlers so that the settings depend
//! on nothing of the service.

use serde::Deserialize;

/// An integration as the `--config` file declares it (`integrations: [{id, name, type,
/// organizations?}]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntegrationSpec {
    /// Identifier, as a `logs-sync-sink`'s `integration` names it (unique in the file).
    pub id: String,
    /// Name shown to clients.
    pub name: String,
    /// Type (free text: `splunk`, `s3`, …).
    #[serde(rename = "type")]
    pub kind: String,
    /// The organizations that see it; absent: every organization.
    #[serde(default)]
    pub organizations: Option<Vec<String>>,
}

impl IntegrationSpec {
    /// Whether `organization` sees this integration.
    pub fn visible_to(&self, organization: &str) -> bool {
        self.organizations
            .as_ref()
            .is_none_or(|orgs| orgs.iter().any(|o| o == organization))
    }
}

/// What is wrong with a list of integrations, if anything: an empty field or an id given
/// twice (`integrations[N].field …`).
pub fn check_integrations(specs: &[IntegrationSpec]) -> Result<(), String> {
    for (i, spec) in specs.iter().enumerate() {
        for (field, value) in [("id", &spec.id), ("name", &spec.name), ("type", &spec.kind)] {
            if value.trim().is_empty() {
                return Err(format!("integrations[{i}].{field} must not be empty"));
            }
        }
        if let Some(first) = specs[..i].iter().position(|s| s.id == spec.id) {
            return Err(format!(
                "integrations[{i}].id {:?} is already the id of integrations[{first}]: give each integration its own id",
                spec.id
            ));
        }
        if spec.organizations.as_ref().is_some_and(|o| o.is_empty()) {
            return Err(format!(
                "integrations[{i}].organizations is empty, so no organization would see it: list organizations, or leave the key out for all"
            ));
        }
    }
    Ok(())
}
