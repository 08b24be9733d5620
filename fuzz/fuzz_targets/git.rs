#![no_main]
//! Fuzz target `git`: see `oracles::git_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::git_any(bytes));
