//! [`GrokRules`]: the `grokParsingRules` / `grokHelperRules` of a `grok-parser`, an array of
//! strings (one rule per item) as the public service has them, or a string of rules one per
//! line as this project accepted before. Outside the `grok` feature so that the `grok-parser`
//! vertex type reads the same shape in every build (`docs/grok.md`, "Rules").

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Grok rules as written: an array of strings (one rule per item) or one string (one rule per
/// line). Either way the rules are the lines, in order; an item may itself hold several lines.
///
/// ```
/// use jobgraph_model::GrokRules;
/// let list: GrokRules = serde_json::from_str(r#"["a %{word:x}", "b %{integer:n}"]"#).unwrap();
/// let text: GrokRules = serde_json::from_str(r#""a %{word:x}\nb %{integer:n}""#).unwrap();
/// assert_eq!(list.lines().map(|l| l.text).collect::<Vec<_>>(), ["a %{word:x}", "b %{integer:n}"]);
/// assert_eq!(text.lines().map(|l| l.line).collect::<Vec<_>>(), [1, 2]);
/// // Each keeps its shape when written back.
/// assert_eq!(serde_json::to_string(&list).unwrap(), r#"["a %{word:x}","b %{integer:n}"]"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrokRules {
    /// One string, one rule per line.
    Text(String),
    /// One rule per item (an item with line breaks holds one rule per line).
    List(Vec<String>),
}

impl Default for GrokRules {
    fn default() -> Self {
        GrokRules::Text(String::new())
    }
}

impl From<&str> for GrokRules {
    fn from(text: &str) -> Self {
        GrokRules::Text(text.to_owned())
    }
}

impl From<String> for GrokRules {
    fn from(text: String) -> Self {
        GrokRules::Text(text)
    }
}

impl From<Vec<String>> for GrokRules {
    fn from(items: Vec<String>) -> Self {
        GrokRules::List(items)
    }
}

/// One line of [`GrokRules`] and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesLine<'a> {
    /// The line's text, without its line break.
    pub text: &'a str,
    /// 1-based line number counted over all the rules, as if the items were joined with line
    /// breaks: the same number for the same rule whether it came as a string or an array.
    pub line: usize,
    /// The array item holding the line (`None` for a string).
    pub index: Option<usize>,
}

impl GrokRules {
    /// Every line, in order, with its place.
    pub fn lines(&self) -> impl Iterator<Item = RulesLine<'_>> {
        let items: Vec<(Option<usize>, &str)> = match self {
            GrokRules::Text(text) => vec![(None, text.as_str())],
            GrokRules::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, s)| (Some(i), s.as_str()))
                .collect(),
        };
        items
            .into_iter()
            .flat_map(|(index, text)| {
                text.split('\n')
                    .map(move |line| (index, line.strip_suffix('\r').unwrap_or(line)))
            })
            .enumerate()
            .map(|(n, (index, text))| RulesLine {
                text,
                line: n + 1,
                index,
            })
    }

    /// Whether there is no rule at all: every line blank (comments count as rules here; the
    /// engine skips them and says so).
    pub fn is_blank(&self) -> bool {
        self.lines().all(|l| l.text.trim().is_empty())
    }

    /// The total length in bytes of the rules' text.
    pub fn len_bytes(&self) -> usize {
        match self {
            GrokRules::Text(text) => text.len(),
            GrokRules::List(items) => items.iter().map(String::len).sum(),
        }
    }

    /// Whether `value` has the shape of grok rules: a string or an array of strings.
    pub fn is_shape(value: &Value) -> bool {
        match value {
            Value::String(_) => true,
            Value::Array(items) => items.iter().all(Value::is_string),
            _ => false,
        }
    }
}

impl Serialize for GrokRules {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            GrokRules::Text(text) => serializer.serialize_str(text),
            GrokRules::List(items) => items.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for GrokRules {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RulesVisitor)
    }
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = GrokRules;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("grok rules: an array of strings (one `RuleName pattern` per item) or a string (one rule per line)")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<GrokRules, E> {
        Ok(GrokRules::Text(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<GrokRules, E> {
        Ok(GrokRules::Text(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GrokRules, A::Error> {
        let mut items = Vec::new();
        loop {
            let index = items.len();
            match seq.next_element::<Value>()? {
                None => break,
                Some(Value::String(s)) => items.push(s),
                Some(other) => {
                    return Err(de::Error::custom(format!(
                        "grok rules item {index} is {}, not a string: write one `RuleName pattern` per item",
                        crate::json::kind_of(&other)
                    )));
                }
            }
        }
        Ok(GrokRules::List(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_are_numbered_across_items() {
        let rules: GrokRules =
            serde_json::from_value(json!(["a x", "b y\nc z", "", "d w"])).unwrap();
        let lines: Vec<_> = rules.lines().map(|l| (l.text, l.line, l.index)).collect();
        assert_eq!(
            lines,
            [
                ("a x", 1, Some(0)),
                ("b y", 2, Some(1)),
                ("c z", 3, Some(1)),
                ("", 4, Some(2)),
                ("d w", 5, Some(3))
            ]
        );
        assert!(!rules.is_blank());
        assert!(GrokRules::List(vec![" ".into()]).is_blank());
        assert_eq!(rules.len_bytes(), 13);
    }

    #[test]
    fn wrong_shapes_name_the_item() {
        let e = serde_json::from_value::<GrokRules>(json!(["a x", 3])).unwrap_err();
        assert!(e.to_string().contains("item 1 is a number"), "{e}");
        let e = serde_json::from_value::<GrokRules>(json!({"a": 1})).unwrap_err();
        assert!(e.to_string().contains("an array of strings"), "{e}");
        assert!(GrokRules::is_shape(&json!(["a"])));
        assert!(!GrokRules::is_shape(&json!([1])));
        assert!(!GrokRules::is_shape(&json!(1)));
    }
}
