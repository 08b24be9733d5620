//! Identifying the card a deck-list line means.
//!
//! Order: set code + number first (with promo aliases, subsets and number padding), then the
//! name in any of the six languages, preferring the deck's own language. The answer says
//! what was found and how; turning it into findings is [`crate::check`]'s job.

use std::collections::BTreeMap;

use crate::cards::{CardDb, Category, EnergyKind, NameMatch, Printing, PrintingId};
use crate::lang::Language;
use crate::names;

/// Set codes that old exports write for basic Energy; they name no real set, so the line
/// is identified by its name.
const ENERGY_PSEUDO_CODES: &[&str] = &[
    "ENERGY",
    "SWSHENERGY",
    "SMENERGY",
    "SUMENERGY",
    "XYENERGY",
    "BWENERGY",
    "SVENERGY",
];

/// How many suggestions an unknown card gets.
const MAX_SUGGESTIONS: usize = 3;

/// What a line resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Identified. `others` holds one printing per *other* functional profile the name also
    /// matches (non-empty only for a name-only match: see `ambiguous-card`).
    Found {
        id: PrintingId,
        language: Option<Language>,
        by_printing: bool,
        others: Vec<PrintingId>,
    },
    /// The set code and number name `printing`, whose names do not match the written one.
    /// `by_name` is what the name alone identifies, if anything.
    Mismatch {
        printing: PrintingId,
        by_name: Option<PrintingId>,
    },
    /// Nothing matches. [`suggestions`] finds the nearest known names.
    Unknown,
}

/// Identifies a card from what a line says.
pub fn resolve(
    db: &CardDb,
    name: &str,
    set: Option<&str>,
    number: Option<&str>,
    prefer: Option<Language>,
) -> Resolution {
    if let (Some(set), Some(number)) = (set, number)
        && !is_energy_pseudo_code(set)
    {
        let hits = db.by_set_number(set, number);
        if let Some(&first) = hits.first() {
            // The name index holds the lookup key of every printed name: its hits for this
            // name, restricted to these printings, say in which languages the line's name
            // is this printing's name (one key computation instead of one per name).
            let by_name = db.by_name(name);
            let named = hits.iter().copied().find_map(|id| {
                let mut matching = by_name
                    .iter()
                    .filter(|hit| hit.id == id)
                    .map(|hit| hit.language);
                let first = matching.next()?;
                let language = if Some(first) == prefer || matching.any(|l| Some(l) == prefer) {
                    prefer.unwrap_or(first)
                } else {
                    first
                };
                Some((id, language))
            });
            return match named {
                Some((id, language)) => Resolution::Found {
                    id,
                    language: Some(language),
                    by_printing: true,
                    others: Vec::new(),
                },
                None => Resolution::Mismatch {
                    printing: first,
                    by_name: best_by_name(db, name, prefer).map(|(id, _, _)| id),
                },
            };
        }
    }
    match best_by_name(db, name, prefer) {
        Some((id, language, others)) => Resolution::Found {
            id,
            language: Some(language),
            by_printing: false,
            others,
        },
        None => Resolution::Unknown,
    }
}

/// The languages in which `name` is the name of some card.
pub fn name_languages(db: &CardDb, name: &str) -> Vec<Language> {
    let mut languages: Vec<Language> = db.by_name(name).iter().map(|hit| hit.language).collect();
    languages.sort();
    languages.dedup();
    languages
}

fn is_energy_pseudo_code(code: &str) -> bool {
    let upper = code.to_ascii_uppercase();
    ENERGY_PSEUDO_CODES.contains(&upper.as_str())
}

/// The newest printing the name identifies, its language, and one printing of each other
/// functional profile the name also matches.
fn best_by_name(
    db: &CardDb,
    name: &str,
    prefer: Option<Language>,
) -> Option<(PrintingId, Language, Vec<PrintingId>)> {
    let hits = db.by_name(name);
    let preferred: Vec<NameMatch> = match prefer {
        Some(lang) if hits.iter().any(|hit| hit.language == lang) => hits
            .into_iter()
            .filter(|hit| hit.language == lang)
            .collect(),
        _ => hits,
    };
    let newest = |a: &&NameMatch, b: &&NameMatch| {
        let (pa, pb) = (db.get(a.id), db.get(b.id));
        let key = |p: Option<&Printing>| p.map(|p| p.release_date.clone()).unwrap_or_default();
        key(pa).cmp(&key(pb)).then(b.id.cmp(&a.id))
    };
    let best = *preferred.iter().max_by(newest)?;
    let best_profile = db.get(best.id).map(Profile::of);
    // One representative (the newest) per other profile, in a stable order.
    let mut others: BTreeMap<Profile, &NameMatch> = BTreeMap::new();
    for hit in &preferred {
        let Some(profile) = db.get(hit.id).map(Profile::of) else {
            continue;
        };
        if Some(&profile) == best_profile.as_ref() {
            continue;
        }
        let keep = others
            .get(&profile)
            .is_none_or(|kept| newest(&hit, kept).is_gt());
        if keep {
            others.insert(profile, hit);
        }
    }
    let others = others.values().map(|hit| hit.id).collect();
    Some((best.id, best.language, others))
}

/// What the construction rules can tell apart about a card. Two printings with one name and
/// the same profile are interchangeable for every rule. The trainer kind is left out: the
/// construction rules do not read it, and databases leave it blank on some reprints.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Profile {
    name: String,
    category: u8,
    basic_pokemon: bool,
    basic_energy: bool,
    tags: [bool; 4],
}

impl Profile {
    fn of(printing: &Printing) -> Profile {
        Profile {
            name: printing.rules_key().to_string(),
            category: match printing.category {
                Category::Pokemon => 0,
                Category::Trainer => 1,
                Category::Energy => 2,
            },
            basic_pokemon: printing.is_basic_pokemon(),
            basic_energy: printing.energy == Some(EnergyKind::Basic),
            tags: [
                printing.ace_spec,
                printing.radiant,
                printing.prism_star,
                printing.pokemon_star,
            ],
        }
    }
}

/// The known names nearest to `name`, best first, each once.
pub fn suggestions(db: &CardDb, name: &str) -> Vec<String> {
    let wanted = names::fold(name);
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(f64, String)> = Vec::new();
    for (key, id, language) in db.name_keys() {
        let folded = names::fold(key);
        // Cheap length filter first: very different lengths cannot score high.
        if folded.len().abs_diff(wanted.len()) > wanted.len() / 2 + 3 {
            continue;
        }
        let score = strsim::jaro_winkler(&wanted, &folded);
        if score < 0.85 {
            continue;
        }
        let display = db
            .get(id)
            .and_then(|printing| printing.names.get(language))
            .map(names::canonical)
            .unwrap_or_else(|| key.to_string());
        scored.push((score, display));
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, display) in scored {
        if !out.contains(&display) {
            out.push(display);
        }
        if out.len() == MAX_SUGGESTIONS {
            break;
        }
    }
    out
}
