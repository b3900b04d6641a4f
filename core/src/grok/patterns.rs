//! The standard Logstash pattern set (`patterns/grok-patterns`: the core, httpd and syslog files
//! of logstash-patterns-core as the `grok` crate bundles them, Apache-2.0, `patterns/LICENSE`),
//! parsed once and translated to the ECMAScript dialect regress speaks: atomic groups become
//! plain groups, POSIX classes become ranges, groups become non-capturing and `%{NAME[:sem]}`
//! references are inlined (the semantic names inside a pattern are not extracted).

use std::collections::HashMap;
use std::sync::OnceLock;

const SOURCE: &str = include_str!("patterns/grok-patterns");

/// The raw definitions, name → pattern text, parsed once.
fn definitions() -> &'static HashMap<&'static str, &'static str> {
    static DEFS: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    DEFS.get_or_init(|| {
        SOURCE
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .map(|(name, pattern)| (name, pattern.trim()))
            .collect()
    })
}

/// Whether `name` is a Logstash pattern.
pub(super) fn exists(name: &str) -> bool {
    definitions().contains_key(name)
}

/// The pattern `name` expanded to a capture-free ECMAScript fragment, or `None` when it is not a
/// pattern of the set.
pub(super) fn expanded(name: &str) -> Option<String> {
    let mut out = String::new();
    let mut stack = Vec::new();
    expand_into(name, &mut out, &mut stack).then_some(out)
}

fn expand_into(name: &str, out: &mut String, stack: &mut Vec<String>) -> bool {
    let Some(pattern) = definitions().get(name) else {
        return false;
    };
    if stack.iter().any(|s| s == name) {
        return false;
    }
    stack.push(name.to_owned());
    out.push_str("(?:");
    let ok = translate(pattern, out, stack);
    out.push(')');
    stack.pop();
    ok
}

/// Copies one pattern, rewriting what regress does not accept and inlining references.
fn translate(pattern: &str, out: &mut String, stack: &mut Vec<String>) -> bool {
    let pattern = pattern.replace("[[:alnum:]]", "A-Za-z0-9");
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                out.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                }
                i += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '%' if !in_class && chars.get(i + 1) == Some(&'{') => {
                let Some(len) = chars[i + 2..].iter().position(|&c| c == '}') else {
                    return false;
                };
                let token: String = chars[i + 2..i + 2 + len].iter().collect();
                let reference = token.split(':').next().unwrap_or_default();
                if !expand_into(reference, out, stack) {
                    return false;
                }
                i += len + 3;
                continue;
            }
            '(' if !in_class => {
                if chars.get(i + 1) == Some(&'?') && chars.get(i + 2) == Some(&'>') {
                    out.push_str("(?:");
                    i += 3;
                    continue;
                }
                if chars.get(i + 1) != Some(&'?') {
                    out.push_str("(?:");
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_expands_and_compiles() {
        for name in definitions().keys() {
            let fragment = expanded(name).unwrap_or_else(|| panic!("{name} does not expand"));
            if let Err(e) = super::super::engine::compile(&format!("^{fragment}$")) {
                panic!("{name}: {e}: {fragment}");
            }
        }
    }
}
