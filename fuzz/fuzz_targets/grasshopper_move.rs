#![no_main]
//! Fuzz target `grasshopper_move`: see [`grasshopper_fuzz::grasshopper_move`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::grasshopper_move(data));
