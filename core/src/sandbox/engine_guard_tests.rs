//! Hostile scripts that only the guards inside the vendored engine stop in-process: the
//! parser's nesting bound, the native stack limit, the allocation and interrupt hooks
//! (`guard`, `vendor/README.md`). Each would crash, abort or hang the test process without
//! them.

use serde_json::{Map, Value, json};

use super::*;

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

/// The limit that stopped `source`, and where.
fn stopped_by(source: &str, limits: Limits) -> (LimitKind, Option<u32>, Option<u32>) {
    match run_limited(source, limits) {
        Err(ScriptError::Failed(ScriptFailure {
            limit: Some(hit),
            line,
            column,
            ..
        })) => (hit.kind, line, column),
        other => panic!("expected a limit, got {other:?}"),
    }
}

/// Generous time: a loaded machine runs debug builds slowly.
fn slow() -> Limits {
    Limits {
        timeout_ms: 30_000,
        ..Limits::default()
    }
}

fn small_memory() -> Limits {
    Limits {
        max_memory_bytes: 16 * 1024 * 1024,
        ..slow()
    }
}

fn quick() -> Limits {
    Limits {
        timeout_ms: 200,
        ..Limits::default()
    }
}

#[test]
fn constructs_nested_without_brackets_hit_the_nesting_limit_where_they_pass_it() {
    let chains = [
        format!("const x = {}true;", "!".repeat(5000)),
        format!("const x = {}1;", "- ".repeat(5000)),
        format!("const x = {}1;", "typeof ".repeat(5000)),
        format!("const x = {}1;", "draft ? 1 : ".repeat(3000)),
        format!("const x = {}1;", "1 ** ".repeat(3000)),
        format!("const f = {}1;", "a => ".repeat(3000)),
        format!("let r; {}r = 1;", "if (draft) ".repeat(3000)),
        format!(
            "let r = 0; if (draft) {{}}{}",
            " else if (r === 1) { r = 2; }".repeat(3000)
        ),
        format!("let a; {}1;", "a = ".repeat(5000)),
        format!("const x = {}1;", "1 + ".repeat(5000)),
        format!("const x = {}1;", "draft && ".repeat(5000)),
        format!("const x = (1{});", ", 1".repeat(5000)),
        format!("const o = {{}}; const x = o{};", ".a".repeat(5000)),
        format!("const f = () => f; const x = f{};", "()".repeat(5000)),
        format!("const x = {}Object;", "new ".repeat(5000)),
    ];
    for source in &chains {
        let (kind, line, column) = stopped_by(source, slow());
        assert_eq!(kind, LimitKind::Nesting, "{}", &source[..40]);
        assert_eq!(line, Some(1), "{}", &source[..40]);
        // Past the 1024 steps of the default limit (64 levels × 16), not at the start.
        assert!(column > Some(1000), "{column:?}: {}", &source[..40]);
    }
    // Code compiled at run time has the same bound.
    let (kind, ..) = stopped_by("eval('!'.repeat(100000) + '1')", slow());
    assert_eq!(kind, LimitKind::Nesting);
    let f = match run_limited(&format!("{}1", "!".repeat(5000)), slow()) {
        Err(ScriptError::Failed(f)) => f,
        other => panic!("{other:?}"),
    };
    assert!(
        f.to_string()
            .starts_with("nesting limit of 64 levels exceeded at line 1, column 10"),
        "{f}"
    );
}

#[test]
fn chains_within_the_limit_run() {
    let else_ifs = format!(
        "let r = 0; if (draft) {{ r = -1; }}{} ({{n: r}})",
        (0..500)
            .map(|i| format!(" else if (r === {i}) {{ r = {}; }}", i + 1))
            .collect::<String>()
    );
    assert_eq!(run_limited(&else_ifs, slow()).unwrap(), json!({"n": 1}));
    let sum = format!("({{n: {}1}})", "1 + ".repeat(900));
    assert_eq!(run_limited(&sum, slow()).unwrap(), json!({"n": 901}));
    let conditional = format!("({{n: {}7}})", "draft ? 1 : ".repeat(800));
    assert_eq!(run_limited(&conditional, slow()).unwrap(), json!({"n": 7}));
    // A tighter limit is a tighter bound.
    let tight = Limits {
        max_nesting: 8,
        ..slow()
    };
    assert_eq!(
        stopped_by(&format!("{}1", "!".repeat(200)), tight).0,
        LimitKind::Nesting
    );
}

#[test]
fn recursion_over_deeply_nested_data_is_stopped_and_cannot_be_caught() {
    let build = "let a = []; for (let i = 0; i < 100000; i++) a = [a];";
    for use_it in [
        "String(a)",
        "JSON.stringify(a)",
        "a.join()",
        "a == 1",
        "let p = {}; for (let i = 0; i < 200000; i++) p = new Proxy(p, {}); p.x",
    ] {
        let source = format!("{build} try {{ {use_it} }} catch (e) {{}} while (true) {{}}");
        let (kind, ..) = stopped_by(&source, slow());
        assert_eq!(kind, LimitKind::Recursion, "{use_it}");
    }
    // (`flat` recurses with small frames: 10^5 levels fit; the corpus's `array-flat-deep`
    // nests 10^6.) The thread is fine afterwards.
    assert_eq!(run_limited("({a: 1})", slow()).unwrap(), json!({"a": 1}));
}

#[test]
fn sizes_a_script_asks_for_are_checked_against_the_memory_cap_first() {
    for source in [
        "'x'.repeat(2 ** 28)",
        "'x'.repeat(2 ** 31)",
        "'x'.padEnd(2 ** 29)",
        "new Array(2 ** 32 - 1).join('x')",
        "new Array(1e8).join()",
        "Math.max.apply(null, { length: 2 ** 32 - 1 })",
        "Array.from({ length: 1e9 })",
        "let s = 'x'; for (;;) s = s + s;",
        "let s = 'x'; for (;;) s = `${s}${s}`;",
        "let s = 'x'; for (;;) s = s.concat(s);",
        "new Array(2 ** 32 - 1).fill(0)",
        // Caught errors do not help: the first limit hit is the outcome.
        "try { 'x'.repeat(2 ** 28) } catch (e) {} ({vertices: []})",
    ] {
        let (kind, ..) = stopped_by(source, small_memory());
        assert_eq!(kind, LimitKind::Memory, "{source}");
    }
    // Within the cap, the same built-ins work.
    assert_eq!(
        run_limited(
            "({n: 'ab'.repeat(1000).length, p: 'x'.padEnd(5, '-')})",
            slow()
        )
        .unwrap(),
        json!({"n": 2000, "p": "x----"})
    );
}

#[test]
fn long_native_calls_are_interrupted_at_the_deadline() {
    for source in [
        "/^(a+)+$/.test('a'.repeat(40) + 'b')",
        "'a'.repeat(80).concat('b').replace(/^(a|aa)+$/, 'x')",
        "new Array(2 ** 32 - 1).includes(1)",
        "new Array(2 ** 32 - 1).indexOf(1)",
        "new Array(2 ** 32 - 1).forEach(x => x)",
        "'a'.repeat(1e8).indexOf('a'.repeat(1e4) + 'b')",
        "Array.from({ length: 1e6 }, (_, i) => i).sort((x, y) => { let s = 0; for (let i = 0; i < 100; i++) s += i; return x - y; })",
        "[1].forEach(() => { for (;;) { [1].forEach(() => { for (let i = 0; i < 9999; i++); }); } })",
    ] {
        let (kind, ..) = stopped_by(
            source,
            Limits {
                loop_iterations: 100_000,
                ..quick()
            },
        );
        assert_eq!(kind, LimitKind::Time, "{source}");
    }
}

#[test]
fn engine_limits_on_values_are_script_errors() {
    for (source, error) in [
        (
            "10n ** 100000000n",
            "RangeError: Maximum BigInt size exceeded",
        ),
        (
            "(3n ** 500000n) * (3n ** 500000n)",
            "RangeError: Maximum BigInt size exceeded",
        ),
        (
            "BigInt('9'.repeat(1e6))",
            "RangeError: Maximum BigInt size exceeded",
        ),
        ("new RegExp('a|'.repeat(100000) + 'a')", "SyntaxError"),
    ] {
        match run_limited(source, quick()) {
            Err(ScriptError::Failed(f)) => {
                assert!(
                    f.limit.is_none() && f.message.contains(error),
                    "{source}: {f:?}"
                );
            }
            other => panic!("{source}: {other:?}"),
        }
    }
    // A long decimal literal is a number, parsed in linear time.
    let long = format!("({{n: 1{}}})", "0".repeat(300));
    assert_eq!(run_limited(&long, quick()).unwrap(), json!({"n": 1e300}));
}

#[test]
fn the_deepest_sources_the_highest_limit_allows_fit_the_script_stack() {
    let deepest = Limits {
        max_nesting: Limits::MAX_NESTING * 4,
        ..slow()
    };
    assert_eq!(deepest.effective_nesting(), Limits::MAX_NESTING);
    let open = "(".repeat(250);
    let close = ")".repeat(250);
    for source in [
        format!("({{n: {open}{}1{close}}})", "!".repeat(3000)),
        format!("({{n: {open}{}1{close}}})", "1 + ".repeat(3000)),
        format!("({{n: {open}{}1{close}}})", "draft ? 1 : ".repeat(3000)),
        format!(
            "const f = {open}{}1{close}; ({{n: 1}})",
            "a => ".repeat(3000)
        ),
        format!(
            "let r = 0; {}r = 1; ({{n: r}})",
            "if (!draft) ".repeat(3500)
        ),
        format!("({{n: {}}})", "[".repeat(255) + &"]".repeat(255)),
    ] {
        // Parsed, compiled and run, or refused by the nesting limit: never a crash.
        match run_limited(&source, deepest) {
            Ok(value) => assert!(value.get("n").is_some(), "{value}"),
            Err(ScriptError::Failed(f)) => {
                assert_eq!(f.limit.map(|l| l.kind), Some(LimitKind::Nesting), "{f:?}");
            }
            Err(other) => panic!("{other:?}"),
        }
    }
}
