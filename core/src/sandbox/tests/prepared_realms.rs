//! Prepared realms: benign scripts share one, tampering is invisible to the next script, the
//! wrapper cannot be escaped, positions and run-time code behave as in a fresh realm.

use serde_json::json;

use super::*;

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
