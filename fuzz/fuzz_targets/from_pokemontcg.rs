#![no_main]
//! Fuzz target `from_pokemontcg`: see `oracles::pokemontcg_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::pokemontcg_any(bytes));
