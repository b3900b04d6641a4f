//! Transforms: operations that turn events into events.

pub mod grok_parser;
pub mod json_log_processor;
pub mod keyvalue_processor;
pub mod log_attributes_remapper;
pub mod log_reducer;
pub mod log_transform;
pub mod logs_branch;
pub mod logs_event_sampler;
pub mod logs_filter;
pub mod masking_operator;
pub mod pattern_matcher;
pub mod sql_operation;
pub mod template_operation;
