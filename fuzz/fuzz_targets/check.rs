#![no_main]
//! Fuzz target `check`: see `oracles::check_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::check_any(bytes));
