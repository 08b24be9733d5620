#![no_main]
//! Fuzz target `assist`: see `oracles::assist_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::assist_any(bytes));
