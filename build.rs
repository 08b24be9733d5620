//! Build script: on Linux with glibc, links the `deckbox` binary at a fixed address instead
//! of as a position-independent executable. A PIE has every pointer in the binary's static
//! tables (about 35,000, nearly all in the dependencies: Unicode tables, panic locations,
//! vtables) patched by the dynamic loader at every start, writing a private copy of 650 KB
//! of pages; a fixed-address binary has them written at link time. That was a quarter of a
//! narrow `deckbox search` (docs/performance.md, "Start-up of a narrow search, part two").
//! The cost: the binary's own code and data are not at a random address (the libraries,
//! heap and stack still are). The library and the other targets are linked as before.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bin=deckbox=-no-pie");
    }
}
