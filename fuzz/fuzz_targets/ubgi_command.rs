#![no_main]
//! Fuzz target `ubgi_command`: see [`grasshopper_fuzz::ubgi_command`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::ubgi_command(data));
