//! The `log-attributes-remapper` vertex (`docs/pipeline.md`, "`log-attributes-remapper`"):
//! well-known attributes become the event's top-level fields and tags, attributes become tags,
//! and rename rules move attributes. Every field is optional; the defaults are the public
//! service's (`jobgraph_model::ops::transforms::log_attributes_remapper`).
//!
//! [`Remapper::apply`] on one event, in this order:
//! 1. **Rename rules** (`attributeRemappingRules`), in order: a rule whose `predicate` the event
//!    does not match is skipped; otherwise the value at `source` is written at `target`
//!    (creating the objects on the way, overwriting what was there) and removed from `source`
//!    unless `preserveSource`. A source that is absent does nothing.
//! 2. **Reserved attributes**, each searched in its list's order (the dotted names, then the
//!    segment paths); the first usable value wins, and its attribute is removed unless that
//!    field's `…PreserveSource`:
//!    - `message`, only when the event's message is absent or `""`: a string that is not
//!      empty, a number or a boolean (as text). `greprMeta.messageAttributePath` records the
//!      attribute's dotted path.
//!    - `eventTimestamp`: epoch milliseconds (an integer) or ISO 8601 text; written as epoch
//!      milliseconds, replacing the event's.
//!    - `severity` (the status): an OpenTelemetry severity number 1–24 (a number or its
//!      text), or a level name ([`severity_of`]).
//!    - the tags `host`, `service` and `trace_id`: text as for `message`; the tag's values
//!      become exactly that value.
//! 3. **Tag mappings** (`tagMappings`, then `tagMappingPaths`): for each tag, every path in
//!    order; each value found (text as for `message`, or each such item of an array) is added
//!    to the tag, existing values kept, without repeats; the attributes used are removed unless
//!    `tagMappingsPreserveSource`.
//! 4. **Tag maps** (`tagMappingsLocations`, then `tagMappingsLocationPaths`): an object there
//!    adds each of its entries to tags (a text value, or an array of them), then is removed
//!    unless `tagMappingsLocationPreserveSource`.
//!
//! A value that is not usable (`""`, `null`, an object, a timestamp that names no instant, a
//! status that is no level) is passed over for the next candidate. Removing an attribute
//! removes that key only: the objects that held it stay, even empty. Dotted names are paths
//! of object keys (`syslog.appname` is `{"syslog": {"appname": …}}`); a key holding a dot is
//! reached with a segment path (`[["dd.trace_id"]]`).

use serde_json::{Map, Value};

use super::RunError;
use super::attr_tree::{self, dotted, scalar_text};
use super::query::Query;
use super::time::value_millis;
use super::typed::typed;
use jobgraph_model::LogEvent;
use jobgraph_model::ops::transforms::log_attributes_remapper::{LogAttributesRemapper, OPERATION};

/// A compiled `log-attributes-remapper`.
#[derive(Debug, Clone)]
pub(crate) struct Remapper {
    rules: Vec<Rule>,
    message: Reserved,
    timestamp: Reserved,
    host: Reserved,
    service: Reserved,
    status: Reserved,
    trace_id: Reserved,
    /// Tag → paths, `tagMappings` then `tagMappingPaths`.
    tag_mappings: Vec<(String, Vec<Vec<String>>)>,
    tag_mappings_preserve: bool,
    tag_maps: Vec<Vec<String>>,
    tag_maps_preserve: bool,
}

/// One rename rule.
#[derive(Debug, Clone)]
struct Rule {
    source: Vec<String>,
    target: Vec<String>,
    preserve: bool,
    only: Option<Query>,
}

/// Where to look for one well-known field, in order, and whether to keep the attribute.
#[derive(Debug, Clone)]
struct Reserved {
    paths: Vec<Vec<String>>,
    preserve: bool,
}

fn reserved(
    names: Option<Vec<String>>,
    default_names: &[&str],
    paths: Option<Vec<Vec<String>>>,
    default_paths: &[&[&str]],
    preserve: Option<bool>,
    default_preserve: bool,
) -> Reserved {
    let names = names.unwrap_or_else(|| default_names.iter().map(|n| (*n).to_owned()).collect());
    let paths = paths.unwrap_or_else(|| {
        default_paths
            .iter()
            .map(|p| p.iter().map(|k| (*k).to_owned()).collect())
            .collect()
    });
    Reserved {
        paths: names
            .iter()
            .map(|n| dotted(n))
            .chain(paths.into_iter().filter(|p| !p.is_empty()))
            .collect(),
        preserve: preserve.unwrap_or(default_preserve),
    }
}

/// Reads the vertex's fields, each with the public service's default when absent.
pub(crate) fn compile(vertex: &str, fields: &Map<String, Value>) -> Result<Remapper, RunError> {
    let c: LogAttributesRemapper = typed(vertex, &OPERATION, fields)?;
    let mut rules = Vec::new();
    for (i, rule) in c
        .attribute_remapping_rules
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        let only = rule
            .predicate
            .as_ref()
            .map(|p| {
                super::query::read_predicate(
                    vertex,
                    &format!("attributeRemappingRules/{i}/predicate"),
                    p,
                )
            })
            .transpose()?;
        let target = dotted(&rule.target);
        if target.len() > attr_tree::MAX_PATH_KEYS {
            return Err(RunError::Vertex {
                vertex: vertex.to_owned(),
                message: format!(
                    "/attributeRemappingRules/{i}/target: has {} keys; a target has at most {}",
                    target.len(),
                    attr_tree::MAX_PATH_KEYS
                ),
            });
        }
        rules.push(Rule {
            source: dotted(&rule.source),
            target,
            preserve: rule.preserve_source.unwrap_or(false),
            only,
        });
    }
    let mut tag_mappings: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for (tag, names) in c.tag_mappings.unwrap_or_default() {
        tag_mappings.push((tag, names.iter().map(|n| dotted(n)).collect()));
    }
    for (tag, paths) in c.tag_mapping_paths.unwrap_or_default() {
        let paths = paths.into_iter().filter(|p| !p.is_empty());
        match tag_mappings.iter_mut().find(|(t, _)| *t == tag) {
            Some((_, existing)) => existing.extend(paths),
            None => tag_mappings.push((tag, paths.collect())),
        }
    }
    Ok(Remapper {
        rules,
        message: reserved(
            c.message_reserved_attributes,
            &["message", "msg", "log", "M", "Message"],
            c.message_reserved_attribute_paths,
            &[],
            c.message_preserve_source,
            false,
        ),
        timestamp: reserved(
            c.timestamp_reserved_attributes,
            &[
                "@timestamp",
                "timestamp",
                "_timestamp",
                "Timestamp",
                "eventTime",
                "date",
                "published_date",
                "syslog.timestamp",
                "T",
            ],
            c.timestamp_reserved_attribute_paths,
            &[],
            c.timestamp_preserve_source,
            true,
        ),
        host: reserved(
            c.host_reserved_attributes,
            &[
                "host",
                "hostname",
                "syslog.hostname",
                "kubernetes.host",
                "sourceIPAddress",
            ],
            c.host_reserved_attribute_paths,
            &[&["_resource", "host.name"]],
            c.host_preserve_source,
            true,
        ),
        service: reserved(
            c.service_reserved_attributes,
            &[
                "service",
                "syslog.appname",
                "dd.service",
                "kubernetes.labels.app",
                "labels.app",
                "kubernetes.labels.k8s-app",
                "labels.k8s-app",
                "eventSource",
            ],
            c.service_reserved_attribute_paths,
            &[
                &["_resource", "service.name"],
                &["kubernetes", "labels", "app.kubernetes.io/name"],
                &["labels", "app.kubernetes.io/name"],
            ],
            c.service_preserve_source,
            true,
        ),
        status: reserved(
            c.status_reserved_attributes,
            &[
                "log.level",
                "status",
                "severity",
                "level",
                "syslog.severity",
                "L",
            ],
            c.status_reserved_attribute_paths,
            &[],
            c.status_preserve_source,
            true,
        ),
        trace_id: reserved(
            c.trace_id_reserved_attributes,
            &["dd.trace_id", "contextMap.dd.trace_id", "otelTraceID"],
            c.trace_id_reserved_attribute_paths,
            &[],
            c.trace_id_preserve_source,
            true,
        ),
        tag_mappings,
        tag_mappings_preserve: c.tag_mappings_preserve_source.unwrap_or(false),
        tag_maps: c
            .tag_mappings_locations
            .unwrap_or_default()
            .iter()
            .map(|n| dotted(n))
            .chain(
                c.tag_mappings_location_paths
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|p| !p.is_empty()),
            )
            .collect(),
        tag_maps_preserve: c.tag_mappings_location_preserve_source.unwrap_or(false),
    })
}

/// The OpenTelemetry severity number of a status: a whole number 1–24 (or its text) as it
/// is, or a level name, in any case, spaces around ignored: `trace` 1, `debug` 5, `info`
/// (`informational`, `information`, `ok`, `success`) 9, `notice` 10, `warn` (`warning`) 13,
/// `error` (`err`) 17, `critical` (`crit`) 18, `alert` 19, `fatal` (`emergency`, `emerg`,
/// `panic`) 21. Anything else is no severity.
///
/// ```
/// use jobgraph_core::pipeline::severity_of;
/// use serde_json::json;
/// assert_eq!(severity_of(&json!("WARNING")), Some(13));
/// assert_eq!(severity_of(&json!("5")), Some(5));
/// assert_eq!(severity_of(&json!(17)), Some(17));
/// assert_eq!(severity_of(&json!(0)), None);
/// assert_eq!(severity_of(&json!("loud")), None);
/// ```
pub fn severity_of(value: &Value) -> Option<u64> {
    let number = |n: u64| (1..=24).contains(&n).then_some(n);
    match value {
        Value::Number(n) => n.as_u64().and_then(number),
        Value::String(s) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<u64>() {
                return number(n);
            }
            Some(match s.to_ascii_lowercase().as_str() {
                "trace" => 1,
                "debug" => 5,
                "info" | "informational" | "information" | "ok" | "success" => 9,
                "notice" => 10,
                "warn" | "warning" => 13,
                "error" | "err" => 17,
                "critical" | "crit" => 18,
                "alert" => 19,
                "fatal" | "emergency" | "emerg" | "panic" => 21,
                _ => return None,
            })
        }
        _ => None,
    }
}

impl Reserved {
    /// The first value `usable` accepts, with the path it was found at; the attribute is
    /// removed unless preserved.
    fn take<T>(
        &self,
        map: &mut Map<String, Value>,
        usable: impl Fn(&Value) -> Option<T>,
    ) -> Option<(T, &[String])> {
        let (found, path) = self.paths.iter().find_map(|path| {
            attr_tree::get(map, path)
                .and_then(&usable)
                .map(|found| (found, path.as_slice()))
        })?;
        if !self.preserve {
            attr_tree::remove(map, path);
        }
        Some((found, path))
    }
}

/// Adds `value` to the tag `key` unless it is there.
fn add_tag(event: &mut LogEvent, key: &str, value: String) {
    let values = event.tags.entry(key.to_owned()).or_default();
    if !values.contains(&value) {
        values.push(value);
    }
}

/// Each text of a value for a tag: a scalar's, or each scalar item's of an array.
fn tag_texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(scalar_text).collect(),
        other => scalar_text(other).into_iter().collect(),
    }
}

impl Remapper {
    /// Remaps one event in place (see the module's documentation); an event without
    /// attributes is left as it is.
    pub(crate) fn apply(&self, event: &mut LogEvent) {
        let Ok(Some(mut map)) = attr_tree::read(event) else {
            return;
        };
        let before = map.clone();
        // A predicate reads the rules' work written out; the text read is put back when
        // nothing changed (an event is written losslessly).
        let original = event.attributes.clone();
        for rule in &self.rules {
            if rule.source == rule.target {
                continue;
            }
            if let Some(only) = &rule.only {
                // The predicate sees the event as the earlier rules left it.
                attr_tree::write(event, map.clone());
                if !only.matches(event) {
                    continue;
                }
            }
            let value = if rule.preserve {
                attr_tree::get(&map, &rule.source).cloned()
            } else {
                attr_tree::remove(&mut map, &rule.source)
            };
            if let Some(value) = value {
                attr_tree::insert(&mut map, &rule.target, value);
            }
        }
        if event.message.as_deref().is_none_or(str::is_empty)
            && let Some((text, path)) = self.message.take(&mut map, scalar_text)
        {
            event.message = Some(text);
            let path = Value::String(path.join("."));
            attr_tree::insert(
                &mut map,
                &["greprMeta".to_owned(), "messageAttributePath".to_owned()],
                path,
            );
        }
        if let Some((millis, _)) = self.timestamp.take(&mut map, value_millis) {
            event.event_timestamp = Some(Value::from(millis));
        }
        if let Some((severity, _)) = self.status.take(&mut map, severity_of) {
            event.severity = Some(Value::from(severity));
        }
        for (reserved, tag) in [
            (&self.host, "host"),
            (&self.service, "service"),
            (&self.trace_id, "trace_id"),
        ] {
            if let Some((text, _)) = reserved.take(&mut map, scalar_text) {
                event.tags.insert(tag.to_owned(), vec![text]);
            }
        }
        for (tag, paths) in &self.tag_mappings {
            for path in paths {
                let Some(value) = attr_tree::get(&map, path) else {
                    continue;
                };
                let texts = tag_texts(value);
                if texts.is_empty() {
                    continue;
                }
                for text in texts {
                    add_tag(event, tag, text);
                }
                if !self.tag_mappings_preserve {
                    attr_tree::remove(&mut map, path);
                }
            }
        }
        for path in &self.tag_maps {
            let Some(Value::Object(entries)) = attr_tree::get(&map, path) else {
                continue;
            };
            let pairs: Vec<(String, Vec<String>)> = entries
                .iter()
                .map(|(k, v)| (k.clone(), tag_texts(v)))
                .collect();
            for (key, texts) in pairs {
                for text in texts {
                    add_tag(event, &key, text);
                }
            }
            if !self.tag_maps_preserve {
                attr_tree::remove(&mut map, path);
            }
        }
        if map == before {
            event.attributes = original;
        } else {
            attr_tree::write(event, map);
        }
    }
}

#[cfg(test)]
mod tests;
