//! Reading rules text: one `Name pattern` per line, blank lines and `#` comments skipped, and
//! splitting a `%{…}` token into its matcher (with arguments), extractor and transformer.

use super::GrokError;
use crate::GrokRules;

/// One rule of a rules text.
#[derive(Debug, Clone)]
pub(super) struct RuleLine<'a> {
    pub name: &'a str,
    pub pattern: &'a str,
    /// 1-based line over all the rules (items joined with line breaks).
    pub line: usize,
    /// The array item holding the rule (`None` when the rules are one string).
    pub index: Option<usize>,
    /// 1-based column (characters) of the pattern's first character.
    pub column: usize,
    pub helper: bool,
}

impl RuleLine<'_> {
    /// The rule's name; `#LINE` for a parsing rule written without one.
    pub(super) fn label(&self) -> String {
        if self.name.is_empty() {
            format!("#{}", self.line)
        } else {
            self.name.to_owned()
        }
    }

    /// An error at `offset` characters into the pattern.
    pub(super) fn error(&self, offset: usize, message: impl Into<String>) -> GrokError {
        GrokError::Rule {
            rule: self.label(),
            helper: self.helper,
            index: self.index,
            line: self.line,
            column: self.column + offset,
            message: message.into(),
        }
    }
}

/// The rules, in order.
///
/// # Errors
/// A line with a name but no pattern, or a name used twice.
pub(super) fn read(text: &GrokRules, helper: bool) -> Result<Vec<RuleLine<'_>>, GrokError> {
    let mut rules: Vec<RuleLine<'_>> = Vec::new();
    for place in text.lines() {
        let raw = place.text;
        let indent = raw.chars().take_while(|c| c.is_whitespace()).count();
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // A parsing rule that starts with a token has no name (the public service's Terraform
        // examples write them so): the whole line is its pattern, named `#LINE`.
        if !helper && trimmed.starts_with("%{") {
            rules.push(RuleLine {
                name: "",
                pattern: trimmed.trim_end(),
                line: place.line,
                index: place.index,
                column: indent + 1,
                helper,
            });
            continue;
        }
        let name_len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let name = &trimmed[..name_len];
        let after = &trimmed[name_len..];
        let gap = after.chars().take_while(|c| c.is_whitespace()).count();
        let pattern = after.trim_start().trim_end();
        let rule = RuleLine {
            name,
            pattern,
            line: place.line,
            index: place.index,
            column: indent + name.chars().count() + gap + 1,
            helper,
        };
        if let Some(bad) = name
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-')))
        {
            let col = name[..bad.0].chars().count();
            return Err(GrokError::Rule {
                rule: name.to_owned(),
                helper,
                index: place.index,
                line: place.line,
                column: indent + col + 1,
                message: format!(
                    "a rule name has letters, digits, '_', '.' and '-' only, not '{}'; write `RuleName pattern`",
                    bad.1
                ),
            });
        }
        if pattern.is_empty() {
            return Err(rule.error(
                0,
                "the rule has no pattern: write `RuleName pattern` on one line",
            ));
        }
        if rules.iter().any(|r| r.name == name && !name.is_empty()) {
            return Err(rule.error(
                0,
                format!("rule name {name} is already used by an earlier rule: rename one of them"),
            ));
        }
        rules.push(rule);
    }
    Ok(rules)
}

/// A `%{…}` token split into its parts.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub matcher: String,
    pub matcher_args: Vec<String>,
    pub extractor: String,
    pub transformer: Option<(String, Vec<String>)>,
}

/// The length in characters of the token starting at `chars[0] == '%'` (up to and including
/// `}`), `None` when it is not closed.
pub(super) fn token_len(chars: &[char]) -> Option<usize> {
    let mut quote = None;
    let mut i = 2;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(_) if c == '\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '}' => return Some(i + 1),
            None => {}
        }
        i += 1;
    }
    None
}

/// Splits the inside of a token (`MATCHER[:EXTRACTOR[:TRANSFORMER]]`).
pub(super) fn split_token(inside: &str) -> Result<Token, String> {
    let parts = split_top(inside, ':');
    if parts.len() > 3 {
        return Err("a token has at most three parts: %{MATCHER:EXTRACTOR:TRANSFORMER}".into());
    }
    let (matcher, matcher_args) = call(parts[0].trim())?;
    if matcher.is_empty() {
        return Err("the token has no matcher: write %{word:name}".into());
    }
    let extractor = parts.get(1).map_or("", |s| s.trim()).to_owned();
    let transformer = match parts.get(2).map(|s| s.trim()) {
        None | Some("") => None,
        Some(t) => Some(call(t)?),
    };
    Ok(Token {
        matcher,
        matcher_args,
        extractor,
        transformer,
    })
}

/// `name` or `name(arg, …)`: arguments quoted (`"…"`, `'…'`) or bare. A quoted argument is read
/// as a string literal first, as Datadog reads it: `\\` is one backslash and `\"` (`\'` in single
/// quotes) the quote; every other backslash stays as written, so `regex("\d+")` and
/// `regex("\\d+")` are both `\d+`.
fn call(text: &str) -> Result<(String, Vec<String>), String> {
    let Some(open) = text.find('(') else {
        return Ok((text.to_owned(), Vec::new()));
    };
    let name = text[..open].trim().to_owned();
    let Some(inner) = text[open + 1..].strip_suffix(')') else {
        return Err(format!(
            "{name}'s arguments are not closed: write {name}(\"…\")"
        ));
    };
    if inner.trim().is_empty() {
        return Ok((name, Vec::new()));
    }
    let mut args = Vec::new();
    for arg in split_top(inner, ',') {
        let arg = arg.trim();
        let quote = arg.chars().next().filter(|c| *c == '"' || *c == '\'');
        match quote {
            Some(q) if closes_at_end(arg, q) => {
                args.push(unescape(&arg[1..arg.len() - 1], q));
            }
            Some(_) => {
                return Err(format!(
                    "unterminated or unescaped string in {name}'s arguments: close each string with its quote and write a quote inside it as \\\""
                ));
            }
            None if arg.is_empty() => return Err(format!("empty argument in {name}(…)")),
            None => args.push(arg.to_owned()),
        }
    }
    Ok((name, args))
}

/// Whether the quoted `arg` (starting with `quote`) ends with its closing quote, not before
/// and not with an escaped one.
fn closes_at_end(arg: &str, quote: char) -> bool {
    let mut chars = arg.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next();
        } else if c == quote {
            return i + c.len_utf8() == arg.len();
        }
    }
    false
}

/// A quoted argument's text as a string literal: `\\` → `\`, `\<quote>` → the quote, any other
/// backslash kept with the character after it.
fn unescape(body: &str, quote: char) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(next) if next == '\\' || next == quote => out.push(next),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Splits at `sep` outside quotes and parentheses.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut escaped, mut start) = (0_i32, None, false, 0);
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match quote {
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '(' => depth += 1,
                ')' => depth -= 1,
                c if c == sep && depth == 0 => {
                    parts.push(&text[start..i]);
                    start = i + c.len_utf8();
                }
                _ => {}
            },
        }
    }
    parts.push(&text[start..]);
    parts
}
