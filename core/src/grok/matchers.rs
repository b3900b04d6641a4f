//! The built-in matchers: each one's regular-expression fragment (capture-free, tight classes)
//! and how its matched text becomes a value.

use super::dates::DateFormat;
use super::patterns;

/// How a matcher's text becomes a JSON value before any transformer.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Conversion {
    /// The text as a string.
    Text,
    /// A JSON integer (`integer`, `port`).
    Integer,
    /// A JSON number (a double; `number`).
    Number,
    /// `true` / `false` (`boolean`, any case).
    Boolean,
    /// Epoch milliseconds (`date`).
    Date(DateFormat),
    /// The text without its surrounding quotes (`quotedString` and friends).
    Unquote,
}

/// A matcher's argument: a quoted string or a bare word/number.
pub(super) type Args = Vec<String>;

/// The fragment and conversion of a built-in matcher, `Ok(None)` when `name` is not one.
///
/// # Errors
/// What is wrong with the arguments (the caller adds where).
pub(super) fn builtin(name: &str, args: &Args) -> Result<Option<(String, Conversion)>, String> {
    let simple = |s: &str| Ok(Some((s.to_owned(), Conversion::Text)));
    let logstash = |p: &str, conv| Ok(patterns::expanded(p).map(|f| (f, conv)));
    match name {
        "date" => {
            let (format, zone) = match args.as_slice() {
                [f] => (f, None),
                [f, z] => (f, Some(z.as_str())),
                _ => return Err("date takes a format and an optional time zone: date(\"yyyy-MM-dd HH:mm:ss\"[, \"UTC\"])".into()),
            };
            let format = DateFormat::new(format, zone)?;
            Ok(Some((format.fragment(), Conversion::Date(format))))
        }
        "regex" => match args.as_slice() {
            [pattern] => {
                super::engine::compile(pattern).map_err(|e| {
                    format!("invalid regular expression \"{pattern}\": {e} (ECMAScript syntax)")
                })?;
                Ok(Some((format!("(?:{pattern})"), Conversion::Text)))
            }
            _ => Err("regex takes one quoted pattern: regex(\"[a-z]+\")".into()),
        },
        _ if !args.is_empty() => Err(format!(
            "matcher {name} takes no arguments: write %{{{name}:attribute}}"
        )),
        "notSpace" => simple(r"\S+"),
        "word" => simple(r"\b\w+\b"),
        "data" => simple(r"[\s\S]*?"),
        "integer" => Ok(Some((r"[+-]?\d+".into(), Conversion::Integer))),
        "integerStr" => simple(r"[+-]?\d+"),
        "number" => Ok(Some((NUMBER.into(), Conversion::Number))),
        "numberStr" => simple(NUMBER),
        "boolean" => Ok(Some((
            "(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])".into(),
            Conversion::Boolean,
        ))),
        "port" => Ok(Some((r"\d{1,5}".into(), Conversion::Integer))),
        "space" => simple(r"\s*"),
        "ipv4" => logstash("IPV4", Conversion::Text),
        "ipv6" => logstash("IPV6", Conversion::Text),
        // IPv4 first: the common case fails fast out of the long IPv6 alternation.
        "ip" => Ok(either(&["IPV4", "IPV6"])),
        "hostname" => logstash("HOSTNAME", Conversion::Text),
        "ipOrHost" => Ok(either(&["IPV4", "IPV6", "HOSTNAME"])),
        "mac" => logstash("MAC", Conversion::Text),
        "uuid" => logstash("UUID", Conversion::Text),
        "quotedString" => Ok(Some((
            format!("(?:{DOUBLE}|{SINGLE})"),
            Conversion::Unquote,
        ))),
        "doubleQuotedString" => Ok(Some((DOUBLE.into(), Conversion::Unquote))),
        "singleQuotedString" => Ok(Some((SINGLE.into(), Conversion::Unquote))),
        _ => Ok(None),
    }
}

/// The first of `names` (Logstash patterns) that matches.
fn either(names: &[&str]) -> Option<(String, Conversion)> {
    let parts = names
        .iter()
        .map(|n| patterns::expanded(n))
        .collect::<Option<Vec<_>>>()?;
    Some((format!("(?:{})", parts.join("|")), Conversion::Text))
}

const NUMBER: &str = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?";
const DOUBLE: &str = r#""(?:[^"\\]|\\[\s\S])*""#;
const SINGLE: &str = r"'(?:[^'\\]|\\[\s\S])*'";
