#![no_main]
//! Fuzz target `json_api`: see [`grasshopper_fuzz::json_api`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::json_api(data));
