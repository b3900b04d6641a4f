//! An event's `attributes` as a tree to change: read from the kept JSON text into a map (key
//! order and exact number text kept), changed by path, and written back as text. The stages
//! that rewrite attributes (`json-log-processor`, `keyvalue-processor`,
//! `log-attributes-remapper`) share these; queries keep reading the text without a tree
//! (`jobgraph_model::attributes`).

use serde_json::{Map, Value};

use jobgraph_model::LogEvent;

/// Attributes that are there but cannot be read as a tree (nested deeper than the JSON
/// reader's 128 levels): a stage leaves such an event as it is rather than lose them.
#[derive(Debug)]
pub(crate) struct Unreadable;

/// The event's attributes as a map; `Ok(None)` when it has none.
pub(crate) fn read(event: &LogEvent) -> Result<Option<Map<String, Value>>, Unreadable> {
    match event.attributes.as_deref() {
        None => Ok(None),
        Some(raw) => serde_json::from_str(raw.get())
            .map(Some)
            .map_err(|_| Unreadable),
    }
}

/// Keys a path written by a stage (a rename rule's `target`) may have at most: attributes
/// cannot be made deeper than a reader takes by configuration alone.
pub(crate) const MAX_PATH_KEYS: usize = 32;

/// Sets the event's attributes to `map`.
pub(crate) fn write(event: &mut LogEvent, map: Map<String, Value>) {
    event.attributes = serde_json::value::to_raw_value(&Value::Object(map)).ok();
}

/// A dotted path (`syslog.appname`) as its keys; `a..b` and a leading or trailing dot keep
/// their empty keys, which match only an empty key.
pub(crate) fn dotted(path: &str) -> Vec<String> {
    path.split('.').map(str::to_owned).collect()
}

/// The value at `path` (object keys, outermost first); an empty path finds nothing.
pub(crate) fn get<'a>(map: &'a Map<String, Value>, path: &[String]) -> Option<&'a Value> {
    let (last, parents) = path.split_last()?;
    let mut at = map;
    for key in parents {
        at = at.get(key)?.as_object()?;
    }
    at.get(last)
}

/// Removes the value at `path` and returns it; the objects on the way stay, even when they
/// are left empty.
pub(crate) fn remove(map: &mut Map<String, Value>, path: &[String]) -> Option<Value> {
    let (last, parents) = path.split_last()?;
    let mut at = map;
    for key in parents {
        at = at.get_mut(key)?.as_object_mut()?;
    }
    at.shift_remove(last)
}

/// Sets the value at `path`, creating the objects on the way; a value on the way that is not
/// an object is replaced by one. An existing key keeps its place, a new one goes last.
pub(crate) fn insert(map: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = map;
    for key in parents {
        let slot = at
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(next) = slot else {
            return;
        };
        at = next;
    }
    at.insert(last.clone(), value);
}

/// Merges `from` into `into`: where both hold an object the two merge key by key, anywhere
/// else the value of `from` replaces the other (arrays are not combined). Keys of `into` keep
/// their place; new keys are appended in `from`'s order.
pub(crate) fn deep_merge(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(Value::Object(old)), Value::Object(new)) => deep_merge(old, new),
            (Some(slot), value) => *slot = value,
            (None, value) => {
                into.insert(key, value);
            }
        }
    }
}

/// A value as tag or message text: a string that is not empty as it is, a number as its
/// exact text, `true`/`false`; `None` for `""`, `null`, arrays and objects.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn paths_get_remove_and_insert() {
        let mut m = map(json!({"a": {"b": 1, "c": 2}, "x": 3}));
        assert_eq!(get(&m, &dotted("a.b")), Some(&json!(1)));
        assert_eq!(get(&m, &dotted("x.y")), None);
        assert_eq!(get(&m, &[]), None);
        assert_eq!(remove(&mut m, &dotted("a.b")), Some(json!(1)));
        assert_eq!(remove(&mut m, &dotted("a.c")), Some(json!(2)));
        assert_eq!(Value::Object(m.clone()), json!({"a": {}, "x": 3}));
        insert(&mut m, &dotted("x.y.z"), json!("v"));
        insert(&mut m, &dotted("a.n"), json!(true));
        assert_eq!(
            Value::Object(m),
            json!({"a": {"n": true}, "x": {"y": {"z": "v"}}})
        );
    }

    #[test]
    fn deep_merge_merges_objects_and_replaces_the_rest() {
        let mut m = map(json!({"a": {"b": 1, "c": [1]}, "d": "x"}));
        deep_merge(
            &mut m,
            map(json!({"a": {"c": [2], "e": 3}, "d": {"f": 1}, "g": null})),
        );
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"a":{"b":1,"c":[2],"e":3},"d":{"f":1},"g":null}"#
        );
    }

    #[test]
    fn texts_of_values() {
        assert_eq!(scalar_text(&json!("a")), Some("a".into()));
        assert_eq!(scalar_text(&json!("")), None);
        assert_eq!(
            scalar_text(&serde_json::from_str("1.50").unwrap()),
            Some("1.50".into())
        );
        assert_eq!(scalar_text(&json!(false)), Some("false".into()));
        assert_eq!(scalar_text(&json!(null)), None);
        assert_eq!(scalar_text(&json!(["a"])), None);
    }
}
