//! Deletes from the intake log what every pipeline reading it has checkpointed past
//! (`docs/intake.md`, "Durability"): the smallest position of the runs not ended nor stopped.
//! A stream no such run reads keeps its entries `intake.unreadRetentionMs`, for a pipeline
//! about to start (or a version taking over from the one before).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

use crate::ids::now_ms;
use crate::intake_log::Intake;
use crate::intake_log::partition::integration_of;
use crate::runner::agent_source::AgentPosition;
use crate::state::AppState;

/// Starts the trimming task when the service has an intake log: it runs as long as the
/// runtime.
pub(super) fn start(state: &AppState) {
    let Some(log) = state.intake.clone() else {
        return;
    };
    let state = state.clone();
    tokio::spawn(async move {
        let every = Duration::from_millis(state.config.intake.trim_ms.max(10));
        loop {
            tokio::time::sleep(every).await;
            if let Err(e) = trim(&state, &log).await {
                tracing::warn!("intake: could not trim the intake log (trying again): {e}");
            }
        }
    });
}

/// The smallest position per stream of the runs that hold what they read.
fn readers(positions: &[String]) -> HashMap<String, u64> {
    let mut least: HashMap<String, u64> = HashMap::new();
    for text in positions {
        let Ok(Value::Object(vertices)) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        for position in vertices.into_values() {
            let Ok(p) = serde_json::from_value::<AgentPosition>(position) else {
                continue;
            };
            least
                .entry(p.stream)
                .and_modify(|s| *s = (*s).min(p.seq))
                .or_insert(p.seq);
        }
    }
    least
}

/// The slowest reader of `stream`: of its own (a partitioned run's reader of one partition)
/// or of its whole integration (`{integration}` reads every `{integration}.{p}`; positions
/// are the stream's sequences either way).
fn slowest(least: &HashMap<String, u64>, stream: &str) -> Option<u64> {
    let own = least.get(stream).copied();
    let whole = match integration_of(stream) {
        (integration, Some(_)) => least.get(integration).copied(),
        _ => None,
    };
    match (own, whole) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

async fn trim(state: &AppState, log: &Intake) -> Result<(), String> {
    let positions = state
        .store
        .reading_positions()
        .await
        .map_err(|e| e.to_string())?;
    let least = readers(&positions);
    log.refresh().await.map_err(|e| e.to_string())?;
    let cutoff = now_ms() - state.config.intake.unread_retention_ms as i64;
    for (stream, info) in log.streams() {
        let upto = match slowest(&least, &stream) {
            Some(seq) => Some(seq),
            None => log
                .last_taken_before(&stream, cutoff)
                .await
                .map_err(|e| e.to_string())?,
        };
        if let Some(upto) = upto.filter(|u| *u >= info.first) {
            let deleted = log.trim(&stream, upto).await.map_err(|e| e.to_string())?;
            tracing::debug!(stream = %stream, upto, deleted, "intake: trimmed");
        }
    }
    // What is left (JetStream: the budget check reads it until the next pass).
    log.refresh().await.map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{readers, slowest};

    #[test]
    fn the_slowest_reader_of_each_stream_holds_it_and_lake_positions_are_ignored() {
        let positions = [
            r#"{"agent": {"stream": "dd", "seq": 7}}"#.to_owned(),
            r#"{"agent": {"stream": "dd", "seq": 3}, "lake": {"seq": 9, "rows": 2}}"#.to_owned(),
            r#"{"otel": {"stream": "otel", "seq": 12}}"#.to_owned(),
            "not json".to_owned(),
        ];
        let least = readers(&positions);
        assert_eq!(least.get("dd"), Some(&3));
        assert_eq!(least.get("otel"), Some(&12));
        assert_eq!(least.len(), 2);
    }

    #[test]
    fn a_partition_is_held_by_its_own_readers_and_by_the_readers_of_its_whole_integration() {
        let positions = [
            r#"{"agent": {"stream": "dd.0", "seq": 40}}"#.to_owned(),
            r#"{"agent": {"stream": "dd.1", "seq": 55}}"#.to_owned(),
            r#"{"whole": {"stream": "dd", "seq": 47}}"#.to_owned(),
        ];
        let least = readers(&positions);
        assert_eq!(slowest(&least, "dd.0"), Some(40));
        assert_eq!(slowest(&least, "dd.1"), Some(47));
        assert_eq!(slowest(&least, "dd.2"), Some(47));
        assert_eq!(slowest(&least, "otel.0"), None);
    }
}
