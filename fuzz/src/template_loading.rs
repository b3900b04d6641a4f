//! `template_loading`: template documents, their input schemas and default filling.

use jobgraph_core::{InputSchema, Template, fill_defaults};
use serde_json::{Map, Value, json};

/// Byte that separates the template JSON from optional input JSON (never valid in UTF-8).
pub const INPUT_SEPARATOR: u8 = 0xFF;

/// `template_loading`: `<template JSON>[0xFF <inputs JSON>]`. The template deserializes or fails
/// with an error; a template roundtrips through serde; its `inputSchema` compiles or fails with
/// an error; `check` of the given inputs (and of a few fixed probes) fills defaults, and its
/// result is consistent with `is_valid`, is a fixed point, and every problem points into the
/// filled inputs.
pub fn template_loading(data: &[u8]) {
    let (template_part, inputs_part) = match data.iter().position(|&b| b == INPUT_SEPARATOR) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let Ok(value) = serde_json::from_slice::<Value>(template_part) else {
        return;
    };
    // The same JSON text through the loader that takes a separate script.
    if let Ok(text) = std::str::from_utf8(template_part) {
        let has_inline = value.get("template").is_some();
        for script in [None, Some("({vertices: [], edges: []})".to_owned())] {
            let with_script = script.is_some();
            if let Ok(t) = Template::from_json_with_script(text, script) {
                assert!(has_inline != with_script, "accepted a script twice or none");
                if with_script {
                    assert_eq!(t.template, "({vertices: [], edges: []})");
                }
            }
        }
    }
    let template: Template = match serde_json::from_value(value.clone()) {
        Ok(t) => t,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            // The schema alone still goes through the compiler.
            if let Some(schema) = value.get("inputSchema") {
                check_schema(Some(schema), inputs_part);
            }
            return;
        }
    };
    let written = serde_json::to_value(&template).unwrap();
    let back: Template = serde_json::from_value(written.clone())
        .unwrap_or_else(|e| panic!("serialized template does not load: {e}: {written}"));
    assert_eq!(back, template, "template serde roundtrip");
    let _ = template.label();
    let names = template.parameter_names();
    if let Some(Value::Object(props)) = template
        .input_schema
        .as_ref()
        .and_then(|s| s.get("properties"))
    {
        assert_eq!(names.len(), props.len());
    }
    check_schema(template.input_schema.as_ref(), inputs_part);
}

fn check_schema(schema_value: Option<&Value>, inputs_part: Option<&[u8]>) {
    let schema = match InputSchema::compile(schema_value) {
        Ok(s) => s,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let mut probes = vec![
        json!({}),
        json!(null),
        json!([]),
        json!({"a": 1, "q": "x"}),
        json!(0),
    ];
    if let Some(Value::Object(props)) = schema_value.and_then(|s| s.get("properties")) {
        // Each property given the value of its own `default`, or a string.
        let mut all = Map::new();
        for (k, sub) in props {
            all.insert(k.clone(), sub.get("default").cloned().unwrap_or(json!("s")));
        }
        probes.push(Value::Object(all));
    }
    if let Some(bytes) = inputs_part
        && let Ok(v) = serde_json::from_slice::<Value>(bytes)
    {
        probes.push(v);
    }
    for probe in probes {
        check_inputs(&schema, schema_value, probe);
    }
}

fn check_inputs(schema: &InputSchema, schema_value: Option<&Value>, values: Value) {
    let mut filled = values.clone();
    if let Some(s) = schema_value {
        fill_defaults(s, s, &mut filled, 0);
    }
    match schema.check(values) {
        Ok(out) => {
            assert_eq!(out, filled, "check returns the filled inputs");
            assert!(
                schema.is_valid(&out),
                "check accepted what is_valid rejects: {out}"
            );
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(
                !schema.is_valid(&filled),
                "check rejected what is_valid accepts: {filled}"
            );
            for p in &problems {
                assert!(!p.message.is_empty());
                assert!(
                    filled.pointer(&p.pointer).is_some(),
                    "problem pointer {:?} not in {filled}",
                    p.pointer
                );
            }
        }
    }
}
