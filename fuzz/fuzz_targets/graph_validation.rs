//! cargo-fuzz target `graph_validation`: the check is [`jobgraph_fuzz::graph_validation`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::graph_validation(data));
