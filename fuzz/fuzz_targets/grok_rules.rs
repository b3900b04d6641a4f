//! cargo-fuzz target `grok_rules`: the check is [`jobgraph_fuzz::grok_rules`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::grok_rules(data));
