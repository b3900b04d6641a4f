//! What the New Relic and Sumo Logic sinks share: an integration and extra attributes.

use indexmap::IndexMap;

use crate::config;

config! {
    /// The configuration of a sink that sends to a vendor with extra attributes
    /// (`newrelic-log-sink`, `sumologic-log-sink`).
    pub struct AttributesSink {
        /// The vendor's integration.
        "integrationId" [required] => integration_id: String,
        /// Extra attributes (string -> string), combined with the integration's.
        "additionalAttributes" [default("{}")] => additional_attributes: Option<IndexMap<String, String>>,
    }
}
