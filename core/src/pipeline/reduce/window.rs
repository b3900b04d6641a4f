//! The reducer's run: exceptions, partitions, the open window and each pattern's samples,
//! held events and summary (`docs/pipeline.md`, "`log-reducer`", "Windows, samples and
//! summaries").
//!
//! One window is open at a time: the window of the latest event time seen. An event of a later
//! window closes it (its summaries are sent, in the order their patterns first appeared in
//! it); an event older than the open window counts in the open window, so nothing is dropped.
//! An event without a time belongs to the open window (the first window when none is open).
//! The end of the input closes the open window.

use std::sync::Arc;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde_json::{Map, Value, json};

use super::attributes::{leaves_of, partition_key, whole_mask};
use super::cluster::{Found, Message, Miner};
use super::config::{MAX_PATTERNS, Settings};
use super::mask::MaskError;
use super::merge::{Merger, Rules};
use super::tokens::{Token, Tokenizer, hash_bytes};
use super::{
    MESSAGE_TYPE, Mode, PATTERN_TAG, Partitions, REPORTED_SAMPLES, attributes_of, set_attributes,
};
use crate::pipeline::time::event_time_ms;
use jobgraph_model::ops::transforms::log_reducer::{AttributeTokenization, TokenizationInput};
use jobgraph_model::{LogEvent, Tags};

/// A pattern's state in the open window.
#[derive(Debug, Default)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
struct Held {
    /// Events of the pattern in this window.
    seen: u64,
    /// Events held for the summary.
    held: u64,
    first_ms: Option<i64>,
    last_ms: Option<i64>,
    /// Summaries sent for this pattern in this window (a `preserve` limit sends early ones).
    sent: u32,
    severity: Option<Value>,
    /// Tags every held event has with the same values.
    tags: Option<Tags>,
    merger: Merger,
}

pub(super) struct State {
    s: Arc<Settings>,
    mode: Mode,
    miner: Miner,
    tokenizer: Tokenizer,
    partitions: Partitions,
    /// The open window's number (event time / window length).
    window: Option<i64>,
    /// The latest event time seen.
    watermark: Option<i64>,
    open: IndexMap<u32, Held, FxBuildHasher>,
    out: Vec<LogEvent>,
    /// The first messages of each pattern, for the report.
    samples: Vec<Vec<String>>,
    /// The text the miner reads (message, then attribute values).
    text: String,
    extra_tokens: Vec<Token>,
}

impl State {
    pub(super) fn new(s: Arc<Settings>, mode: Mode, expected: usize) -> State {
        State {
            miner: Miner::new(s.similarity, MAX_PATTERNS),
            s,
            mode,
            tokenizer: Tokenizer::default(),
            partitions: Partitions::default(),
            window: None,
            watermark: None,
            open: IndexMap::default(),
            out: Vec::with_capacity(match mode {
                Mode::Match => expected,
                Mode::Reduce => expected.min(1024),
            }),
            samples: Vec::new(),
            text: String::new(),
            extra_tokens: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, mut event: LogEvent) -> Result<(), MaskError> {
        if self.s.exceptions.iter().any(|q| q.matches(&event)) {
            if self.mode == Mode::Reduce {
                tag(&mut event, MESSAGE_TYPE, "exception");
            }
            self.out.push(event);
            return Ok(());
        }
        let time = event_time_ms(&event);
        if self.mode == Mode::Reduce {
            self.advance(time);
        }
        if let Some(t) = time {
            self.watermark = Some(self.watermark.map_or(t, |w| w.max(t)));
        }
        let Some(pattern) = self.pattern_of(event.message(), Some(&event))? else {
            if self.mode == Mode::Reduce {
                tag(&mut event, MESSAGE_TYPE, "passthrough");
            }
            self.out.push(event);
            return Ok(());
        };
        let id = self.miner.patterns[pattern as usize].id.clone();
        if self.mode == Mode::Match {
            tag(&mut event, PATTERN_TAG, &id);
            self.out.push(event);
            return Ok(());
        }
        let held = self.open.entry(pattern).or_default();
        held.seen += 1;
        let seen = held.seen;
        if seen <= self.s.dedup || self.extra_sample(seen) {
            tag(&mut event, MESSAGE_TYPE, "sample");
            let mut attributes = attributes_of(&event).unwrap_or_default();
            let grepr = grepr_object(&mut attributes);
            grepr.insert("patternId".into(), Value::String(id));
            grepr.insert("repeatCount".into(), json!(1));
            set_attributes(&mut event, attributes);
            self.out.push(event);
            return Ok(());
        }
        let attributes = attributes_of(&event).unwrap_or_default();
        let settings = Arc::clone(&self.s);
        let rules = rules(&settings);
        let overflow = rules.preserves() && {
            let held = &self.open[&pattern];
            held.held > 0 && held.merger.overflows(&rules, &attributes)
        };
        if overflow {
            self.summarize(pattern);
        }
        let held = self
            .open
            .get_mut(&pattern)
            .expect("the pattern's state was made above");
        held.held += 1;
        if let Some(t) = time {
            held.first_ms = Some(held.first_ms.map_or(t, |f| f.min(t)));
            held.last_ms = Some(held.last_ms.map_or(t, |l| l.max(t)));
        }
        match &mut held.tags {
            None => {
                held.tags = Some(event.tags.clone());
                held.severity = event.severity.clone();
            }
            Some(common) => common.retain(|k, v| event.tags.get(k) == Some(v)),
        }
        held.merger.add(&rules, &attributes);
        Ok(())
    }

    /// Whether the `n`th event of a pattern in a window is one more sample of logarithmic
    /// sampling: `n` is base^(dedup+1), base^(dedup+2), …
    fn extra_sample(&self, n: u64) -> bool {
        let Some(base) = self.s.log_base else {
            return false;
        };
        let mut power = base.checked_pow((self.s.dedup + 1).min(64) as u32);
        while let Some(p) = power {
            if p >= n {
                return p == n;
            }
            power = p.checked_mul(base);
        }
        false
    }

    /// Closes the open window when `time` is in a later one.
    fn advance(&mut self, time: Option<i64>) {
        let Some(t) = time else {
            if self.window.is_none() {
                self.window = Some(0);
            }
            return;
        };
        let w = t.div_euclid(self.s.window_ms);
        match self.window {
            None => self.window = Some(w),
            Some(open) if w > open => {
                self.close();
                self.window = Some(w);
            }
            Some(_) => {}
        }
    }

    /// Sends the summaries of the open window.
    fn close(&mut self) {
        let patterns: Vec<u32> = self.open.keys().copied().collect();
        for p in patterns {
            if self.open[&p].held > 0 {
                self.summarize(p);
            }
        }
        self.open.clear();
    }

    /// Sends pattern `p`'s summary of what is held, and starts holding anew.
    fn summarize(&mut self, p: u32) {
        let window_ms = self.s.window_ms;
        let window = self.window.unwrap_or(0);
        let window_end = window.saturating_add(1).saturating_mul(window_ms);
        let settings = Arc::clone(&self.s);
        let rules = rules(&settings);
        let pattern = &self.miner.patterns[p as usize];
        let Some(state) = self.open.get_mut(&p) else {
            return;
        };
        let held = std::mem::take(state);
        state.seen = held.seen;
        state.sent = held.sent + 1;
        let mut summary = LogEvent::default();
        summary.id = Some(Value::String(format!(
            "{}-{}-{}",
            pattern.id,
            window.saturating_mul(window_ms),
            held.sent
        )));
        summary.event_timestamp = held.first_ms.map(|t| json!(t));
        summary.received_timestamp = Some(json!(window_end));
        summary.severity = held.severity.clone();
        if let Some(tags) = held.tags.clone() {
            summary.tags = tags;
        }
        tag(&mut summary, MESSAGE_TYPE, "summary");
        let message = message_part(&pattern.text()).to_owned();
        if !(message.is_empty() && self.s.input != TokenizationInput::MessageOnly) {
            summary.message = Some(if self.s.repeat_prefix {
                let times = if held.held == 1 { "time" } else { "times" };
                format!(
                    "[{} {times} in {}] {message}",
                    held.held, self.s.window_text
                )
            } else {
                message
            });
        }
        let mut attributes = held.merger.finish(&rules);
        let first = held.first_ms.unwrap_or(window.saturating_mul(window_ms));
        let last = held.last_ms.unwrap_or(first);
        let grepr = grepr_object(&mut attributes);
        grepr.insert("patternId".into(), Value::String(pattern.id.clone()));
        grepr.insert("repeatCount".into(), json!(held.held));
        grepr.insert("firstTimeTimestamp".into(), json!(first));
        grepr.insert("lastTimeTimestamp".into(), json!(last));
        grepr.insert("receivedTimestamp".into(), json!(window_end));
        grepr.insert(
            "rawLogsUrl".into(),
            Value::String(format!(
                "/lake/patterns/{}?start={first}&end={}",
                pattern.id,
                last.saturating_add(1)
            )),
        );
        set_attributes(&mut summary, attributes);
        self.out.push(summary);
    }

    /// The pattern of `event`, made if new; `None` when it has nothing to build one from or
    /// the limit of patterns is reached.
    /// `event` is `None` for a bare line (no tags, no attributes).
    pub(super) fn pattern_of(
        &mut self,
        message: &str,
        event: Option<&LogEvent>,
    ) -> Result<Option<u32>, MaskError> {
        let s = Arc::clone(&self.s);
        let s = &*s;
        let use_message = match s.input {
            TokenizationInput::MessageOnly | TokenizationInput::MessageAndAttributes => true,
            TokenizationInput::MessageOrAttributes => !message.is_empty(),
            TokenizationInput::AttributesOnly => false,
        };
        let use_attributes = match s.input {
            TokenizationInput::MessageOnly => false,
            TokenizationInput::MessageOrAttributes => message.is_empty(),
            _ => true,
        };
        self.text.clear();
        let mut shape = String::new();
        self.extra_tokens.clear();
        if !use_attributes {
            // The message alone: tokenized where it is, not copied.
            let text = if use_message { message } else { "" };
            self.tokenizer.run(
                text,
                &s.masks,
                &s.delimiters,
                &s.mask_tokens,
                &s.mask_hashes,
            )?;
        } else {
            if use_message {
                self.text.push_str(message);
            }
            self.tokenizer.run(
                &self.text,
                &s.masks,
                &s.delimiters,
                &s.mask_tokens,
                &s.mask_hashes,
            )?;
            if let Some(attributes) = event.and_then(attributes_of) {
                let mut leaves = Vec::new();
                leaves_of(&attributes, &mut Vec::new(), s, &mut shape, &mut leaves);
                if s.attribute_tokens == AttributeTokenization::KeysAndValues {
                    for value in leaves {
                        self.text.push('\u{0}');
                        let start = self.text.len();
                        self.text.push_str(&value);
                        let mask = whole_mask(s, &value)?;
                        self.extra_tokens.push(Token {
                            start: start as u32,
                            end: self.text.len() as u32,
                            hash: match mask {
                                Some(m) => s.mask_hashes[m as usize],
                                None => hash_bytes(value.as_bytes()),
                            },
                            mask,
                        });
                    }
                }
            }
        }
        let mut tokens = std::mem::take(&mut self.tokenizer.tokens);
        tokens.extend_from_slice(&self.extra_tokens);
        if tokens.is_empty() && shape.is_empty() {
            self.tokenizer.tokens = tokens;
            return Ok(None);
        }
        if tokens.is_empty() {
            // Keys alone: one token standing for the shape.
            self.text.push('\u{0}');
            tokens.push(Token {
                start: self.text.len() as u32,
                end: self.text.len() as u32,
                hash: hash_bytes(shape.as_bytes()),
                mask: None,
            });
        }
        let partition = match event {
            Some(event)
                if !(s.partition_tags.is_empty()
                    && s.partition_paths.is_empty()
                    && shape.is_empty()) =>
            {
                let key = partition_key(event, s, &shape);
                self.partitions.index(key)
            }
            _ => self.partitions.none(),
        };
        let text = if use_attributes {
            self.text.as_str()
        } else if use_message {
            message
        } else {
            ""
        };
        let found = self.miner.add(Message {
            partition,
            partition_key: self.partitions.key(partition),
            text,
            tokens: &tokens,
            spans: &self.tokenizer.spans,
            mask_tokens: &s.mask_tokens,
        });
        self.tokenizer.tokens = tokens;
        let Some(p) = found.pattern() else {
            return Ok(None);
        };
        if let Found::New(_) = found {
            self.samples.push(Vec::new());
        }
        let samples = &mut self.samples[p as usize];
        if samples.len() < REPORTED_SAMPLES {
            samples.push(message.to_owned());
        }
        Ok(Some(p))
    }

    /// The patterns found so far.
    pub(super) fn report(&self) -> Vec<super::PatternReport> {
        super::report(&self.miner, &self.partitions, &self.samples)
    }

    pub(super) fn pattern_count(&self) -> usize {
        self.miner.patterns.len()
    }

    /// Pattern `p`'s id.
    pub(super) fn pattern_id(&self, p: u32) -> &str {
        &self.miner.patterns[p as usize].id
    }

    /// The events sent so far (passed through, and the summaries of closed windows), taken.
    pub(super) fn take_out(&mut self) -> Vec<LogEvent> {
        std::mem::take(&mut self.out)
    }

    /// Closes the open window (a streaming run's processing time passed its end): its
    /// summaries are sent; an event of the same window later opens it again.
    pub(super) fn close_open(&mut self) {
        if self.mode == Mode::Reduce {
            self.close();
        }
    }
}

/// The message part of a pattern's text (before the attribute values).
fn message_part(text: &str) -> &str {
    text.split('\u{0}').next().unwrap_or("")
}

/// The merge rules of `s`.
fn rules(s: &Settings) -> Rules<'_> {
    Rules {
        default: &s.default_strategies,
        paths: &s.path_strategies,
    }
}

/// Adds `value` to tag `key` (once).
fn tag(event: &mut LogEvent, key: &str, value: &str) {
    match event.tags.get_mut(key) {
        Some(values) => {
            if !values.iter().any(|v| v == value) {
                values.push(value.to_owned());
            }
        }
        None => {
            event.tags.insert(key.to_owned(), vec![value.to_owned()]);
        }
    }
}

/// The `grepr` object of attributes, made (or replaced, if not an object) when needed.
fn grepr_object(attributes: &mut Map<String, Value>) -> &mut Map<String, Value> {
    let entry = attributes
        .entry("grepr")
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    match entry {
        Value::Object(map) => map,
        _ => unreachable!("made an object above"),
    }
}

/// What a snapshot keeps of a [`State`]: the patterns, the partitions, the open window with its
/// held events' merges, and the samples. The settings come from the vertex; the events sent
/// and not yet taken are not kept (a snapshot is taken between batches, when there are none).
#[cfg(feature = "snapshot")]
#[derive(serde::Serialize)]
pub(crate) struct SavedRef<'a> {
    miner: &'a Miner,
    partitions: &'a Partitions,
    window: Option<i64>,
    watermark: Option<i64>,
    open: &'a IndexMap<u32, Held, FxBuildHasher>,
    samples: &'a [Vec<String>],
}

/// A [`SavedRef`] read back.
#[cfg(feature = "snapshot")]
#[derive(serde::Deserialize)]
pub(crate) struct Saved {
    miner: Miner,
    partitions: Partitions,
    window: Option<i64>,
    watermark: Option<i64>,
    open: IndexMap<u32, Held, FxBuildHasher>,
    samples: Vec<Vec<String>>,
}

#[cfg(feature = "snapshot")]
impl State {
    pub(super) fn saved(&self) -> SavedRef<'_> {
        SavedRef {
            miner: &self.miner,
            partitions: &self.partitions,
            window: self.window,
            watermark: self.watermark,
            open: &self.open,
            samples: &self.samples,
        }
    }

    /// Puts back what [`State::saved`] kept. Fails when it does not fit these settings (a
    /// pattern of a partition that does not exist): the snapshot is of another reducer.
    pub(super) fn restore(&mut self, saved: Saved) -> Result<(), String> {
        saved.miner.check_saved()?;
        let partitions = saved.partitions.len();
        if let Some(p) = saved
            .miner
            .patterns
            .iter()
            .find(|p| p.partition as usize >= partitions)
        {
            return Err(format!(
                "pattern {} names partition {} of {partitions}",
                p.id, p.partition
            ));
        }
        if let Some(p) = saved
            .open
            .keys()
            .find(|p| **p as usize >= saved.miner.patterns.len())
        {
            return Err(format!(
                "the open window holds pattern #{p}, which does not exist"
            ));
        }
        self.miner = saved.miner;
        self.partitions = saved.partitions;
        self.window = saved.window;
        self.watermark = saved.watermark;
        self.open = saved.open;
        self.samples = saved.samples;
        Ok(())
    }
}
