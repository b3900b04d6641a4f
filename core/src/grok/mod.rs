//! Grok parsing: Datadog-style rules (`RuleName pattern`, first match wins, helper rules,
//! `%{MATCHER:EXTRACTOR:TRANSFORMER}`) compiled once into regress regular expressions, the same
//! engine natively and in WebAssembly (`docs/grok.md`).

mod batch;
mod compile;
mod dates;
mod engine;
mod extract;
mod limit;
mod matchers;
mod pairs;
mod patterns;
mod rules;
mod transform;
mod useragent;
mod zones;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

pub use crate::GrokRules;

pub use batch::{
    BatchLimits, GrokBatchRequest, GrokBatchResponse, GrokParserSpec, GrokSampleResult,
    parse_batch, parse_batch_with,
};
use compile::CompiledRule;
pub(crate) use extract::merge as merge_attributes;

/// How long one line may take to match (all rules together) before the parse stops with
/// [`GrokError::TimeLimit`]: catastrophic backtracking in a hostile rule ends here.
pub const DEFAULT_LINE_TIME_LIMIT: Duration = Duration::from_millis(100);

/// Why rules do not compile or a line could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrokError {
    /// A rule (parsing or helper) is wrong: its name, where (1-based line over the rules and
    /// column within that line, and the rules field with the array item as a JSON pointer) and
    /// what: `Invalid grok rule bad at 2:5 (/grokParsingRules/1): …`.
    #[error("Invalid grok rule {rule} at {line}:{column} ({}): {message}", rule_pointer(*.helper, *.index))]
    Rule {
        /// The rule's name (or the line's first word when the name itself is missing).
        rule: String,
        /// Whether it is a helper rule.
        helper: bool,
        /// The array item holding the rule, when the rules are an array.
        index: Option<usize>,
        /// 1-based line over the rules (array items count as lines of their own).
        line: usize,
        /// 1-based column (characters) within that line.
        column: usize,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// Matching one line took longer than the time limit.
    #[error(
        "Grok time limit exceeded: rule {rule} took over {limit_ms} ms on one line; simplify it (nested repetition such as (a+)+ backtracks catastrophically)"
    )]
    TimeLimit {
        /// The rule that was matching when time ran out.
        rule: String,
        /// The limit, in milliseconds.
        limit_ms: u64,
    },
}

/// The JSON pointer of a rule within its parser: `/grokParsingRules/2`, `/grokHelperRules`.
fn rule_pointer(helper: bool, index: Option<usize>) -> String {
    let field = if helper {
        "grokHelperRules"
    } else {
        "grokParsingRules"
    };
    match index {
        Some(i) => format!("/{field}/{i}"),
        None => format!("/{field}"),
    }
}

impl GrokError {
    /// For [`GrokError::Rule`], the rule's JSON pointer within its parser (`/grokParsingRules/2`,
    /// or `/grokHelperRules` when the rules are one string); `None` otherwise.
    pub fn pointer(&self) -> Option<String> {
        match self {
            GrokError::Rule { helper, index, .. } => Some(rule_pointer(*helper, *index)),
            GrokError::TimeLimit { .. } => None,
        }
    }
}

/// What a matching rule extracted from one line.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrokMatch {
    /// The name of the rule that matched (the first one that does).
    pub matching_rule_name: String,
    /// Extracted attributes (`a.b` extractors nest: `{"a": {"b": …}}`), in extraction order.
    pub attributes: Map<String, Value>,
    /// Extracted tags (`tags.x`), each key with its values in extraction order.
    pub tags: Map<String, Value>,
    /// `severity` and `eventTimestamp` when a rule extracts them.
    pub top_level_fields: Map<String, Value>,
}

/// Compiled grok rules: compile once ([`GrokParser::new`]), parse many lines.
#[derive(Debug, Clone)]
pub struct GrokParser {
    rules: Arc<[CompiledRule]>,
    time_limit: Duration,
}

impl GrokParser {
    /// Compiles `parsing_rules` (one `Name pattern` per line) with `helper_rules` (the same
    /// form; names usable as `%{name}` in either).
    ///
    /// # Errors
    /// [`GrokError::Rule`] for the first rule that does not compile.
    pub fn new(parsing_rules: &str, helper_rules: &str) -> Result<Self, GrokError> {
        Self::from_rules(&parsing_rules.into(), &helper_rules.into())
    }

    /// Compiles rules given as strings or arrays ([`GrokRules`]): the same rules give the same
    /// parser either way; errors name the array item.
    ///
    /// ```
    /// use jobgraph_core::GrokRules;
    /// use jobgraph_core::grok::GrokParser;
    /// let rules = GrokRules::List(vec!["a %{word:w}".into(), "b %{nope:x}".into()]);
    /// let e = GrokParser::from_rules(&rules, &GrokRules::default()).unwrap_err();
    /// assert!(e.to_string().starts_with("Invalid grok rule b at 2:3 (/grokParsingRules/1): unknown matcher nope"));
    /// ```
    ///
    /// # Errors
    /// [`GrokError::Rule`] for the first rule that does not compile.
    pub fn from_rules(
        parsing_rules: &GrokRules,
        helper_rules: &GrokRules,
    ) -> Result<Self, GrokError> {
        let helper_list = rules::read(helper_rules, true)?;
        let helpers: HashMap<&str, rules::RuleLine<'_>> =
            helper_list.iter().map(|r| (r.name, r.clone())).collect();
        let parsing = rules::read(parsing_rules, false)?;
        if parsing.is_empty() {
            return Err(GrokError::Rule {
                rule: String::new(),
                helper: false,
                index: None,
                line: 1,
                column: 1,
                message: "there is no parsing rule: write one `RuleName pattern` per line".into(),
            });
        }
        // Helpers are checked on their own too, so one nobody uses still reports its mistakes.
        for helper in &helper_list {
            compile::compile(helper, &helpers)?;
        }
        let rules = parsing
            .iter()
            .map(|r| compile::compile(r, &helpers))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GrokParser {
            rules: rules.into(),
            time_limit: DEFAULT_LINE_TIME_LIMIT,
        })
    }

    /// The same parser with another per-line time limit.
    #[must_use]
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = limit;
        self
    }

    /// The per-line time limit.
    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// Parses one line: the first rule that matches the whole line, or `None`.
    ///
    /// # Errors
    /// [`GrokError::TimeLimit`] when matching the line takes longer than the time limit.
    pub fn parse(&self, line: &str) -> Result<Option<GrokMatch>, GrokError> {
        let _active = limit::begin(self.time_limit);
        let subject = engine::Subject::new(line);
        let first = line.chars().next();
        for rule in self.rules.iter() {
            if rule.first.is_some() && rule.first != first {
                continue;
            }
            let found = subject.find(&rule.regex);
            if limit::stopped() {
                return Err(GrokError::TimeLimit {
                    rule: rule.name.clone(),
                    limit_ms: u64::try_from(self.time_limit.as_millis()).unwrap_or(u64::MAX),
                });
            }
            if let Some(m) = found {
                return Ok(Some(extract::extract(rule, &m, &subject)));
            }
        }
        Ok(None)
    }

    /// The names of the parsing rules, in order.
    pub fn rule_names(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.name.as_str())
    }
}

#[cfg(test)]
mod tests;
