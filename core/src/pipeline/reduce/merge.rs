//! Attribute merge strategies: how a summary's attributes are made from the attributes of the
//! events it stands for (`docs/pipeline.md`, "`log-reducer`", "Merging attributes").
//!
//! Each attribute path of an event is merged by the strategies of its entry in
//! `attributeMergeStrategyEntries`, else by the default ones. A path with an entry is merged as
//! one value even when it holds an object; other objects are walked into, down to their leaves
//! (arrays are leaves). With several strategies on one path, the first writes the path itself
//! and every one writes `<key>_<suffix>` (`bytes_sum`, `bytes_avg`, …).

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde_json::{Map, Number, Value};

use crate::pipeline::RunError;

/// One merge strategy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Strategy {
    /// The value when all agree, else `"*"`.
    Exact,
    /// Up to `limit` values; more are dropped.
    Sample {
        limit: usize,
        unique: bool,
    },
    /// Every value; past `limit` the summary is sent and a new one starts.
    Preserve {
        limit: usize,
        unique: bool,
    },
    Sum,
    Min,
    Max,
    Avg,
    /// The first value, unchanged.
    Ignore,
}

impl Strategy {
    /// The strategies a merge strategy object (`{"type": "sum"}`) stands for (several for
    /// `composite`). Its fields' types were checked by the catalog.
    pub(crate) fn read(
        strategy: &Value,
        vertex: &str,
        field: &str,
    ) -> Result<Vec<Strategy>, RunError> {
        let problem = |message: String| RunError::Vertex {
            vertex: vertex.to_owned(),
            message,
        };
        let kind = |s: &Value| {
            s.get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let one = |s: &Value, at: &str| -> Result<Strategy, RunError> {
            let limit = |default: u64| {
                s.get("limit")
                    .and_then(Value::as_u64)
                    .unwrap_or(default)
                    .max(1) as usize
            };
            let unique = s.get("unique").and_then(Value::as_bool).unwrap_or(false);
            Ok(match kind(s).as_str() {
                "exact" => Strategy::Exact,
                "sample" => Strategy::Sample {
                    limit: limit(10),
                    unique,
                },
                "preserve" => Strategy::Preserve {
                    limit: limit(1000),
                    unique,
                },
                "sum" => Strategy::Sum,
                "min" => Strategy::Min,
                "max" => Strategy::Max,
                "avg" => Strategy::Avg,
                "ignore" => Strategy::Ignore,
                "composite" => {
                    return Err(problem(format!(
                        "`{at}` is a composite inside a composite: list the strategies in one composite"
                    )));
                }
                other => {
                    return Err(problem(format!(
                        "`{at}.type` is `{other}`: a merge strategy is exact, sample, preserve, sum, min, max, avg, composite or ignore"
                    )));
                }
            })
        };
        if kind(strategy) != "composite" {
            return Ok(vec![one(strategy, field)?]);
        }
        let mut out: Vec<Strategy> = Vec::new();
        let listed = strategy
            .get("strategies")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (i, raw) in listed.iter().enumerate() {
            let at = format!("{field}.strategies[{i}]");
            let s = one(raw, &at)?;
            if out.iter().any(|o| o.suffix() == s.suffix()) {
                return Err(problem(format!(
                    "`{at}` repeats the strategy `{}`: each strategy type at most once per path",
                    s.suffix()
                )));
            }
            out.push(s);
        }
        if out.is_empty() {
            return Err(problem(format!(
                "`{field}.strategies` is empty: give at least one strategy, e.g. [{{\"type\": \"exact\"}}]"
            )));
        }
        Ok(out)
    }

    /// The suffix of its copy: `sum`, `avg`, …
    pub(crate) fn suffix(&self) -> &'static str {
        match self {
            Strategy::Exact => "exact",
            Strategy::Sample { .. } => "sample",
            Strategy::Preserve { .. } => "preserve",
            Strategy::Sum => "sum",
            Strategy::Min => "min",
            Strategy::Max => "max",
            Strategy::Avg => "avg",
            Strategy::Ignore => "ignore",
        }
    }

    fn start(&self) -> Acc {
        match self {
            Strategy::Exact => Acc::Exact(None, false),
            Strategy::Sample { .. } | Strategy::Preserve { .. } => Acc::Values(Vec::new()),
            Strategy::Sum => Acc::Sum(0.0, None, false),
            Strategy::Min | Strategy::Max => Acc::Extreme(None),
            Strategy::Avg => Acc::Mean(0.0, 0),
            Strategy::Ignore => Acc::First(None),
        }
    }
}

/// A strategy's state on one path.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
enum Acc {
    Exact(Option<Value>, bool),
    Values(Vec<Value>),
    /// Scalar sum, element-wise sum of arrays, whether a scalar was seen.
    Sum(f64, Option<Vec<f64>>, bool),
    Extreme(Option<f64>),
    Mean(f64, u64),
    First(Option<Value>),
}

/// The numbers a value contributes: itself, or each number of an array.
fn numbers(value: &Value) -> impl Iterator<Item = f64> + '_ {
    let (one, many) = match value {
        Value::Array(items) => (None, Some(items.iter().filter_map(Value::as_f64))),
        other => (other.as_f64(), None),
    };
    one.into_iter().chain(many.into_iter().flatten())
}

impl Acc {
    fn add(&mut self, strategy: &Strategy, value: &Value) {
        match (self, strategy) {
            (Acc::Exact(seen, differs), _) => match seen {
                None => *seen = Some(value.clone()),
                Some(v) => *differs |= v != value,
            },
            (
                Acc::Values(values),
                Strategy::Sample { limit, unique } | Strategy::Preserve { limit, unique },
            ) => {
                if (*unique && values.contains(value)) || values.len() >= *limit {
                    return;
                }
                values.push(value.clone());
            }
            (Acc::Sum(scalar, list, saw_scalar), _) => match value {
                Value::Array(items) => {
                    let items: Vec<f64> = items.iter().filter_map(Value::as_f64).collect();
                    let sums = list.get_or_insert_with(Vec::new);
                    if sums.len() < items.len() {
                        sums.resize(items.len(), 0.0);
                    }
                    for (s, x) in sums.iter_mut().zip(items) {
                        *s += x;
                    }
                }
                other => {
                    if let Some(x) = other.as_f64() {
                        *scalar += x;
                        *saw_scalar = true;
                    }
                }
            },
            (Acc::Extreme(best), s) => {
                for x in numbers(value) {
                    *best = Some(match (*best, s) {
                        (None, _) => x,
                        (Some(b), Strategy::Min) => b.min(x),
                        (Some(b), _) => b.max(x),
                    });
                }
            }
            (Acc::Mean(sum, n), _) => {
                for x in numbers(value) {
                    *sum += x;
                    *n += 1;
                }
            }
            (Acc::First(first), _) => {
                if first.is_none() {
                    *first = Some(value.clone());
                }
            }
            (Acc::Values(_), _) => {}
        }
    }

    /// Whether adding `value` would go past a `preserve` limit.
    fn overflows(&self, strategy: &Strategy, value: &Value) -> bool {
        match (self, strategy) {
            (Acc::Values(values), Strategy::Preserve { limit, unique }) => {
                values.len() >= *limit && !(*unique && values.contains(value))
            }
            _ => false,
        }
    }

    fn finish(&self) -> Option<Value> {
        let number = |x: f64| Number::from_f64(x).map(Value::Number);
        match self {
            Acc::Exact(seen, differs) => {
                if *differs {
                    Some(Value::String("*".into()))
                } else {
                    seen.clone()
                }
            }
            Acc::Values(values) => Some(Value::Array(values.clone())),
            Acc::Sum(scalar, list, saw_scalar) => match (list, saw_scalar) {
                (Some(sums), false) => Some(Value::Array(
                    sums.iter().filter_map(|x| number(*x)).collect(),
                )),
                (Some(sums), true) => number(*scalar + sums.iter().sum::<f64>()),
                (None, true) => number(*scalar),
                (None, false) => None,
            },
            Acc::Extreme(best) => best.and_then(number),
            Acc::Mean(sum, n) => (*n > 0).then(|| number(sum / *n as f64)).flatten(),
            Acc::First(first) => first.clone(),
        }
    }
}

/// The merge of the attributes of the events one summary stands for.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Merger {
    paths: IndexMap<Vec<String>, Vec<Acc>, FxBuildHasher>,
}

/// Where the strategies come from.
pub(crate) struct Rules<'a> {
    pub default: &'a [Strategy],
    pub paths: &'a [(Vec<String>, Vec<Strategy>)],
}

impl Rules<'_> {
    fn for_path(&self, path: &[String]) -> Option<&[Strategy]> {
        self.paths
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, s)| s.as_slice())
    }

    /// Whether some `preserve` strategy exists (else no overflow check is needed).
    pub(crate) fn preserves(&self) -> bool {
        let preserve = |s: &Strategy| matches!(s, Strategy::Preserve { .. });
        self.default.iter().any(preserve) || self.paths.iter().any(|(_, s)| s.iter().any(preserve))
    }
}

/// What [`walk`] calls with each merged path, its strategies and its value.
type Visit<'f, 'v> = dyn FnMut(&[String], &[Strategy], &'v Value) + 'f;

/// Calls `f` with each merged path of `attributes` and its strategies.
fn walk<'v>(
    rules: &Rules<'_>,
    object: &'v Map<String, Value>,
    path: &mut Vec<String>,
    f: &mut Visit<'_, 'v>,
) {
    for (key, value) in object {
        path.push(key.clone());
        if let Some(strategies) = rules.for_path(path) {
            f(path, strategies, value);
        } else if let Value::Object(inner) = value
            && !inner.is_empty()
        {
            walk(rules, inner, path, f);
        } else {
            f(path, rules.default, value);
        }
        path.pop();
    }
}

impl Merger {
    /// Whether adding `attributes` would go past a `preserve` limit: then the summary so far
    /// is sent first.
    pub(crate) fn overflows(&self, rules: &Rules<'_>, attributes: &Map<String, Value>) -> bool {
        let mut over = false;
        walk(
            rules,
            attributes,
            &mut Vec::new(),
            &mut |path, strategies, value| {
                if let Some(accs) = self.paths.get(path) {
                    over |= accs
                        .iter()
                        .zip(strategies)
                        .any(|(acc, s)| acc.overflows(s, value));
                }
            },
        );
        over
    }

    /// Adds one event's attributes.
    pub(crate) fn add(&mut self, rules: &Rules<'_>, attributes: &Map<String, Value>) {
        walk(
            rules,
            attributes,
            &mut Vec::new(),
            &mut |path, strategies, value| {
                let accs = match self.paths.get_mut(path) {
                    Some(accs) => accs,
                    None => self
                        .paths
                        .entry(path.to_vec())
                        .or_insert_with(|| strategies.iter().map(Strategy::start).collect()),
                };
                for (acc, s) in accs.iter_mut().zip(strategies) {
                    acc.add(s, value);
                }
            },
        );
    }

    /// The merged attributes.
    pub(crate) fn finish(&self, rules: &Rules<'_>) -> Map<String, Value> {
        let mut out = Map::new();
        for (path, accs) in &self.paths {
            let strategies = rules.for_path(path).unwrap_or(rules.default);
            let several = accs.len() > 1;
            for (i, (acc, s)) in accs.iter().zip(strategies).enumerate() {
                let Some(value) = acc.finish() else { continue };
                if i == 0 {
                    set(&mut out, path, value.clone());
                }
                if several {
                    let mut suffixed = path.clone();
                    if let Some(last) = suffixed.last_mut() {
                        last.push('_');
                        last.push_str(s.suffix());
                    }
                    set(&mut out, &suffixed, value);
                }
            }
        }
        out
    }
}

/// Sets `path` in `object`, making objects on the way; a path through a value that is not an
/// object is left alone (the value seen first wins).
fn set(object: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = object;
    for key in parents {
        let next = at
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        match next {
            Value::Object(inner) => at = inner,
            _ => return,
        }
    }
    if !at.contains_key(last) {
        at.insert(last.clone(), value);
    }
}

#[cfg(test)]
mod tests;
