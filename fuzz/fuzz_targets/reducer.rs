//! cargo-fuzz target `reducer`: the check is [`jobgraph_fuzz::reducer`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::reducer(data));
