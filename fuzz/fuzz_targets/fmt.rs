#![no_main]
//! Fuzz target `fmt`: see `oracles::fmt_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::fmt_any(bytes));
