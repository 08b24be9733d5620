//! What printed names carry after the name proper: a level, δ, a pictured person in
//! parentheses, a Prism Star or Star symbol, and the database marker `*`.
//!
//! [`split_tail`] peels these off the end of a cleaned name and reports the one end symbol
//! that is part of the name. It must not touch the start or middle of a name, and must
//! not guess at suffixes such as `ex` or `V` (see the parent module for those).

/// An end symbol that is part of the name ("Symbols at the end of a Pokémon's name are
/// part of a Pokémon's name").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EndSymbol {
    /// Prism Star, printed as an outlined diamond-in-star; written `◇` by both datasets.
    Prism,
    /// The EX/POP era Pokémon Star (Gold Star): `☆` (TCGdex), `★` (pokemontcg), `Star`.
    Star,
}

impl EndSymbol {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            EndSymbol::Prism => "◇",
            EndSymbol::Star => "★",
        }
    }
}

/// Level words: en `LV.`, fr `Niv.`, es `Nv.`, pt `Nív.`, it `Liv.`, de `Lv.` (lower case).
const LEVEL_WORDS: [&str; 5] = ["lv", "niv", "nív", "nv", "liv"];

/// δ and "Delta Species" in the languages the rulebooks use (lower case), with or without
/// parentheses.
const DELTA: [&str; 8] = [
    "δ",
    "(δ)",
    "delta species",
    "delta-spezies",
    "especie delta",
    "espécie delta",
    "espèces delta",
    "specie delta",
];

/// Prism Star spellings: TCGdex and pokemontcg both print `◇`; deck lists use `{*}`.
const PRISM: [&str; 7] = ["◇", "♢", "◊", "⬦", "{*}", "(prism star)", "prism star"];

/// Star spellings: `☆` (TCGdex), `★` (pokemontcg), `{star}`, and TCGdex's German `Kyogre *`.
const STAR: [&str; 5] = ["☆", "★", "{star}", "(star)", " *"];

/// Whether `c` is one character of a name symbol: a Prism Star or Star spelling of
/// [`PRISM`] and [`STAR`] (`◇`, `♢`, `◊`, `⬦`, `☆`, `★`), δ, or the sex of a Nidoran (`♀`, `♂`).
pub(super) fn is_symbol_char(c: char) -> bool {
    let single = |s: &&str| s.chars().count() == 1 && s.starts_with(c);
    matches!(c, 'δ' | '♀' | '♂') || PRISM.iter().any(single) || STAR.iter().any(single)
}

/// Peels level, δ, pictured person and end symbol off `name` (already [`super::text::clean`]ed).
/// Returns the name proper and the end symbol that belongs to the name, if any.
pub(super) fn split_tail(name: &str) -> (String, Option<EndSymbol>) {
    let mut rest = name.trim_end().to_owned();
    let mut symbol = None;
    loop {
        // Every check looks at the end in lower case: lower-case once per round.
        let lower = rest.to_lowercase();
        if let Some(found) = strip_symbol(&mut rest, &lower) {
            symbol = symbol.or(Some(found));
        } else if !(strip_delta(&mut rest, &lower)
            || strip_level(&mut rest, &lower)
            || strip_marker(&mut rest)
            || strip_paren(&mut rest))
        {
            break;
        }
    }
    (rest, symbol)
}

/// Removes a trailing end-symbol spelling and says which symbol it was.
fn strip_symbol(rest: &mut String, lower: &str) -> Option<EndSymbol> {
    for (list, symbol) in [(&PRISM[..], EndSymbol::Prism), (&STAR[..], EndSymbol::Star)] {
        if let Some(spelling) = list.iter().find(|s| lower.ends_with(*s)) {
            truncate_chars(rest, spelling.chars().count());
            return Some(symbol);
        }
    }
    // "Groudon Star" (TCGdex) is "Groudon ★" (pokemontcg); "Team Star Grunt" and its
    // translations ("Recluta del Team Star", "Recruta da Equipe Star") are not stars.
    let mut words = lower.rsplit(' ');
    if let (Some("star"), Some(before)) = (words.next(), words.next())
        && !matches!(before, "team" | "equipe" | "equipo")
    {
        truncate_chars(rest, "star".len());
        return Some(EndSymbol::Star);
    }
    None
}

/// Removes TCGdex's `*` glued to untranslated German names (`Boost Energy*`).
fn strip_marker(rest: &mut String) -> bool {
    if rest.ends_with('*') && !rest.ends_with(" *") && !rest.ends_with("{*}") {
        rest.pop();
        return true;
    }
    false
}

/// Removes a trailing parenthesis: the pictured person is not part of the name. Two
/// exceptions keep the text, unwrapped: a model number (`PokéDex (HANDY909)` is printed
/// `PokéDex HANDY909`) and the type of an Ancient TM (`Ancient TM (Ice)` is `[Ice]`).
fn strip_paren(rest: &mut String) -> bool {
    let Some(open) = rest.strip_suffix(')').and_then(|r| r.rfind('(')) else {
        return false;
    };
    let Some(inner) = rest.get(open + 1..rest.len() - 1) else {
        return false;
    };
    if inner.contains(')') {
        return false;
    }
    let inner = inner.trim().to_owned();
    rest.truncate(open);
    let kept = rest.trim_end().len();
    rest.truncate(kept);
    if inner.chars().any(|c| c.is_ascii_digit()) {
        rest.push(' ');
        rest.push_str(&inner);
    } else if rest.ends_with(" TM") {
        rest.push_str(" [");
        rest.push_str(&inner);
        rest.push(']');
    }
    true
}

/// Removes δ or "(Delta Species)" from the end, unless nothing would be left.
fn strip_delta(rest: &mut String, lower: &str) -> bool {
    for spelling in DELTA {
        let bare = lower.ends_with(spelling);
        let wrapped = lower
            .strip_suffix(')')
            .and_then(|r| r.strip_suffix(spelling))
            .is_some_and(|r| r.ends_with('('));
        if bare || wrapped {
            let n = spelling.chars().count() + if wrapped { 2 } else { 0 };
            if rest.chars().count() > n {
                truncate_chars(rest, n);
                return true;
            }
        }
    }
    false
}

/// Whether `name` (already [`super::text::clean`]ed) ends in the level `X` of a Pokémon
/// LV.X (`Uxie LV.X`, `Uxie LV X`, `Créfadet Niv. X`), after any end symbol or δ.
pub(super) fn says_level_x(name: &str) -> bool {
    let mut rest = name.trim_end().to_owned();
    loop {
        let lower = rest.to_lowercase();
        let mut peeled = rest.clone();
        if strip_level(&mut peeled, &lower) {
            return lower.ends_with('x');
        }
        if !(strip_symbol(&mut rest, &lower).is_some() || strip_delta(&mut rest, &lower)) {
            return false;
        }
    }
}

/// Removes a level (`LV.X`, `LV. 43`, `Niv. 43`, `Nív. X`) from the end.
fn strip_level(rest: &mut String, lower: &str) -> bool {
    let mut words = lower.rsplit(' ');
    let (Some(last), Some(before)) = (words.next(), words.next()) else {
        return false;
    };
    let is_level = |w: &str| w == "x" || (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    let is_word = |w: &str| LEVEL_WORDS.contains(&w.strip_suffix('.').unwrap_or(w));
    // "LV.X" and "LV.43" in one word, or "LV. 43" / "LV X" in two.
    let glued = last
        .split_once('.')
        .is_some_and(|(word, level)| LEVEL_WORDS.contains(&word) && is_level(level));
    let n = if glued {
        last.chars().count()
    } else if is_level(last) && is_word(before) {
        last.chars().count() + 1 + before.chars().count()
    } else {
        return false;
    };
    if rest.chars().count() <= n + 1 {
        return false;
    }
    truncate_chars(rest, n);
    true
}

/// Drops the last `n` characters and any space left before them.
fn truncate_chars(s: &mut String, n: usize) {
    for _ in 0..n {
        s.pop();
    }
    let kept = s.trim_end().len();
    s.truncate(kept);
}
