//! A run's source, whichever it is: the lake ([`LakeFeed`]) or agents ([`AgentFeed`]). Its
//! position goes into each checkpoint as JSON, under the vertex's name.

use serde_json::Value;

use crate::runner::agent_source::AgentFeed;
use crate::runner::source::{LakeFeed, Position, Read};
use crate::state::AppState;

/// The one source a run reads.
pub(crate) enum Feed {
    Lake(Box<LakeFeed>),
    Agent(AgentFeed),
}

impl Feed {
    /// The vertex.
    pub(crate) fn vertex(&self) -> &str {
        match self {
            Feed::Lake(f) => &f.vertex,
            Feed::Agent(f) => &f.vertex,
        }
    }

    /// Starts where `position` (a checkpoint's) says, or from its beginning.
    pub(crate) async fn start_at(
        &mut self,
        state: &AppState,
        position: Option<&Value>,
    ) -> Result<(), String> {
        match self {
            Feed::Lake(f) => {
                let position =
                    position.and_then(|p| serde_json::from_value::<Position>(p.clone()).ok());
                f.start_at(state, position).await
            }
            Feed::Agent(f) => f.start_at(position).await,
        }
    }

    /// The position after the events read so far.
    pub(crate) fn position(&self) -> Value {
        match self {
            Feed::Lake(f) => serde_json::to_value(f.position()).unwrap_or(Value::Null),
            Feed::Agent(f) => f.position(),
        }
    }

    /// Whether it knows of events it has not read.
    pub(crate) fn behind(&self) -> bool {
        match self {
            Feed::Lake(f) => f.behind(),
            Feed::Agent(f) => f.behind(),
        }
    }

    /// The next events.
    pub(crate) async fn read(&mut self, state: &AppState) -> Result<Read, String> {
        match self {
            Feed::Lake(f) => f.read(state).await,
            Feed::Agent(f) => f.read().await,
        }
    }

    /// Its position was checkpointed.
    pub(crate) async fn checkpointed(&mut self) {
        if let Feed::Agent(f) = self {
            f.checkpointed().await;
        }
    }
}
