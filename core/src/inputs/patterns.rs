//! The regular-expression engine of `pattern` and `patternProperties`.

use super::budget;

/// Which engine matches `pattern` and `patternProperties`.
///
/// Every build uses regress ([`Patterns::Ecma`]), so that a pattern is valid, invalid or
/// matching the same way natively and in the npm package (JSON Schema says patterns are
/// ECMA-262 regular expressions; regress is the ECMA-262 engine of boa's `RegExp`), and every
/// match runs under the validation's [`MatchBudget`](super::MatchBudget). `format: "regex"` is
/// an annotation in 2020-12, as every format is here.
///
/// jsonschema's built-in engines remain for the tests, which check that both give the same
/// results on every test of the JSON Schema Test Suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Patterns {
    /// jsonschema's built-in engines (native tests only): the pattern translated to Rust
    /// syntax and matched by `regex` in linear time, or by `fancy-regex` with its backtrack
    /// limit. Not the default: `regex` refuses patterns regress accepts (its size limit), so
    /// native and npm results would differ.
    #[cfg(all(test, not(target_family = "wasm")))]
    BuiltIn,
    /// regress, interrupted by the validation's budget.
    Ecma,
}

impl Patterns {
    /// regress, in every build.
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

/// A pattern compiled by [`EcmaPatterns`], with its source for the error that names it.
struct EcmaPattern {
    regex: regress::Regex,
    source: String,
}

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
        Some(Box::new(EcmaPattern {
            regex,
            source: pattern.to_owned(),
        }))
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

/// Whether `regex` matches somewhere in `text`. The wasm build searches the text as UTF-16, as
/// boa's `RegExp` does, to reuse boa's instantiation of regress's matcher (~60 KB less code);
/// natively the UTF-8 matcher saves converting every value. Both search code points (the `u`
/// flag), so the results are the same.
#[cfg(target_family = "wasm")]
fn search(regex: &regress::Regex, text: &str) -> bool {
    let utf16: Vec<u16> = text.encode_utf16().collect();
    regex.find_from_utf16(&utf16, 0).next().is_some()
}

#[cfg(not(target_family = "wasm"))]
fn search(regex: &regress::Regex, text: &str) -> bool {
    regex.find(text).is_some()
}

impl jsonschema::PatternMatcher for EcmaPattern {
    /// A match; `false` once the validation's budget stopped a match (recorded for the
    /// caller, which reports the limit instead of the validation's result).
    fn is_match(&self, text: &str) -> bool {
        if budget::stopped() {
            return false;
        }
        let found = search(&self.regex, text);
        if regress::interrupt::take_interrupted() {
            budget::record(&self.source, text);
            return false;
        }
        found
    }
}
