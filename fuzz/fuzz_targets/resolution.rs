//! cargo-fuzz target `resolution`: the check is [`jobgraph_fuzz::resolution`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::resolution(data));
