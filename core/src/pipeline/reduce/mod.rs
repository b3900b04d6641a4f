//! `log-reducer` and `pattern-matcher` on events (`docs/pipeline.md`, "`log-reducer`"):
//! exceptions forwarded, events cut into tumbling windows by event time, grouped per partition
//! into patterns ([`cluster`]), the first `dedupThreshold` of a pattern in a window sent as
//! samples, the rest held and sent as one summary when the window closes. The pattern matcher
//! finds the same patterns and forwards every event tagged with its pattern's id.
//!
//! Deterministic: windows follow event time, the end of the input closes the open window, and
//! pattern ids are hashes of partition and text, so the same events give the same output on
//! every platform.

mod attributes;
mod cluster;
mod config;
mod mask;
mod merge;
mod scan;
mod tokens;
mod window;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::Serialize;
use serde_json::{Map, Value};

use super::RunError;
use jobgraph_model::LogEvent;

pub(crate) use config::Settings;

/// What the stage does with the patterns it finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `log-reducer`: samples, summaries, passthroughs and exceptions.
    Reduce,
    /// `pattern-matcher`: every event forwarded, tagged with its pattern.
    Match,
}

/// A compiled reducer or pattern matcher.
#[derive(Debug, Clone)]
pub(crate) struct Reducer {
    pub settings: std::sync::Arc<Settings>,
    pub mode: Mode,
}

/// One pattern in a run's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatternReport {
    /// Its id (`grepr.patternId`).
    pub id: String,
    /// Its text: masked values as `<mask>`, positions that vary as `<*>`.
    pub pattern: String,
    /// Events of this run that matched it.
    pub count: u64,
    /// The partition (`service=web`, `@http.host="a"`), empty when the reducer has none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub partition: String,
    /// The first few messages that matched it, as they arrived.
    pub samples: Vec<String>,
}

/// Patterns kept in a report at most (the most frequent).
const REPORTED_PATTERNS: usize = 500;
/// Sample messages kept per reported pattern.
const REPORTED_SAMPLES: usize = 3;

/// The tag every reducer output carries.
pub(crate) const MESSAGE_TYPE: &str = "grepr.messagetype";
/// The tag the pattern matcher adds.
pub(crate) const PATTERN_TAG: &str = "grepr.patternId";

impl Reducer {
    /// Compiles vertex `vertex` of `mode` from its fields.
    pub(crate) fn compile(
        vertex: &str,
        fields: &Map<String, Value>,
        mode: Mode,
    ) -> Result<Reducer, RunError> {
        Ok(Reducer {
            settings: std::sync::Arc::new(config::read(vertex, fields)?),
            mode,
        })
    }

    /// A reducer's state for a streaming run: fed batch after batch, its windows closed by
    /// event time as in one run, or by [`Streaming::close_window`].
    pub(crate) fn start(&self, expected: usize) -> Streaming {
        Streaming {
            state: window::State::new(std::sync::Arc::clone(&self.settings), self.mode, expected),
            pushed: 0,
        }
    }
}

/// A reducer's state between the batches of a streaming run.
pub(crate) struct Streaming {
    state: window::State,
    /// Events pushed so far (their numbers in error messages).
    pushed: u64,
}

impl Streaming {
    /// Feeds `events` in order; `check` is called every few thousand events.
    pub(crate) fn push_all(
        &mut self,
        vertex: &str,
        events: Vec<LogEvent>,
        check: &mut dyn FnMut() -> Result<(), RunError>,
    ) -> Result<(), RunError> {
        for (i, event) in events.into_iter().enumerate() {
            if i % 4096 == 4095 {
                check()?;
            }
            self.pushed += 1;
            self.state.push(event).map_err(|e| RunError::Vertex {
                vertex: vertex.to_owned(),
                message: format!("event #{}: {}", self.pushed, e.0),
            })?;
        }
        Ok(())
    }

    /// The events sent so far, taken.
    pub(crate) fn take_out(&mut self) -> Vec<LogEvent> {
        self.state.take_out()
    }

    /// Closes the open window: its summaries are in the next [`Streaming::take_out`].
    pub(crate) fn close_window(&mut self) {
        self.state.close_open();
    }

    /// The patterns found so far, most frequent first.
    pub(crate) fn patterns(&self) -> Vec<PatternReport> {
        self.state.report()
    }

    /// What a snapshot keeps: the events pushed so far and the state.
    #[cfg(feature = "snapshot")]
    pub(crate) fn saved(&self) -> (u64, window::SavedRef<'_>) {
        (self.pushed, self.state.saved())
    }
}

#[cfg(feature = "snapshot")]
pub(crate) use window::{Saved, SavedRef};

#[cfg(feature = "snapshot")]
impl Reducer {
    /// A streaming state put back from a snapshot ([`Streaming::saved`]).
    pub(crate) fn resume(&self, pushed: u64, saved: Saved) -> Result<Streaming, String> {
        let mut streaming = self.start(0);
        streaming.state.restore(saved)?;
        streaming.pushed = pushed;
        Ok(streaming)
    }
}

/// Finds the patterns of messages with a reducer's settings, without windows or output: what
/// `jobgraph patterns` and the benchmarks use.
///
/// ```
/// use jobgraph_core::pipeline::PatternMiner;
/// let settings = serde_json::json!({"similarityThreshold": 60});
/// let mut miner = PatternMiner::new(settings.as_object().unwrap()).unwrap();
/// let a = miner.add("user 17 logged in from 10.0.0.1").unwrap().unwrap().to_owned();
/// let b = miner.add("user 42 logged in from 10.0.0.9").unwrap().unwrap().to_owned();
/// assert_eq!(a, b);
/// let report = miner.report();
/// assert_eq!(report[0].pattern, "user <number> logged in from <ipport>");
/// assert_eq!(report[0].count, 2);
/// ```
pub struct PatternMiner {
    state: window::State,
}

impl std::fmt::Debug for PatternMiner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternMiner").finish_non_exhaustive()
    }
}

impl PatternMiner {
    /// A miner with a `log-reducer`'s settings (its fields, `{}` for the defaults).
    pub fn new(settings: &Map<String, Value>) -> Result<PatternMiner, RunError> {
        let settings = std::sync::Arc::new(config::read("patterns", settings)?);
        Ok(PatternMiner {
            state: window::State::new(settings, Mode::Match, 0),
        })
    }

    /// The pattern id of one message (made if new); `None` when it has no tokens or the limit
    /// of patterns is reached. Fails when a custom mask runs past its time limit.
    pub fn add(&mut self, message: &str) -> Result<Option<&str>, RunError> {
        let found = self
            .state
            .pattern_of(message, None)
            .map_err(|e| RunError::Vertex {
                vertex: "patterns".into(),
                message: e.0,
            })?;
        Ok(found.map(|p| self.state.pattern_id(p)))
    }

    /// How many patterns were found.
    pub fn pattern_count(&self) -> usize {
        self.state.pattern_count()
    }

    /// The patterns found, most frequent first (at most 500).
    pub fn report(&self) -> Vec<PatternReport> {
        self.state.report()
    }
}

/// Reads an event's attributes as an object (`None` when absent or not an object).
pub(crate) fn attributes_of(event: &LogEvent) -> Option<Map<String, Value>> {
    let raw = event.attributes.as_deref()?;
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// Sets `event`'s attributes to `map`.
pub(crate) fn set_attributes(event: &mut LogEvent, map: Map<String, Value>) {
    event.attributes = serde_json::value::to_raw_value(&Value::Object(map)).ok();
}

/// Interns partition keys in first-seen order.
#[derive(Debug, Default)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Partitions {
    keys: IndexMap<String, (), FxBuildHasher>,
    /// The index of the empty key (no partition), once made.
    empty: Option<u32>,
}

impl Partitions {
    /// The index of the empty key: events of a reducer without partitions.
    pub(crate) fn none(&mut self) -> u32 {
        match self.empty {
            Some(i) => i,
            None => {
                let i = self.index(String::new());
                self.empty = Some(i);
                i
            }
        }
    }

    pub(crate) fn index(&mut self, key: String) -> u32 {
        match self.keys.get_index_of(&key) {
            Some(i) => i as u32,
            None => {
                self.keys.insert(key, ());
                (self.keys.len() - 1) as u32
            }
        }
    }

    /// How many keys are interned.
    #[cfg(feature = "snapshot")]
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(crate) fn key(&self, index: u32) -> &str {
        self.keys
            .get_index(index as usize)
            .map_or("", |(k, _)| k.as_str())
    }
}

/// The report of the patterns found: most frequent first (ties: first found first), at most
/// [`REPORTED_PATTERNS`].
fn report(
    miner: &cluster::Miner,
    partitions: &Partitions,
    samples: &[Vec<String>],
) -> Vec<PatternReport> {
    let mut order: Vec<usize> = (0..miner.patterns.len()).collect();
    order.sort_by(|a, b| {
        miner.patterns[*b]
            .count
            .cmp(&miner.patterns[*a].count)
            .then(a.cmp(b))
    });
    order
        .into_iter()
        .take(REPORTED_PATTERNS)
        .map(|i| {
            let p = &miner.patterns[i];
            PatternReport {
                id: p.id.clone(),
                pattern: p.text(),
                count: p.count,
                partition: partitions.key(p.partition).to_owned(),
                samples: samples.get(i).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
