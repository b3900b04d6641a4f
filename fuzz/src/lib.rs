//! The checks of the cargo-fuzz targets of jobgraph-core, one public function per target.
//!
//! Each function takes the raw fuzz input, runs it through jobgraph-core and asserts the
//! target's properties (a failed property panics, which libFuzzer reports as a crash). The same
//! file and its modules are compiled into the native replay test (`tests/fuzz_replay.rs`, through `#[path]`), which
//! runs every file of `fuzz/corpus/<target>/` through these functions under `cargo test`; so these
//! files may only use what both crates have: `jobgraph_core`, `serde_json` and `arbitrary`.
//!
//! Structure-aware inputs are read with [`arbitrary::Unstructured`]: the bytes choose among
//! fragments (names from a small alphabet, vertex types, script fragments …), so the fuzzer
//! spends its time past the JSON parser instead of in it.
//!
//! One module per target (these files too: the replay test compiles them the same way); the root re-exports each target's public items.

#![allow(clippy::missing_panics_doc)]

mod edge_parser;
mod graph_validation;
mod grok_rules;
mod query_parser;
mod reducer;
mod resolution;
mod template_loading;

pub use edge_parser::edge_parser;
pub use graph_validation::graph_validation;
pub use grok_rules::grok_rules;
pub use query_parser::query_parser;
pub use reducer::reducer;
pub use resolution::{
    FUZZ_MAX_OPERATIONS, ResolutionCase, check_resolution, fuzz_limits, resolution,
};
pub use template_loading::{INPUT_SEPARATOR, template_loading};
