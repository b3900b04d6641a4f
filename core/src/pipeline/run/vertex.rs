//! What each vertex does to the events that reach it, for a run ([`Runner::stage`]): the
//! sources emit, the filters and the sampler drop, the branch splits, the transforms and
//! parsers change each event; the record keeps the first events out and dropped.

use super::{Runner, StageState, time_left};
use crate::pipeline::RunError;
#[cfg(feature = "grok")]
use crate::pipeline::grok_stage;
use crate::pipeline::report::{Change, KeptEvent, RunInput, VertexRun};
use crate::pipeline::sampler::Bucket;
use crate::pipeline::stages::{Stage, apply};
use jobgraph_model::{LogEvent, Tags};

impl Runner<'_> {
    /// Runs vertex `v`'s stage on the events that reached it: the events of its `output`,
    /// and in `others` those of its other ports, in [`Stage::ports`] order.
    pub(super) fn stage(
        &mut self,
        v: usize,
        mut events: Vec<LogEvent>,
        input: &mut RunInput,
        event_takers: &mut usize,
        record: &mut VertexRun,
        others: &mut Vec<Vec<LogEvent>>,
    ) -> Result<Vec<LogEvent>, RunError> {
        let pipeline = self.pipeline;
        let stage = &pipeline.stages[v];
        let keep = self.options.keep;
        let mut run_events = || {
            *event_takers -= 1;
            if *event_takers == 0 {
                std::mem::take(&mut input.events)
            } else {
                input.events.clone()
            }
        };
        match stage {
            Stage::TableSource { table, query } => {
                let source = match table.as_ref().and_then(|t| input.tables.get(t)) {
                    Some(events) => events.clone(),
                    None => run_events(),
                };
                self.emit(source, query.as_ref(), record, keep)
            }
            Stage::AgentSource => self.emit(run_events(), None, record, keep),
            // Inline events are emitted once: by a run, or by a streaming run's first batch.
            Stage::ValuesSource { .. } if !self.first => Ok(Vec::new()),
            Stage::ValuesSource {
                events: inline,
                query,
            } => self.emit(inline.clone(), query.as_ref(), record, keep),
            Stage::Filter { query, inverted } => {
                self.filter(
                    &mut events,
                    query,
                    *inverted,
                    &record.name.clone(),
                    record,
                    keep,
                )?;
                Ok(events)
            }
            Stage::Branch { query } => {
                let (matched, rest): (Vec<_>, Vec<_>) =
                    events.into_iter().partition(|event| query.matches(event));
                self.check_time()?;
                others.push(rest);
                Ok(matched)
            }
            Stage::Sampler(sampler) => {
                let level = self.states.as_deref().and_then(|states| match states[v] {
                    StageState::Sampled(level) => Some(level),
                    _ => None,
                });
                let mut bucket = match level {
                    Some(level) => Bucket::at(sampler, level),
                    None => Bucket::new(sampler),
                };
                let name = record.name.clone();
                events.retain(|event| {
                    let admitted = bucket.admit(event);
                    if !admitted {
                        record.events_dropped += 1;
                        if record.dropped.len() < keep {
                            record.dropped.push(KeptEvent {
                                event: event.clone(),
                                change: None,
                                dropped_by: Some(name.clone()),
                            });
                        }
                    }
                    admitted
                });
                if let Some(states) = self.states.as_deref_mut() {
                    states[v] = StageState::Sampled(bucket.level());
                }
                self.check_time()?;
                Ok(events)
            }
            Stage::Json(json) => self.each(events, record, |e| {
                json.apply(e);
                Ok(())
            }),
            Stage::KeyValue(kv) => {
                let mut cut = 0usize;
                let events = self.each(events, record, |e| {
                    cut += usize::from(kv.apply(e));
                    Ok(())
                })?;
                if cut > 0 {
                    record.notes.push(format!(
                        "{cut} message(s) had more than {} pairs: the rest were not read",
                        crate::pipeline::keyvalue::MAX_PAIRS
                    ));
                }
                Ok(events)
            }
            Stage::Remap(remap) => self.each(events, record, |e| {
                remap.apply(e);
                Ok(())
            }),
            Stage::Transform { actions, skipped } => {
                for kind in skipped {
                    record.notes.push(format!(
                        "transform `{kind}` is not simulated: events pass it unchanged"
                    ));
                }
                self.each(events, record, |event| {
                    apply(actions, event);
                    Ok(())
                })
            }
            #[cfg(feature = "grok")]
            Stage::Grok(grok) => {
                let name = record.name.clone();
                self.each(events, record, |event| {
                    grok_stage::apply(grok, &name, event)
                })
            }
            Stage::Reduce(reducer) => {
                let name = record.name.clone();
                let closing = self.closing && !self.keep_open.contains(&name);
                let (started, timeout_ms) = (self.started, self.options.timeout_ms);
                // One run keeps its reducer's state here; a streaming run in its states.
                let mut own = None;
                let state = match self.states.as_deref_mut() {
                    Some(states) => {
                        if !matches!(states[v], StageState::Reducing(_)) {
                            states[v] = StageState::Reducing(Box::new(reducer.start(events.len())));
                        }
                        let StageState::Reducing(state) = &mut states[v] else {
                            unreachable!("made above")
                        };
                        &mut **state
                    }
                    None => own.insert(reducer.start(events.len())),
                };
                state.push_all(&name, events, &mut || time_left(started, timeout_ms))?;
                if closing {
                    state.close_window();
                    record.patterns = state.patterns();
                }
                Ok(state.take_out())
            }
            Stage::Sink | Stage::Pass => Ok(events),
        }
    }

    /// Runs `change` on every event, keeping the first `keep` with their tag changes.
    fn each(
        &self,
        mut events: Vec<LogEvent>,
        record: &mut VertexRun,
        mut change: impl FnMut(&mut LogEvent) -> Result<(), RunError>,
    ) -> Result<Vec<LogEvent>, RunError> {
        let keep = self.options.keep;
        for (i, event) in events.iter_mut().enumerate() {
            if i % 4096 == 4095 {
                self.check_time()?;
            }
            if i < keep {
                let before = event.tags.clone();
                change(event)?;
                record.output.push(KeptEvent {
                    change: Some(diff(&before, &event.tags)),
                    event: event.clone(),
                    dropped_by: None,
                });
            } else {
                change(event)?;
            }
        }
        Ok(events)
    }

    /// A source's events, filtered by its own query when it has one.
    fn emit(
        &self,
        mut source: Vec<LogEvent>,
        query: Option<&crate::pipeline::Query>,
        record: &mut VertexRun,
        keep: usize,
    ) -> Result<Vec<LogEvent>, RunError> {
        record.events_in = source.len();
        if let Some(query) = query {
            let name = record.name.clone();
            self.filter(&mut source, query, false, &name, record, keep)?;
        }
        Ok(source)
    }

    fn filter(
        &self,
        events: &mut Vec<LogEvent>,
        query: &crate::pipeline::Query,
        inverted: bool,
        name: &str,
        record: &mut VertexRun,
        keep: usize,
    ) -> Result<(), RunError> {
        let mut seen = 0usize;
        let mut timed_out = false;
        let started = self.started;
        let limit = u128::from(self.options.timeout_ms);
        events.retain(|event| {
            seen += 1;
            if seen.is_multiple_of(4096) && started.elapsed().as_millis() > limit {
                timed_out = true;
            }
            let kept = query.matches(event) != inverted;
            if !kept {
                record.events_dropped += 1;
                if record.dropped.len() < keep {
                    record.dropped.push(KeptEvent {
                        event: event.clone(),
                        change: None,
                        dropped_by: Some(name.to_owned()),
                    });
                }
            }
            kept
        });
        if timed_out {
            self.check_time()?;
        }
        Ok(())
    }
}

/// Tag values in `after` and not `before` (added), and the reverse (removed).
fn diff(before: &Tags, after: &Tags) -> Change {
    let mut change = Change::default();
    for (key, values) in after {
        let old = before.get(key);
        let added: Vec<String> = values
            .iter()
            .filter(|v| old.is_none_or(|o| !o.contains(v)))
            .cloned()
            .collect();
        if !added.is_empty() {
            change.added.insert(key.clone(), added);
        }
    }
    for (key, values) in before {
        let new = after.get(key);
        let removed: Vec<String> = values
            .iter()
            .filter(|v| new.is_none_or(|n| !n.contains(v)))
            .cloned()
            .collect();
        if !removed.is_empty() {
            change.removed.insert(key.clone(), removed);
        }
    }
    change
}
