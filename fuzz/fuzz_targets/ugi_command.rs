#![no_main]
//! Fuzz target `ugi_command`: see [`grasshopper_fuzz::ugi_command`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| grasshopper_fuzz::ugi_command(data));
