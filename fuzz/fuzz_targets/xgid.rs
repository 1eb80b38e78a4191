#![no_main]
//! Fuzz target `xgid`: see [`grasshopper_fuzz::xgid`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::xgid(data));
