//! Tokens to the compiled query: boolean structure (parentheses > NOT > AND > OR) and each
//! term's meaning (message words, tag, tag key, attribute), with errors that name a column.

use super::QueryError;
use super::lex::{CompareOp, Kind, Piece, RawValue, Token, tokens};
use super::wildcard::Pattern;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 4096;
/// Deepest nesting of parentheses and `NOT`s accepted.
pub const MAX_QUERY_DEPTH: usize = 256;

/// A compiled query node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    All,
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    /// Consecutive words of `message` (patterns lower-cased).
    Words(Vec<Pattern>),
    /// `message:*`.
    MessageNotEmpty,
    /// A `message-length` predicate: between `min` and `max` characters, both inclusive.
    MessageLength {
        min: Option<u64>,
        max: Option<u64>,
    },
    /// `key:…` on a tag.
    Tag {
        key: String,
        test: Test,
    },
    /// `tags:…`: a tag key exists.
    TagKey(Pattern),
    /// `@path:…` on an attribute.
    Attribute {
        path: Vec<String>,
        test: Test,
    },
}

/// What a tag's or an attribute's value must satisfy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Test {
    /// `:*`.
    Exists,
    /// Equal to the text (wildcards apply to text); `number` when the text is a number.
    Equals {
        pattern: Pattern,
        number: Option<f64>,
    },
    /// Between the bounds (`None`: open).
    Range {
        low: Option<Bound>,
        high: Option<Bound>,
    },
    /// One comparison.
    Compare { op: CompareOp, bound: Bound },
}

/// A bound of a range or comparison.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bound {
    pub text: String,
    pub number: Option<f64>,
    pub inclusive: bool,
}

/// A number as a query writes it: decimal, optional sign, fraction and exponent; finite.
pub(crate) fn number(text: &str) -> Option<f64> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    text.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// Whether `c` is part of a word of `message`.
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parses and compiles `query`.
pub(crate) fn parse(query: &str) -> Result<Node, QueryError> {
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(QueryError::new(
            query,
            MAX_QUERY_CHARS + 1,
            format!("longer than {MAX_QUERY_CHARS} characters"),
        ));
    }
    let tokens = tokens(query);
    if let Some(Token {
        kind: Kind::Bad { message, rest },
        ..
    }) = tokens.last()
    {
        let at = query.len() - rest;
        return Err(QueryError::at(query, at, message));
    }
    if tokens.is_empty() {
        return Ok(Node::All);
    }
    let mut parser = Parser {
        query,
        tokens: &tokens,
        next: 0,
        depth: 0,
    };
    let node = parser.or()?;
    if let Some(token) = parser.tokens.get(parser.next) {
        // `or()` stops only at `)` or the end.
        return Err(parser.error(token.start, |c| {
            format!("unbalanced parenthesis: `)` at column {c} closes nothing")
        }));
    }
    Ok(node)
}

struct Parser<'q> {
    query: &'q str,
    tokens: &'q [Token],
    next: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, at: usize, message: impl FnOnce(usize) -> String) -> QueryError {
        let column = self.query[..at].chars().count() + 1;
        QueryError::new(self.query, column, message(column))
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn or(&mut self) -> Result<Node, QueryError> {
        let mut items = vec![self.and()?];
        while let Some(token) = self.peek() {
            if token.kind != Kind::Or {
                break;
            }
            let at = token.start;
            self.next += 1;
            items.push(self.operand(at, "OR", Self::and)?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Node::Or(items)
        })
    }

    fn and(&mut self) -> Result<Node, QueryError> {
        let mut items = vec![self.first(Self::unary)?];
        while let Some(token) = self.peek() {
            match token.kind {
                Kind::Or | Kind::RParen => break,
                Kind::And => {
                    let at = token.start;
                    self.next += 1;
                    items.push(self.operand(at, "AND", Self::unary)?);
                }
                _ => items.push(self.unary()?),
            }
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Node::And(items)
        })
    }

    /// The first operand of an AND chain: a keyword there has nothing on its left.
    fn first(
        &mut self,
        parse: fn(&mut Self) -> Result<Node, QueryError>,
    ) -> Result<Node, QueryError> {
        match self.peek() {
            Some(Token {
                kind: Kind::And,
                start,
            }) => Err(self.error(*start, |c| {
                format!("`AND` at column {c} needs a term on both sides")
            })),
            Some(Token {
                kind: Kind::Or,
                start,
            }) => Err(self.error(*start, |c| {
                format!("`OR` at column {c} needs a term on both sides")
            })),
            _ => parse(self),
        }
    }

    /// The operand after a binary keyword at `at`.
    fn operand(
        &mut self,
        at: usize,
        keyword: &str,
        parse: fn(&mut Self) -> Result<Node, QueryError>,
    ) -> Result<Node, QueryError> {
        match self.peek().map(|t| &t.kind) {
            None | Some(Kind::RParen | Kind::And | Kind::Or) => Err(self.error(at, |c| {
                format!("`{keyword}` at column {c} needs a term on both sides")
            })),
            _ => parse(self),
        }
    }

    fn deeper(&mut self, at: usize) -> Result<(), QueryError> {
        self.depth += 1;
        if self.depth > MAX_QUERY_DEPTH {
            return Err(self.error(at, |c| {
                format!("nested deeper than {MAX_QUERY_DEPTH} levels at column {c}")
            }));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Node, QueryError> {
        let Some(token) = self.peek() else {
            return Ok(Node::All);
        };
        let at = token.start;
        match &token.kind {
            Kind::Plus => {
                self.next += 1;
                self.unary()
            }
            Kind::Not => {
                self.next += 1;
                if matches!(
                    self.peek().map(|t| &t.kind),
                    None | Some(Kind::RParen | Kind::And | Kind::Or)
                ) {
                    return Err(
                        self.error(at, |c| format!("`NOT` at column {c} needs a term after it"))
                    );
                }
                self.deeper(at)?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(Node::Not(Box::new(inner)))
            }
            Kind::LParen => {
                self.next += 1;
                self.deeper(at)?;
                if matches!(self.peek().map(|t| &t.kind), Some(Kind::RParen)) {
                    return Err(self.error(at, |c| format!("empty parentheses at column {c}")));
                }
                if self.peek().is_none() {
                    return Err(self.error(at, |c| {
                        format!("unbalanced parenthesis: `(` at column {c} is never closed")
                    }));
                }
                let inner = self.or()?;
                match self.peek().map(|t| &t.kind) {
                    Some(Kind::RParen) => self.next += 1,
                    _ => {
                        return Err(self.error(at, |c| {
                            format!("unbalanced parenthesis: `(` at column {c} is never closed")
                        }));
                    }
                }
                self.depth -= 1;
                Ok(inner)
            }
            Kind::RParen => Err(self.error(at, |c| {
                format!("unbalanced parenthesis: `)` at column {c} closes nothing")
            })),
            Kind::And | Kind::Or => {
                let keyword = if token.kind == Kind::And { "AND" } else { "OR" };
                Err(self.error(at, |c| {
                    format!("`{keyword}` at column {c} needs a term on both sides")
                }))
            }
            Kind::Term {
                negate,
                field,
                value,
            } => {
                let (negate, field, value) = (*negate, field.clone(), value.clone());
                self.next += 1;
                let node = self.term(at, field.as_deref(), &value)?;
                Ok(if negate {
                    Node::Not(Box::new(node))
                } else {
                    node
                })
            }
            Kind::Bad { message, .. } => Err(self.error(at, |_| message.clone())),
        }
    }

    fn term(&self, at: usize, field: Option<&str>, value: &RawValue) -> Result<Node, QueryError> {
        match field {
            None | Some("message") => self.message(at, field.is_some(), value),
            Some("tags") => match value {
                RawValue::Text { text, .. } => Ok(Node::TagKey(Pattern::new(text, false))),
                _ => Err(self.error(at, |c| {
                    format!("`tags:` at column {c} takes a tag key, not a range or comparison")
                })),
            },
            Some(field) if field.starts_with('@') => {
                let path = &field[1..];
                if path.is_empty() {
                    return Err(self.error(at, |c| {
                        format!("`@` at column {c} needs an attribute path (`@http.status:500`)")
                    }));
                }
                Ok(Node::Attribute {
                    path: path.split('.').map(str::to_owned).collect(),
                    test: test(value),
                })
            }
            Some(key) => Ok(Node::Tag {
                key: key.to_owned(),
                test: test(value),
            }),
        }
    }

    fn message(&self, at: usize, field: bool, value: &RawValue) -> Result<Node, QueryError> {
        let RawValue::Text { text, .. } = value else {
            return Err(self.error(at, |c| {
                format!("ranges and comparisons do not apply to message (column {c})")
            }));
        };
        if is_star(text) {
            return Ok(if field {
                Node::MessageNotEmpty
            } else {
                Node::All
            });
        }
        let words = split_words(text);
        if words.is_empty() {
            return Err(self.error(at, |c| {
                format!("the term at column {c} has no word to search for (letters, digits or `_`)")
            }));
        }
        Ok(Node::Words(
            words.iter().map(|w| Pattern::new(w, true)).collect(),
        ))
    }
}

fn is_star(text: &[Piece]) -> bool {
    matches!(
        text,
        [Piece {
            ch: '*',
            escaped: false
        }]
    )
}

/// Splits text into words at characters that are neither word characters nor bare wildcards.
fn split_words(text: &[Piece]) -> Vec<Vec<Piece>> {
    text.split(|p| !(is_word_char(p.ch) || (!p.escaped && matches!(p.ch, '*' | '?'))))
        .filter(|w| !w.is_empty())
        .map(<[Piece]>::to_vec)
        .collect()
}

fn plain(text: &[Piece]) -> String {
    text.iter().map(|p| p.ch).collect()
}

fn bound(text: &Option<Vec<Piece>>, inclusive: bool) -> Option<Bound> {
    text.as_ref().map(|text| {
        let text = plain(text);
        Bound {
            number: number(&text),
            text,
            inclusive,
        }
    })
}

fn test(value: &RawValue) -> Test {
    match value {
        RawValue::Text { text, .. } if is_star(text) => Test::Exists,
        RawValue::Text { text, .. } => Test::Equals {
            number: number(&plain(text)),
            pattern: Pattern::new(text, false),
        },
        RawValue::Range {
            low,
            low_inclusive,
            high,
            high_inclusive,
        } => Test::Range {
            low: bound(low, *low_inclusive),
            high: bound(high, *high_inclusive),
        },
        RawValue::Compare { op, text } => {
            let text = plain(text);
            Test::Compare {
                op: *op,
                bound: Bound {
                    number: number(&text),
                    text,
                    inclusive: matches!(op, CompareOp::GreaterOrEqual | CompareOp::LessOrEqual),
                },
            }
        }
    }
}
