#![no_main]
//! Fuzz target `bg_move_notation`: see [`grasshopper_fuzz::bg_move_notation`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::bg_move_notation(data));
