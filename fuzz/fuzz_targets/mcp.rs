#![no_main]
//! Fuzz target `mcp`: see `oracles::mcp_any` for what must hold.

#[path = "../../tests/suite/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| oracles::mcp_any(bytes));
