#![no_main]
//! Fuzz target `transport_lines`: see [`grasshopper_fuzz::transport_lines`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::transport_lines(data));
