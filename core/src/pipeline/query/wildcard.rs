//! Text patterns with `*` (any run of characters, none included) and `?` (one character),
//! matched without a regular expression: a greedy scan that backs up to the last `*` only, so
//! the time is at most O(text × pattern) and the space constant, whatever the query.

use super::lex::Piece;

/// Unicode simple lowercase of one character: one character for one (`İ` → `i`, `Σ` → `σ`
/// whatever its place in a word), so matching compares character by character.
pub(crate) fn fold_char(c: char) -> char {
    if c == '\u{130}' {
        return 'i';
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// One element of a pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Item {
    Char(char),
    One,
    Any,
}

/// A compiled text pattern: exact text, or items with wildcards.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pattern {
    /// No wildcard: plain comparison.
    Exact(String),
    /// With wildcards.
    Wild(Vec<Item>),
}

impl Pattern {
    /// Compiles pieces of query text; `fold` lower-cases it (for `message`, matched lower-cased).
    pub(crate) fn new(text: &[Piece], fold: bool) -> Pattern {
        let wild = text.iter().any(|p| !p.escaped && matches!(p.ch, '*' | '?'));
        if !wild {
            let text: String = if fold {
                text.iter().map(|p| fold_char(p.ch)).collect()
            } else {
                text.iter().map(|p| p.ch).collect()
            };
            return Pattern::Exact(text);
        }
        let mut items = Vec::with_capacity(text.len());
        for piece in text {
            let item = match piece {
                Piece {
                    ch: '*',
                    escaped: false,
                } => Item::Any,
                Piece {
                    ch: '?',
                    escaped: false,
                } => Item::One,
                Piece { ch, .. } if fold => Item::Char(fold_char(*ch)),
                Piece { ch, .. } => Item::Char(*ch),
            };
            // `**` is `*`.
            if item == Item::Any && items.last() == Some(&Item::Any) {
                continue;
            }
            items.push(item);
        }
        Pattern::Wild(items)
    }

    /// The pattern as query text (`*`, `?` bare; literal ones escaped).
    pub(crate) fn display(&self) -> String {
        match self {
            Pattern::Exact(text) => text.chars().flat_map(escape).collect(),
            Pattern::Wild(items) => items
                .iter()
                .flat_map(|item| match item {
                    Item::Any => vec!['*'],
                    Item::One => vec!['?'],
                    Item::Char(c) => escape(*c),
                })
                .collect(),
        }
    }

    /// Whether `text` matches, as it is.
    pub(crate) fn matches(&self, text: &str) -> bool {
        match self {
            Pattern::Exact(exact) => exact == text,
            Pattern::Wild(items) => wild_match(items, text.chars()),
        }
    }

    /// Whether `text` lower-cased matches (the pattern was compiled with `fold`).
    pub(crate) fn matches_folded(&self, text: &str) -> bool {
        let lower = text.chars().map(fold_char);
        match self {
            Pattern::Exact(exact) => lower.eq(exact.chars()),
            Pattern::Wild(items) => wild_match(items, lower),
        }
    }
}

fn escape(c: char) -> Vec<char> {
    if matches!(c, '*' | '?' | '\\') {
        vec!['\\', c]
    } else {
        vec![c]
    }
}

/// The classic greedy wildcard match over a cloneable character iterator: on a mismatch, the
/// last `*` takes one more character and the scan resumes after it.
fn wild_match<I: Iterator<Item = char> + Clone>(items: &[Item], mut text: I) -> bool {
    let mut at = 0;
    let mut star: Option<(usize, I)> = None;
    loop {
        let mut ahead = text.clone();
        match ahead.next() {
            Some(c) => {
                match items.get(at) {
                    Some(Item::Any) => {
                        at += 1;
                        star = Some((at, text.clone()));
                        continue;
                    }
                    Some(Item::One) => {
                        at += 1;
                        text = ahead;
                        continue;
                    }
                    Some(Item::Char(p)) if *p == c => {
                        at += 1;
                        text = ahead;
                        continue;
                    }
                    _ => {}
                }
                let Some((resume, from)) = star.as_mut() else {
                    return false;
                };
                from.next();
                text = from.clone();
                at = *resume;
            }
            None => return items[at.min(items.len())..].iter().all(|i| *i == Item::Any),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|ch| Piece { ch, escaped: false }).collect()
    }

    #[test]
    fn wildcards() {
        let p = |s: &str| Pattern::new(&pieces(s), false);
        assert!(p("*").matches(""));
        assert!(p("a*").matches("a"));
        assert!(p("a*c").matches("abbbc"));
        assert!(!p("a*c").matches("abbb"));
        assert!(p("f?o").matches("foo"));
        assert!(!p("f?o").matches("fo"));
        assert!(p("*timeout*").matches("timeout"));
        assert!(p("*a*b*c").matches("xxaxxbxxbc"));
        assert!(!p("?").matches(""));
        assert!(p("é?").matches("éa"));
    }

    #[test]
    fn folded() {
        let p = Pattern::new(&pieces("ÉCOLE"), true);
        assert!(p.matches_folded("école"));
        assert!(p.matches_folded("École"));
        let w = Pattern::new(&pieces("TIME*"), true);
        assert!(w.matches_folded("Timeouts"));
    }

    #[test]
    fn hostile_patterns_stay_polynomial() {
        let p = Pattern::new(&pieces(&"*a".repeat(200)), false);
        let text = "a".repeat(199) + "b";
        assert!(!p.matches(&text));
    }
}
