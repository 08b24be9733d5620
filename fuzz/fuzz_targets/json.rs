#![no_main]
//! Fuzz target `json`: see `oracles::json_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::json_any(bytes));
