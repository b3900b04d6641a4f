//! Native input validation (JSON Schema 2020-12 by jsonschema, `pattern` by its built-in
//! engines natively): compiling an input schema with patterns, and validating a valid and an
//! invalid instance against it. Results and the command live in bench/RESULTS.md ("Package
//! size (issue 12)": the native build keeps its validation speed).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use jobgraph_core::InputSchema;
use serde_json::{Value, json};

/// An input schema of the kind templates declare, with every regex-bearing keyword.
fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["service", "minLevel"],
        "properties": {
            "service": {"type": "string", "pattern": "^[a-z][a-z0-9-]{2,40}$"},
            "minLevel": {"enum": ["debug", "info", "warn", "error"]},
            "owner": {"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$"},
            "excludeServices": {
                "type": "array", "maxItems": 50, "uniqueItems": true,
                "items": {"type": "string", "pattern": "^(?:[a-z0-9-]+|\\*)$"}
            },
            "window": {"type": "string", "pattern": "^\\d+(?:ms|s|m|h)$", "default": "5m"},
            "labels": {
                "type": "object",
                "patternProperties": {"^[a-z][a-z0-9_]*$": {"type": "string", "maxLength": 64}},
                "additionalProperties": false
            }
        },
        "additionalProperties": false
    })
}

fn valid() -> Value {
    json!({
        "service": "checkout-api", "minLevel": "warn", "owner": "ops@example.com",
        "excludeServices": ["a", "svc-1", "svc-2", "*"], "window": "15m",
        "labels": {"team": "payments", "tier": "gold", "region_eu": "yes"}
    })
}

fn invalid() -> Value {
    json!({
        "service": "Checkout API", "minLevel": "fatal", "owner": "nobody",
        "excludeServices": ["a", "a", "B C"], "window": "soon",
        "labels": {"Team": "payments", "tier": 3}
    })
}

fn bench(c: &mut Criterion) {
    let schema = schema();
    let compiled = InputSchema::compile(Some(&schema)).expect("the schema compiles");
    let (valid, invalid) = (valid(), invalid());
    assert!(compiled.is_valid(&valid) && !compiled.is_valid(&invalid));
    let mut group = c.benchmark_group("input schema");
    group.bench_function("compile (6 patterns)", |b| {
        b.iter(|| InputSchema::compile(Some(black_box(&schema))).expect("compiles"));
    });
    group.bench_function("validate a valid instance", |b| {
        b.iter(|| compiled.is_valid(black_box(&valid)));
    });
    group.bench_function("validate an invalid instance", |b| {
        b.iter(|| compiled.is_valid(black_box(&invalid)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
