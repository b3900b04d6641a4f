//! [`Problem`]: one thing wrong with a JSON document, where (a JSON pointer) and what. Job-graph
//! validation, input validation and the resolver's errors list them.

use std::fmt;

use serde::Serialize;

/// One validation problem: where (a JSON pointer) and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// JSON pointer of the offending value, for example `/vertices/3/name`.
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: {}", self.message)
    }
}

/// Joins problems into one line: `"/a: x; /b: y"`.
pub fn join_problems(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
