//! An event's `attributes`, kept as the JSON text read (one allocation an event instead of a
//! tree of maps, and lossless by construction), and read where a query names a path: the text
//! is walked with serde_json's borrowing deserializer, without allocating (only a string with
//! escapes is unescaped into a `String`).

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// A value found at an attribute path, as a query tests it.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    /// A string, unescaped.
    Text(Cow<'a, str>),
    /// A number (`None` when it has no finite `f64`, as `serde_json::Number::as_f64`).
    Number(Option<f64>),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// An object (no query term matches one).
    Object,
}

/// The JSON text at `path` (object keys, outermost first) in the object `raw`; the last of
/// duplicate keys wins, as when the text is parsed into a map.
pub fn find<'a>(raw: &'a RawValue, path: &[String]) -> Option<&'a RawValue> {
    let mut value = raw;
    for key in path {
        let mut reader = serde_json::Deserializer::from_str(value.get());
        value = reader.deserialize_map(Field { key }).ok().flatten()?;
    }
    Some(value)
}

/// Whether `test` holds for the value `raw`, or (an array) for any of its items, nested
/// arrays included.
pub fn any_scalar(raw: &RawValue, test: &mut dyn FnMut(Scalar) -> bool) -> bool {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'"') => match serde_json::from_str::<&str>(text) {
            Ok(s) => test(Scalar::Text(Cow::Borrowed(s))),
            Err(_) => serde_json::from_str::<String>(text)
                .is_ok_and(|s| test(Scalar::Text(Cow::Owned(s)))),
        },
        Some(b'[') => serde_json::Deserializer::from_str(text)
            .deserialize_seq(Items { test })
            .unwrap_or(false),
        Some(b'{') => test(Scalar::Object),
        Some(b't') => test(Scalar::Bool(true)),
        Some(b'f') => test(Scalar::Bool(false)),
        Some(b'n') => test(Scalar::Null),
        _ => test(Scalar::Number(
            text.parse::<f64>().ok().filter(|x| x.is_finite()),
        )),
    }
}

/// Looks for one key in an object, keeping its value's text.
struct Field<'k> {
    key: &'k str,
}

impl<'de> Visitor<'de> for Field<'_> {
    type Value = Option<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(same) = map.next_key_seed(KeyIs(self.key))? {
            if same {
                found = Some(map.next_value::<&'de RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// A key compared with the one wanted, without keeping it.
struct KeyIs<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIs<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// The items of an array, each tested (all are read, so the text stays well-formed).
struct Items<'t, 'f> {
    test: &'t mut (dyn FnMut(Scalar) -> bool + 'f),
}

impl<'de> Visitor<'de> for Items<'_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut any = false;
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if !any && any_scalar(item, self.test) {
                any = true;
            }
        }
        Ok(any)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    fn path(p: &str) -> Vec<String> {
        p.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn paths_are_found_in_nested_objects_and_the_last_duplicate_wins() {
        let r =
            raw(r#"{"http": {"status": 200, "url": "/a\"b"}, "n": 1, "n": 2, "e\u0078": true}"#);
        assert_eq!(find(&r, &path("http.status")).unwrap().get(), "200");
        assert_eq!(find(&r, &path("n")).unwrap().get(), "2");
        assert_eq!(find(&r, &path("ex")).unwrap().get(), "true");
        assert!(find(&r, &path("http.status.x")).is_none());
        assert!(find(&r, &path("missing")).is_none());
        let mut seen = Vec::new();
        any_scalar(find(&r, &path("http.url")).unwrap(), &mut |s| {
            seen.push(format!("{s:?}"));
            false
        });
        assert_eq!(seen, [r#"Text("/a\"b")"#]);
    }

    #[test]
    fn arrays_test_every_item_and_numbers_read_as_serde_json_reads_them() {
        let r = raw(r#"[1, [2, "x"], {"a": 1}, null, 1e400]"#);
        let mut seen = Vec::new();
        assert!(!any_scalar(&r, &mut |s| {
            seen.push(format!("{s:?}"));
            false
        }));
        assert_eq!(
            seen,
            [
                "Number(Some(1.0))",
                "Number(Some(2.0))",
                r#"Text("x")"#,
                "Object",
                "Null",
                "Number(None)"
            ]
        );
    }
}
