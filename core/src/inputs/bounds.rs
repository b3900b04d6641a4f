//! What an `inputSchema` may hold before it is compiled. A template's schema is written by the
//! template's author, as hostile as its script: without bounds, a schema can make compiling or
//! validating take the process's time or memory (a 10⁵-item `enum`, thousands of patterns, a
//! chain of `$ref`s that the compiler follows recursively). Each bound is checked by one walk
//! over the schema's JSON, natively and in the npm package alike, and a schema past one is an
//! invalid template whose message names the bound and where it was passed.

use serde_json::Value;

use super::SchemaError;

/// The bounds of one `inputSchema` ([`SchemaBounds::default`] is what templates get).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaBounds {
    /// Size of the schema as compact JSON, in bytes. Default 256 KiB.
    pub max_bytes: usize,
    /// Nesting of objects and arrays. Default 64.
    pub max_depth: usize,
    /// `pattern` keywords and `patternProperties` keys together. Default 256.
    pub max_patterns: usize,
    /// Length of one pattern, in characters. Default 1000.
    pub max_pattern_chars: usize,
    /// Items of all `enum`s together (and `const`s, one each). Default 10 000.
    pub max_enum_items: usize,
    /// `$ref` and `$dynamicRef` keywords. Default 256.
    pub max_refs: usize,
}

impl Default for SchemaBounds {
    fn default() -> Self {
        SchemaBounds {
            max_bytes: 256 * 1024,
            max_depth: 64,
            max_patterns: 256,
            max_pattern_chars: 1000,
            max_enum_items: 10_000,
            max_refs: 256,
        }
    }
}

#[derive(Default)]
struct Counts {
    patterns: usize,
    enum_items: usize,
    refs: usize,
}

impl SchemaBounds {
    /// `Ok` when `schema` is within every bound; else the first bound passed, with the JSON
    /// pointer of the keyword that passed it.
    pub fn check(&self, schema: &Value) -> Result<(), SchemaError> {
        let bytes = serde_json::to_string(schema).map_or(usize::MAX, |text| text.len());
        if bytes > self.max_bytes {
            return Err(too_large(
                format!(
                    "the schema is {bytes} bytes as compact JSON, more than the {} allowed",
                    self.max_bytes
                ),
                "",
            ));
        }
        let mut counts = Counts::default();
        let mut path = String::new();
        self.walk(schema, 0, &mut path, &mut counts)
    }

    fn walk(
        &self,
        value: &Value,
        depth: usize,
        path: &mut String,
        counts: &mut Counts,
    ) -> Result<(), SchemaError> {
        if depth > self.max_depth {
            return Err(too_large(
                format!("the schema nests deeper than {} levels", self.max_depth),
                path,
            ));
        }
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    self.keyword(key, child, path, counts)?;
                    self.walk(child, depth + 1, path, counts)?;
                    path.truncate(len);
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&index.to_string());
                    self.walk(child, depth + 1, path, counts)?;
                    path.truncate(len);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Counts what `key` (at `path`, holding `value`) adds. Keywords are counted wherever they
    /// stand, also inside `properties` names or `enum` values: a bound on the schema's text, not
    /// on its meaning, the same in every build.
    fn keyword(
        &self,
        key: &str,
        value: &Value,
        path: &str,
        counts: &mut Counts,
    ) -> Result<(), SchemaError> {
        let mut patterns: Vec<&str> = Vec::new();
        match (key, value) {
            ("pattern", Value::String(pattern)) => patterns.push(pattern),
            ("patternProperties", Value::Object(map)) => {
                patterns.extend(map.keys().map(String::as_str))
            }
            ("enum", Value::Array(items)) => counts.enum_items += items.len(),
            ("const", _) => counts.enum_items += 1,
            ("$ref" | "$dynamicRef", Value::String(_)) => counts.refs += 1,
            _ => {}
        }
        if counts.enum_items > self.max_enum_items {
            return Err(too_large(
                format!(
                    "its enum and const keywords list more than {} values",
                    self.max_enum_items
                ),
                path,
            ));
        }
        if counts.refs > self.max_refs {
            return Err(too_large(
                format!("it has more than {} $ref keywords", self.max_refs),
                path,
            ));
        }
        for pattern in patterns {
            counts.patterns += 1;
            if counts.patterns > self.max_patterns {
                return Err(too_large(
                    format!("it has more than {} patterns", self.max_patterns),
                    path,
                ));
            }
            let chars = pattern.chars().count();
            if chars > self.max_pattern_chars {
                return Err(too_large(
                    format!(
                        "a pattern of {chars} characters is longer than the {} allowed",
                        self.max_pattern_chars
                    ),
                    path,
                ));
            }
        }
        Ok(())
    }
}

fn too_large(message: String, path: &str) -> SchemaError {
    SchemaError {
        message: format!(
            "{message}; templates' input schemas are bounded so that no template can stall input validation"
        ),
        schema_path: path.to_owned(),
    }
}

/// The JSON pointer of the first `pattern` keyword holding `pattern`, or of the first
/// `patternProperties` key equal to it.
pub(super) fn pointer_of_pattern(schema: &Value, pattern: &str) -> Option<String> {
    first_pointer(schema, &mut |key, child| match (key, child) {
        ("pattern", Value::String(p)) if p == pattern => Some(String::new()),
        ("patternProperties", Value::Object(keys)) if keys.contains_key(pattern) => {
            Some(format!("/{}", token(pattern)))
        }
        _ => None,
    })
}

/// The JSON pointer of the first string equal to `text` in `instance`, or of the first key
/// equal to it (a `patternProperties` match is on keys).
pub(super) fn pointer_of_text(instance: &Value, text: &str) -> Option<String> {
    if instance.as_str() == Some(text) {
        return Some(String::new());
    }
    first_pointer(instance, &mut |key, child| {
        (key == text || child.as_str() == Some(text)).then(String::new)
    })
}

/// Walks `value` depth first; at each member of an object, `found(key, member)` may end the
/// walk with the rest of the pointer to add after the member's own. Returns the pointer.
fn first_pointer(
    value: &Value,
    found: &mut impl FnMut(&str, &Value) -> Option<String>,
) -> Option<String> {
    fn walk(
        value: &Value,
        path: &mut String,
        found: &mut impl FnMut(&str, &Value) -> Option<String>,
    ) -> bool {
        let children: Box<dyn Iterator<Item = (String, &Value, Option<&str>)>> = match value {
            Value::Object(map) => {
                Box::new(map.iter().map(|(k, v)| (token(k), v, Some(k.as_str()))))
            }
            Value::Array(items) => Box::new(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v, None)),
            ),
            _ => return false,
        };
        for (step, child, key) in children {
            let len = path.len();
            path.push('/');
            path.push_str(&step);
            if let Some(rest) = key.and_then(|key| found(key, child)) {
                path.push_str(&rest);
                return true;
            }
            if walk(child, path, found) {
                return true;
            }
            path.truncate(len);
        }
        false
    }
    let mut path = String::new();
    walk(value, &mut path, found).then_some(path)
}

fn token(key: &str) -> String {
    crate::json::excerpt(&key.replace('~', "~0").replace('/', "~1"), 200)
}
