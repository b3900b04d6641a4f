//! What the agent sources share: an integration whose intake feeds them, and where to start
//! when no offset was committed.

use crate::{config, wire_enum};

wire_enum! {
    /// Where to start when no committed offset exists: `EARLIEST` (the oldest retained),
    /// `LATEST` (the newest; the default), `NONE`.
    pub enum OffsetResetStrategy { Latest = "LATEST", Earliest = "EARLIEST", None = "NONE" }
}

config! {
    /// The configuration of an agent source (`splunk-log-agent-source`,
    /// `newrelic-log-agent-source`, `sumologic-log-agent-source`, `otlp-log-agent-source`).
    pub struct AgentSource {
        /// The integration whose intake endpoint feeds this source.
        "integrationId" [required] => integration_id: String,
        /// Where to start when no committed offset exists.
        "offsetResetStrategy" [default("\"LATEST\"")] => offset_reset_strategy: Option<OffsetResetStrategy>,
    }
}
