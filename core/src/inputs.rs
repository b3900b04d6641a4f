//! Input validation: `default` filling and JSON Schema 2020-12 validation of template inputs.

use serde_json::{Map, Value};

use crate::validate::Problem;

/// How deep default filling follows nested schemas and `$ref`s before it stops.
const MAX_DEFAULT_DEPTH: usize = 64;

/// How many (sub)schema applications one default filling may make. The depth limit alone does
/// not bound the work: `allOf: [{$ref: "#"}, {$ref: "#"}]` doubles it at every level (found by
/// the `template_loading` fuzz target), and so do two properties whose defaults recurse.
const MAX_DEFAULT_VISITS: usize = 100_000;

/// A compiled `inputSchema`.
///
/// ```
/// use jobgraph_core::InputSchema;
/// use serde_json::json;
/// let schema = InputSchema::compile(Some(&json!({
///     "type": "object",
///     "properties": {"level": {"type": "string", "default": "info"},
///                    "limit": {"type": "number", "maximum": 10}},
///     "required": ["limit"]
/// }))).unwrap();
/// let filled = schema.check(json!({"limit": 3})).unwrap();
/// assert_eq!(filled, json!({"limit": 3, "level": "info"}));
/// let problems = schema.check(json!({"limit": 30})).unwrap_err();
/// assert_eq!(problems[0].pointer, "/limit");
/// ```
pub struct InputSchema {
    schema: Value,
    validator: Option<jsonschema::Validator>,
}

impl std::fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputSchema")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl InputSchema {
    /// Compiles a schema as JSON Schema 2020-12. `None` accepts any object.
    ///
    /// Fails with the schema problem when the schema itself is invalid.
    ///
    /// `pattern` and `patternProperties` are matched by [`Patterns::DEFAULT`].
    pub fn compile(schema: Option<&Value>) -> Result<Self, SchemaError> {
        Self::compile_with(schema, Patterns::DEFAULT)
    }

    /// [`InputSchema::compile`] with the given engine for `pattern` and `patternProperties`.
    fn compile_with(schema: Option<&Value>, patterns: Patterns) -> Result<Self, SchemaError> {
        let Some(schema) = schema else {
            return Ok(InputSchema {
                schema: Value::Bool(true),
                validator: None,
            });
        };
        // Without built-in engines, jsonschema's own meta-schema validation (the schema is
        // checked against the 2020-12 meta-schema, which has patterns) needs an engine too.
        #[cfg(target_family = "wasm")]
        jsonschema::set_default_pattern_engine(&EcmaPatterns);
        let options = jsonschema::draft202012::options().with_retriever(NoRemoteDocuments);
        let options = match patterns {
            #[cfg(not(target_family = "wasm"))]
            Patterns::BuiltIn => options,
            Patterns::Ecma => {
                options.with_pattern_options(jsonschema::PatternOptions::custom(&EcmaPatterns))
            }
        };
        let validator = options.build(schema).map_err(|e| SchemaError {
            message: e.to_string(),
            schema_path: e.schema_path().as_str().to_owned(),
        })?;
        Ok(InputSchema {
            schema: schema.clone(),
            validator: Some(validator),
        })
    }

    /// Whether `instance` is valid, without filling defaults.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.as_ref().is_none_or(|v| v.is_valid(instance))
    }

    /// Every violation of `instance` as given (no `default` filling), each with the JSON pointer
    /// of the offending value; empty when it is valid.
    pub fn problems(&self, instance: &Value) -> Vec<Problem> {
        let Some(validator) = &self.validator else {
            return Vec::new();
        };
        validator
            .iter_errors(instance)
            .map(|e| Problem {
                pointer: e.instance_path().as_str().to_owned(),
                message: e.to_string(),
            })
            .collect()
    }

    /// Fills `default`s into `values`, then validates; returns the filled values or every
    /// violation, each with the JSON pointer of the offending input.
    pub fn check(&self, mut values: Value) -> Result<Value, Vec<Problem>> {
        fill_defaults(&self.schema, &self.schema, &mut values, 0);
        let problems = self.problems(&values);
        if problems.is_empty() {
            Ok(values)
        } else {
            Err(problems)
        }
    }
}

/// A schema that is not valid JSON Schema 2020-12.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", at_schema(schema_path))]
pub struct SchemaError {
    /// What is wrong.
    pub message: String,
    /// JSON pointer of the offending keyword in the schema (empty: the schema itself).
    pub schema_path: String,
}

fn at_schema(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" (at schema {path})")
    }
}

/// The regular-expression engine of `pattern` and `patternProperties` (`format: "regex"` is an
/// annotation in 2020-12, as every format is here; jsonschema's own ECMA-262 syntax check would
/// apply if formats were asserted, the same in every build).
///
/// Both engines give ECMA-262 results: the native build passes the optional ECMA-262 regex tests
/// of the JSON Schema Test Suite with either, and the unit tests below check that they agree on
/// every suite test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Patterns {
    /// jsonschema's built-in engines (native only): the pattern translated to Rust syntax and
    /// matched by `regex` in linear time, or by `fancy-regex` with its backtrack limit when it
    /// needs look-around or backreferences. No pattern can stall a server thread.
    #[cfg(not(target_family = "wasm"))]
    BuiltIn,
    /// regress, the ECMA-262 engine of boa's `RegExp` (already in the module, so `pattern`
    /// costs the wasm build no second regex engine). It backtracks without a limit, like
    /// `RegExp` in a script; the package's worker resolver (`jobgraph/worker`) is the hard stop.
    #[cfg_attr(not(any(test, target_family = "wasm")), allow(dead_code))]
    Ecma,
}

impl Patterns {
    /// Built-in natively, regress in the wasm build.
    #[cfg(not(target_family = "wasm"))]
    const DEFAULT: Patterns = Patterns::BuiltIn;
    /// Built-in natively, regress in the wasm build.
    #[cfg(target_family = "wasm")]
    const DEFAULT: Patterns = Patterns::Ecma;
}

/// `pattern` as ECMA-262 says, compiled by regress with the `u` flag (Unicode mode, as JSON
/// Schema implementations read patterns), widened as the built-in engines are: a backslash may
/// escape any ASCII punctuation character (`\_`, `\@`), as patterns without the flag allow.
///
/// Patterns are compiled and matched exactly as boa's `RegExp` does with the `u` flag (code
/// points of a `JsString` in, UTF-16 text searched), so that the wasm build reuses boa's
/// instantiations of regress's generic parser and matcher instead of adding UTF-8 ones
/// (~60 KB of code).
struct EcmaPatterns;

/// A pattern compiled by [`EcmaPatterns`].
struct EcmaPattern(regress::Regex);

impl EcmaPatterns {
    fn regex(pattern: &str) -> Option<regress::Regex> {
        let pattern = boa_engine::JsString::from(pattern);
        let flags = regress::Flags::from("u");
        regress::Regex::from_unicode(
            pattern
                .code_points()
                .map(boa_engine::string::CodePoint::as_u32),
            flags,
        )
        .ok()
    }
}

impl jsonschema::PatternEngine for EcmaPatterns {
    fn compile(&self, pattern: &str) -> Option<Box<dyn jsonschema::PatternMatcher>> {
        let regex = match Self::regex(pattern) {
            Some(regex) => regex,
            None => Self::regex(&widen_identity_escapes(pattern)?)?,
        };
        Some(Box::new(EcmaPattern(regex)))
    }
}

/// `pattern` with each identity escape of an ASCII punctuation character that the `u` flag does
/// not allow (`\_`, `\-` outside a class, `\@`) written as `\xHH`; `None` when there is none.
fn widen_identity_escapes(pattern: &str) -> Option<String> {
    /// Characters the `u` flag lets a backslash escape: SyntaxCharacter and `/`.
    const ALLOWED: &str = "^$\\.*+?()[]{}|/";
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut changed = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some(e) if e.is_ascii_punctuation() && !ALLOWED.contains(e) => {
                out.pop();
                out.push_str(&format!("\\x{:02X}", u32::from(e)));
                changed = true;
            }
            Some(e) => out.push(e),
            None => {}
        }
    }
    changed.then_some(out)
}

impl jsonschema::PatternMatcher for EcmaPattern {
    fn is_match(&self, text: &str) -> bool {
        let text: Vec<u16> = text.encode_utf16().collect();
        self.0.find_from_utf16(&text, 0).next().is_some()
    }
}

/// Refuses every remote `$ref`: template inputs never cause network or file access, and the
/// message is the same on every platform.
struct NoRemoteDocuments;

impl jsonschema::Retrieve for NoRemoteDocuments {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!(
            "remote schema documents are never fetched (`$ref` to {uri}); put the definition under `$defs` and refer to it with `#/$defs/…`"
        )
        .into())
    }
}

/// Fills absent properties that have a `default`, recursively through `properties`, `items`,
/// `prefixItems`, `allOf` and local `$ref`s. Present values are never changed.
/// Stops after [`MAX_DEFAULT_VISITS`] schema applications.
pub fn fill_defaults(root: &Value, schema: &Value, instance: &mut Value, depth: usize) {
    let mut budget = MAX_DEFAULT_VISITS;
    fill(root, schema, instance, depth, &mut budget);
}

fn fill(root: &Value, schema: &Value, instance: &mut Value, depth: usize, budget: &mut usize) {
    if depth > MAX_DEFAULT_DEPTH || *budget == 0 {
        return;
    }
    *budget -= 1;
    let Some(schema) = schema.as_object() else {
        return;
    };
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        fill(root, target, instance, depth + 1, budget);
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        for sub in all {
            fill(root, sub, instance, depth + 1, budget);
        }
    }
    match instance {
        Value::Object(object) => fill_object(root, schema, object, depth, budget),
        Value::Array(items) => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            let prefix_len = prefix.map_or(0, Vec::len);
            for (i, item) in items.iter_mut().enumerate() {
                let sub = match prefix {
                    Some(p) if i < prefix_len => p.get(i),
                    _ => schema.get("items"),
                };
                if let Some(sub) = sub {
                    fill(root, sub, item, depth + 1, budget);
                }
            }
        }
        _ => {}
    }
}

fn fill_object(
    root: &Value,
    schema: &Map<String, Value>,
    object: &mut Map<String, Value>,
    depth: usize,
    budget: &mut usize,
) {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    for (name, sub) in properties {
        if !object.contains_key(name)
            && let Some(default) = default_of(root, sub, depth)
        {
            object.insert(name.clone(), default.clone());
        }
        if let Some(value) = object.get_mut(name) {
            fill(root, sub, value, depth + 1, budget);
        }
    }
}

/// The `default` of a schema, looking through a local `$ref`.
fn default_of<'a>(root: &'a Value, schema: &'a Value, depth: usize) -> Option<&'a Value> {
    if depth > MAX_DEFAULT_DEPTH {
        return None;
    }
    schema.get("default").or_else(|| {
        let pointer = schema.get("$ref")?.as_str()?.strip_prefix('#')?;
        default_of(root, root.pointer(pointer)?, depth + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fills_nested_defaults_and_refs() {
        let schema = json!({
            "type": "object",
            "$defs": {"port": {"type": "integer", "default": 8080}},
            "properties": {
                "server": {
                    "type": "object",
                    "default": {},
                    "properties": {
                        "host": {"type": "string", "default": "localhost"},
                        "port": {"$ref": "#/$defs/port"}
                    }
                },
                "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"default": "x"}}}},
                "given": {"type": "string", "default": "unused"}
            }
        });
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        let filled = compiled
            .check(json!({"tags": [{}, {"k": "y"}], "given": "mine"}))
            .unwrap();
        assert_eq!(
            filled,
            json!({"tags": [{"k": "x"}, {"k": "y"}], "given": "mine",
                   "server": {"host": "localhost", "port": 8080}})
        );
    }

    #[test]
    fn reports_every_violation() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "number", "minimum": 1}, "b": {"enum": ["x", "y"]}},
            "required": ["c"]
        });
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        let mut problems = compiled.check(json!({"a": 0, "b": "z"})).unwrap_err();
        problems.sort_by(|x, y| x.pointer.cmp(&y.pointer));
        let pointers: Vec<_> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["", "/a", "/b"]);
        assert!(
            problems[0].message.contains("\"c\" is a required property"),
            "{}",
            problems[0]
        );
    }

    /// Regression (fuzz target `template_loading`): self-references that fan out made default
    /// filling run 2^32 steps; it now stops after `MAX_DEFAULT_VISITS`.
    #[test]
    fn fanned_out_self_references_stay_bounded() {
        let started = std::time::Instant::now();
        let schema = json!({"allOf": [{"$ref": "#"}, {"$ref": "#"}],
                            "properties": {"x": {"default": 1}}});
        let compiled = InputSchema::compile(Some(&schema)).unwrap();
        assert_eq!(compiled.check(json!({})).unwrap(), json!({"x": 1}));
        let schema = json!({"type": "object", "properties": {
            "a": {"$ref": "#", "default": {}}, "b": {"$ref": "#", "default": {}}}});
        let mut filled = json!({});
        fill_defaults(&schema, &schema, &mut filled, 0);
        assert!(
            filled["a"]["a"]["a"].is_object() && filled["b"].is_object(),
            "defaults are filled a few levels deep"
        );
        assert!(
            started.elapsed().as_secs() < 30,
            "took {:?}",
            started.elapsed()
        );
    }

    /// Every test of the JSON Schema Test Suite copy (required 2020-12 tests and the optional
    /// ECMA-262 regex tests), run with both pattern engines: both give the expected verdict.
    #[test]
    fn both_pattern_engines_pass_the_suite() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/json-schema-test-suite/draft2020-12");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .chain(std::fs::read_dir(dir.join("optional")).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let (mut run, mut failures) = (0, Vec::new());
        for file in &files {
            let groups: Vec<Value> =
                serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            for group in &groups {
                if group["schema"].to_string().contains("localhost:1234") {
                    continue;
                }
                for engine in [Patterns::BuiltIn, Patterns::Ecma] {
                    let schema = InputSchema::compile_with(Some(&group["schema"]), engine)
                        .unwrap_or_else(|e| panic!("{file:?} {}: {e}", group["description"]));
                    for test in group["tests"].as_array().unwrap() {
                        run += 1;
                        if schema.is_valid(&test["data"]) != test["valid"].as_bool().unwrap() {
                            failures.push(format!(
                                "{engine:?}: {} / {}",
                                group["description"], test["description"]
                            ));
                        }
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(run > 2 * 1300, "only {run} runs");
    }

    /// Patterns where a naive engine goes wrong: both engines read them as ECMA-262 does.
    #[test]
    fn both_pattern_engines_agree_on_ecma_262() {
        let cases: &[(&str, &str, bool)] = &[
            (r"^\d+$", "123", true),
            (r"^\d+$", "\u{0664}", false), // Arabic-Indic digit: \d is ASCII only
            (r"^\w+$", "é", false),        // \w is ASCII only
            (r"^\s$", "\u{2003}", true),   // \s includes Unicode spaces
            (r"^abc$", "abc\n", false),    // $ is the end of input, not before a newline
            (r"(?<=a)b", "ab", true),      // look-behind
            (r"(?<!a)b", "ab", false),
            (r"^(a)\1$", "aa", true), // backreference
            (r"^\p{Lu}+$", "ÀB", true),
            (r"^.$", "🐲", true), // one code point, not two UTF-16 units
            (r"^[^x]$", "🐲", true),
            (r"a{2,3}", "xaay", true),
            (r"\_", "a_b", true), // identity escape, valid without the `u` flag
            (r"a\-b\@", "a-b@", true),
            (r"^[\_\-]+$", "_-", true),
            (r"^[\_\-]+$", "_a", false),
        ];
        for engine in [Patterns::BuiltIn, Patterns::Ecma] {
            for (pattern, text, expected) in cases {
                let schema = InputSchema::compile_with(Some(&json!({"pattern": pattern})), engine)
                    .unwrap_or_else(|e| panic!("{engine:?} {pattern}: {e}"));
                assert_eq!(
                    schema.is_valid(&json!(text)),
                    *expected,
                    "{engine:?}: {pattern} on {text:?}"
                );
                let schema = InputSchema::compile_with(
                    Some(&json!({"patternProperties": {*pattern: false}})),
                    engine,
                )
                .unwrap();
                assert_eq!(
                    schema.is_valid(&json!({*text: 1})),
                    !*expected,
                    "{engine:?}: patternProperties {pattern} on {text:?}"
                );
            }
            for invalid in ["(", "[a-", "a**", r"\p{NoSuchProperty}"] {
                let err = InputSchema::compile_with(Some(&json!({"pattern": invalid})), engine)
                    .err()
                    .unwrap_or_else(|| panic!("{engine:?} accepted {invalid}"));
                assert!(
                    err.to_string().contains("regex"),
                    "{engine:?} {invalid}: {err}"
                );
            }
        }
    }

    #[test]
    fn invalid_schema_is_an_error() {
        let err = InputSchema::compile(Some(&json!({"type": "objekt"}))).unwrap_err();
        assert!(err.to_string().contains("objekt"), "{err}");
    }
}
