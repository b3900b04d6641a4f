//! The regular-expression engine of `pattern` and `patternProperties`.

/// annotation in 2020-12, as every format is here; jsonschema's own ECMA-262 syntax check would
/// apply if formats were asserted, the same in every build).
///
/// Both engines give ECMA-262 results: the native build passes the optional ECMA-262 regex tests
/// of the JSON Schema Test Suite with either, and the unit tests below check that they agree on
/// every suite test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Patterns {
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
    pub(super) const DEFAULT: Patterns = Patterns::BuiltIn;
    /// Built-in natively, regress in the wasm build.
    #[cfg(target_family = "wasm")]
    pub(super) const DEFAULT: Patterns = Patterns::Ecma;
}

/// `pattern` as ECMA-262 says, compiled by regress with the `u` flag (Unicode mode, as JSON
/// Schema implementations read patterns), widened as the built-in engines are: a backslash may
/// escape any ASCII punctuation character (`\_`, `\@`), as patterns without the flag allow.
///
/// Patterns are compiled and matched exactly as boa's `RegExp` does with the `u` flag (code
/// points of a `JsString` in, UTF-16 text searched), so that the wasm build reuses boa's
/// instantiations of regress's generic parser and matcher instead of adding UTF-8 ones
/// (~60 KB of code).
pub(super) struct EcmaPatterns;

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
