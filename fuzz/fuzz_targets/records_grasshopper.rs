#![no_main]
//! Fuzz target `records_grasshopper`: see [`grasshopper_fuzz::records_grasshopper`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::records_grasshopper(data));
