//! The query's tokens, read with winnow: parentheses, quoted phrases, keywords and terms
//! (`[-|!|+][field:]value`, the value a word, quoted text, a range or a comparison). The lexer
//! never fails: text it cannot read becomes a [`Token::Bad`] that the parser reports with its
//! column, so every error names the place where the reader went wrong.

use winnow::Parser;
use winnow::combinator::{alt, opt, peek};
use winnow::error::{ContextError, ErrMode};
use winnow::token::{any, literal, one_of, take_while};

type Input<'a> = &'a str;
type Step<T> = Result<T, ErrMode<ContextError>>;

/// One piece of a query: what it is and where it starts (a byte offset into the query).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
}

/// The kinds of [`Token`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    LParen,
    RParen,
    And,
    Or,
    Not,
    /// `+` before a group: no effect.
    Plus,
    /// A term: an optional `-`/`!` (negate) or `+`, an optional field, a value.
    Term {
        negate: bool,
        field: Option<String>,
        value: RawValue,
    },
    /// Text that is not a query: the message says what was expected; `rest` is the length of
    /// the query from the offending place on (so its offset is `query.len() - rest`).
    Bad {
        message: String,
        rest: usize,
    },
}

fn bad(message: &str, rest: usize) -> Kind {
    Kind::Bad {
        message: message.into(),
        rest,
    }
}

/// A value as written: text pieces keep whether each character was escaped or quoted, so that
/// `*` and `?` are wildcards only where written bare (or bare inside quotes).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawValue {
    /// A word or quoted text; `quoted` when written in `"…"`.
    Text { text: Vec<Piece>, quoted: bool },
    /// `[lo TO hi]`, `{lo TO hi}` or mixed; `None` for `*`.
    Range {
        low: Option<Vec<Piece>>,
        low_inclusive: bool,
        high: Option<Vec<Piece>>,
        high_inclusive: bool,
    },
    /// `>x`, `>=x`, `<x`, `<=x`.
    Compare { op: CompareOp, text: Vec<Piece> },
}

/// A character of a value and whether it was escaped (so never a wildcard).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece {
    pub ch: char,
    pub escaped: bool,
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `>`
    Greater,
    /// `>=`
    GreaterOrEqual,
    /// `<`
    Less,
    /// `<=`
    LessOrEqual,
}

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// A character that ends a bare word.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '"')
}

/// Reads the whole query into tokens.
pub(crate) fn tokens(query: &str) -> Vec<Token> {
    let mut input: Input = query;
    let mut out = Vec::new();
    loop {
        let _ = take_while::<_, _, ContextError>(0.., is_space).parse_next(&mut input);
        if input.is_empty() {
            return out;
        }
        let start = query.len() - input.len();
        let kind = match token(&mut input) {
            Ok(kind) => kind,
            // Every branch of `token` ends in one that accepts any character; this is only reached
            // if that changes: report the place rather than loop.
            Err(_) => {
                out.push(Token {
                    kind: bad("unexpected character", query.len() - start),
                    start,
                });
                return out;
            }
        };
        let stop = matches!(kind, Kind::Bad { .. });
        out.push(Token { kind, start });
        if stop {
            return out;
        }
    }
}

fn token(input: &mut Input) -> Step<Kind> {
    alt((
        '('.value(Kind::LParen),
        ')'.value(Kind::RParen),
        phrase,
        term,
    ))
    .parse_next(input)
}

/// `"…"` on its own: a phrase on `message`.
fn phrase(input: &mut Input) -> Step<Kind> {
    peek('"').parse_next(input)?;
    Ok(match quoted(input)? {
        Ok(text) => Kind::Term {
            negate: false,
            field: None,
            value: RawValue::Text { text, quoted: true },
        },
        Err(bad) => bad,
    })
}

/// Quoted text after its opening `"`, with `\"` and `\\`; an unterminated one is a `Bad` token.
fn quoted(input: &mut Input) -> Step<Result<Vec<Piece>, Kind>> {
    let rest = input.len();
    '"'.parse_next(input)?;
    let mut text = Vec::new();
    loop {
        match opt(any).parse_next(input)? {
            None => return Ok(Err(bad("unterminated quoted text", rest))),
            Some('"') => return Ok(Ok(text)),
            Some('\\') => match opt(any).parse_next(input)? {
                Some(ch) => text.push(Piece { ch, escaped: true }),
                None => return Ok(Err(bad("unterminated quoted text", rest))),
            },
            Some(ch) => text.push(Piece { ch, escaped: false }),
        }
    }
}

/// A bare word: escaped or plain characters up to whitespace, a parenthesis or a quote.
/// With `stop_at_colon`, an unescaped `:` ends it too (a field name).
fn word(input: &mut Input, stop_at_colon: bool) -> Step<Vec<Piece>> {
    let mut text = Vec::new();
    loop {
        let next = peek(opt(any)).parse_next(input)?;
        match next {
            None => return Ok(text),
            Some(c) if ends_word(c) || (stop_at_colon && c == ':') => return Ok(text),
            Some('\\') => {
                any.parse_next(input)?;
                match opt(any).parse_next(input)? {
                    Some(ch) => text.push(Piece { ch, escaped: true }),
                    None => text.push(Piece {
                        ch: '\\',
                        escaped: true,
                    }),
                }
            }
            Some(_) => {
                let ch = any.parse_next(input)?;
                text.push(Piece { ch, escaped: false });
            }
        }
    }
}

fn plain(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| p.ch).collect()
}

/// `[-|!|+][field:]value`, or a keyword.
fn term(input: &mut Input) -> Step<Kind> {
    let sign = opt(one_of(['-', '!', '+'])).parse_next(input)?;
    // `-(…)` and `!(…)` negate a group; `+(…)` is the group.
    if sign.is_some() && peek(opt('(')).parse_next(input)?.is_some() {
        return Ok(if sign == Some('+') {
            Kind::Plus
        } else {
            Kind::Not
        });
    }
    // A sign alone (before a space, a parenthesis or the end) is a word of its own.
    if sign.is_some() && peek(opt(any)).parse_next(input)?.is_none_or(ends_word) {
        let c = sign.unwrap_or('-');
        return Ok(Kind::Term {
            negate: false,
            field: None,
            value: RawValue::Text {
                text: vec![Piece {
                    ch: c,
                    escaped: false,
                }],
                quoted: false,
            },
        });
    }
    let negate = matches!(sign, Some('-' | '!'));
    if sign.is_some() && peek(opt('"')).parse_next(input)?.is_some() {
        return Ok(match quoted(input)? {
            Ok(text) => Kind::Term {
                negate,
                field: None,
                value: RawValue::Text { text, quoted: true },
            },
            Err(bad) => bad,
        });
    }
    let rest = input.len();
    let head = word(input, true)?;
    if opt(':').parse_next(input)?.is_none() {
        if sign.is_none() {
            match plain(&head).as_str() {
                "AND" if !head.iter().any(|p| p.escaped) => return Ok(Kind::And),
                "OR" if !head.iter().any(|p| p.escaped) => return Ok(Kind::Or),
                "NOT" if !head.iter().any(|p| p.escaped) => return Ok(Kind::Not),
                _ => {}
            }
        }
        return Ok(Kind::Term {
            negate,
            field: None,
            value: RawValue::Text {
                text: head,
                quoted: false,
            },
        });
    }
    if head.is_empty() {
        return Ok(bad("a `:` needs a field name before it", rest));
    }
    let field = Some(plain(&head));
    let value = match value(input, rest)? {
        Ok(value) => value,
        Err(bad) => return Ok(bad),
    };
    Ok(Kind::Term {
        negate,
        field,
        value,
    })
}

/// What follows `field:`; `rest` places the field, for "needs a value".
fn value(input: &mut Input, rest: usize) -> Step<Result<RawValue, Kind>> {
    let next = peek(opt(any)).parse_next(input)?;
    match next {
        None => Ok(Err(bad("needs a value", rest))),
        Some(c) if c.is_whitespace() || c == '(' || c == ')' => Ok(Err(bad("needs a value", rest))),
        Some('"') => Ok(quoted(input)?.map(|text| RawValue::Text { text, quoted: true })),
        Some('[' | '{') => range(input),
        Some('>' | '<') => {
            let op = alt((
                literal(">=").value(CompareOp::GreaterOrEqual),
                literal("<=").value(CompareOp::LessOrEqual),
                literal(">").value(CompareOp::Greater),
                literal("<").value(CompareOp::Less),
            ))
            .parse_next(input)?;
            let text = if peek(opt('"')).parse_next(input)?.is_some() {
                match quoted(input)? {
                    Ok(text) => text,
                    Err(bad) => return Ok(Err(bad)),
                }
            } else {
                word(input, false)?
            };
            if text.is_empty() {
                return Ok(Err(bad("needs a value", rest)));
            }
            Ok(Ok(RawValue::Compare { op, text }))
        }
        Some(_) => Ok(Ok(RawValue::Text {
            text: word(input, false)?,
            quoted: false,
        })),
    }
}

/// A bound of a range: `*` (open), quoted text or a word (ending at a bracket too).
fn bound(input: &mut Input, rest: usize) -> Step<Result<Option<Vec<Piece>>, Kind>> {
    if peek(opt('"')).parse_next(input)?.is_some() {
        return Ok(quoted(input)?.map(Some));
    }
    let mut text = Vec::new();
    loop {
        match peek(opt(any)).parse_next(input)? {
            None => break,
            Some(c) if ends_word(c) || matches!(c, ']' | '}') => break,
            Some('\\') => {
                any.parse_next(input)?;
                if let Some(ch) = opt(any).parse_next(input)? {
                    text.push(Piece { ch, escaped: true });
                }
            }
            Some(_) => {
                let ch = any.parse_next(input)?;
                text.push(Piece { ch, escaped: false });
            }
        }
    }
    if text.is_empty() {
        return Ok(Err(bad("a range needs `TO`: [a TO b]", rest)));
    }
    if text.len() == 1 && text[0].ch == '*' && !text[0].escaped {
        return Ok(Ok(None));
    }
    Ok(Ok(Some(text)))
}

fn range(input: &mut Input) -> Step<Result<RawValue, Kind>> {
    let rest = input.len();
    let low_inclusive = one_of(['[', '{']).parse_next(input)? == '[';
    let spaces = |input: &mut Input<'_>| -> Step<usize> {
        take_while(0.., is_space).map(str::len).parse_next(input)
    };
    spaces(input)?;
    let low = match bound(input, rest)? {
        Ok(low) => low,
        Err(bad) => return Ok(Err(bad)),
    };
    let gap = spaces(input)?;
    if gap == 0 || opt(literal("TO")).parse_next(input)?.is_none() {
        return Ok(Err(bad("a range needs `TO`: [a TO b]", rest)));
    }
    if spaces(input)? == 0 {
        return Ok(Err(bad("a range needs `TO`: [a TO b]", rest)));
    }
    let high = match bound(input, rest)? {
        Ok(high) => high,
        Err(bad) => return Ok(Err(bad)),
    };
    spaces(input)?;
    let Some(close) = opt(one_of([']', '}'])).parse_next(input)? else {
        return Ok(Err(bad(
            "a range ends with `]` (inclusive) or `}` (exclusive)",
            rest,
        )));
    };
    Ok(Ok(RawValue::Range {
        low,
        low_inclusive,
        high,
        high_inclusive: close == ']',
    }))
}
