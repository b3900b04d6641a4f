//! What each integration's intake took and refused since the service started, for
//! `GET /v1/integrations` (`jobgraph integration:list`).

use std::collections::HashMap;
use std::sync::Mutex;

/// An integration's intake counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IntakeCounts {
    /// Events taken.
    pub events: u64,
    /// Requests taken.
    pub requests: u64,
    /// Requests refused.
    pub refused: u64,
}

/// Every integration's counters.
#[derive(Debug, Default)]
pub struct IntakeStats {
    counts: Mutex<HashMap<String, IntakeCounts>>,
}

impl IntakeStats {
    /// Counts a request of `integration`'s: taken with `events`, or refused (`None`).
    pub fn count(&self, integration: &str, events: Option<usize>) {
        if let Ok(mut counts) = self.counts.lock() {
            let c = counts.entry(integration.to_owned()).or_default();
            match events {
                Some(n) => {
                    c.events += n as u64;
                    c.requests += 1;
                }
                None => c.refused += 1,
            }
        }
    }

    /// `integration`'s counters.
    pub fn of(&self, integration: &str) -> IntakeCounts {
        self.counts
            .lock()
            .ok()
            .and_then(|c| c.get(integration).copied())
            .unwrap_or_default()
    }
}
