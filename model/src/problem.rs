//! [`Problem`]: one thing wrong with a JSON document, where (a JSON pointer) and what. Reading a
//! job graph ([`JobGraph::from_value`](crate::JobGraph::from_value)), reading a vertex's typed
//! view, job-graph validation, input validation and the resolver's errors all report them: one
//! type for every "this value, at this pointer, is wrong" (what used to be `ShapeError` too).

use std::fmt;

use serde::Serialize;

/// One problem of a JSON document: where (a JSON pointer) and what.
///
/// The pointer is relative to the value that was read: empty for that value itself, written
/// `(root)`. [`Problem::within`] places it in a document that holds that value.
///
/// ```
/// use jobgraph_model::{JobGraph, Problem};
/// let err = JobGraph::from_value(serde_json::json!({"vertices": [{"type": "a"}]})).unwrap_err();
/// assert_eq!(err, Problem::new("/vertices/0", "`name` is missing"));
/// assert_eq!(err.to_string(), "/vertices/0: `name` is missing");
/// assert_eq!(err.within("/jobGraph").pointer, "/jobGraph/vertices/0");
/// assert_eq!(Problem::new("", "must be an object").to_string(), "(root): must be an object");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// JSON pointer of the offending value, for example `/vertices/3/name` (empty: the value
    /// that was read).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl Problem {
    /// A problem at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The same problem seen from a document that holds this one's value at `prefix`.
    pub fn within(mut self, prefix: &str) -> Self {
        self.pointer = format!("{prefix}{}", self.pointer);
        self
    }

    /// As the error of a `Deserialize` impl. The value being deserialized may sit anywhere in a
    /// larger document, so its own root is not written `(root)`: a problem there is just its
    /// message.
    pub(crate) fn into_de_error<E: serde::de::Error>(self) -> E {
        if self.pointer.is_empty() {
            E::custom(self.message)
        } else {
            E::custom(self)
        }
    }
}

impl fmt::Display for Problem {
    /// `pointer: message`, the root written `(root)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: {}", self.message)
    }
}

impl std::error::Error for Problem {}

/// Joins problems into one line: `"/a: x; /b: y"`.
///
/// ```
/// use jobgraph_model::{Problem, join_problems};
/// let problems = [Problem::new("", "x"), Problem::new("/b", "y")];
/// assert_eq!(join_problems(&problems), "(root): x; /b: y");
/// ```
pub fn join_problems(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
