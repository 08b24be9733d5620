//! Suffixes and prefixes that are part of a name but are written several ways: `Mewtwo-EX`
//! / `Mewtwo EX`, `V-UNIÓN` / `V UNIONE` / `V-UNION`, `V-ASTRO` / `VSTAR`, es/pt/fr/de/it
//! `TURBO` / `BREAK`, and the XY Mega prefix `M Venusaur-EX` / `Mega Venusaur EX`.
//!
//! [`normalize`] rewrites them to one spelling and never removes one: `ex` (Scarlet &
//! Violet, EX Ruby & Sapphire era) and `EX` (Black & White, XY) stay different names.

/// Suffixes that may be glued with a hyphen (`Incineroar-GX`, `Mewtwo-V-UNION`), longest
/// first so `-V-UNION` wins over `-V`. Case-sensitive on purpose: `-ex` is not `-EX`.
const HYPHEN_SUFFIXES: [&str; 12] = [
    "V-UNION", "V-UNIÓN", "V-UNIÃO", "V-ASTRO", "VMAX", "VSTAR", "BREAK", "TURBO", "GX", "EX",
    "ex", "V",
];

/// Rewrites the suffix and Mega spellings of `name` (cleaned, tail removed).
pub(super) fn normalize(name: &str) -> String {
    let mut words: Vec<&str> = Vec::with_capacity(8);
    for word in name.split(' ').filter(|w| !w.is_empty()) {
        // Every glued suffix, last first (`Mewtwo-EX-TURBO` is `Mewtwo EX TURBO`): one
        // split would leave `Mewtwo-EX`, which the next call would split, so canonical
        // would not be idempotent.
        let at = words.len();
        let mut stem = word;
        while let Some((rest, suffix)) = split_hyphen_suffix(stem) {
            words.insert(at, suffix);
            stem = rest;
        }
        words.insert(at, stem);
    }
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while let Some(&word) = words.get(i) {
        let next = words.get(i + 1).copied();
        let (replacement, used) = translate(word, next, i + 1 == words.len());
        out.push(replacement);
        i += used;
    }
    mega_prefix(&out)
}

/// `Mewtwo-ex` is `Mewtwo` + `ex`; `Porygon-Z` and `Ho-Oh` are left whole.
fn split_hyphen_suffix(word: &str) -> Option<(&str, &'static str)> {
    HYPHEN_SUFFIXES.iter().find_map(|&suffix| {
        let stem = word.strip_suffix(suffix)?.strip_suffix('-')?;
        (!stem.is_empty()).then_some((stem, suffix))
    })
}

/// One word (or two, for `V UNIONE` / `V ASTRO`) in the spelling every language shares.
/// Returns the replacement and how many words it consumed.
fn translate<'a>(word: &'a str, next: Option<&str>, last: bool) -> (&'a str, usize) {
    if !word.starts_with(['V', 'v']) {
        // es/pt/fr/de/it print BREAK as TURBO; only upper case, at the end: the Trainer
        // card "Mega Turbo" is not a BREAK.
        let turbo = last && word == "TURBO";
        return (if turbo { "BREAK" } else { word }, 1);
    }
    match word.to_uppercase().as_str() {
        "V-UNIÓN" | "V-UNIÃO" | "V-UNION" => ("V-UNION", 1),
        "V-ASTRO" => ("VSTAR", 1),
        "V" => match next.map(str::to_uppercase).as_deref() {
            Some("UNIONE" | "UNION" | "UNIÓN" | "UNIÃO") => ("V-UNION", 2),
            Some("ASTRO") => ("VSTAR", 2),
            _ => (word, 1),
        },
        _ => (word, 1),
    }
}

/// `M Venusaur EX` and `M-Bisaflor EX` are `Mega Venusaur EX` ("the M (which stands for
/// Mega) is part of a Mega Evolution Pokémon's name"); only with `EX`, where it was printed.
fn mega_prefix(words: &[&str]) -> String {
    let joined = words.join(" ");
    if !words.contains(&"EX") {
        return joined;
    }
    if let Some(rest) = joined
        .strip_prefix("M ")
        .or_else(|| joined.strip_prefix("M-"))
    {
        // `M- EX` (a stray blank after the hyphen) must not give a double blank.
        return format!("Mega {}", rest.trim_start());
    }
    joined
}
