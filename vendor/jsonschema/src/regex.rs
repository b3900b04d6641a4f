#[cfg(not(feature = "builtin-regex"))]
use self::shim::{fancy_regex, regex};

use std::sync::Arc;

pub(crate) trait RegexEngine: Sized + Send + Sync {
    type Error: RegexError;
    fn is_match(&self, text: &str) -> Result<bool, Self::Error>;
    /// The compiled pattern its errors name, for engines that can fail.
    fn pattern(&self) -> Option<&str> {
        None
    }
}

/// Reason a regex match failed, distinguishing real engine errors from recovered panics.
#[derive(Debug)]
pub(crate) enum RegexFailureReason {
    /// Real `fancy-regex` runtime error (e.g., the configured backtrack limit was hit).
    FancyRegex(fancy_regex::Error),
    /// Engine panicked during matching and was recovered via `catch_unwind`.
    Panicked,
}

pub(crate) trait RegexError {
    /// The compiled pattern that failed.
    fn pattern(&self) -> &str;
    fn into_failure_reason(self) -> RegexFailureReason;
}

/// Failure mode for the `fancy-regex` backend: either a real engine error or a recovered panic.
#[derive(Debug)]
pub(crate) enum FancyRegexError {
    Engine {
        error: fancy_regex::Error,
        pattern: Box<str>,
    },
    Panicked {
        pattern: Box<str>,
    },
}

impl RegexError for FancyRegexError {
    fn pattern(&self) -> &str {
        match self {
            Self::Engine { pattern, .. } | Self::Panicked { pattern } => pattern,
        }
    }

    fn into_failure_reason(self) -> RegexFailureReason {
        match self {
            Self::Engine { error, .. } => RegexFailureReason::FancyRegex(error),
            Self::Panicked { .. } => RegexFailureReason::Panicked,
        }
    }
}

impl RegexEngine for fancy_regex::Regex {
    type Error = FancyRegexError;

    fn pattern(&self) -> Option<&str> {
        Some(self.as_str())
    }

    fn is_match(&self, text: &str) -> Result<bool, Self::Error> {
        // `regex-automata` 0.4 panics on some patterns (https://github.com/rust-lang/regex/issues/1344); catch to surface a regular error instead of aborting the host process.
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            fancy_regex::Regex::is_match(self, text)
        })) {
            Ok(Ok(matched)) => Ok(matched),
            Ok(Err(error)) => Err(FancyRegexError::Engine {
                error,
                pattern: self.as_str().into(),
            }),
            Err(_) => Err(FancyRegexError::Panicked {
                pattern: self.as_str().into(),
            }),
        }
    }
}

/// Marker error for `regex::Regex::is_match` panics. The underlying `is_match` is otherwise infallible.
#[derive(Debug)]
pub(crate) struct RegexBackendPanic {
    pattern: Box<str>,
}

impl RegexError for RegexBackendPanic {
    fn pattern(&self) -> &str {
        &self.pattern
    }

    fn into_failure_reason(self) -> RegexFailureReason {
        RegexFailureReason::Panicked
    }
}

impl RegexEngine for regex::Regex {
    type Error = RegexBackendPanic;

    fn pattern(&self) -> Option<&str> {
        Some(self.as_str())
    }

    fn is_match(&self, text: &str) -> Result<bool, Self::Error> {
        // Same panic as fancy-regex (https://github.com/rust-lang/regex/issues/1344); see that impl for context.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            regex::Regex::is_match(self, text)
        }))
        .map_err(|_| RegexBackendPanic {
            pattern: self.as_str().into(),
        })
    }
}

/// A regular-expression engine for `pattern` and `patternProperties`, chosen with
/// [`PatternOptions::custom`](crate::PatternOptions::custom): for example an ECMA-262 engine,
/// which is what JSON Schema specifies for patterns.
///
/// The engine receives each pattern exactly as the schema writes it (no translation). Patterns
/// that are plain literals (`^abc`, `^abc$`, `^(a|b)$`, `^\S*$`) are matched without it.
/// (jobgraph patch)
pub trait PatternEngine: Send + Sync {
    /// Compiles `pattern`; `None` when it is not a valid regular expression (the schema is then
    /// rejected, as with the built-in engines).
    fn compile(&self, pattern: &str) -> Option<Box<dyn PatternMatcher>>;
}

/// A pattern compiled by a [`PatternEngine`]. (jobgraph patch)
pub trait PatternMatcher: Send + Sync {
    /// Whether `text` contains a match of the pattern anywhere (patterns are not anchored).
    fn is_match(&self, text: &str) -> bool;
}

/// Without the `builtin-regex` feature: the engine of every validator that configures none,
/// including jsonschema's own meta-schema validators (the 2020-12 meta-schema has patterns).
#[cfg(not(feature = "builtin-regex"))]
static DEFAULT_ENGINE: std::sync::OnceLock<&'static dyn PatternEngine> = std::sync::OnceLock::new();

/// Sets the pattern engine of validators that configure none, for builds without the
/// `builtin-regex` feature; the first call wins (returns whether this one did). Until it is
/// called, such validators reject every pattern that is not a plain literal, and so does schema
/// validation against the meta-schema. (jobgraph patch)
#[cfg(not(feature = "builtin-regex"))]
pub fn set_default_pattern_engine(engine: &'static dyn PatternEngine) -> bool {
    DEFAULT_ENGINE.set(engine).is_ok()
}

/// The engine set by [`set_default_pattern_engine`], or one that compiles nothing.
#[cfg(not(feature = "builtin-regex"))]
pub(crate) fn default_engine() -> CustomEngine {
    CustomEngine(DEFAULT_ENGINE.get().copied().unwrap_or(&shim::NoEngine))
}

/// A [`PatternEngine`] in [`PatternEngineOptions`](crate::options::PatternEngineOptions), which is
/// `Copy` and a cache key: compared and hashed by address.
#[derive(Clone, Copy)]
pub(crate) struct CustomEngine(pub(crate) &'static dyn PatternEngine);

impl CustomEngine {
    fn address(self) -> usize {
        std::ptr::from_ref(self.0).cast::<()>() as usize
    }
}

impl std::fmt::Debug for CustomEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CustomEngine").field(&self.address()).finish()
    }
}

impl PartialEq for CustomEngine {
    fn eq(&self, other: &Self) -> bool {
        self.address() == other.address()
    }
}

impl Eq for CustomEngine {}

impl std::hash::Hash for CustomEngine {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.address().hash(state);
    }
}

impl PartialOrd for CustomEngine {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CustomEngine {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.address().cmp(&other.address())
    }
}

/// A pattern compiled by a [`PatternEngine`].
#[derive(Clone)]
pub(crate) struct CustomRegex {
    matcher: Arc<dyn PatternMatcher>,
    pattern: Arc<str>,
}

impl CustomRegex {
    /// Compiles `pattern` with `engine`; `Err(())` on a rejected pattern.
    pub(crate) fn compile(engine: CustomEngine, pattern: &str) -> Result<Self, ()> {
        let matcher = engine.0.compile(pattern).ok_or(())?;
        Ok(Self {
            matcher: Arc::from(matcher),
            pattern: Arc::from(pattern),
        })
    }
}

impl RegexEngine for CustomRegex {
    type Error = LiteralMatchError;

    fn pattern(&self) -> Option<&str> {
        Some(&self.pattern)
    }

    #[inline]
    fn is_match(&self, text: &str) -> Result<bool, Self::Error> {
        Ok(self.matcher.is_match(text))
    }
}

/// Stand-ins for `fancy-regex` and `regex` when the `builtin-regex` feature is off: no value of
/// their `Regex` types can exist and building one always fails, so every path that would run a
/// built-in engine is unreachable and neither engine is linked. Patterns then need a
/// [`PatternEngine`]; without one, a pattern that is not a plain literal is rejected as invalid.
/// (jobgraph patch)
#[cfg(not(feature = "builtin-regex"))]
pub(crate) mod shim {
    /// No value exists: marks the built-in engines' options as impossible.
    #[derive(Debug, Clone, Copy, Hash, PartialEq, Eq, PartialOrd, Ord)]
    pub(crate) enum Off {}

    /// The engine without `builtin-regex` until one is configured: compiles nothing.
    pub(crate) struct NoEngine;

    impl super::PatternEngine for NoEngine {
        fn compile(&self, _pattern: &str) -> Option<Box<dyn super::PatternMatcher>> {
            None
        }
    }

    macro_rules! stand_in {
        ($($limit:ident),*) => {
            /// No value exists: the engine is not built in.
            #[derive(Debug, Clone)]
            pub enum Regex {}

            impl Regex {
                pub fn as_str(&self) -> &str {
                    match *self {}
                }
            }

            /// Building always fails: the engine is not built in.
            pub struct RegexBuilder;

            /// The engine is not built in.
            #[derive(Debug)]
            pub struct BuildError;

            impl RegexBuilder {
                pub fn new(_pattern: &str) -> Self {
                    RegexBuilder
                }
                $(pub fn $limit(&mut self, _limit: usize) -> &mut Self {
                    self
                })*
                pub fn build(&self) -> Result<Regex, BuildError> {
                    Err(BuildError)
                }
            }
        };
    }

    pub mod fancy_regex {
        stand_in!(backtrack_limit, delegate_size_limit, delegate_dfa_size_limit);

        impl Regex {
            pub fn is_match(&self, _text: &str) -> Result<bool, Error> {
                match *self {}
            }
        }

        /// No value exists: the engine is not built in.
        #[derive(Debug)]
        pub enum Error {}

        impl std::fmt::Display for Error {
            fn fmt(&self, _f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match *self {}
            }
        }

        impl std::error::Error for Error {}
    }

    pub mod regex {
        stand_in!(size_limit, dfa_size_limit);

        impl Regex {
            pub fn is_match(&self, _text: &str) -> bool {
                match *self {}
            }
        }
    }
}

/// Uninhabited error type for literal matchers — matching never fails.
#[derive(Debug)]
pub(crate) enum LiteralMatchError {}

impl RegexError for LiteralMatchError {
    fn pattern(&self) -> &str {
        match *self {}
    }

    fn into_failure_reason(self) -> RegexFailureReason {
        match self {}
    }
}

/// [`RegexEngine`] for literal patterns — either `starts_with` (prefix) or `==` (exact).
pub(crate) enum LiteralMatcher {
    Prefix {
        literal: String,
    },
    Exact {
        exact: String,
    },
    /// `^(a|b|c)$` — linear scan over a small sorted array.
    Alternation {
        alternatives: Vec<String>,
    },
    /// `^\S*$` — no ECMA-262 whitespace characters.
    NoWhitespace,
}

impl RegexEngine for LiteralMatcher {
    type Error = LiteralMatchError;

    #[inline]
    fn is_match(&self, text: &str) -> Result<bool, Self::Error> {
        match self {
            Self::Prefix { literal } => Ok(text.starts_with(literal.as_str())),
            Self::Exact { exact } => Ok(text == exact.as_str()),
            Self::Alternation { alternatives } => {
                Ok(alternatives.iter().any(|a| a.as_str() == text))
            }
            Self::NoWhitespace => Ok(!contains_ecma_whitespace(text)),
        }
    }
}

/// Result of analyzing a regex pattern for literal-match optimizations.
#[derive(Debug, PartialEq)]
pub(crate) enum PatternOptimization {
    /// `^prefix` — use `starts_with(prefix)`.
    Prefix(String),
    /// `^exact$` — use `== exact`.
    Exact(String),
    /// `^(a|b|c)$` — linear scan over a small sorted array.
    Alternation(Vec<String>),
    /// `^\S*$` — no ECMA-262 whitespace characters.
    NoWhitespace,
}

pub(crate) use jsonschema_regex::contains_ecma_whitespace;

/// Build a fancy-regex matcher, applying engine limits; `Err(())` on a rejected pattern.
pub(crate) fn build_fancy_regex(
    translated: &str,
    backtrack_limit: Option<usize>,
    size_limit: Option<usize>,
    dfa_size_limit: Option<usize>,
) -> Result<fancy_regex::Regex, ()> {
    let mut builder = fancy_regex::RegexBuilder::new(translated);
    if let Some(limit) = backtrack_limit {
        builder.backtrack_limit(limit);
    }
    if let Some(limit) = size_limit {
        builder.delegate_size_limit(limit);
    }
    if let Some(limit) = dfa_size_limit {
        builder.delegate_dfa_size_limit(limit);
    }
    builder.build().map_err(|_| ())
}

/// Build a standard-regex matcher, applying engine limits; `Err(())` on a rejected pattern.
pub(crate) fn build_standard_regex(
    translated: &str,
    size_limit: Option<usize>,
    dfa_size_limit: Option<usize>,
) -> Result<regex::Regex, ()> {
    let mut builder = regex::RegexBuilder::new(translated);
    if let Some(limit) = size_limit {
        builder.size_limit(limit);
    }
    if let Some(limit) = dfa_size_limit {
        builder.dfa_size_limit(limit);
    }
    builder.build().map_err(|_| ())
}

/// Analyze a pattern and return a [`PatternOptimization`] if one applies, or `None` if a full
/// regex engine is required. Shares [`jsonschema_regex::analyze_pattern`] with the codegen backend.
pub(crate) fn analyze_pattern(pattern: &str) -> Option<PatternOptimization> {
    Some(match jsonschema_regex::analyze_pattern(pattern)? {
        jsonschema_regex::PatternAnalysis::Prefix(prefix) => {
            PatternOptimization::Prefix(prefix.into_owned())
        }
        jsonschema_regex::PatternAnalysis::Exact(exact) => {
            PatternOptimization::Exact(exact.into_owned())
        }
        jsonschema_regex::PatternAnalysis::Alternation(alternatives) => {
            PatternOptimization::Alternation(alternatives)
        }
        jsonschema_regex::PatternAnalysis::NoWhitespace => PatternOptimization::NoWhitespace,
    })
}

#[cfg(test)]
mod tests {
    use super::{analyze_pattern, PatternOptimization};
    use test_case::test_case;

    #[test_case(r"^\S*$", Some(PatternOptimization::NoWhitespace) ; "no whitespace sentinel")]
    #[test_case(
        r"^(get|put|post)$",
        Some(PatternOptimization::Alternation(vec!["get".into(), "post".into(), "put".into()])) ;
        "sorted alternation"
    )]
    #[test_case(r"^(a|b|c^)$", None ; "invalid char in alternative")]
    #[test_case(r"^(x-foo|x-bar)$", Some(PatternOptimization::Alternation(vec!["x-bar".into(), "x-foo".into()])) ; "alternation with dash")]
    #[test_case(r"^(single)$", Some(PatternOptimization::Alternation(vec!["single".into()])) ; "single alternative")]
    #[allow(clippy::needless_pass_by_value)]
    fn test_analyze_pattern_new(pattern: &str, expected: Option<PatternOptimization>) {
        assert_eq!(analyze_pattern(pattern), expected);
    }
}
