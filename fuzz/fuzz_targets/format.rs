#![no_main]
//! Fuzz target `format`: see `oracles::format_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::format_any(bytes));
