#![no_main]
//! Fuzz target `names`: see `oracles::names_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::names_any(bytes));
