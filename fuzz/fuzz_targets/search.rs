#![no_main]
//! Fuzz target `search`: see `oracles::search_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::search_any(bytes));
