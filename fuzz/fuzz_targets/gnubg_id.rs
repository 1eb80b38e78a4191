#![no_main]
//! Fuzz target `gnubg_id`: see [`grasshopper_fuzz::gnubg_id`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::gnubg_id(data));
