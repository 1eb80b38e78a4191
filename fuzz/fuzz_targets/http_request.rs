#![no_main]
//! Fuzz target `http_request`: see [`grasshopper_fuzz::http_request`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::http_request(data));
