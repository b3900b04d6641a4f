//! Resolution errors. Each message starts with a prefix that is part of the service contract
//! (see [`Error::prefix`]) and ends with where it happened.
//!
//! [`Error`] is `#[non_exhaustive]`, and so is each of its variants: new kinds of error and new
//! details of a kind may come without breaking a program that uses this crate. Outside this
//! crate, read an error through its accessors rather than by matching its variants:
//!
//! - [`Error::code`]: what went wrong, a stable machine-readable code (constants in [`code`]);
//!   the service sends it as the `code` of its error bodies.
//! - [`Error::prefix`]: the start of the message (constants in [`prefix`]), part of the contract.
//! - [`Error::location`]: the template and the chain of template operations, when tied to one.
//! - [`Error::problems`]: each [`Problem`] with its JSON pointer, for invalid inputs, an invalid
//!   job graph or a script result that is not one.
//! - [`Error::script_failure`]: the script's error with its line, column and sandbox limit.
//! - [`Error::source_failure`]: what a failing template source said (not "not found").
//!
//! Why `#[non_exhaustive]` and not an opaque struct (as `serde_json::Error`, whose
//! `classify()` is the code here): the variants stay matchable inside the crate, where each is
//! built and its message written, and their fields stay documented; a caller outside gets the
//! same guarantees as from an opaque type, since it can neither build a variant nor match one
//! exhaustively, and it may still read a variant's fields with `..` in the pattern.
//!
//! ```
//! use jobgraph_core::{Resolver, TemplateSet};
//! use jobgraph_core::error::{code, prefix};
//! let resolver = Resolver::new(TemplateSet::default());
//! let job = serde_json::json!({"vertices": [
//!     {"type": "template-operation", "name": "ingest", "templateId": "missing"}]});
//! let err = resolver.resolve_document_blocking(&job).unwrap_err();
//! assert_eq!(err.code(), code::TEMPLATE_NOT_FOUND);
//! assert_eq!(err.prefix(), prefix::TEMPLATE_NOT_FOUND);
//! assert!(err.to_string().starts_with("Template not found: missing"));
//! assert_eq!(err.location().unwrap().operation_path, ["ingest"]);
//! assert!(err.problems().is_empty() && err.script_failure().is_none());
//! ```

use std::fmt;

use serde::Serialize;

use crate::sandbox::ScriptFailure;
use crate::{Problem, join_problems};
use prefix::*;

/// Where an error happened: the template and the chain of template operations that led there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// Id of the template (empty for a template under test).
    pub template_id: Option<String>,
    /// Version of the template.
    pub template_version: Option<u64>,
    /// `id@version`, or the name of a template under test.
    pub template: Option<String>,
    /// Names of the template operations from the job graph down, for example `["ingest", "parse"]`.
    pub operation_path: Vec<String>,
}

impl Location {
    /// The operation path written `ingest > parse`.
    pub fn path_text(&self) -> String {
        self.operation_path.join(" > ")
    }
}

impl fmt::Display for Location {
    /// Writes ` (template t@1, operation a > b)`, or nothing when there is nothing to say.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(t) = &self.template {
            parts.push(format!("template {t}"));
        }
        if !self.operation_path.is_empty() {
            parts.push(format!("operation {}", self.path_text()));
        }
        if parts.is_empty() {
            Ok(())
        } else {
            write!(f, " ({})", parts.join(", "))
        }
    }
}

/// The message prefixes, written once: [`Error`]'s messages start with them and
/// [`Error::prefix`] returns them. The first five are the service contract's (the interface
/// document's "Errors" table), verbatim.
pub mod prefix {
    /// Prefix of [`super::Error::ReturnedNothing`].
    pub const RETURNED_NOTHING: &str = "Script execution returned null or undefined";
    /// Prefix of [`super::Error::ScriptFailed`].
    pub const SCRIPT_FAILED: &str = "JavaScript execution failed";
    /// Prefix of [`super::Error::InvalidOutput`].
    pub const INVALID_OUTPUT: &str = "Could not parse resolved template into a JobGraph";
    /// Prefix of [`super::Error::TemplateNotFound`].
    pub const TEMPLATE_NOT_FOUND: &str = "Template not found";
    /// Prefix of [`super::Error::InvalidInputs`].
    pub const INVALID_INPUTS: &str = "Input validation failed";
    /// Prefix of [`super::Error::InvalidTemplate`].
    pub const INVALID_TEMPLATE: &str = "Invalid template";
    /// Prefix of [`super::Error::TooDeep`].
    pub const TOO_DEEP: &str = "Template nesting exceeds the maximum depth";
    /// Prefix of [`super::Error::TooManyOperations`].
    pub const TOO_MANY_OPERATIONS: &str = "Too many template operations";
    /// Prefix of [`super::Error::ResolvedTooLarge`].
    pub const RESOLVED_TOO_LARGE: &str = "Resolved graph too large";
    /// Prefix of [`super::Error::Port`].
    pub const UNKNOWN_PORT: &str = "Unknown port";
    /// Prefix of [`super::Error::NameCollision`].
    pub const NAME_COLLISION: &str = "Vertex name collision";
    /// Prefix of [`super::Error::InvalidJobGraph`].
    pub const INVALID_JOB_GRAPH: &str = "Invalid job graph";
    /// Prefix of [`super::Error::Source`].
    pub const SOURCE_FAILED: &str = "Template source failed";
}

/// The codes, written once: [`Error::code`] returns them, the service sends them as the
/// `code` of its error bodies, the npm package as its error's `code`. Stable: a program may
/// compare with them.
pub mod code {
    /// Code of [`super::Error::ReturnedNothing`].
    pub const SCRIPT_RETURNED_NOTHING: &str = "SCRIPT_RETURNED_NOTHING";
    /// Code of [`super::Error::ScriptFailed`].
    pub const SCRIPT_FAILED: &str = "SCRIPT_FAILED";
    /// Code of [`super::Error::InvalidOutput`].
    pub const INVALID_OUTPUT: &str = "INVALID_OUTPUT";
    /// Code of [`super::Error::TemplateNotFound`].
    pub const TEMPLATE_NOT_FOUND: &str = "TEMPLATE_NOT_FOUND";
    /// Code of [`super::Error::InvalidInputs`].
    pub const INPUT_VALIDATION_FAILED: &str = "INPUT_VALIDATION_FAILED";
    /// Code of [`super::Error::InvalidTemplate`].
    pub const INVALID_TEMPLATE: &str = "INVALID_TEMPLATE";
    /// Code of [`super::Error::TooDeep`].
    pub const MAX_DEPTH_EXCEEDED: &str = "MAX_DEPTH_EXCEEDED";
    /// Code of [`super::Error::TooManyOperations`].
    pub const MAX_OPERATIONS_EXCEEDED: &str = "MAX_OPERATIONS_EXCEEDED";
    /// Code of [`super::Error::ResolvedTooLarge`] for too many vertices.
    pub const MAX_RESOLVED_VERTICES_EXCEEDED: &str = "MAX_RESOLVED_VERTICES_EXCEEDED";
    /// Code of [`super::Error::ResolvedTooLarge`] for too many bytes of JSON.
    pub const MAX_RESOLVED_BYTES_EXCEEDED: &str = "MAX_RESOLVED_BYTES_EXCEEDED";
    /// Code of [`super::Error::Port`].
    pub const UNKNOWN_PORT: &str = "UNKNOWN_PORT";
    /// Code of [`super::Error::NameCollision`].
    pub const NAME_COLLISION: &str = "NAME_COLLISION";
    /// Code of [`super::Error::InvalidJobGraph`].
    pub const INVALID_JOB_GRAPH: &str = "INVALID_JOB_GRAPH";
    /// Code of [`super::Error::Source`].
    pub const SOURCE_FAILED: &str = "SOURCE_FAILED";
}

/// The two budgets of a resolution's output ([`Error::ResolvedTooLarge`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolvedLimit {
    /// `ResolveOptions::max_resolved_vertices`: vertices the templates produced.
    Vertices,
    /// `ResolveOptions::max_resolved_bytes`: bytes of the templates' results as compact JSON.
    Bytes,
}

impl ResolvedLimit {
    /// What is counted: `vertices` or `bytes of JSON`.
    pub fn unit(self) -> &'static str {
        match self {
            ResolvedLimit::Vertices => "vertices",
            ResolvedLimit::Bytes => "bytes of JSON",
        }
    }

    /// The option that sets it: `maxResolvedVertices` or `maxResolvedBytes`.
    pub fn option(self) -> &'static str {
        match self {
            ResolvedLimit::Vertices => "maxResolvedVertices",
            ResolvedLimit::Bytes => "maxResolvedBytes",
        }
    }

    /// The CLI flag that sets it, without its dashes: `max-resolved-vertices` or
    /// `max-resolved-bytes`.
    pub fn flag(self) -> &'static str {
        match self {
            ResolvedLimit::Vertices => "max-resolved-vertices",
            ResolvedLimit::Bytes => "max-resolved-bytes",
        }
    }

    /// The error code: `MAX_RESOLVED_VERTICES_EXCEEDED` or `MAX_RESOLVED_BYTES_EXCEEDED`.
    pub fn code(self) -> &'static str {
        match self {
            ResolvedLimit::Vertices => code::MAX_RESOLVED_VERTICES_EXCEEDED,
            ResolvedLimit::Bytes => code::MAX_RESOLVED_BYTES_EXCEEDED,
        }
    }
}

/// Everything that can go wrong while testing or resolving templates.
///
/// Non-exhaustive, like each variant: read it through [`Error::code`], [`Error::prefix`],
/// [`Error::location`], [`Error::problems`], [`Error::script_failure`] and
/// [`Error::source_failure`] (the module's documentation says why).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The script's final expression was `null` or `undefined`.
    #[error(
        "{RETURNED_NOTHING}: the script's final expression must be the job graph (an object or its JSON text){at}"
    )]
    #[non_exhaustive]
    ReturnedNothing {
        /// Where.
        at: Box<Location>,
    },
    /// Syntax error, exception, or a sandbox limit.
    #[error("{SCRIPT_FAILED}: {failure}{at}")]
    #[non_exhaustive]
    ScriptFailed {
        /// What failed, with line and column when known.
        failure: Box<ScriptFailure>,
        /// Where.
        at: Box<Location>,
    },
    /// The script's result is not a (valid) job graph.
    #[error("{INVALID_OUTPUT}: {reason}{at}")]
    #[non_exhaustive]
    InvalidOutput {
        /// Every problem, joined.
        reason: String,
        /// The problems with JSON pointers into the script's result (empty when not JSON-shaped).
        problems: Vec<Problem>,
        /// Where.
        at: Box<Location>,
    },
    /// The template id or version does not exist.
    #[error("{TEMPLATE_NOT_FOUND}: {reference}{at}")]
    #[non_exhaustive]
    TemplateNotFound {
        /// `id` or `id@version` as requested.
        reference: String,
        /// The operation that asked for it.
        at: Box<Location>,
    },
    /// `templateInputs` do not match the `inputSchema`.
    #[error("{INVALID_INPUTS}: {}{at}", join_problems(.problems))]
    #[non_exhaustive]
    InvalidInputs {
        /// Every violation, each with the JSON pointer of the input.
        problems: Vec<Problem>,
        /// Where.
        at: Box<Location>,
    },
    /// The template definition itself is broken (bad `inputSchema`, a port map naming a vertex
    /// the script did not produce, …).
    #[error("{INVALID_TEMPLATE}: {reason}{at}")]
    #[non_exhaustive]
    InvalidTemplate {
        /// What is wrong and how to fix it.
        reason: String,
        /// Where.
        at: Box<Location>,
    },
    /// Template operations nested deeper than the maximum.
    #[error("{TOO_DEEP} of {max}: {chain}")]
    #[non_exhaustive]
    TooDeep {
        /// The maximum depth.
        max: usize,
        /// The chain of operations with their templates, `a (t1@1) > b (t2@1) > …`.
        chain: String,
        /// The operation at the excess level.
        at: Box<Location>,
    },
    /// One resolution would expand more template operations than `Limits::max_operations`
    /// (a template that returns several operations of itself multiplies them at every level).
    #[error(
        "{TOO_MANY_OPERATIONS}: expanding level {level} would bring the total to {total}, more than the maximum of {max} per resolution; raise `maxOperations` (CLI `--max-operations`) or make the templates produce fewer operations{at}"
    )]
    #[non_exhaustive]
    TooManyOperations {
        /// The configured maximum.
        max: usize,
        /// The nesting level (1 = the job graph's own operations) that went past it.
        level: usize,
        /// Operations expanded so far plus those of that level.
        total: usize,
        /// The first operation of that level.
        at: Box<Location>,
    },
    /// The templates of one resolution produced more than `ResolveOptions::max_resolved_vertices`
    /// vertices or `ResolveOptions::max_resolved_bytes` bytes of JSON (docs/resolution.md,
    /// "Output budget").
    #[error(
        "{RESOLVED_TOO_LARGE}: with this operation's result (level {level}) the templates have produced {total} {}, more than the maximum of {max} per resolution; raise `{}` (CLI `--{}`) or make the templates produce less{at}",
        .limit.unit(), .limit.option(), .limit.flag()
    )]
    #[non_exhaustive]
    ResolvedTooLarge {
        /// Which budget was passed.
        limit: ResolvedLimit,
        /// Its configured maximum.
        max: usize,
        /// Nesting level (1 = the job graph's own operations) of the operation.
        level: usize,
        /// What the templates had produced, that operation's result included.
        total: usize,
        /// The operation whose result went past the maximum.
        at: Box<Location>,
    },
    /// An edge names a port the template does not have, or leaves out a port where the choice
    /// is ambiguous.
    #[error("{UNKNOWN_PORT}: {reason}{at}")]
    #[non_exhaustive]
    Port {
        /// The edge and the ports available.
        reason: String,
        /// The template operation whose port was named.
        at: Box<Location>,
    },
    /// Two vertices of the resolved graph got the same name.
    #[error(
        "{NAME_COLLISION}: {name:?} is produced by {first} and by {second}; rename one of them"
    )]
    #[non_exhaustive]
    NameCollision {
        /// The colliding name.
        name: String,
        /// Where the first one comes from.
        first: String,
        /// Where the second one comes from.
        second: String,
    },
    /// The job graph given to the resolver is not valid.
    #[error("{INVALID_JOB_GRAPH}: {}", join_problems(.problems))]
    #[non_exhaustive]
    InvalidJobGraph {
        /// Every problem with its JSON pointer.
        problems: Vec<Problem>,
    },
    /// The template source failed for another reason than "not found".
    #[error("{SOURCE_FAILED}: {message}{at}")]
    #[non_exhaustive]
    Source {
        /// What the source said.
        message: String,
        /// The operation that asked.
        at: Box<Location>,
    },
}

impl Error {
    /// A stable machine-readable code, for example `TEMPLATE_NOT_FOUND`: one of [`code`]'s.
    pub fn code(&self) -> &'static str {
        match self {
            Error::ReturnedNothing { .. } => code::SCRIPT_RETURNED_NOTHING,
            Error::ScriptFailed { .. } => code::SCRIPT_FAILED,
            Error::InvalidOutput { .. } => code::INVALID_OUTPUT,
            Error::TemplateNotFound { .. } => code::TEMPLATE_NOT_FOUND,
            Error::InvalidInputs { .. } => code::INPUT_VALIDATION_FAILED,
            Error::InvalidTemplate { .. } => code::INVALID_TEMPLATE,
            Error::TooDeep { .. } => code::MAX_DEPTH_EXCEEDED,
            Error::TooManyOperations { .. } => code::MAX_OPERATIONS_EXCEEDED,
            Error::ResolvedTooLarge { limit, .. } => limit.code(),
            Error::Port { .. } => code::UNKNOWN_PORT,
            Error::NameCollision { .. } => code::NAME_COLLISION,
            Error::InvalidJobGraph { .. } => code::INVALID_JOB_GRAPH,
            Error::Source { .. } => code::SOURCE_FAILED,
        }
    }

    /// The message prefix: for the five errors of the interface document, exactly its text.
    pub fn prefix(&self) -> &'static str {
        match self {
            Error::ReturnedNothing { .. } => prefix::RETURNED_NOTHING,
            Error::ScriptFailed { .. } => prefix::SCRIPT_FAILED,
            Error::InvalidOutput { .. } => prefix::INVALID_OUTPUT,
            Error::TemplateNotFound { .. } => prefix::TEMPLATE_NOT_FOUND,
            Error::InvalidInputs { .. } => prefix::INVALID_INPUTS,
            Error::InvalidTemplate { .. } => prefix::INVALID_TEMPLATE,
            Error::TooDeep { .. } => prefix::TOO_DEEP,
            Error::TooManyOperations { .. } => prefix::TOO_MANY_OPERATIONS,
            Error::ResolvedTooLarge { .. } => prefix::RESOLVED_TOO_LARGE,
            Error::Port { .. } => prefix::UNKNOWN_PORT,
            Error::NameCollision { .. } => prefix::NAME_COLLISION,
            Error::InvalidJobGraph { .. } => prefix::INVALID_JOB_GRAPH,
            Error::Source { .. } => prefix::SOURCE_FAILED,
        }
    }

    /// Where the error happened, when it is tied to a template operation.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::ReturnedNothing { at }
            | Error::ScriptFailed { at, .. }
            | Error::InvalidOutput { at, .. }
            | Error::TemplateNotFound { at, .. }
            | Error::InvalidInputs { at, .. }
            | Error::InvalidTemplate { at, .. }
            | Error::TooDeep { at, .. }
            | Error::TooManyOperations { at, .. }
            | Error::ResolvedTooLarge { at, .. }
            | Error::Port { at, .. }
            | Error::Source { at, .. } => Some(at),
            Error::NameCollision { .. } | Error::InvalidJobGraph { .. } => None,
        }
    }

    /// The validation problems (with JSON pointers) the error carries, if any.
    pub fn problems(&self) -> &[Problem] {
        match self {
            Error::InvalidOutput { problems, .. }
            | Error::InvalidInputs { problems, .. }
            | Error::InvalidJobGraph { problems } => problems,
            _ => &[],
        }
    }

    /// The script failure (message, line, column, limit), for script errors.
    pub fn script_failure(&self) -> Option<&ScriptFailure> {
        match self {
            Error::ScriptFailed { failure, .. } => Some(failure),
            _ => None,
        }
    }

    /// What the template source said when it failed for another reason than "not found" (code
    /// [`code::SOURCE_FAILED`]): a failure of the storage behind it rather than of the job, which
    /// the service answers with a 500 and logs.
    pub fn source_failure(&self) -> Option<&str> {
        match self {
            Error::Source { message, .. } => Some(message),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
