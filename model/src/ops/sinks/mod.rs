//! Sinks: operations that send events out of a graph.

pub mod attributes_sink;
pub mod datadog_log_sink;
pub mod logs_iceberg_table_sink;
pub mod logs_sync_sink;
pub mod newrelic_log_sink;
pub mod splunk_log_sink;
pub mod sumologic_log_sink;
