//! Resolution benchmarks: the example jobs, one template operation cold and warm, and the
//! sandbox's fixed costs. Results and the command live in bench/RESULTS.md.

/// The allocator the `jobgraph` binary uses; boa allocates heavily (see bench/RESULTS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jobgraph_core::{
    ExecutionCache, JobGraph, Limits, Resolver, ScriptInput, Template, TemplateSet, TestInput,
    TestRequest, run_script,
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

/// A job of `count` operations of `severity-filter@2`, each with inputs of its own (so that
/// no execution could be answered by another's result), the first with `first_service`.
fn operations_job(count: usize, first_service: &str) -> JobGraph {
    let vertices: Vec<Value> = (0..count)
        .map(|i| {
            let service = if i == 0 {
                first_service.to_owned()
            } else {
                format!("svc{i}")
            };
            json!({"type": "template-operation", "name": format!("op{i}"),
                   "templateId": "severity-filter", "templateVersion": 2,
                   "templateInputs": {"minLevel": "info", "excludeServices": ["a", service]}})
        })
        .collect();
    serde_json::from_value(json!({"vertices": vertices, "edges": []})).expect("graph")
}

fn bench(c: &mut Criterion) {
    let templates = example_templates();
    // Every execution runs its script: the execution cache is measured on its own below.
    let resolver = Resolver::builder(templates.clone())
        .cache(ExecutionCache::disabled())
        .build();

    let mut group = c.benchmark_group("examples");
    for job in ["errors-to-vendor.json", "draft-preview.json"] {
        let document = example_job(job);
        group.bench_function(job, |b| {
            b.iter(|| {
                resolver
                    .resolve_document_blocking(black_box(&document))
                    .expect("resolves")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("operation");
    let single = operations_job(1, "b");
    group.bench_function("cold (job with one operation)", |b| {
        b.iter(|| {
            resolver
                .resolve_blocking(black_box(&single))
                .expect("resolves")
        })
    });
    let many = operations_job(50, "b");
    group.throughput(Throughput::Elements(50));
    group.bench_function("warm (per operation, 50 in one job)", |b| {
        b.iter(|| {
            resolver
                .resolve_blocking(black_box(&many))
                .expect("resolves")
        })
    });
    group.finish();

    // Live preview: one operation's inputs change between two resolutions of a 50-operation
    // job; the other 49 results come from the execution cache.
    let mut group = c.benchmark_group("incremental");
    let cached = Resolver::new(templates.clone());
    let edits = [operations_job(50, "edit-a"), operations_job(50, "edit-b")];
    cached.resolve_blocking(&edits[0]).expect("resolves");
    let mut turn = 0usize;
    group.bench_function("re-resolve 50 operations after editing one", |b| {
        b.iter(|| {
            turn += 1;
            cached
                .resolve_blocking(black_box(&edits[turn % 2]))
                .expect("resolves")
        })
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
        b.iter(|| resolver.test_blocking(black_box(&request)).expect("runs"))
    });
    let mut variables = Map::new();
    variables.insert("minLevel".into(), json!("info"));
    variables.insert("excludeServices".into(), json!([]));
    group.bench_function(
        "run_script (prepared realm: bind, run, convert, check)",
        |b| {
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
        },
    );
    group.bench_function(
        "first script of a thread (prepares its realm, compiles)",
        |b| {
            b.iter(|| {
                let source = template.template.clone();
                let variables = variables.clone();
                std::thread::spawn(move || {
                    let input = ScriptInput {
                        source: &source,
                        declared: &[],
                        variables: &variables,
                        draft: false,
                        user: "bench",
                    };
                    run_script(&input, &Limits::default()).expect("runs")
                })
                .join()
                .expect("joins")
            })
        },
    );
    group.bench_function("thread spawn and join (to subtract from the above)", |b| {
        b.iter(|| std::thread::spawn(|| black_box(1)).join().expect("joins"))
    });
    group.bench_function("boa Context::default", |b| {
        b.iter(|| black_box(boa_engine::Context::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
