//! Unit tests of the sandbox: results, errors, limits, isolation.

use boa_engine::module::IdleModuleLoader;
use serde_json::{Map, Value, json};

use super::*;

mod prepared_realms;

/// Default limits but a generous deadline: a loaded CI machine runs debug builds slowly.
fn run(source: &str) -> Result<Value, ScriptError> {
    run_limited(
        source,
        Limits {
            timeout_ms: 30_000,
            ..Limits::default()
        },
    )
}

fn run_limited(source: &str, limits: Limits) -> Result<Value, ScriptError> {
    let vars = Map::new();
    run_script(
        &ScriptInput {
            source,
            declared: &[],
            variables: &vars,
            draft: false,
            user: "tester",
        },
        &limits,
    )
    .map(|out| out.value)
}

fn failed(source: &str, limits: Limits) -> ScriptFailure {
    match run_limited(source, limits) {
        Err(ScriptError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn completion_value_and_json_text() {
    assert_eq!(run("let a = 1; ({a})").unwrap(), json!({"a": 1}));
    assert_eq!(
        run("JSON.stringify({b: [1, 2.5]})").unwrap(),
        json!({"b": [1, 2.5]})
    );
    assert_eq!(
        run("({x: 3 / 1.5, y: -0})").unwrap(),
        json!({"x": 2, "y": 0})
    );
    assert_eq!(run("null"), Err(ScriptError::ReturnedNothing));
    assert_eq!(run("let x = 1;"), Err(ScriptError::ReturnedNothing));
    assert_eq!(run("'null'"), Err(ScriptError::ReturnedNothing));
    assert!(matches!(run("'{not json'"), Err(ScriptError::NotJson(m)) if m.contains("not JSON")));
    assert!(matches!(run("({a: 1n})"), Err(ScriptError::NotJson(m)) if m.contains("bigint")));
    assert!(
        matches!(run("let o = {}; o.o = o; o"), Err(ScriptError::NotJson(m)) if m.contains("cyclic"))
    );
}

#[test]
fn errors_carry_message_and_position() {
    let f = failed("let a = 1;\nnotDefined.x", Limits::default());
    assert_eq!(f.message, "ReferenceError: notDefined is not defined");
    assert_eq!(f.line, Some(2));
    assert!(f.column.is_some());
    let f = failed(
        "let a = 1;\n  throw new Error('bad input');",
        Limits::default(),
    );
    assert_eq!(f.message, "Error: bad input");
    assert_eq!(f.line, Some(2));
    let f = failed("throw 'plain'", Limits::default());
    assert_eq!(f.message, "Uncaught \"plain\"");
    let f = failed("let x = {;", Limits::default());
    assert_eq!(f.message, "SyntaxError: abrupt end");
    assert_eq!((f.line, f.column), (Some(1), Some(11)));
    let f = failed("let a = 1;\nlet = = 2;", Limits::default());
    assert!(f.message.starts_with("SyntaxError: "), "{f:?}");
    assert!(!f.message.contains(" at line "), "{f:?}");
    assert_eq!(f.line, Some(2));
}

#[test]
fn limits_stop_hostile_scripts() {
    let quick = Limits {
        timeout_ms: 200,
        ..Limits::default()
    };
    let f = failed(
        "while (true) {}",
        Limits {
            loop_iterations: u64::MAX,
            ..quick
        },
    );
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Time));
    let f = failed("while (true) {}", quick);
    assert!(f.limit.is_some(), "{f:?}");
    let few_loops = Limits {
        loop_iterations: 100_000,
        ..quick
    };
    let f = failed(
        "try { for (;;) {} } catch (e) {} ({vertices: []})",
        few_loops,
    );
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Loop));
    let f = failed("function f() { return f() + 1 } f()", quick);
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Recursion));
    let f = failed("[1].map(() => { for (;;) {} })", few_loops);
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Loop));
    let f = failed(
        "({vertices: Array.from({length: 11}, (_, i) => ({type: 'x', name: 'v' + i}))})",
        Limits {
            max_output_vertices: 10,
            ..quick
        },
    );
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputVertices));
    let f = failed(
        "'x'.repeat(2000)",
        Limits {
            max_output_bytes: 1000,
            ..quick
        },
    );
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
    let f = failed(
        "({n: 'y'.repeat(2000)})",
        Limits {
            max_output_bytes: 1000,
            ..quick
        },
    );
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
}

#[test]
fn memory_limit_stops_gradual_growth_and_frees_the_realm() {
    assert!(crate::memory::is_metered());
    let cap = Limits {
        max_memory_bytes: 32 * 1024 * 1024,
        timeout_ms: 60_000,
        ..Limits::default()
    };
    let before = crate::memory::live_bytes();
    for growth in [
        "let a = []; for (;;) a.push({i: a.length})",
        "let s = 'ab'; let keep = []; for (;;) { s = s + s.slice(0, 1000) + 'x'; keep.push(s) }",
        "let m = new Map(); for (let i = 0; ; i++) m.set(i, [i])",
    ] {
        let f = failed(growth, cap);
        assert_eq!(
            f.limit,
            Some(LimitHit {
                kind: LimitKind::Memory,
                value: 32 * 1024 * 1024
            }),
            "{growth}: {f:?}"
        );
        assert_eq!(f.message, "memory limit of 33554432 bytes exceeded");
        assert!(crate::memory::peak_bytes() - before > 32 * 1024 * 1024);
    }
    // Everything the scripts made was freed with their realms.
    let leaked = crate::memory::live_bytes() - before;
    assert!(leaked < 1024 * 1024, "{leaked} bytes still live");
    // Under the cap, a script runs as usual.
    assert_eq!(
        run_limited("let a = new Array(1000).fill(1); ({n: a.length})", cap).unwrap(),
        json!({"n": 1000})
    );
}

#[test]
fn no_host_capabilities() {
    for probe in [
        "typeof require",
        "typeof process",
        "typeof console",
        "typeof fetch",
        "typeof WebAssembly",
        "typeof setTimeout",
        "typeof Deno",
        "typeof print",
        "typeof load",
        "typeof XMLHttpRequest",
    ] {
        assert_eq!(
            run(&format!("JSON.stringify({probe})")).unwrap(),
            json!("undefined"),
            "{probe}"
        );
    }
    // The constructor chain of what we hand in leads to the sandbox's own Function.
    let v = run("({same: user.getName.constructor === Function, name: user.getName.constructor('return typeof this.process')()})").unwrap();
    assert_eq!(v, json!({"same": true, "name": "undefined"}));
}

#[test]
fn module_loading_is_impossible() {
    let (context, _) = engine::new_context().unwrap();
    assert!(
        context
            .downcast_module_loader::<IdleModuleLoader>()
            .is_some()
    );
    // The import promise never settles into anything the script could use.
    let v = run("let p = import('./Cargo.toml'); ({t: typeof p})").unwrap();
    assert_eq!(v, json!({"t": "object"}));
}

#[test]
fn realms_do_not_leak_between_runs() {
    run("Array.prototype.map = function () { return 'hijacked' }; globalThis.leak = 1; ({})")
        .unwrap();
    assert_eq!(
        run("({m: [1].map(x => x + 1), leak: typeof leak})").unwrap(),
        json!({"m": [2], "leak": "undefined"})
    );
}

#[test]
fn hostile_results_end_in_errors() {
    let deep = "let a = []; for (let i = 0; i < 100000; i++) a = [a]; ({vertices: [], x: a})";
    let r = run(deep);
    assert!(
        matches!(&r, Err(ScriptError::NotJson(m)) if m.contains("deeper than 128")),
        "{r:?}"
    );
    let sparse = "let a = []; a.length = 4294967295; ({vertices: a})";
    let f = failed(sparse, Limits::default());
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::OutputBytes));
    let proxy =
        "({vertices: [], p: new Proxy({}, {ownKeys() { for (;;) {} }, get() { for (;;) {} }})})";
    assert_eq!(run(proxy).unwrap(), json!({"vertices": [], "p": {}}));
    let holes = "({a: [1, , undefined, () => 1, NaN, 1e400], f() {}, u: undefined, n: -0})";
    assert_eq!(
        run(holes).unwrap(),
        json!({"a": [1, null, null, null, null, null], "n": 0})
    );
    assert!(
        matches!(run("({[Symbol()]: 1})"), Err(ScriptError::NotJson(m)) if m.contains("Symbol"))
    );
}

#[test]
fn deep_source_nesting_is_refused_before_parsing() {
    let deep = format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000));
    let f = failed(&deep, Limits::default());
    assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Nesting));
    assert_eq!((f.line, f.column), (Some(1), Some(65)));
    // Within the limit, the parser's recursion fits the script thread's stack, even in
    // debug builds.
    let fits = format!("{}1{}; ({{vertices: []}})", "[".repeat(63), "]".repeat(63));
    assert_eq!(run(&fits).unwrap(), json!({"vertices": []}));
}

#[test]
fn getters_in_the_result_are_not_run() {
    let v = run("({vertices: [], get edges() { for (;;) {} }})").unwrap();
    assert_eq!(v, json!({"vertices": [], "edges": null}));
}
