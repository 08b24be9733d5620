#![no_main]
//! Fuzz target `editor`: see `oracles::editor_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::editor_any(bytes));
