#![no_main]
//! Fuzz target `from_tcgdex`: see `oracles::tcgdex_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::tcgdex_any(bytes));
