//! Resource limits of one script execution, and the description of a limit that was hit.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Resource limits of one script execution. Every field has a safe default; JSON names are
/// camelCase (`timeoutMs`, `maxMemoryBytes`, …) and missing fields take the default.
///
/// ```
/// let limits = jobgraph_core::Limits { timeout_ms: 250, ..Default::default() };
/// assert_eq!(limits.max_output_vertices, 10_000);
/// let from_json: jobgraph_core::Limits = serde_json::from_str(r#"{"maxMemoryBytes": 1048576}"#).unwrap();
/// assert_eq!((from_json.max_memory_bytes, from_json.timeout_ms), (1 << 20, 1000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Limits {
    /// Wall-clock time for one script, in milliseconds. Default 1000.
    pub timeout_ms: u64,
    /// Loop iterations allowed in one call frame (boa counts per frame). Default 10 000 000.
    pub loop_iterations: u64,
    /// Depth of nested calls. Default 256.
    pub recursion_depth: usize,
    /// Vertices a script may return. Default 10 000.
    pub max_output_vertices: usize,
    /// Bytes of the script's result as compact JSON. Default 8 MiB.
    pub max_output_bytes: usize,
    /// How deeply the script's source may nest, in levels: each pair of brackets is a level
    /// (estimated from above before parsing), and the parser counts constructs nested without
    /// brackets (chains of unary, conditional, `**`, `=>`, `=` or binary operators, member
    /// accesses and calls, `else if` and other statements used as bodies) at
    /// [`Limits::PARSER_STEPS_PER_LEVEL`] to a level. Values above [`Limits::MAX_NESTING`] act
    /// as [`Limits::MAX_NESTING`] (the parser recurses natively per level). Default 64.
    pub max_nesting: usize,
    /// Bytes a script may have allocated at once (its realm included), checked between budgeted
    /// slices of execution. Needs a [`crate::memory::CountingAllocator`] in the program; the
    /// isolated mode also caps the worker's address space. Default 256 MiB.
    pub max_memory_bytes: u64,
    /// Wall-clock time for a whole resolution (every level, fetch and script of one `resolve`
    /// call), in milliseconds. Default 10 000. Not a limit of one script: the sandbox ignores
    /// it; the resolver gives each script at most the time that remains.
    pub resolution_timeout_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout_ms: 1_000,
            loop_iterations: 10_000_000,
            recursion_depth: 256,
            max_output_vertices: 10_000,
            max_output_bytes: 8 * 1024 * 1024,
            max_nesting: 64,
            max_memory_bytes: 256 * 1024 * 1024,
            resolution_timeout_ms: 10_000,
        }
    }
}

impl Limits {
    /// The highest effective [`Limits::max_nesting`]: deeper sources would need more native
    /// stack than scripts run on.
    pub const MAX_NESTING: usize = 256;

    /// Constructs nested without brackets that count as one level of [`Limits::max_nesting`].
    pub const PARSER_STEPS_PER_LEVEL: usize = 16;

    /// [`Limits::max_nesting`], at most [`Limits::MAX_NESTING`].
    pub fn effective_nesting(&self) -> usize {
        self.max_nesting.min(Self::MAX_NESTING)
    }

    /// The configured value of one limit, as a [`LimitHit`] (what an error reports).
    ///
    /// ```
    /// use jobgraph_core::{LimitKind, Limits};
    /// let hit = Limits::default().hit(LimitKind::Time);
    /// assert_eq!(hit.to_string(), "time limit of 1000 ms exceeded");
    /// ```
    pub fn hit(&self, kind: LimitKind) -> LimitHit {
        let value = match kind {
            LimitKind::Time => self.timeout_ms,
            LimitKind::Loop => self.loop_iterations,
            LimitKind::Recursion => self.recursion_depth as u64,
            LimitKind::OutputVertices => self.max_output_vertices as u64,
            LimitKind::OutputBytes => self.max_output_bytes as u64,
            LimitKind::Nesting => self.effective_nesting() as u64,
            LimitKind::Memory => self.max_memory_bytes,
            LimitKind::ResolutionTime => self.resolution_timeout_ms,
        };
        LimitHit { kind, value }
    }
}

/// Which limit stopped a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LimitKind {
    /// Wall-clock time.
    Time,
    /// Loop iterations in one call frame.
    Loop,
    /// Call depth (or the VM stack that deep calls use).
    Recursion,
    /// Number of vertices in the result.
    OutputVertices,
    /// Size of the result.
    OutputBytes,
    /// Nesting of the source (brackets, and constructs nested without them).
    Nesting,
    /// Memory allocated by the script.
    Memory,
    /// Wall-clock time of the whole resolution the script was part of.
    ResolutionTime,
}

/// A limit that was hit, with its configured value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitHit {
    /// Which limit.
    pub kind: LimitKind,
    /// Its configured value (ms, iterations, calls, vertices or bytes).
    pub value: u64,
}

impl fmt::Display for LimitHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.value;
        match self.kind {
            LimitKind::Time => write!(f, "time limit of {v} ms exceeded"),
            LimitKind::Loop => write!(f, "loop limit of {v} iterations exceeded"),
            LimitKind::Recursion => write!(f, "recursion limit of {v} nested calls exceeded"),
            LimitKind::OutputVertices => write!(f, "output size limit of {v} vertices exceeded"),
            LimitKind::OutputBytes => write!(f, "output size limit of {v} bytes exceeded"),
            LimitKind::Nesting => write!(f, "nesting limit of {v} levels exceeded"),
            LimitKind::Memory => write!(f, "memory limit of {v} bytes exceeded"),
            LimitKind::ResolutionTime => write!(f, "resolution time limit of {v} ms exceeded"),
        }
    }
}

impl LimitHit {
    /// How to raise the limit: its `Limits` field and the CLI flag, as error messages end.
    ///
    /// ```
    /// use jobgraph_core::{LimitKind, Limits};
    /// let hit = Limits::default().hit(LimitKind::Memory);
    /// assert_eq!(hit.remedy(), "raise `maxMemoryBytes`, CLI `--max-memory-mb`");
    /// ```
    pub fn remedy(&self) -> &'static str {
        match self.kind {
            LimitKind::Time => "raise `timeoutMs`, CLI `--timeout-ms`",
            LimitKind::Loop => "raise `loopIterations`, CLI `--loop-iterations`",
            LimitKind::Recursion => "raise `recursionDepth`, CLI `--recursion-depth`",
            LimitKind::OutputVertices => "raise `maxOutputVertices`, CLI `--max-output-vertices`",
            LimitKind::OutputBytes => "raise `maxOutputBytes`, CLI `--max-output-bytes`",
            LimitKind::Nesting => "raise `maxNesting`, CLI `--max-nesting`, at most 256",
            LimitKind::Memory => "raise `maxMemoryBytes`, CLI `--max-memory-mb`",
            LimitKind::ResolutionTime => {
                "all template operations of one resolution together; raise \
                 `resolutionTimeoutMs`, CLI `--resolution-timeout-ms`"
            }
        }
    }
}
