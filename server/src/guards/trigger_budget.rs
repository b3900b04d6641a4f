//! What `POST /v1/triggers` may be made to store: its settings and its budgets per source
//! address and per organization (keyed GCRA, the token endpoint's `Budget`).

use serde::Deserialize;

use crate::guards::throttle::{AddressKey, Budget, ClientKey};

/// Settings of `POST /v1/triggers` (`triggers` in the config file).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TriggerConfig {
    /// Largest payload, in bytes (413 past it). Default 65536.
    pub max_payload_bytes: usize,
    /// Triggers one source address may send at once. Default 60.
    pub address_burst: u32,
    /// Milliseconds after which an address may send one more. Default 1000.
    pub address_period_ms: u64,
    /// Triggers one organization's jobs may receive at once. Default 600.
    pub organization_burst: u32,
    /// Milliseconds after which an organization may receive one more. Default 100.
    pub organization_period_ms: u64,
    /// Triggers kept per organization, the newest; older ones are deleted as new ones
    /// arrive. Default 1000 (with the default payload limit, at most 64 MiB an organization).
    pub kept_per_organization: usize,
}

impl Default for TriggerConfig {
    fn default() -> Self {
        TriggerConfig {
            max_payload_bytes: 64 * 1024,
            address_burst: 60,
            address_period_ms: 1000,
            organization_burst: 600,
            organization_period_ms: 100,
            kept_per_organization: 1000,
        }
    }
}

/// The budgets of triggers per source address and per organization.
pub(crate) struct TriggerThrottle {
    pub(crate) addresses: Budget<AddressKey>,
    pub(crate) organizations: Budget<ClientKey>,
}

impl TriggerThrottle {
    pub(crate) fn new(config: &TriggerConfig) -> Self {
        TriggerThrottle {
            addresses: Budget::new(
                config.address_burst,
                config.address_period_ms,
                AddressKey::Overflow,
            ),
            organizations: Budget::new(
                config.organization_burst,
                config.organization_period_ms,
                ClientKey::Overflow,
            ),
        }
    }
}
