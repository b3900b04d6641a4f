//! Unit tests of the sandbox: results, errors, limits, isolation.

use boa_engine::module::IdleModuleLoader;
use serde_json::{Map, Value, json};

use super::*;

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

fn preparations() -> u32 {
    realm::PREPARATIONS.with(std::cell::Cell::get)
}

/// Benign scripts, however different, share one prepared realm; their top-level declarations,
/// `var`s, implicit globals and inputs are gone before the next script.
#[test]
fn benign_scripts_reuse_one_realm_and_leave_nothing_behind() {
    let before = preparations();
    for (i, script) in [
        "let secret = 'a'; const k = 1; class C {}; function f() { return 2 } ({v: f()})",
        "var leaked = 1; implicit = 2; globalThis.third = 3; globalThis[7] = 4; ({})",
        "({vertices: [1, 2].map(x => x * 2), s: `t${1}`})",
        "let secret = 'b'; ({secret})",
        "const m = new Map([[1, 2]]); const s = new Set([1]); let t = 0; for (const [k, v] of m) t += k + v; \
         for (const x of s) t += x; ({t, spread: [...'ab'], keys: Object.keys({a: 1}), entries: [...[5].entries()]})",
        "const re = /a(b+)/g; const found = 'abbab'.match(re); ({found, rep: 'x-y'.replace(/-/, '+'), all: [...'aXbX'.matchAll(/X/g)].length})",
        "function* g() { yield 1; yield 2 } class P { constructor(n) { this.n = n } get d() { return this.n * 2 } } \
         ({g: [...g()], d: new P(2).d, j: JSON.parse(JSON.stringify({a: [1]})), tag: String.raw`a${1}b`})",
        "let e; try { null.x } catch (err) { e = err.message } ({e, d: new Date(0).toISOString(), f: [3, 1, 2].sort().join(), \
         p: Promise.resolve(1) instanceof Promise, sym: typeof Symbol.for('x'), w: new WeakMap().has({})})",
        "var top = 1; function helper() { return top } ({v: helper(), fixed: (1.5).toFixed(2), pad: 'a'.padStart(3, '-')})",
    ]
    .iter()
    .enumerate()
    {
        assert!(run(script).is_ok(), "script {i}: {script}");
        assert_eq!(preparations() - before, 1, "after script {i}: {script}");
    }
    assert_eq!(
        run(
            "({t: [typeof secret, typeof k, typeof C, typeof f, typeof leaked, typeof implicit, \
              typeof third, typeof globalThis[7], typeof n]})"
        )
        .unwrap(),
        json!({"t": vec!["undefined"; 9]})
    );
    assert_eq!(preparations() - before, 1, "one realm for all of them");
    // The same script runs again with its own fresh top-level bindings.
    assert_eq!(
        run("let secret = 'c'; ({secret})").unwrap(),
        json!({"secret": "c"})
    );
    assert_eq!(
        run("let secret = 'c'; ({secret})").unwrap(),
        json!({"secret": "c"})
    );
    assert_eq!(preparations() - before, 1);
}

/// Every way of changing something shared is caught: the tampering script sees its change,
/// the next script sees pristine built-ins (and runs in a new realm).
#[test]
fn tampering_of_any_kind_is_invisible_to_the_next_script() {
    let cases: &[(&str, &str, Value)] = &[
        (
            "Array.prototype.map = () => 'x'; ({})",
            "[1].map(x => x + 1)",
            json!([2]),
        ),
        (
            "delete Array.prototype.map; ({})",
            "typeof [].map",
            json!("function"),
        ),
        (
            "Array.prototype.extra = 1; ({})",
            "'extra' in []",
            json!(false),
        ),
        (
            "Array.prototype[0] = 'p'; ({})",
            "[,][0] === undefined",
            json!(true),
        ),
        (
            "Object.defineProperty(Array.prototype, 'map', {enumerable: true}); ({})",
            "Object.keys(Array.prototype).length",
            json!(0),
        ),
        (
            "Object.preventExtensions(Object.prototype); ({})",
            "Object.isExtensible(Object.prototype)",
            json!(true),
        ),
        (
            "Object.freeze(Math); ({})",
            "Object.isFrozen(Math)",
            json!(false),
        ),
        (
            "Object.setPrototypeOf(Array.prototype, null); ({})",
            "Object.getPrototypeOf(Array.prototype) === Object.prototype",
            json!(true),
        ),
        (
            "Array.prototype[Symbol.iterator] = function* () { yield 9 }; ({})",
            "[...[1]]",
            json!([1]),
        ),
        (
            "Object.getPrototypeOf([].values()).next = () => ({done: true}); ({})",
            "[...[1, 2].values()]",
            json!([1, 2]),
        ),
        (
            "Object.getPrototypeOf(function* () {}).prototype.next = () => 0; ({})",
            "[...(function* () { yield 1 })()]",
            json!([1]),
        ),
        (
            "(() => 1).__proto__.call = null; ({})",
            "typeof (() => 1).call",
            json!("function"),
        ),
        (
            "Error.prototype.message = 'pwned'; ({})",
            "new Error().message",
            json!(""),
        ),
        (
            "JSON.stringify = () => 'x'; ({})",
            "JSON.stringify(1)",
            json!("1"),
        ),
        (
            "Math.random = () => 4; ({})",
            "Math.random() < 1",
            json!(true),
        ),
        (
            "globalThis.Array = null; ({})",
            "typeof Array",
            json!("function"),
        ),
        (
            "Object.defineProperty(globalThis, 'stuck', {value: 1}); ({})",
            "typeof stuck",
            json!("undefined"),
        ),
        (
            "Object.setPrototypeOf(globalThis, null); ({})",
            "typeof toString",
            json!("function"),
        ),
        (
            "String.prototype.trim = () => 'x'; ({})",
            "' a '.trim()",
            json!("a"),
        ),
    ];
    for (attack, probe, expected) in cases {
        let attacked = run(attack);
        assert!(attacked.is_ok(), "{attack}: {attacked:?}");
        let seen = run(&format!("({{v: {probe}}})")).unwrap();
        assert_eq!(seen, json!({"v": expected}), "after `{attack}`, `{probe}`");
    }
}

/// A template that modifies a built-in keeps working with its modification (it runs as in a
/// realm of its own).
#[test]
fn a_tampering_script_sees_its_own_changes() {
    let script = "Array.prototype.last = function () { return this[this.length - 1] }; \
                  const m = Array.prototype.map; Array.prototype.map = function (f) { return m.call(this, x => f(x) * 10) }; \
                  ({last: [1, 2, 3].last(), mapped: [1, 2].map(x => x)})";
    assert_eq!(run(script).unwrap(), json!({"last": 3, "mapped": [10, 20]}));
    assert_eq!(run(script).unwrap(), json!({"last": 3, "mapped": [10, 20]}));
}

/// A source that closes the block it is wrapped in is refused as the syntax error it is.
#[test]
fn escaping_the_wrapper_is_a_syntax_error() {
    let f = failed("} let leak = 1; {", Limits::default());
    assert!(f.message.starts_with("SyntaxError"), "{f:?}");
    assert_eq!(f.line, Some(1));
    assert_eq!(
        run("({t: typeof leak})").unwrap(),
        json!({"t": "undefined"})
    );
}

/// Positions of run-time errors in wrapped scripts are those of the source as written.
#[test]
fn wrapped_scripts_report_positions_as_written() {
    let wrapped = failed("let a = 1;\n\n  a.b.c", Limits::default());
    // The word `eval` in a comment makes the script run unwrapped, in a fresh context.
    let unwrapped = failed("let a = 1;\n\n  a.b.c // eval", Limits::default());
    assert_eq!(wrapped, unwrapped);
    assert_eq!(wrapped.line, Some(3), "{wrapped:?}");
    // Scripts that cannot be wrapped faithfully run as written, with the same positions.
    let f = failed("'use strict';\nundeclared = 1", Limits::default());
    assert_eq!(f.line, Some(2), "{f:?}");
    assert!(f.message.starts_with("ReferenceError"), "{f:?}");
    let f = failed(
        "function g() {}\nfunction g() {}\nnull.x",
        Limits::default(),
    );
    assert_eq!(f.line, Some(3), "{f:?}");
}

/// Top-level functions and `let`s stay visible to code compiled at run time (such scripts run
/// in a fresh context, unwrapped).
#[test]
fn code_compiled_at_run_time_sees_top_level_declarations() {
    assert_eq!(
        run("function helper() { return 5 } let k = 2; ({v: eval('helper() * k'), w: new Function('return helper()')()})")
            .unwrap(),
        json!({"v": 10, "w": 5})
    );
}

/// Reads of the clock and of `Math.random` are reported.
#[test]
fn clock_and_random_reads_are_recorded() {
    let vars = Map::new();
    let nondeterministic = |source: &str| {
        run_script(
            &ScriptInput {
                source,
                declared: &[],
                variables: &vars,
                draft: false,
                user: "u",
            },
            &Limits::default(),
        )
        .unwrap()
        .nondeterministic
    };
    assert!(nondeterministic("({n: Math.random()})"));
    assert!(nondeterministic("({n: Date.now()})"));
    assert!(nondeterministic("({n: String(new Date())})"));
    assert!(!nondeterministic("({n: new Date(0).toISOString()})"));
    assert!(!nondeterministic("({n: [3, 1].sort()})"));
}
