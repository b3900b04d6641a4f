//! A pre-parse check of bracket nesting. boa's parser recurses once (or more) per nesting level
//! and has no limit of its own: `((((…1…))))` a few thousand levels deep overflows the native
//! stack and aborts the process. This scan estimates the nesting depth of a script **from above**
//! and refuses scripts past a limit before they reach the parser.
//!
//! The estimate tracks strings, template literals, comments and regular-expression literals.
//! Where a character's role is ambiguous it errs towards counting more: brackets inside skipped
//! text still count as opened (a close there only matches an open from the same stretch of text),
//! and a `/` is read as the start of a regular expression unless it plainly follows an operand.
//! A script can therefore be refused for holding many unbalanced brackets in strings, never let
//! through with more nesting than the estimate.

/// Where the estimated depth first went past the limit: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooDeep {
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    Quote(char),
    Template,
    LineComment,
    BlockComment,
    Regex { in_class: bool },
}

/// Keywords after which `/` starts an expression (so a regular expression), not a division.
const EXPRESSION_KEYWORDS: [&str; 17] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
    "extends",
    "export",
    "default",
];
/// Keywords whose parenthesized head is followed by a statement, where `/` starts a regex.
const STATEMENT_HEADS: [&str; 4] = ["if", "while", "for", "with"];

/// Checks that the estimated bracket nesting of `source` stays within `limit`.
pub(crate) fn check(source: &str, limit: usize) -> Result<(), TooDeep> {
    // Open brackets; `true` marks a `(` that heads an `if`/`while`/`for`/`with`.
    let mut stack: Vec<(char, bool)> = Vec::new();
    let mut floor = 0usize;
    let mut mode = Mode::Code;
    // Whether a `/` in code now would be a division (the previous token ends an operand).
    let mut operand_before = false;
    let mut word = String::new();
    // Whether the last word was `if`/`while`/`for`/`with` (white space since does not matter).
    let mut after_head = false;
    let (mut line, mut column) = (1u32, 0u32);
    let mut chars = source.chars().peekable();

    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
            column = 0;
        } else {
            column += 1;
        }
        let at = TooDeep { line, column };
        let in_text = mode != Mode::Code;
        // Brackets: counted in every mode; outside code a close only matches an open of the
        // same stretch of text.
        let bracket =
            |stack: &mut Vec<(char, bool)>, c: char, head: bool| -> Result<bool, TooDeep> {
                match c {
                    '(' | '[' | '{' => {
                        stack.push((c, head));
                        if stack.len() > limit {
                            return Err(at);
                        }
                        Ok(false)
                    }
                    ')' | ']' | '}' => {
                        let open = match c {
                            ')' => '(',
                            ']' => '[',
                            _ => '{',
                        };
                        let lowest = if in_text { floor } else { 0 };
                        if stack.len() > lowest && stack.last().is_some_and(|(o, _)| *o == open) {
                            return Ok(stack.pop().is_some_and(|(_, head)| head));
                        }
                        Ok(false)
                    }
                    _ => Ok(false),
                }
            };
        match mode {
            Mode::Code => {
                if c.is_alphanumeric() || c == '_' || c == '$' {
                    word.push(c);
                    continue;
                }
                if !word.is_empty() {
                    let is_number = word.starts_with(|d: char| d.is_ascii_digit());
                    after_head = STATEMENT_HEADS.contains(&word.as_str());
                    operand_before =
                        is_number || !(EXPRESSION_KEYWORDS.contains(&word.as_str()) || after_head);
                    word.clear();
                }
                let heads_statement = after_head && !c.is_whitespace();
                if !c.is_whitespace() {
                    after_head = false;
                }
                match c {
                    '\\' => {
                        chars.next();
                        column += 1;
                    }
                    '\'' | '"' => (mode, floor) = (Mode::Quote(c), stack.len()),
                    '`' => (mode, floor) = (Mode::Template, stack.len()),
                    '/' if chars.peek() == Some(&'/') => {
                        (mode, floor) = (Mode::LineComment, stack.len())
                    }
                    '/' if chars.peek() == Some(&'*') => {
                        chars.next();
                        column += 1;
                        (mode, floor) = (Mode::BlockComment, stack.len());
                    }
                    '/' if !operand_before => {
                        (mode, floor) = (Mode::Regex { in_class: false }, stack.len());
                    }
                    '/' => operand_before = false,
                    '(' => {
                        bracket(&mut stack, c, heads_statement)?;
                        operand_before = false;
                    }
                    ')' => {
                        let closed_head = bracket(&mut stack, c, false)?;
                        operand_before = !closed_head;
                    }
                    ']' => {
                        bracket(&mut stack, c, false)?;
                        operand_before = true;
                    }
                    // After `}` a `/` may start a regex (end of a block): count it as one.
                    '[' | '{' | '}' => {
                        bracket(&mut stack, c, false)?;
                        operand_before = false;
                    }
                    c if c.is_whitespace() => {}
                    // `++`/`--` are ambiguous; every other operator expects an operand next.
                    _ => operand_before = false,
                }
            }
            Mode::Quote(q) => match c {
                '\\' => {
                    chars.next();
                    column += 1;
                }
                '\n' => (mode, floor) = (Mode::Code, 0),
                c if c == q => {
                    (mode, floor) = (Mode::Code, 0);
                    operand_before = true;
                }
                _ => {
                    bracket(&mut stack, c, false)?;
                }
            },
            Mode::Template => match c {
                '\\' => {
                    chars.next();
                    column += 1;
                }
                '`' => {
                    (mode, floor) = (Mode::Code, 0);
                    operand_before = true;
                }
                _ => {
                    bracket(&mut stack, c, false)?;
                }
            },
            Mode::LineComment => {
                if c == '\n' {
                    (mode, floor) = (Mode::Code, 0);
                } else {
                    bracket(&mut stack, c, false)?;
                }
            }
            Mode::BlockComment => {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    column += 1;
                    (mode, floor) = (Mode::Code, 0);
                } else {
                    bracket(&mut stack, c, false)?;
                }
            }
            Mode::Regex { in_class } => match c {
                '\\' => {
                    chars.next();
                    column += 1;
                }
                '\n' => (mode, floor) = (Mode::Code, 0),
                '/' if !in_class => {
                    (mode, floor) = (Mode::Code, 0);
                    operand_before = true;
                }
                _ => {
                    if c == '[' {
                        mode = Mode::Regex { in_class: true };
                    } else if c == ']' {
                        mode = Mode::Regex { in_class: false };
                    }
                    bracket(&mut stack, c, false)?;
                }
            },
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(source: &str, limit: usize) -> bool {
        check(source, limit).is_ok()
    }

    #[test]
    fn ordinary_scripts_pass() {
        let script = r#"
            // a comment with (unbalanced
            const q = "level:(error" + 'x' + `t${ [1, 2].map((v) => ({v})) }`;
            if (q) /[(\]]/.test(q);
            const half = (a, b) => a / b / 2;
            ({vertices: [{type: "x", name: q.replace(/\)/g, "")}], edges: []})
        "#;
        assert!(depth_ok(script, 16));
    }

    #[test]
    fn deep_nesting_is_refused_with_its_position() {
        let deep = format!("x = {}1{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(
            check(&deep, 256),
            Err(TooDeep {
                line: 1,
                column: 261
            })
        );
        assert!(depth_ok(
            &format!("{}1{}", "[".repeat(10), "]".repeat(10)),
            10
        ));
    }

    #[test]
    fn closes_hidden_in_text_do_not_lower_the_estimate() {
        for (piece, close) in [
            ("( \")\" ", ")"),
            ("{ if (1) /}/; ", "}"),
            ("[ /]/, ", "]"),
            ("{ {} /}/; ", "}"),
            ("( `)` ", ")"),
            ("{ /* } */ ", "}"),
            ("( a++ /)/ ", ")"),
            ("{ // }\n", "}"),
        ] {
            let script = format!("{}{}", piece.repeat(100), close.repeat(100));
            assert!(check(&script, 64).is_err(), "{piece:?} hides nesting");
        }
    }
}
