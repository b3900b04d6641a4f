//! cargo-fuzz target `template_loading`: the check is [`jobgraph_fuzz::template_loading`], shared with tests/fuzz_replay.rs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jobgraph_fuzz::template_loading(data));
