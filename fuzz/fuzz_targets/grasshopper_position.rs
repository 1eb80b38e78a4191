#![no_main]
//! Fuzz target `grasshopper_position`: see [`grasshopper_fuzz::grasshopper_position`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::grasshopper_position(data));
