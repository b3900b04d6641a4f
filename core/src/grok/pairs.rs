//! The transformers that turn a text into an object of fields: `keyvalue(…)` (Datadog's
//! key-value filter, logfmt and the like) and `csv(…)` (values by position under given
//! headers). Both as Datadog's parsing documentation describes them (`docs/grok.md`).

use serde_json::{Map, Number, Value};

/// `keyvalue([separator[, allowed characters[, quoting[, delimiters]]]])`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeyValue {
    separator: String,
    /// Characters allowed in unquoted keys and values besides letters, digits and `_ . - @`.
    allowed: String,
    /// Opening and closing characters of quoted keys and values.
    quotes: Vec<(char, char)>,
    /// Characters that may end a pair.
    delimiters: String,
}

/// The default quoting pairs: `""`, `''`, `<>`.
const QUOTES: [(char, char); 3] = [('"', '"'), ('\'', '\''), ('<', '>')];
/// The default delimiters between pairs: space, `,` and `;`.
const DELIMITERS: &str = " ,;";

impl KeyValue {
    /// Reads the arguments; an empty quoting or delimiter argument keeps the default.
    pub(super) fn new(args: &[String]) -> Result<Self, String> {
        if args.len() > 4 {
            return Err("keyvalue takes at most four arguments: keyvalue(\"=\", \"allowed characters\", \"quoting pairs\", \"delimiters\")".into());
        }
        let separator = args.first().cloned().unwrap_or_else(|| "=".into());
        if separator.is_empty() {
            return Err("keyvalue's separator cannot be empty: keyvalue(\"=\")".into());
        }
        let allowed = args.get(1).cloned().unwrap_or_default();
        let quotes = match args.get(2).map(String::as_str) {
            None | Some("") => QUOTES.to_vec(),
            Some(q) => {
                let q: Vec<char> = q.chars().collect();
                if !q.len().is_multiple_of(2) {
                    return Err("keyvalue's quoting is pairs of opening and closing characters, such as \"()[]\"".into());
                }
                q.chunks(2).map(|p| (p[0], p[1])).collect()
            }
        };
        let delimiters = match args.get(3).map(String::as_str) {
            None | Some("") => DELIMITERS.to_owned(),
            Some(d) => d.to_owned(),
        };
        Ok(KeyValue {
            separator,
            allowed,
            quotes,
            delimiters,
        })
    }

    fn plain(&self, c: char) -> bool {
        c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '@') || self.allowed.contains(c)
    }

    fn closing(&self, open: char) -> Option<char> {
        self.quotes
            .iter()
            .find(|(o, _)| *o == open)
            .map(|(_, c)| *c)
    }

    /// The key just before a separator and where it starts in `before` (its opening quote):
    /// quoted (its closing character last, the matching opening one before it) or the run of
    /// plain characters.
    fn key<'t>(&self, before: &'t str) -> (&'t str, usize) {
        if let Some(close) = before.chars().next_back()
            && let Some((open, _)) = self.quotes.iter().find(|(_, c)| *c == close)
        {
            let inner = &before[..before.len() - close.len_utf8()];
            if let Some(start) = inner.rfind(*open) {
                return (&inner[start + open.len_utf8()..], start);
            }
        }
        let start = before
            .char_indices()
            .rev()
            .take_while(|&(_, c)| self.plain(c))
            .last()
            .map_or(before.len(), |(i, _)| i);
        (&before[start..], start)
    }

    /// The `key<separator>value` pairs of `text`: keys and values quoted or runs of plain
    /// characters; a pair counts when it starts the text or follows a delimiter, and ends the
    /// text or is followed by one; empty keys and values and unquoted `null` values are
    /// skipped; a key seen twice keeps its last value. Values are strings.
    pub(super) fn apply(&self, text: &str) -> Map<String, Value> {
        let mut out = Map::new();
        let mut rest = text;
        while let Some(at) = rest.find(self.separator.as_str()) {
            let (key, start) = self.key(&rest[..at]);
            let opened = match rest[..start].chars().next_back() {
                Some(c) => self.delimiters.contains(c),
                None => rest.len() == text.len(),
            };
            let after = &rest[at + self.separator.len()..];
            let (value, consumed, quoted) = match after.chars().next() {
                Some(open) if self.closing(open).is_some() => {
                    let close = self.closing(open).unwrap_or(open);
                    let inner = &after[open.len_utf8()..];
                    match inner.find(close) {
                        Some(end) => (
                            &inner[..end],
                            open.len_utf8() + end + close.len_utf8(),
                            true,
                        ),
                        // Not closed: not a quoted value (and no plain one either).
                        None => ("", 0, true),
                    }
                }
                _ => {
                    let end = after
                        .char_indices()
                        .find(|&(_, c)| !self.plain(c))
                        .map_or(after.len(), |(i, _)| i);
                    (&after[..end], end, false)
                }
            };
            let bounded = after[consumed..]
                .chars()
                .next()
                .is_none_or(|c| self.delimiters.contains(c));
            if opened
                && bounded
                && !key.is_empty()
                && !value.is_empty()
                && (quoted || value != "null")
            {
                out.insert(key.to_owned(), Value::String(value.to_owned()));
            }
            rest = &after[consumed..];
        }
        out
    }
}

/// `csv(headers[, separator[, quoting character]])`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Csv {
    headers: Vec<String>,
    separator: char,
    quote: char,
}

impl Csv {
    /// Reads the arguments: headers separated by `,` (each a letter, then letters, digits or
    /// `_`), one separator character or `tab` (default `,`), one quoting character (default
    /// `"`).
    pub(super) fn new(args: &[String]) -> Result<Self, String> {
        let usage = "csv takes headers and an optional separator and quoting character: csv(\"name,age\"[, \",\"[, \"\\\"\"]])";
        let (headers, separator, quote) = match args {
            [h] => (h, ",", "\""),
            [h, s] => (h, s.as_str(), "\""),
            [h, s, q] => (h, s.as_str(), q.as_str()),
            _ => return Err(usage.into()),
        };
        let headers: Vec<String> = headers.split(',').map(|h| h.trim().to_owned()).collect();
        if let Some(bad) = headers.iter().find(|h| {
            !h.starts_with(|c: char| c.is_ascii_alphabetic())
                || !h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }) {
            return Err(format!(
                "csv header \"{bad}\" is not a name: start with a letter, then letters, digits or _"
            ));
        }
        let one = |text: &str, what: &str| -> Result<char, String> {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(c),
                _ => Err(format!("csv's {what} is one character, not \"{text}\"")),
            }
        };
        let separator = if separator == "tab" {
            '\t'
        } else {
            one(separator, "separator (or tab)")?
        };
        let quote = one(quote, "quoting character")?;
        if quote == separator {
            return Err("csv's quoting character must differ from its separator".into());
        }
        Ok(Csv {
            headers,
            separator,
            quote,
        })
    }

    /// The values of `text` under the headers, in order: a quoted value keeps separators and
    /// reads a doubled quoting character as one; extra values are dropped, missing and empty
    /// ones left out; unquoted integers and decimals become numbers.
    pub(super) fn apply(&self, text: &str) -> Map<String, Value> {
        let mut out = Map::new();
        for (header, (value, quoted)) in self.headers.iter().zip(self.fields(text)) {
            if value.is_empty() {
                continue;
            }
            let value = if quoted {
                Value::String(value)
            } else {
                number(&value).unwrap_or(Value::String(value))
            };
            out.insert(header.clone(), value);
        }
        out
    }

    /// The fields of `text` and whether each was quoted.
    fn fields(&self, text: &str) -> Vec<(String, bool)> {
        let mut fields = Vec::new();
        let mut chars = text.chars().peekable();
        loop {
            let mut field = String::new();
            let quoted = chars.peek() == Some(&self.quote);
            if quoted {
                chars.next();
                while let Some(c) = chars.next() {
                    if c != self.quote {
                        field.push(c);
                    } else if chars.peek() == Some(&self.quote) {
                        chars.next();
                        field.push(c);
                    } else {
                        break;
                    }
                }
            }
            // Up to the separator (anything after a closing quote is kept as text).
            let mut separated = false;
            for c in chars.by_ref() {
                if c == self.separator {
                    separated = true;
                    break;
                }
                field.push(c);
            }
            fields.push((field, quoted));
            if !separated {
                return fields;
            }
        }
    }
}

/// An unquoted CSV value as a JSON number when it is an integer (that fits) or a decimal.
fn number(text: &str) -> Option<Value> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    if digits.bytes().filter(|b| *b == b'.').count() > 1 || digits == "." {
        return None;
    }
    let t = text.strip_prefix('+').unwrap_or(text);
    if !digits.contains('.') {
        return t.parse::<i64>().ok().map(Value::from);
    }
    t.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kv(args: &[&str], text: &str) -> Value {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        Value::Object(KeyValue::new(&args).unwrap().apply(text))
    }

    fn csv(args: &[&str], text: &str) -> Value {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        Value::Object(Csv::new(&args).unwrap().apply(text))
    }

    #[test]
    fn key_values() {
        assert_eq!(
            kv(&[], "\"key\"=\"v\" k2=<w> n=null e="),
            json!({"key": "v", "k2": "w"})
        );
        assert_eq!(kv(&[":", "/"], "/key:/value"), json!({"/key": "/value"}));
        // A value cut by a character that is neither allowed nor a delimiter drops its pair.
        assert_eq!(kv(&[], "d=11/08/2017 id=123"), json!({"id": "123"}));
        assert_eq!(
            kv(&["=", "", "", "|"], "a=1|b=\"2\"|c=x y"),
            json!({"a": "1", "b": "2"})
        );
        assert_eq!(kv(&["=", "", "<>"], "a=\"x\" b=<y>"), json!({"b": "y"}));
        // An unclosed quote is no value.
        assert_eq!(kv(&[], "a=\"x b=2"), json!({"b": "2"}));
        // A pair must also start the text or follow a delimiter.
        assert_eq!(kv(&[], "[a=1 b=2"), json!({"b": "2"}));
        assert_eq!(kv(&["=", "", "", ";"], "a=1;b=2 c=3"), json!({"a": "1"}));
        assert!(KeyValue::new(&["=".into(), "".into(), "(".into()]).is_err());
        assert!(KeyValue::new(&vec![String::new(); 5]).is_err());
    }

    #[test]
    fn every_short_text_is_read_without_panicking() {
        // All texts of up to five characters over an alphabet of separators, quotes,
        // delimiters and a two-byte character: no panic, and reading is deterministic.
        const ALPHABET: [char; 9] = ['a', '=', ' ', '"', '<', '>', '|', ',', 'é'];
        let readers = [
            KeyValue::new(&[]).unwrap(),
            KeyValue::new(&["=|".into(), "é".into(), "<>".into(), "|".into()]).unwrap(),
        ];
        let csv = Csv::new(&["a,b".into(), "|".into(), "\"".into()]).unwrap();
        let mut text = String::new();
        for n in 0..=5_u32 {
            for mut code in 0..ALPHABET.len().pow(n) {
                text.clear();
                for _ in 0..n {
                    text.push(ALPHABET[code % ALPHABET.len()]);
                    code /= ALPHABET.len();
                }
                for kv in &readers {
                    assert_eq!(kv.apply(&text), kv.apply(&text), "{text:?}");
                }
                assert_eq!(csv.apply(&text), csv.apply(&text), "{text:?}");
            }
        }
    }

    #[test]
    fn csv_values() {
        assert_eq!(
            csv(&["a,b,c"], "1,\"x,\"\"y\"\"\",2.5"),
            json!({"a": 1, "b": "x,\"y\"", "c": 2.5})
        );
        assert_eq!(csv(&["a,b,c"], "x,,z"), json!({"a": "x", "c": "z"}));
        assert_eq!(csv(&["a,b"], "x"), json!({"a": "x"}));
        assert_eq!(csv(&["a,b"], "x,"), json!({"a": "x"}));
        assert_eq!(csv(&["a,b", "tab"], "x\ty"), json!({"a": "x", "b": "y"}));
        assert_eq!(csv(&["a"], "\"007\""), json!({"a": "007"}));
        assert_eq!(csv(&["a,b"], "-7,1.2.3"), json!({"a": -7, "b": "1.2.3"}));
        assert!(Csv::new(&["1a".into()]).is_err());
        assert!(Csv::new(&["a".into(), "ab".into()]).is_err());
        assert!(Csv::new(&["a".into(), ",".into(), ",".into()]).is_err());
    }
}
