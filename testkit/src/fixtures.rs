//! Templates and jobs the suites send.

use serde_json::{Value, json};

/// A template body: a `logs-filter` vertex `f` whose query is `level:<level>`.
pub fn filter_template(name: &str) -> Value {
    json!({
        "name": name,
        "description": "keeps one level",
        "inputSchema": {"type": "object",
            "properties": {"level": {"type": "string", "default": "error"}}},
        "template": "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: 'level:' + level + ' by ' + user.getName()}}], edges: []})",
        "inputs": {"input": "f:input"},
        "outputs": {"output": "f:output"}
    })
}

/// A job with one template operation of `template_id`.
pub fn job_using(name: &str, template_id: &str, level: &str) -> Value {
    json!({
        "name": name,
        "execution": "ASYNCHRONOUS",
        "processing": "STREAMING",
        "jobGraph": {
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "src", "table": "logs", "processing": "STREAM",
                 "query": {"type": "simple-query", "query": "*"}},
                {"type": "template-operation", "name": "errors", "templateId": template_id,
                 "templateInputs": {"level": level}},
                {"type": "datadog-log-sink", "name": "sink", "integrationId": "dd-prod"}
            ],
            "edges": ["src -> errors", "errors -> sink"]
        }
    })
}
