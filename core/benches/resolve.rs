//! Resolution benchmarks: the example jobs, one template operation cold and warm, and the
//! sandbox's fixed costs. Results and the command live in bench/RESULTS.md.

/// The allocator the `jobgraph` binary uses; boa allocates heavily (see bench/RESULTS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jobgraph_core::{
    JobGraph, Limits, ResolveOptions, ScriptInput, Template, TemplateSet, TestInput, TestRequest,
    resolve_document_now, resolve_now, run_script, test_template,
};
use serde_json::{Map, Value, json};

fn examples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples"))
}

/// Reads examples/templates the way the directory source does (JSON + optional .js).
fn example_templates() -> TemplateSet {
    let dir = examples().join("templates");
    let mut set = TemplateSet::new();
    for entry in std::fs::read_dir(&dir).expect("examples/templates") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "json") {
            let json = std::fs::read_to_string(&path).expect("template json");
            let script = std::fs::read_to_string(path.with_extension("js")).ok();
            set.insert(Template::from_json_with_script(&json, script).expect("valid template"));
        }
    }
    set
}

fn example_job(name: &str) -> Value {
    let text = std::fs::read_to_string(examples().join("jobs").join(name)).expect("job file");
    serde_json::from_str(&text).expect("job JSON")
}

fn one_operation_job(count: usize) -> JobGraph {
    let vertices: Vec<Value> = (0..count)
        .map(|i| {
            json!({"type": "template-operation", "name": format!("op{i}"),
                   "templateId": "severity-filter", "templateVersion": 2,
                   "templateInputs": {"minLevel": "info", "excludeServices": ["a", "b"]}})
        })
        .collect();
    serde_json::from_value(json!({"vertices": vertices, "edges": []})).expect("graph")
}

fn bench(c: &mut Criterion) {
    let templates = example_templates();
    let options = ResolveOptions::default();

    let mut group = c.benchmark_group("examples");
    for job in ["errors-to-vendor.json", "draft-preview.json"] {
        let document = example_job(job);
        group.bench_function(job, |b| {
            b.iter(|| {
                resolve_document_now(black_box(&document), &templates, &options).expect("resolves")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("operation");
    let single = one_operation_job(1);
    group.bench_function("cold (job with one operation)", |b| {
        b.iter(|| resolve_now(black_box(&single), &templates, &options).expect("resolves"))
    });
    let many = one_operation_job(50);
    group.throughput(Throughput::Elements(50));
    group.bench_function("warm (per operation, 50 in one job)", |b| {
        b.iter(|| resolve_now(black_box(&many), &templates, &options).expect("resolves"))
    });
    group.finish();

    let mut group = c.benchmark_group("parts");
    let template = templates
        .get("severity-filter", Some(2))
        .expect("example")
        .clone();
    let request = TestRequest {
        template: template.clone(),
        input: TestInput {
            is_draft: false,
            values: json!({"minLevel": "info"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        },
        check_valid_job_graph: true,
    };
    group.bench_function("test_template", |b| {
        b.iter(|| test_template(black_box(&request), "bench", &Limits::default()).expect("runs"))
    });
    let mut variables = Map::new();
    variables.insert("minLevel".into(), json!("info"));
    variables.insert("excludeServices".into(), json!([]));
    group.bench_function("run_script (context + parse + run + convert)", |b| {
        b.iter(|| {
            let input = ScriptInput {
                source: &template.template,
                declared: &[],
                variables: &variables,
                draft: false,
                user: "bench",
            };
            run_script(black_box(&input), &Limits::default()).expect("runs")
        })
    });
    group.bench_function("boa Context::default", |b| {
        b.iter(|| black_box(boa_engine::Context::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
