//! Card names as the rulebooks define them, turned into keys for lookup and comparison.
//!
//! [`canonical`] reduces a printed name to what counts as the card's name ("What does and
//! doesn't count for a Pokémon's name?"): no level, no δ, no Team Plasma, no pictured
//! person; owners, forms, suffixes and end symbols kept. [`lookup_key`] then folds case and
//! accents for lookup while keeping the distinctions the rules make (`ex` is not `EX`).
//! Normalize once, compare many times: every rule compares keys, never raw text.

/// The rules name of a printed card name (stub, replaced by the names work).
pub fn canonical(printed: &str) -> String {
    printed.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lookup key of a name (stub, replaced by the names work).
pub fn lookup_key(name: &str) -> String {
    canonical(name).to_lowercase()
}
