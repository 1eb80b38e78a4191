#![no_main]
//! Fuzz target `records_backgammon`: see [`grasshopper_fuzz::records_backgammon`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::records_backgammon(data));
