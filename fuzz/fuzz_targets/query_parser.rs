//! cargo-fuzz target `query_parser`: the check is [`jobgraph_fuzz::query_parser`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::query_parser(data));
