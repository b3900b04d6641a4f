//! A `log-reducer`'s (or `pattern-matcher`'s) fields read once into what the run needs; every
//! mistake named by its field and said how to fix.

use serde_json::{Map, Value};

use super::mask::{Mask, Masks};
use super::merge::Strategy;
use super::tokens::{Delimiters, hash_bytes};
use crate::pipeline::RunError;
use crate::pipeline::query::Query;
use jobgraph_model::ops::transforms::log_reducer::{
    self as catalog, AttributeTokenization, LogReducer, TokenizationInput,
};

/// At most this many patterns per reducer; past it, new messages pass through.
pub(crate) const MAX_PATTERNS: usize = 50_000;

/// The settings of a reducer, compiled.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub similarity: f64,
    pub partition_tags: Vec<String>,
    pub partition_paths: Vec<Vec<String>>,
    pub window_ms: i64,
    /// The window's text for the summary prefix (`2m`, `90s`).
    pub window_text: String,
    pub dedup: u64,
    /// Logarithm base of window-based logarithmic sampling; `None` for constant sampling.
    pub log_base: Option<u64>,
    pub repeat_prefix: bool,
    pub masks: Masks,
    pub mask_tokens: Vec<String>,
    pub mask_hashes: Vec<u64>,
    pub delimiters: Delimiters,
    pub default_strategies: Vec<Strategy>,
    pub path_strategies: Vec<(Vec<String>, Vec<Strategy>)>,
    pub exceptions: Vec<Query>,
    pub input: TokenizationInput,
    pub attribute_tokens: AttributeTokenization,
    pub included: Vec<Vec<String>>,
    pub excluded: Vec<Vec<String>>,
}

fn problem(vertex: &str, field: &str, what: impl std::fmt::Display) -> RunError {
    RunError::Vertex {
        vertex: vertex.to_owned(),
        message: format!("`{field}` {what}"),
    }
}

/// Reads the settings of vertex `vertex`.
pub(crate) fn read(vertex: &str, fields: &Map<String, Value>) -> Result<Settings, RunError> {
    // The catalog checks every field's type and bounds first (its JSON pointer and what it must
    // be); what is read below is then of the right type. Read by hand rather than through
    // serde's derived code for `LogReducer`, which cost the npm package 48 KB of wasm.
    crate::pipeline::typed::check(vertex, &catalog::OPERATION, fields)?;
    let config = Fields(fields);
    let similarity = config.f64("similarityThreshold").unwrap_or(70.0);
    if !(20.0..=100.0).contains(&similarity) {
        return Err(problem(
            vertex,
            "similarityThreshold",
            format!("must be a percentage from 20 to 100, found {similarity}"),
        ));
    }
    let window_text = config
        .str("reductionTimeWindow")
        .unwrap_or("PT2M")
        .to_owned();
    let window_ms = duration_ms(&window_text).ok_or_else(|| {
        problem(
            vertex,
            "reductionTimeWindow",
            format!(
                "must be a positive ISO 8601 duration such as \"PT2M\" or \"PT30S\", found {window_text:?}"
            ),
        )
    })?;
    let dedup = config.u64("dedupThreshold").unwrap_or(4);
    if dedup < 2 {
        return Err(problem(
            vertex,
            "dedupThreshold",
            format!("must be 2 or more, found {dedup}"),
        ));
    }
    let sampling = config.get("samplingConfig");
    let log_base = match sampling.and_then(|s| s.get("type")).and_then(Value::as_str) {
        Some("window-based-logarithmic-sampling") => {
            let base = sampling
                .and_then(|s| s.get("logarithmBase"))
                .and_then(Value::as_u64)
                .unwrap_or(2);
            if base < 2 {
                return Err(problem(
                    vertex,
                    "samplingConfig.logarithmBase",
                    format!("must be 2 or more, found {base}"),
                ));
            }
            Some(base)
        }
        _ => None,
    };
    let (masks, mask_tokens) = read_masks(vertex, config)?;
    let mask_hashes = mask_tokens
        .iter()
        .map(|t| hash_bytes(t.as_bytes()))
        .collect();
    let delimiters = read_delimiters(vertex, config)?;
    let default_strategies = match config.get("defaultAttributesMergeStrategy") {
        Some(s) => Strategy::read(s, vertex, "defaultAttributesMergeStrategy")?,
        None => vec![Strategy::Exact],
    };
    let mut path_strategies: Vec<(Vec<String>, Vec<Strategy>)> = Vec::new();
    for (i, entry) in config
        .items("attributeMergeStrategyEntries")
        .iter()
        .enumerate()
    {
        let field = format!("attributeMergeStrategyEntries[{i}]");
        let attribute_path = strings(entry.get("attributePath"));
        if attribute_path.is_empty() || attribute_path.iter().any(String::is_empty) {
            return Err(problem(
                vertex,
                &format!("{field}.attributePath"),
                "must name a path of non-empty keys, e.g. [\"http\", \"status\"]",
            ));
        }
        if path_strategies.iter().any(|(p, _)| *p == attribute_path) {
            return Err(problem(
                vertex,
                &format!("{field}.attributePath"),
                format!(
                    "repeats {:?}: duplicate attribute paths in merge strategies are not allowed; give each path one entry (use `composite` for several strategies)",
                    attribute_path
                ),
            ));
        }
        let strategy = entry.get("strategy").unwrap_or(&Value::Null);
        let strategies = Strategy::read(strategy, vertex, &format!("{field}.strategy"))?;
        path_strategies.push((attribute_path, strategies));
    }
    let mut exceptions = Vec::new();
    for (i, predicate) in config.items("logReducerExceptions").iter().enumerate() {
        exceptions.push(crate::pipeline::query::read_predicate(
            vertex,
            &format!("logReducerExceptions[{i}]"),
            predicate,
        )?);
    }
    let mut partition_paths: Vec<Vec<String>> = strings(config.get("partitionByAttributes"))
        .iter()
        .map(|dotted| dotted.split('.').map(str::to_owned).collect())
        .collect();
    partition_paths.extend(paths(config.get("partitionByAttributePaths")));
    Ok(Settings {
        similarity: similarity / 100.0,
        partition_tags: strings(config.get("partitionByTags")),
        partition_paths,
        window_ms,
        window_text: human_duration(window_ms),
        dedup,
        log_base,
        repeat_prefix: config
            .get("repeatCountInSummaryMessageEnabled")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        masks,
        mask_tokens,
        mask_hashes,
        delimiters,
        default_strategies,
        path_strategies,
        exceptions,
        input: match config.str("tokenizationInput") {
            Some("MESSAGE_OR_ATTRIBUTES") => TokenizationInput::MessageOrAttributes,
            Some("ATTRIBUTES_ONLY") => TokenizationInput::AttributesOnly,
            Some("MESSAGE_AND_ATTRIBUTES") => TokenizationInput::MessageAndAttributes,
            _ => TokenizationInput::MessageOnly,
        },
        attribute_tokens: match config.str("attributeTokenization") {
            Some("KEYS_ONLY") => AttributeTokenization::KeysOnly,
            _ => AttributeTokenization::KeysAndValues,
        },
        included: paths(config.get("includedAttributePrefixes")),
        excluded: paths(config.get("excludedAttributePrefixes")),
    })
}

fn read_masks(vertex: &str, config: Fields<'_>) -> Result<(Masks, Vec<String>), RunError> {
    let catalogue: Vec<(String, String)> = match config.get("masks") {
        Some(Value::Array(masks)) => {
            let masks: Vec<Vec<String>> = masks.iter().map(|m| strings(Some(m))).collect();
            let mut out: Vec<(String, String)> = Vec::new();
            for (i, pair) in masks.iter().enumerate() {
                let [name, regex] = pair.as_slice() else {
                    return Err(problem(
                        vertex,
                        &format!("masks[{i}]"),
                        format!(
                            "must be a [name, regular expression] pair, found {} strings",
                            pair.len()
                        ),
                    ));
                };
                if out.iter().any(|(n, _)| n == name) {
                    return Err(problem(
                        vertex,
                        &format!("masks[{i}]"),
                        format!("repeats the mask name `{name}`: mask names must be unique"),
                    ));
                }
                out.push((name.clone(), regex.clone()));
            }
            out
        }
        _ => LogReducer::default_masks(),
    };
    let enabled: Vec<String> = match config.get("enabledMasks") {
        Some(names @ Value::Array(_)) => strings(Some(names)),
        _ => catalog::DEFAULT_ENABLED_MASKS
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
    };
    for (i, name) in enabled.iter().enumerate() {
        if !catalogue.iter().any(|(n, _)| n == name) {
            let names: Vec<&str> = catalogue.iter().map(|(n, _)| n.as_str()).collect();
            return Err(problem(
                vertex,
                &format!("enabledMasks[{i}]"),
                format!(
                    "names `{name}`, which `masks` does not define (it has: {})",
                    names.join(", ")
                ),
            ));
        }
    }
    let mut masks = Vec::new();
    let mut tokens = Vec::new();
    for (i, (name, regex)) in catalogue.iter().enumerate() {
        if !enabled.contains(name) {
            continue;
        }
        let builtin = catalog::DEFAULT_MASKS.iter().any(|(n, _)| n == name);
        let mask = Mask::new(name, regex, builtin)
            .map_err(|e| problem(vertex, &format!("masks[{i}]"), e.0))?;
        tokens.push(mask.token.clone());
        masks.push(mask);
    }
    Ok((Masks::new(masks), tokens))
}

fn read_delimiters(vertex: &str, config: Fields<'_>) -> Result<Delimiters, RunError> {
    let mut chars: Vec<char> = Vec::new();
    match config.get("delimiters") {
        Some(list @ Value::Array(_)) => {
            let list = strings(Some(list));
            for (i, d) in list.iter().enumerate() {
                let mut it = d.chars();
                let (Some(c), None) = (it.next(), it.next()) else {
                    return Err(problem(
                        vertex,
                        &format!("delimiters[{i}]"),
                        format!("must be one character, found {d:?}"),
                    ));
                };
                if chars.contains(&c) {
                    return Err(problem(
                        vertex,
                        &format!("delimiters[{i}]"),
                        format!("repeats {d:?}: each delimiter once"),
                    ));
                }
                chars.push(c);
            }
        }
        _ => chars.extend(
            catalog::DEFAULT_DELIMITERS
                .iter()
                .filter_map(|d| d.chars().next()),
        ),
    }
    Ok(Delimiters::new(&chars))
}

/// A vertex's fields, read by name (their types checked by the catalog before).
#[derive(Clone, Copy)]
struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    /// A field, `null` counting as absent.
    fn get(self, name: &str) -> Option<&'a Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    fn f64(self, name: &str) -> Option<f64> {
        self.get(name).and_then(Value::as_f64)
    }

    fn u64(self, name: &str) -> Option<u64> {
        self.get(name).and_then(Value::as_u64)
    }

    fn str(self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(Value::as_str)
    }

    /// An array's items (none when absent).
    fn items(self, name: &str) -> &'a [Value] {
        self.get(name)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

/// The strings of an array of strings (others skipped).
fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The paths of an array of arrays of strings.
fn paths(value: Option<&Value>) -> Vec<Vec<String>> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| strings(Some(p)))
        .collect()
}

/// An ISO 8601 duration (`PT2M`, `PT120S`, `PT20.345S`, `P1D`, `PT1H30M`) in milliseconds;
/// `None` unless positive.
pub(crate) fn duration_ms(text: &str) -> Option<i64> {
    let rest = text.strip_prefix('P').or_else(|| text.strip_prefix('p'))?;
    let (date, time) = match rest.find(['T', 't']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let mut total: f64 = 0.0;
    let mut any = false;
    let mut read = |part: &str, units: &[(char, f64)]| -> Option<()> {
        let mut number = String::new();
        let mut next_unit = 0usize;
        for c in part.chars() {
            if c.is_ascii_digit() || c == '.' || c == ',' {
                number.push(if c == ',' { '.' } else { c });
                continue;
            }
            let c = c.to_ascii_uppercase();
            let at = units[next_unit..].iter().position(|(u, _)| *u == c)? + next_unit;
            let value: f64 = number.parse().ok()?;
            total += value * units[at].1;
            any = true;
            number.clear();
            next_unit = at + 1;
        }
        number.is_empty().then_some(())
    };
    read(date, &[('W', 604_800_000.0), ('D', 86_400_000.0)])?;
    if let Some(time) = time {
        if time.is_empty() {
            return None;
        }
        read(time, &[('H', 3_600_000.0), ('M', 60_000.0), ('S', 1000.0)])?;
    }
    let ms = total.round();
    (any && (1.0..9.0e15).contains(&ms)).then_some(ms as i64)
}

/// `2m`, `90s`, `1h30m`, `1.5s`: a window's length for the summary prefix.
fn human_duration(ms: i64) -> String {
    if ms % 1000 != 0 {
        return format!("{}s", ms as f64 / 1000.0);
    }
    let mut s = ms / 1000;
    let mut out = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] {
        if s >= size {
            out.push_str(&format!("{}{unit}", s / size));
            s %= size;
        }
    }
    if s > 0 || out.is_empty() {
        out.push_str(&format!("{s}s"));
    }
    out
}

#[cfg(test)]
mod tests;
