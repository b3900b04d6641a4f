//! What one script execution ends with: its JSON result, or why it produced none.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::limits::LimitHit;

/// A script's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptOutput {
    /// The JSON value of the script's final expression (a string result is parsed as JSON).
    pub value: Value,
    /// Whether the script read the clock (`Date.now()`, `new Date()`) or `Math.random()`: such
    /// a result may differ on the next run with the same inputs, so it is never reused by the
    /// resolver's execution cache.
    #[serde(default)]
    pub nondeterministic: bool,
}

/// Why a script produced no graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ScriptError {
    /// The final expression was `null` or `undefined` (or JSON text `null`).
    ReturnedNothing,
    /// Syntax error, exception or limit.
    Failed(ScriptFailure),
    /// The result is not JSON-shaped (for example a string that is not JSON, or a BigInt).
    NotJson(String),
}

/// A failed execution: the message, where, and the limit when one stopped it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptFailure {
    /// The error as JavaScript reports it, for example `TypeError: x is not a function`.
    pub message: String,
    /// 1-based line of the script, when known.
    pub line: Option<u32>,
    /// 1-based column of the script, when known.
    pub column: Option<u32>,
    /// The limit that stopped the script, if any.
    pub limit: Option<LimitHit>,
}

impl fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Some(limit) => write!(f, "{limit}")?,
            None => f.write_str(&self.message)?,
        }
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line}, column {column}")?;
        }
        if let Some(limit) = self.limit {
            write!(f, " ({})", limit.remedy())?;
        }
        Ok(())
    }
}

impl ScriptFailure {
    /// The failure of a script stopped by a limit.
    pub fn limit(hit: LimitHit) -> Self {
        ScriptFailure {
            message: hit.to_string(),
            line: None,
            column: None,
            limit: Some(hit),
        }
    }

    /// A failure that is not the script's: the sandbox itself could not run it.
    pub fn infrastructure(message: String) -> Self {
        ScriptFailure {
            message,
            line: None,
            column: None,
            limit: None,
        }
    }
}

impl From<ScriptFailure> for ScriptError {
    fn from(failure: ScriptFailure) -> Self {
        ScriptError::Failed(failure)
    }
}
