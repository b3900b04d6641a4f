//! Compiling one parsing rule: tokens expanded (helpers inlined, matchers to fragments), each
//! extracted token wrapped in a capturing group whose index is recorded with its extractor and
//! transformer, the whole anchored (`^(?:…)$`) and compiled once into one regress `Regex`.

use std::collections::HashMap;

use regress::Regex;

use super::GrokError;
use super::matchers::{self, Conversion};
use super::patterns;
use super::rules::{self, RuleLine};
use super::transform::Transformer;

/// Where an extracted value goes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Target {
    /// An attribute path (`a.b.c`); empty: merged at the root (`%{data::json}`).
    Attribute(Vec<String>),
    /// `tags.x`.
    Tag(String),
    /// `severity`, `eventTimestamp`.
    TopLevel(String),
}

/// One capturing group of a compiled rule.
#[derive(Debug, Clone)]
pub(super) struct Capture {
    pub group: usize,
    pub target: Target,
    pub conversion: Conversion,
    pub transformer: Option<Transformer>,
}

/// A compiled parsing rule.
#[derive(Debug, Clone)]
pub(super) struct CompiledRule {
    pub name: String,
    pub regex: Regex,
    pub captures: Vec<Capture>,
    /// The character every matching line starts with, when the pattern says so plainly: lines
    /// that start otherwise skip the regex (most lines fail most rules at their first character).
    pub first: Option<char>,
}

/// Compiles `rule` with `helpers` available by name.
pub(super) fn compile(
    rule: &RuleLine<'_>,
    helpers: &HashMap<&str, RuleLine<'_>>,
) -> Result<CompiledRule, GrokError> {
    let mut c = Compiler {
        helpers,
        stack: if rule.helper {
            vec![rule.name]
        } else {
            Vec::new()
        },
        groups: 0,
        captures: Vec::new(),
        out: String::from("^(?:"),
    };
    c.expand(rule)?;
    c.out.push_str(")$");
    let regex = super::engine::compile(&c.out).map_err(|e| {
        rule.error(0, format!("the rule is not a valid regular expression: {e}; check its parentheses, brackets and escapes (ECMAScript syntax; escape a literal ( [ {{ . * + ? | with \\)"))
    })?;
    Ok(CompiledRule {
        name: rule.label(),
        regex,
        captures: c.captures,
        first: first_char(rule.pattern),
    })
}

/// The literal first character of `pattern` when it has one for sure: a plain character or
/// an escaped punctuation character, not quantified, in a pattern without any `|`.
fn first_char(pattern: &str) -> Option<char> {
    if pattern.contains('|') {
        return None;
    }
    let mut chars = pattern.chars();
    let first = match chars.next()? {
        '\\' => chars.next().filter(char::is_ascii_punctuation)?,
        c if "^$.*+?()[]{}%".contains(c) || c.is_whitespace() => return None,
        c => c,
    };
    match chars.next() {
        Some('?' | '*' | '+' | '{') => None,
        _ => Some(first),
    }
}

struct Compiler<'h, 'a> {
    helpers: &'h HashMap<&'a str, RuleLine<'a>>,
    stack: Vec<&'a str>,
    groups: usize,
    captures: Vec<Capture>,
    out: String,
}

impl<'a> Compiler<'_, 'a> {
    /// Appends `rule`'s pattern, expanding its tokens.
    fn expand(&mut self, rule: &RuleLine<'a>) -> Result<(), GrokError> {
        let chars: Vec<char> = rule.pattern.chars().collect();
        let mut i = 0;
        let mut in_class = false;
        while i < chars.len() {
            let c = chars[i];
            match c {
                '\\' => {
                    self.out.push(c);
                    if let Some(&next) = chars.get(i + 1) {
                        self.out.push(next);
                    }
                    i += 2;
                    continue;
                }
                '[' if !in_class => in_class = true,
                ']' if in_class => in_class = false,
                '(' if !in_class && opens_capture(&chars[i + 1..]) => self.groups += 1,
                '%' if !in_class && chars.get(i + 1) == Some(&'{') => {
                    let len = rules::token_len(&chars[i..]).ok_or_else(|| {
                        rule.error(
                            i,
                            "unbalanced %{: close the token with } (escape a literal % as \\%)",
                        )
                    })?;
                    let inside: String = chars[i + 2..i + len - 1].iter().collect();
                    self.token(rule, i, &inside)?;
                    i += len;
                    continue;
                }
                _ => {}
            }
            self.out.push(c);
            i += 1;
        }
        Ok(())
    }

    /// Appends one token at character `at` of `rule`'s pattern.
    fn token(&mut self, rule: &RuleLine<'a>, at: usize, inside: &str) -> Result<(), GrokError> {
        let token = rules::split_token(inside).map_err(|m| rule.error(at, m))?;
        let transformer = match &token.transformer {
            None => None,
            Some((name, args)) => Some(
                Transformer::new(name, args)
                    .map_err(|m| rule.error(at, m))?
                    .ok_or_else(|| {
                        rule.error(at, format!("unknown transformer {name}: use number, integer, boolean, lowercase, uppercase, json, keyvalue, csv, useragent, scale, isoDateTimeToMillis or nullIf"))
                    })?,
            ),
        };
        let target =
            target(&token.extractor, transformer.as_ref()).map_err(|m| rule.error(at, m))?;
        let capture_group = target.as_ref().map(|_| {
            self.groups += 1;
            self.out.push('(');
            self.groups
        });
        let conversion = if let Some(helper) = self.helpers.get(token.matcher.as_str()) {
            if !token.matcher_args.is_empty() {
                return Err(rule.error(
                    at,
                    format!("helper rule {} takes no arguments", helper.name),
                ));
            }
            if self.stack.contains(&helper.name) {
                let mut cycle = self.stack.clone();
                cycle.push(helper.name);
                return Err(rule.error(
                    at,
                    format!(
                        "helper rules refer to each other in a cycle ({}): break it",
                        cycle.join(" → ")
                    ),
                ));
            }
            self.stack.push(helper.name);
            self.out.push_str("(?:");
            self.expand(helper)?;
            self.out.push(')');
            self.stack.pop();
            Conversion::Text
        } else if let Some((fragment, conversion)) =
            matchers::builtin(&token.matcher, &token.matcher_args).map_err(|m| rule.error(at, m))?
        {
            if token.matcher == "regex" {
                self.groups += capturing_groups(&fragment);
            }
            self.out.push_str(&fragment);
            conversion
        } else if patterns::exists(&token.matcher) && token.matcher_args.is_empty() {
            let fragment = patterns::expanded(&token.matcher).ok_or_else(|| {
                rule.error(
                    at,
                    format!("Logstash pattern {} does not expand", token.matcher),
                )
            })?;
            self.out.push_str(&fragment);
            Conversion::Text
        } else {
            return Err(rule.error(at, format!("unknown matcher {}: use a built-in matcher (word, notSpace, data, integer, number, date(\"…\"), regex(\"…\"), …), a helper rule or a Logstash pattern such as IPORHOST (docs/grok.md)", token.matcher)));
        };
        if let (Some(group), Some(target)) = (capture_group, target) {
            self.out.push(')');
            self.captures.push(Capture {
                group,
                target,
                conversion,
                transformer,
            });
        }
        Ok(())
    }
}

/// Where an extractor puts its value, `None` when nothing is extracted.
fn target(extractor: &str, transformer: Option<&Transformer>) -> Result<Option<Target>, String> {
    if extractor.is_empty() {
        return Ok(transformer
            .filter(|t| t.makes_object())
            .map(|_| Target::Attribute(Vec::new())));
    }
    let path: Vec<String> = extractor.split('.').map(str::to_owned).collect();
    if path.iter().any(String::is_empty) {
        return Err(format!(
            "extractor {extractor} has an empty part: write a.b.c"
        ));
    }
    Ok(Some(match path.as_slice() {
        [tags, tag] if tags == "tags" => Target::Tag(tag.clone()),
        [one] if one == "severity" || one == "eventTimestamp" => Target::TopLevel(one.clone()),
        _ => Target::Attribute(path),
    }))
}

/// Whether `(` followed by `rest` opens a capturing group (`(x`, `(?<name>x`).
fn opens_capture(rest: &[char]) -> bool {
    match rest {
        ['?', '<', next, ..] => *next != '=' && *next != '!',
        ['?', ..] => false,
        _ => true,
    }
}

/// The capturing groups of a regular expression's text.
fn capturing_groups(pattern: &str) -> usize {
    let chars: Vec<char> = pattern.chars().collect();
    let (mut i, mut n, mut in_class) = (0, 0, false);
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class && opens_capture(&chars[i + 1..]) => n += 1,
            _ => {}
        }
        i += 1;
    }
    n
}
