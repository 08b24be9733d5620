//! The search keys and their predicates: [`KEYS`] is the one table a key is added to (its
//! names, the kind of value it takes, and the test a printing passes), and [`compile`]
//! turns a parsed query into a [`Filter`] that [`Filter::matching`] runs over every
//! printing of a database.
//!
//! Legality is the format's own judgement ([`crate::formats::legality::judge`], with its
//! reprint rule and bans), never a second reading of the pool. Names are folded as
//! [`crate::names::fold`] folds them (case, accents, apostrophes), in all six languages.

use std::collections::HashSet;

use jiff::civil::Date;

use super::query::{Expr, Op, SearchError, Term, Value, Word};
use crate::cards::details::{Details, Texts};
use crate::cards::lookup::{self, Lookup, MatchedBy};
use crate::cards::{CardDb, Category, EnergyKind, Printing, PrintingId, Stage, Tag, TrainerKind};
use crate::formats::Format;
use crate::formats::legality::{Verdict, judge};

/// The kind of value a key takes, which decides how the parser checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text, matched as whole words after folding.
    Text,
    /// A card name: the test sees every card whose name holds it.
    Card,
    /// A whole number, with `=`, `<`, `<=`, `>`, `>=`.
    Number,
    /// A date (YYYY-MM-DD), with the same operators.
    Date,
    /// One of these words (case aside, unless two differ only by case).
    Choice(&'static [&'static str]),
    /// A built-in format id, optionally `@YYYY-MM-DD`.
    Format,
}

impl Kind {
    /// What a value of this kind looks like, for messages and the docs.
    pub fn expects(self) -> String {
        match self {
            Kind::Text => "text".into(),
            Kind::Card => "a card name".into(),
            Kind::Number => "a whole number".into(),
            Kind::Date => "a date (YYYY-MM-DD)".into(),
            Kind::Choice(choices) => format!("one of {}", choices.join(", ")),
            Kind::Format => "a format id, optionally @YYYY-MM-DD".into(),
        }
    }

    /// Whether `<`, `<=`, `>`, `>=` make sense for it.
    pub fn ordered(self) -> bool {
        matches!(self, Kind::Number | Kind::Date)
    }
}

/// What a printing is tested with: the printing, its details and the search's shared state.
pub struct Seen<'a> {
    pub id: PrintingId,
    pub printing: &'a Printing,
    state: &'a State<'a>,
}

impl<'a> Seen<'a> {
    /// The printing's details, decoded only when a test reads them (a query without a
    /// detail key never decodes any).
    pub fn details(&self) -> Option<&'a Details> {
        self.state.db.details(self.id)
    }
}

/// A key's test, typed by the value it compares with.
#[derive(Clone, Copy)]
pub enum Test {
    Text(fn(&Seen, &Needle) -> bool),
    Card(fn(&Seen, &Related) -> bool),
    Number(fn(&Seen, Op, u32) -> bool),
    Date(fn(&Seen, Op, Date) -> bool),
    Choice(fn(&Seen, &str) -> bool),
    Format(fn(&Verdict) -> bool),
}

impl std::fmt::Debug for Test {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Test")
    }
}

/// A search key: one row of [`KEYS`].
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    /// One line for the docs: what the key matches.
    pub doc: &'static str,
    /// Relative cost of the test, so an `and` runs cheap tests first (0 cheapest).
    pub cost: u8,
    pub test: Test,
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.name == other.name
    }
}

impl Eq for Key {}

impl Key {
    /// The name and its aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}

const KINDS: &[&str] = &[
    "pokemon",
    "trainer",
    "energy",
    "item",
    "supporter",
    "stadium",
    "tool",
    "technical-machine",
    "rockets-secret-machine",
    "basic-energy",
    "special-energy",
];
const STAGES: &[&str] = &[
    "basic", "stage1", "stage2", "mega", "break", "lvx", "vmax", "vstar", "vunion", "restored",
    "baby",
];
const TYPES: &[&str] = &[
    "grass",
    "fire",
    "water",
    "lightning",
    "psychic",
    "fighting",
    "darkness",
    "metal",
    "fairy",
    "dragon",
    "colorless",
];
const IS: &[&str] = &[
    "ace-spec",
    "radiant",
    "prism-star",
    "star",
    "rule-box",
    "ex",
    "EX",
    "GX",
    "V",
    "tag-team",
    "reprint",
    "promo",
];

/// Every search key. Adding a key is adding a row here (and its line in the user guide).
pub const KEYS: &[Key] = &[
    Key {
        name: "name",
        aliases: &["n"],
        kind: Kind::Text,
        doc: "the card's name in any of the six languages holds these words",
        cost: 2,
        test: Test::Text(|seen, needle| seen.state.names_hold(seen.id, needle)),
    },
    Key {
        name: "set",
        aliases: &["s"],
        kind: Kind::Text,
        doc: "the printed set code (`TWM`, `PR-SV`) or the TCGdex set id (`sv06`)",
        cost: 1,
        test: Test::Text(|seen, needle| {
            let p = seen.printing;
            p.set_id.eq_ignore_ascii_case(&needle.raw)
                || (!p.set_code.is_empty() && p.set_code == crate::cards::set_key(&needle.raw))
        }),
    },
    Key {
        name: "number",
        aliases: &["no"],
        kind: Kind::Text,
        doc: "the collector number (`128`, `TG05`, `GG59`)",
        cost: 1,
        test: Test::Text(|seen, needle| {
            seen.printing.number == crate::cards::number_key(&needle.raw)
        }),
    },
    Key {
        name: "kind",
        aliases: &["k"],
        kind: Kind::Choice(KINDS),
        doc: "the kind of card",
        cost: 0,
        test: Test::Choice(kind_is),
    },
    Key {
        name: "stage",
        aliases: &[],
        kind: Kind::Choice(STAGES),
        doc: "the Pokémon's stage; `basic` is a Basic Pokémon as the rules define it (Baby Pokémon too)",
        cost: 0,
        test: Test::Choice(stage_is),
    },
    Key {
        name: "type",
        aliases: &["t"],
        kind: Kind::Choice(TYPES),
        doc: "one of the Pokémon's types",
        cost: 0,
        test: Test::Choice(|seen, want| {
            seen.printing
                .types
                .iter()
                .any(|t| t.eq_ignore_ascii_case(want))
        }),
    },
    Key {
        name: "weak",
        aliases: &[],
        kind: Kind::Choice(TYPES),
        doc: "the Pokémon's Weakness",
        cost: 1,
        test: Test::Choice(|seen, want| {
            seen.details().is_some_and(|d| of_type(&d.weaknesses, want))
        }),
    },
    Key {
        name: "resist",
        aliases: &[],
        kind: Kind::Choice(TYPES),
        doc: "the Pokémon's Resistance",
        cost: 1,
        test: Test::Choice(|seen, want| {
            seen.details()
                .is_some_and(|d| of_type(&d.resistances, want))
        }),
    },
    Key {
        name: "mark",
        aliases: &[],
        kind: Kind::Text,
        doc: "the regulation mark (`G`, `H`)",
        cost: 0,
        test: Test::Text(|seen, needle| {
            let mut chars = needle.raw.chars();
            let (Some(mark), None) = (chars.next(), chars.next()) else {
                return false;
            };
            seen.printing.regulation_mark == Some(mark.to_ascii_uppercase())
        }),
    },
    Key {
        name: "rarity",
        aliases: &["r"],
        kind: Kind::Text,
        doc: "the rarity as TCGdex names it (`Common`, `Double rare`, `ACE SPEC Rare`)",
        cost: 1,
        test: Test::Text(|seen, needle| {
            let rarity = seen.details().and_then(|d| d.rarity.as_deref());
            rarity.is_some_and(|rarity| needle.in_text(rarity))
        }),
    },
    Key {
        name: "artist",
        aliases: &["a"],
        kind: Kind::Text,
        doc: "the illustrator",
        cost: 1,
        test: Test::Text(|seen, needle| {
            let artist = seen.details().and_then(|d| d.illustrator.as_deref());
            artist.is_some_and(|artist| needle.in_text(artist))
        }),
    },
    Key {
        name: "is",
        aliases: &[],
        kind: Kind::Choice(IS),
        doc: "a rule or mechanic the card carries; `ex` (Pokémon ex) and `EX` (Pokémon-EX) differ; `reprint`: an older printing has the same name and text; `promo`: a Black Star Promo",
        cost: 1,
        test: Test::Choice(is),
    },
    Key {
        name: "evolves",
        aliases: &[],
        kind: Kind::Card,
        doc: "evolves from a card whose name holds these words",
        cost: 2,
        test: Test::Card(|seen, related| {
            let from = seen.printing.evolves_from.as_deref();
            from.is_some_and(|from| related.keys.contains(&crate::names::lookup_key(from)))
        }),
    },
    Key {
        name: "into",
        aliases: &[],
        kind: Kind::Card,
        doc: "a card whose name holds these words evolves from it",
        cost: 2,
        test: Test::Card(|seen, related| related.from.contains(seen.printing.rules_key())),
    },
    Key {
        name: "hp",
        aliases: &[],
        kind: Kind::Number,
        doc: "the Pokémon's HP",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            seen.details()
                .and_then(|d| d.hp)
                .is_some_and(|hp| op.holds(u32::from(hp), want))
        }),
    },
    Key {
        name: "retreat",
        aliases: &[],
        kind: Kind::Number,
        doc: "the number of Energy in the retreat cost",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            let retreat = seen.details().and_then(|d| d.retreat);
            retreat.is_some_and(|retreat| op.holds(u32::from(retreat), want))
        }),
    },
    Key {
        name: "damage",
        aliases: &[],
        kind: Kind::Number,
        doc: "the printed damage of any attack (`120+` counts as 120)",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            attacks(seen).any(|a| a.base_damage().is_some_and(|d| op.holds(d, want)))
        }),
    },
    Key {
        name: "cost",
        aliases: &[],
        kind: Kind::Number,
        doc: "the number of Energy an attack costs (any attack)",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            attacks(seen).any(|a| op.holds(u32::try_from(a.cost.len()).unwrap_or(u32::MAX), want))
        }),
    },
    Key {
        name: "released",
        aliases: &["date"],
        kind: Kind::Date,
        doc: "the set's release date",
        cost: 0,
        test: Test::Date(|seen, op, want| {
            crate::util::date::parse(&seen.printing.release_date).is_some_and(|d| op.holds(d, want))
        }),
    },
    Key {
        name: "year",
        aliases: &[],
        kind: Kind::Number,
        doc: "the year of the set's release",
        cost: 0,
        test: Test::Number(|seen, op, want| {
            let year = seen
                .printing
                .release_date
                .get(..4)
                .and_then(|y| y.parse().ok());
            year.is_some_and(|year: u32| op.holds(year, want))
        }),
    },
    Key {
        name: "attack",
        aliases: &[],
        kind: Kind::Text,
        doc: "an attack's name or text, in any language",
        cost: 3,
        test: Test::Text(|seen, needle| {
            attacks(seen).any(|a| needle.in_texts(&a.name) || needle.in_texts(&a.text))
        }),
    },
    Key {
        name: "ability",
        aliases: &[],
        kind: Kind::Text,
        doc: "an Ability's (or Poké-Power's, Poké-Body's...) name or text, in any language",
        cost: 3,
        test: Test::Text(|seen, needle| {
            let abilities = seen.details().map_or(&[][..], |d| &d.abilities[..]);
            abilities
                .iter()
                .any(|a| needle.in_texts(&a.name) || needle.in_texts(&a.text))
        }),
    },
    Key {
        name: "text",
        aliases: &["o"],
        kind: Kind::Text,
        doc: "the rules text of the card's attacks, Abilities, or of the Trainer or Energy, in any language",
        cost: 3,
        test: Test::Text(|seen, needle| {
            let Some(details) = seen.details() else {
                return false;
            };
            needle.in_texts(&details.effect)
                || details.attacks.iter().any(|a| needle.in_texts(&a.text))
                || details.abilities.iter().any(|a| needle.in_texts(&a.text))
        }),
    },
    Key {
        name: "legal",
        aliases: &["f"],
        kind: Kind::Format,
        doc: "legal in the format (at the date after `@`), as `check` judges: pool, bans and the reprint rule",
        cost: 5,
        test: Test::Format(|verdict| {
            matches!(verdict, Verdict::Legal | Verdict::LegalAsReprint(_))
        }),
    },
    Key {
        name: "banned",
        aliases: &[],
        kind: Kind::Format,
        doc: "on the format's ban list (at the date after `@`)",
        cost: 4,
        test: Test::Format(|verdict| matches!(verdict, Verdict::Banned(_))),
    },
];

/// Whether one of `modifiers` (a Weakness or Resistance list) is of type `want`.
fn of_type(modifiers: &[crate::cards::details::TypeModifier], want: &str) -> bool {
    modifiers
        .iter()
        .any(|m| m.energy_type.eq_ignore_ascii_case(want))
}

fn kind_is(seen: &Seen, want: &str) -> bool {
    let p = seen.printing;
    let trainer = |kind| p.category == Category::Trainer && p.trainer == Some(kind);
    match want {
        "pokemon" => p.category == Category::Pokemon,
        "trainer" => p.category == Category::Trainer,
        "energy" => p.category == Category::Energy,
        "item" => trainer(TrainerKind::Item),
        "supporter" => trainer(TrainerKind::Supporter),
        "stadium" => trainer(TrainerKind::Stadium),
        "tool" => trainer(TrainerKind::Tool),
        "technical-machine" => trainer(TrainerKind::TechnicalMachine),
        "rockets-secret-machine" => trainer(TrainerKind::RocketsSecretMachine),
        "basic-energy" => p.is_basic_energy(),
        "special-energy" => p.category == Category::Energy && p.energy == Some(EnergyKind::Special),
        _ => false,
    }
}

fn stage_is(seen: &Seen, want: &str) -> bool {
    let p = seen.printing;
    let pokemon = p.category == Category::Pokemon;
    let stage_or_tag =
        |stage: Stage, tag: Tag| pokemon && (p.stage == Some(stage) || p.tags.contains(tag));
    match want {
        "basic" => p.is_basic_pokemon(),
        "stage1" => pokemon && p.stage == Some(Stage::Stage1),
        "stage2" => pokemon && p.stage == Some(Stage::Stage2),
        "mega" => stage_or_tag(Stage::Mega, Tag::Mega),
        "break" => stage_or_tag(Stage::Break, Tag::Break),
        "lvx" => stage_or_tag(Stage::LevelUp, Tag::LvX),
        "vmax" => stage_or_tag(Stage::Vmax, Tag::Vmax),
        "vstar" => stage_or_tag(Stage::Vstar, Tag::Vstar),
        "vunion" => stage_or_tag(Stage::VUnion, Tag::VUnion),
        "restored" => pokemon && p.stage == Some(Stage::Restored),
        "baby" => pokemon && p.stage == Some(Stage::Baby),
        _ => false,
    }
}

fn is(seen: &Seen, want: &str) -> bool {
    let p = seen.printing;
    match want {
        "ace-spec" => p.ace_spec,
        "radiant" => p.radiant,
        "prism-star" => p.prism_star,
        "star" => p.pokemon_star,
        "rule-box" => p.has_rule_box(),
        "ex" => p.tags.contains(Tag::LowerEx),
        "EX" => p.tags.contains(Tag::UpperEx),
        "GX" => p.tags.contains(Tag::Gx),
        "V" => p.tags.contains(Tag::V),
        "tag-team" => p.tags.contains(Tag::TagTeam),
        "promo" => is_promo_set(&p.set_id),
        "reprint" => is_reprint(seen),
        _ => false,
    }
}

/// A Black Star Promo set: TCGdex gives each series' promos an id ending in `p` (`svp`,
/// `swshp`, `basep`, `np`); the trainer kits (`tk-xy-p`) are not promos.
fn is_promo_set(set_id: &str) -> bool {
    set_id.ends_with('p') && !set_id.contains('-') && !set_id.contains('.')
}

/// An older printing (earlier release, or the same day and earlier in the database) is the
/// same card by the reprint rule's comparison.
fn is_reprint(seen: &Seen) -> bool {
    let p = seen.printing;
    let db = seen.state.db;
    let this = (p.release_date.as_str(), seen.id);
    db.name_matches(p.names.primary()).any(|hit| {
        db.get(hit.id).is_some_and(|other| {
            (other.release_date.as_str(), hit.id) < this
                && crate::formats::reprint::functionally_identical(p, other)
        })
    })
}

fn attacks<'a>(seen: &Seen<'a>) -> impl Iterator<Item = &'a crate::cards::details::Attack> {
    seen.details().map_or(&[][..], |d| &d.attacks[..]).iter()
}

/// A text value: as written, and folded as names are.
#[derive(Debug, Clone)]
pub struct Needle {
    pub raw: String,
    pub folded: String,
}

impl Needle {
    fn new(raw: &str) -> Needle {
        Needle {
            raw: raw.trim().to_string(),
            folded: crate::names::fold(raw),
        }
    }

    /// Whether `text`, folded, holds the needle as whole words.
    pub fn in_text(&self, text: &str) -> bool {
        holds_words(&crate::names::fold(text), &self.folded)
    }

    /// [`Needle::in_text`] in any language.
    pub fn in_texts(&self, texts: &Texts) -> bool {
        texts.iter().any(|(_, text)| self.in_text(text))
    }
}

/// Whether `haystack` holds `needle` starting and ending at word boundaries (both folded).
pub fn holds_words(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        !word(before) && !word(after)
    })
}

/// The cards a [`Kind::Card`] value names: the rules keys of every printing whose name holds
/// it, and the lookup keys of what those printings evolve from.
#[derive(Debug, Clone, Default)]
pub struct Related {
    pub keys: HashSet<String>,
    pub from: HashSet<String>,
}

/// A compiled query: each term's value prepared for the database (text folded, formats
/// loaded at their dates, names and printings resolved).
pub enum Filter {
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Not(Box<Filter>),
    /// Printings a set code and number or a TCGdex id named.
    Ids(Vec<PrintingId>),
    Name(Needle),
    Key(&'static Key, Prepared),
}

/// A keyed term's value, ready to test.
pub enum Prepared {
    Text(Needle),
    Card(Related),
    Number(Op, u32),
    Date(Op, Date),
    Choice(&'static str),
    Format(Box<Format>),
}

/// What every test of one search shares: the database and, computed on first need, every
/// printing's names folded.
pub struct State<'a> {
    db: &'a CardDb,
    folded_names: std::sync::OnceLock<Vec<String>>,
}

impl<'a> State<'a> {
    pub fn new(db: &'a CardDb) -> State<'a> {
        State {
            db,
            folded_names: std::sync::OnceLock::new(),
        }
    }

    /// Whether printing `id`'s name in some language holds the needle as whole words.
    fn names_hold(&self, id: PrintingId, needle: &Needle) -> bool {
        let all = self.folded_names.get_or_init(|| {
            use rayon::prelude::*;
            (0..self.db.len())
                .into_par_iter()
                .with_min_len(512)
                .map(|index| {
                    let printing = PrintingId::try_from(index)
                        .ok()
                        .and_then(|id| self.db.get(id));
                    let names =
                        printing.map(|p| p.names.iter().map(|(_, name)| crate::names::fold(name)));
                    // One line per name: a phrase never runs across two.
                    names
                        .map(|names| names.collect::<Vec<_>>().join("\n"))
                        .unwrap_or_default()
                })
                .collect()
        });
        usize::try_from(id)
            .ok()
            .and_then(|index| all.get(index))
            .is_some_and(|names| holds_words(names, &needle.folded))
    }
}

/// Prepares a parsed query for `db`.
pub fn compile(db: &CardDb, expr: &Expr, state: &State) -> Result<Filter, SearchError> {
    Ok(match expr {
        Expr::And(parts) => Filter::And(compile_all(db, parts, state)?),
        Expr::Or(parts) => Filter::Or(compile_all(db, parts, state)?),
        Expr::Not(inner) => Filter::Not(Box::new(compile(db, inner, state)?)),
        Expr::Words(words) => words_filter(db, words),
        Expr::Term(term) => Filter::Key(term.key, prepare(db, term, state)?),
    })
}

fn compile_all(db: &CardDb, parts: &[Expr], state: &State) -> Result<Vec<Filter>, SearchError> {
    parts.iter().map(|part| compile(db, part, state)).collect()
}

/// Consecutive words: `TWM 128` and `sv06-128` name printings as `deckbox card` reads
/// them; every other word or phrase is a name to find.
fn words_filter(db: &CardDb, words: &[Word]) -> Filter {
    let mut parts = Vec::new();
    let mut index = 0;
    while let Some(word) = words.get(index) {
        let next = words
            .get(index + 1)
            .filter(|next| !word.quoted && !next.quoted);
        if let Some(next) = next
            && looks_like_code(&word.text)
            && next.text.contains(|c: char| c.is_ascii_digit())
            && let Some(ids) = printings(
                db,
                &format!("{} {}", word.text, next.text),
                MatchedBy::SetNumber,
            )
        {
            parts.push(Filter::Ids(ids));
            index += 2;
            continue;
        }
        let id_like = !word.quoted
            && word.text.contains('-')
            && word.text.contains(|c: char| c.is_ascii_digit());
        match id_like
            .then(|| printings(db, &word.text, MatchedBy::SetId))
            .flatten()
        {
            Some(ids) => parts.push(Filter::Ids(ids)),
            None => parts.push(Filter::Name(Needle::new(&word.text))),
        }
        index += 1;
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Filter::And(parts)
    }
}

/// A set code as deck lists write it: letters, digits and `-`, short.
fn looks_like_code(word: &str) -> bool {
    word.len() <= 8 && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// The printings `deckbox card QUERY` names itself, when it reads `query` as `by`.
fn printings(db: &CardDb, query: &str, by: MatchedBy) -> Option<Vec<PrintingId>> {
    match lookup::lookup(db, query) {
        Lookup::Found { by: found, cards } if found == by => {
            Some(cards.into_iter().flat_map(|card| card.matched).collect())
        }
        _ => None,
    }
}

fn prepare(db: &CardDb, term: &Term, state: &State) -> Result<Prepared, SearchError> {
    Ok(match (&term.value, term.key.test) {
        (Value::Text(text), Test::Card(_)) => {
            Prepared::Card(related(db, &Needle::new(text), state))
        }
        (Value::Text(text), _) => Prepared::Text(Needle::new(text)),
        (Value::Choice(choice), _) => Prepared::Choice(choice),
        (Value::Number(number), _) => Prepared::Number(term.op, *number),
        (Value::Date(date), _) => Prepared::Date(term.op, *date),
        (Value::Format { id, date }, _) => {
            let format = Format::load_at(id, *date)
                .map_err(|error| SearchError::new(error.to_string(), term.span))?;
            Prepared::Format(Box::new(format))
        }
    })
}

/// The cards whose name holds `needle`, and what they evolve from.
fn related(db: &CardDb, needle: &Needle, state: &State) -> Related {
    db.decode_all();
    let mut related = Related::default();
    for (id, printing) in db.iter() {
        if state.names_hold(id, needle) {
            related.keys.insert(printing.rules_key().to_string());
            if let Some(from) = &printing.evolves_from {
                related.from.insert(crate::names::lookup_key(from));
            }
        }
    }
    related
}

impl Filter {
    /// How costly the filter is to run over one printing (0 cheapest).
    fn cost(&self) -> u8 {
        match self {
            Filter::Ids(_) => 0,
            Filter::Name(_) => 2,
            Filter::Key(key, _) => key.cost,
            Filter::Not(inner) => inner.cost(),
            Filter::And(parts) | Filter::Or(parts) => {
                parts.iter().map(Filter::cost).max().unwrap_or(0)
            }
        }
    }

    /// Whether running the filter reads every printing of the database (every term does
    /// but a printing's code, which also narrows an `and` it is part of).
    pub fn reads_every_printing(&self) -> bool {
        match self {
            Filter::Ids(_) => false,
            Filter::Name(_) | Filter::Key(..) => true,
            Filter::Not(inner) => inner.reads_every_printing(),
            Filter::And(parts) => parts.iter().all(Filter::reads_every_printing),
            Filter::Or(parts) => parts.iter().any(Filter::reads_every_printing),
        }
    }

    /// Which of the printings marked in `within` pass: a mask of the same length.
    pub fn matching(&self, state: &State, within: &[bool]) -> Vec<bool> {
        match self {
            Filter::And(parts) => {
                let mut order: Vec<&Filter> = parts.iter().collect();
                order.sort_by_key(|part| part.cost());
                let mut mask = within.to_vec();
                for part in order {
                    mask = part.matching(state, &mask);
                }
                mask
            }
            Filter::Or(parts) => {
                let mut mask = vec![false; within.len()];
                for part in parts {
                    let left: Vec<bool> =
                        within.iter().zip(&mask).map(|(w, m)| *w && !*m).collect();
                    for (kept, hit) in mask.iter_mut().zip(part.matching(state, &left)) {
                        *kept |= hit;
                    }
                }
                mask
            }
            Filter::Not(inner) => {
                let hits = inner.matching(state, within);
                within.iter().zip(hits).map(|(w, h)| *w && !h).collect()
            }
            Filter::Ids(ids) => {
                let mut mask = vec![false; within.len()];
                for &id in ids {
                    if let Some(index) = usize::try_from(id)
                        .ok()
                        .filter(|&i| within.get(i) == Some(&true))
                    {
                        mask[index] = true;
                    }
                }
                mask
            }
            Filter::Name(_) | Filter::Key(..) => {
                use rayon::prelude::*;
                // Each printing's test is independent: on every processor.
                within
                    .par_iter()
                    .enumerate()
                    .with_min_len(256)
                    .map(|(index, &inside)| inside && self.passes(state, index))
                    .collect()
            }
        }
    }

    /// Whether printing `index` passes this term.
    fn passes(&self, state: &State, index: usize) -> bool {
        let Some(id) = PrintingId::try_from(index).ok() else {
            return false;
        };
        let Some(printing) = state.db.get(id) else {
            return false;
        };
        let seen = Seen {
            id,
            printing,
            state,
        };
        match (self,) {
            (Filter::Name(needle),) => state.names_hold(id, needle),
            (Filter::Key(key, prepared),) => match (key.test, prepared) {
                (Test::Text(test), Prepared::Text(needle)) => test(&seen, needle),
                (Test::Card(test), Prepared::Card(related)) => test(&seen, related),
                (Test::Number(test), Prepared::Number(op, n)) => test(&seen, *op, *n),
                (Test::Date(test), Prepared::Date(op, date)) => test(&seen, *op, *date),
                (Test::Choice(test), Prepared::Choice(choice)) => test(&seen, choice),
                (Test::Format(test), Prepared::Format(format)) => {
                    test(&judge(format, state.db, printing))
                }
                // The parser gives each key the value its kind takes.
                _ => false,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only() {
        assert!(holds_words("dreepy", "dreepy"));
        assert!(holds_words("mew ex", "mew"));
        assert!(!holds_words("mewtwo", "mew"));
        assert!(holds_words(
            "discard your hand and draw 7 cards",
            "discard your hand"
        ));
        assert!(!holds_words("hand", ""));
    }

    #[test]
    fn every_key_and_alias_is_unique() {
        let mut seen = HashSet::new();
        for key in KEYS {
            for name in key.names() {
                assert!(seen.insert(name), "{name} twice");
            }
        }
    }
}
