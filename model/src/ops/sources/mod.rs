//! Sources: operations that bring events into a graph.

pub mod agent;
pub mod datadog_log_agent_source;
pub mod grepr_raw_log_source;
pub mod logs_iceberg_table_source;
pub mod logs_values_source;
pub mod newrelic_log_agent_source;
pub mod otel_log_source;
pub mod otlp_log_agent_source;
pub mod splunk_log_agent_source;
pub mod sumologic_log_agent_source;
