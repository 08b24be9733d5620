#![no_main]
//! Fuzz target `query`: see `oracles::query_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::query_any(bytes));
