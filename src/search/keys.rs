//! The search keys and their predicates: [`KEYS`] is the one table a key is added to (its
//! names, the kind of value it takes, and the test a printing passes). The parser
//! ([`super::query`]) checks a query against it; [`super::filter`] runs the tests.
//!
//! Names are folded as [`crate::names::fold`] folds them (case, accents, apostrophes), in
//! all six languages.

use jiff::civil::Date;

use std::sync::OnceLock;

use memchr::memmem::Finder;

use super::mask::Mask;
use crate::cards::database::columns::{self, Columns, Row, flag};
use crate::cards::{
    CardDb, Category, EnergyKind, FoldedBlock, Printing, PrintingId, Stage, Tag, TextParts,
    TextRef, TrainerKind,
};
use crate::formats::Format;
use crate::formats::legality;
use crate::names::lang::Language;

/// How a keyed term compares: `:` and `=` mean equal (or "contains" for text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn holds<T: Ord>(self, have: T, want: T) -> bool {
        match self {
            Op::Eq => have == want,
            Op::Lt => have < want,
            Op::Le => have <= want,
            Op::Gt => have > want,
            Op::Ge => have >= want,
        }
    }
}

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

/// What a printing is tested with: its row of the database's [`Columns`] (what most keys
/// read, with no printing decoded), the printing itself when a test needs more, and the
/// search's shared state.
pub struct Seen<'a> {
    pub id: PrintingId,
    pub row: Row,
    pub columns: &'a Columns,
    pub(super) state: &'a State<'a>,
}

impl<'a> Seen<'a> {
    /// The printing, decoded when a test first reads more than its row.
    pub fn printing(&self) -> Option<&'a Printing> {
        self.state.db.get(self.id)
    }

    /// The strings of the row's edition: set id, set code.
    fn edition(&self) -> Option<columns::Edition> {
        self.columns.editions().get(self.row.edition as usize)
    }

    /// Whether one of the printing's texts among `parts`, in any language, holds `needle`.
    pub(super) fn texts_hold(&self, parts: TextParts, needle: &Needle) -> bool {
        let db = self.state.db;
        if let Some(found) = needle.indexed(db, parts) {
            return usize::try_from(self.id).is_ok_and(|index| found.get(index));
        }
        db.texts(self.id, parts, &mut |text| match text {
            TextRef::Inline { text, .. } => needle.in_text(text),
            TextRef::Table { lang, id } => needle.in_table(db, lang, id),
        })
    }
}

/// A key's test, typed by the value it compares with.
#[derive(Clone, Copy)]
pub enum Test {
    Text(fn(&Seen, &Needle) -> bool),
    /// Whether one of the printing's texts among these parts, in any language, holds the
    /// needle: read from the word index for every printing at once when the database has
    /// one, else from each printing's texts.
    Texts(TextParts),
    /// Whether the row's field passes for a text value: the field is read in place for each
    /// printing kept ([`Columns::field`]), and only the rows of those that pass are read.
    TextField(columns::Field, fn(&Columns, &Needle, u32) -> bool),
    /// Whether the row's field is one of the ids a card name's value gives (sorted): read
    /// from the columns' index of the field ([`Columns::rows_where`]) when it has one, else
    /// as [`Test::TextField`] reads a field.
    CardField(columns::Field, fn(&Related) -> &[u32]),
    Number(fn(&Seen, Op, u32) -> bool),
    Date(fn(&Seen, Op, Date) -> bool),
    Choice(fn(&Seen, &str) -> bool),
    /// Which printings marked in the mask pass in the format: a mask of the same length.
    Format(fn(&Format, &CardDb, &[bool]) -> Vec<bool>),
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
const TYPES: &[&str] = columns::TYPES;
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

/// Whether `edition` is the set `written` names: its TCGdex set id (any case) or its
/// printed set code; `key` is `written` as [`crate::cards::set_key`] reads it (made once
/// for every edition tested).
pub(crate) fn edition_is(
    names: &columns::Pool<'_>,
    edition: &columns::Edition,
    written: &str,
    key: &str,
) -> bool {
    let (set_id, code) = (names.get(edition.set_id), names.get(edition.set_code));
    set_id.eq_ignore_ascii_case(written) || (!code.is_empty() && code == key)
}

/// Every search key. Adding a key is adding a row here (and its line in the user guide).
pub const KEYS: &[Key] = &[
    Key {
        name: "name",
        aliases: &["n"],
        kind: Kind::Text,
        doc: "a word of the card's name, in any of the six languages, starts with this word (`name:char` finds Charizard); a `\"quoted phrase\"` must match whole words",
        cost: 2,
        test: Test::Text(|seen, needle| seen.state.names_hold(seen.id, needle)),
    },
    Key {
        name: "set",
        aliases: &["s"],
        kind: Kind::Text,
        doc: "the printed set code (`TWM`, `PR-SV`) or the TCGdex set id (`sv06`)",
        cost: 0,
        test: Test::TextField(columns::Field::Edition, |columns, needle, edition| {
            let names = columns.names();
            let mut key = None;
            let hits = needle.memo_hits(columns.editions().len(), |edition| {
                let Some(edition) = columns.editions().get(edition) else {
                    return false;
                };
                let key = key.get_or_insert_with(|| crate::cards::set_key(&needle.raw));
                edition_is(&names, &edition, &needle.raw, key)
            });
            hits.get(edition as usize) == Some(&true)
        }),
    },
    Key {
        name: "number",
        aliases: &["no"],
        kind: Kind::Text,
        doc: "the collector number (`128`, `TG05`, `GG59`)",
        cost: 1,
        test: Test::TextField(columns::Field::Number, |columns, needle, number| {
            let numbers = columns.numbers();
            let mut key = None;
            let hits = needle.memo_hits(numbers.len(), |number| {
                // The needle's key, made once when the pool is first tested.
                let key = key.get_or_insert_with(|| crate::cards::number_key(&needle.raw));
                u32::try_from(number).is_ok_and(|id| numbers.bytes(id) == key.as_bytes())
            });
            hits.get(number as usize) == Some(&true)
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
        test: Test::Choice(|seen, want| seen.row.types & columns::type_bit(want) != 0),
    },
    Key {
        name: "weak",
        aliases: &[],
        kind: Kind::Choice(TYPES),
        doc: "the Pokémon's Weakness",
        cost: 1,
        test: Test::Choice(|seen, want| seen.row.weak & columns::type_bit(want) != 0),
    },
    Key {
        name: "resist",
        aliases: &[],
        kind: Kind::Choice(TYPES),
        doc: "the Pokémon's Resistance",
        cost: 1,
        test: Test::Choice(|seen, want| seen.row.resist & columns::type_bit(want) != 0),
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
            seen.row.mark == Some(mark.to_ascii_uppercase())
        }),
    },
    Key {
        name: "rarity",
        aliases: &["r"],
        kind: Kind::Text,
        doc: "the rarity as TCGdex names it (`Common`, `Double rare`, `ACE SPEC Rare`)",
        cost: 1,
        test: Test::Text(|seen, needle| {
            let pool = seen.columns.rarities();
            let rarity = seen.row.rarity.map(|id| id as usize);
            rarity.is_some_and(|id| pool_holds(needle, &pool, id))
        }),
    },
    Key {
        name: "artist",
        aliases: &["a"],
        kind: Kind::Text,
        doc: "the illustrator",
        cost: 1,
        test: Test::Text(|seen, needle| {
            let pool = seen.columns.artists();
            let artist = seen.row.artist.map(|id| id as usize);
            artist.is_some_and(|id| pool_holds(needle, &pool, id))
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
        cost: 0,
        test: Test::CardField(columns::Field::Evolves, |related| &related.cards),
    },
    Key {
        name: "into",
        aliases: &[],
        kind: Kind::Card,
        doc: "a card whose name holds these words evolves from it",
        cost: 0,
        test: Test::CardField(columns::Field::Card, |related| &related.from),
    },
    Key {
        name: "hp",
        aliases: &[],
        kind: Kind::Number,
        doc: "the Pokémon's HP",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            (seen.row.hp).is_some_and(|hp| op.holds(u32::from(hp), want))
        }),
    },
    Key {
        name: "retreat",
        aliases: &[],
        kind: Kind::Number,
        doc: "the number of Energy in the retreat cost",
        cost: 1,
        test: Test::Number(|seen, op, want| {
            let retreat = seen.row.retreat;
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
            attacks(seen).any(|a| a.damage.is_some_and(|d| op.holds(d, want)))
        }),
    },
    Key {
        name: "cost",
        aliases: &[],
        kind: Kind::Number,
        doc: "the number of Energy an attack costs (any attack)",
        cost: 1,
        test: Test::Number(|seen, op, want| attacks(seen).any(|a| op.holds(a.cost, want))),
    },
    Key {
        name: "released",
        aliases: &["date"],
        kind: Kind::Date,
        doc: "the set's release date",
        cost: 0,
        test: Test::Date(|seen, op, want| {
            let (released, _) = seen.columns.released(seen.row.edition);
            released.is_some_and(|d| op.holds(d, want))
        }),
    },
    Key {
        name: "year",
        aliases: &[],
        kind: Kind::Number,
        doc: "the year of the set's release",
        cost: 0,
        test: Test::Number(|seen, op, want| {
            let (_, year) = seen.columns.released(seen.row.edition);
            year.is_some_and(|year| op.holds(year, want))
        }),
    },
    Key {
        name: "attack",
        aliases: &[],
        kind: Kind::Text,
        doc: "an attack's name or text, in any language",
        cost: 3,
        test: Test::Texts(TextParts {
            attack_names: true,
            attack_texts: true,
            ability_names: false,
            ability_texts: false,
            effect: false,
        }),
    },
    Key {
        name: "ability",
        aliases: &[],
        kind: Kind::Text,
        doc: "an Ability's (or Poké-Power's, Poké-Body's...) name or text, in any language",
        cost: 3,
        test: Test::Texts(TextParts {
            attack_names: false,
            attack_texts: false,
            ability_names: true,
            ability_texts: true,
            effect: false,
        }),
    },
    Key {
        name: "text",
        aliases: &["o"],
        kind: Kind::Text,
        doc: "the rules text of the card's attacks, Abilities, or of the Trainer or Energy, in any language",
        cost: 3,
        test: Test::Texts(TextParts {
            attack_names: false,
            attack_texts: true,
            ability_names: false,
            ability_texts: true,
            effect: true,
        }),
    },
    Key {
        name: "legal",
        aliases: &["f"],
        kind: Kind::Format,
        doc: "legal in the format (at the date after `@`), as `check` judges: pool, bans and the reprint rule",
        cost: 5,
        test: Test::Format(legality::legal_among),
    },
    Key {
        name: "banned",
        aliases: &[],
        kind: Kind::Format,
        doc: "on the format's ban list (at the date after `@`)",
        cost: 4,
        test: Test::Format(legality::banned_among),
    },
];

/// Whether text `id` of `pool` holds the needle ([`Needle::in_text`]), each text of the
/// pool tested once.
fn pool_holds(needle: &Needle, pool: &columns::Pool<'_>, id: usize) -> bool {
    let hits = needle.memo_hits(pool.len(), |id| {
        u32::try_from(id).is_ok_and(|id| needle.in_text(pool.get(id)))
    });
    hits.get(id) == Some(&true)
}

fn kind_is(seen: &Seen, want: &str) -> bool {
    let p = seen.row;
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
        "basic-energy" => p.has(flag::BASIC_ENERGY),
        "special-energy" => p.category == Category::Energy && p.energy == Some(EnergyKind::Special),
        _ => false,
    }
}

fn stage_is(seen: &Seen, want: &str) -> bool {
    let p = seen.row;
    let pokemon = p.category == Category::Pokemon;
    let stage_or_tag =
        |stage: Stage, tag: Tag| pokemon && (p.stage == Some(stage) || p.tags.contains(tag));
    match want {
        "basic" => p.has(flag::BASIC_POKEMON),
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
    let p = seen.row;
    match want {
        "ace-spec" => p.has(flag::ACE_SPEC),
        "radiant" => p.has(flag::RADIANT),
        "prism-star" => p.has(flag::PRISM_STAR),
        "star" => p.has(flag::STAR),
        "rule-box" => p.has(flag::RULE_BOX),
        "ex" => p.tags.contains(Tag::LowerEx),
        "EX" => p.tags.contains(Tag::UpperEx),
        "GX" => p.tags.contains(Tag::Gx),
        "V" => p.tags.contains(Tag::V),
        "tag-team" => p.tags.contains(Tag::TagTeam),
        "promo" => seen.edition().is_some_and(|e| {
            crate::cards::model::set_id::is_promo_set(seen.columns.names().get(e.set_id))
        }),
        "reprint" => seen.state.is_reprint(seen.id),
        _ => false,
    }
}

/// Which printings are reprints, by printing id: an older printing (earlier release, or
/// the same day and earlier in the database) is the same card by the reprint rule's
/// comparison, which is sharing its twin class ([`Row::twin`]). Read from the rows alone:
/// the first printing of each class, by release date and id, is the one that is not.
fn reprints(columns: &Columns) -> Vec<bool> {
    let rows = (0..columns.len()).map(|index| {
        let id = PrintingId::try_from(index).ok()?;
        let row = columns.row(id)?;
        let edition = columns.editions().get(row.edition as usize)?;
        Some((row.twin?, columns.names().get(edition.release_date)))
    });
    let rows: Vec<Option<(u32, &str)>> = rows.collect();
    // The first printing of each class, by twin id (ids are given from 0 up).
    let classes = rows
        .iter()
        .flatten()
        .map(|&(twin, _)| twin as usize + 1)
        .max();
    let mut first: Vec<Option<(&str, usize)>> = vec![None; classes.unwrap_or(0)];
    for (index, row) in rows.iter().enumerate() {
        let Some((twin, released)) = *row else {
            continue;
        };
        if let Some(slot) = first.get_mut(twin as usize)
            && slot.is_none_or(|earliest| (released, index) < earliest)
        {
            *slot = Some((released, index));
        }
    }
    (rows.iter().enumerate())
        .map(|(index, row)| {
            row.is_some_and(|(twin, released)| {
                (first.get(twin as usize).copied().flatten())
                    .is_some_and(|earliest| earliest < (released, index))
            })
        })
        .collect()
}

fn attacks<'a>(seen: &Seen<'a>) -> impl Iterator<Item = columns::AttackFacts> + use<'a> {
    seen.columns.attacks(seen.id)
}

/// A text value: as written, and folded as names are.
#[derive(Debug, Clone)]
pub struct Needle {
    pub raw: String,
    pub folded: String,
    /// For a name: whether the needle may end inside a word (a bare word: `char` finds
    /// Charizard), or must end on a word's end (a `"quoted phrase"`).
    pub prefix: bool,
    tables: std::sync::Arc<TableHits>,
    /// Which printings a name needle finds, by printing id (see [`State::names_hold`]).
    names: std::sync::Arc<std::sync::OnceLock<Mask>>,
    /// Which values of the one table its key tests hold it (editions, numbers, rarities,
    /// illustrators: see [`Needle::memo_hits`]).
    values: std::sync::Arc<std::sync::OnceLock<Vec<bool>>>,
    /// Which printings a text needle finds through the word index, by printing id (see
    /// [`Needle::indexed`]); `None` inside when the database has no index or the needle no
    /// word.
    indexed: std::sync::Arc<std::sync::OnceLock<Option<Mask>>>,
}

/// Which texts of each language's folded table hold a needle: each block of the table is
/// searched the first time one of its texts is asked about (a reprint shares its texts, and
/// hundreds of cards say "Flip a coin."), and its texts that hold the needle kept by id.
struct TableHits {
    /// The folded needle, ready to be found in the folded tables: built the first time a
    /// table is searched, so a needle that never is (`set:`, `number:`) does not start
    /// memchr's detection of the processor's features (`cpuid`, tens of microseconds).
    finder: OnceLock<Finder<'static>>,
    /// By [`Language::index`]: each block's hits, once searched.
    blocks: [OnceLock<Vec<BlockHits>>; 6],
}

/// The ids of a block's texts that hold the needle, once searched.
type BlockHits = OnceLock<Box<[u32]>>;

impl Default for TableHits {
    fn default() -> TableHits {
        TableHits {
            finder: OnceLock::new(),
            blocks: Default::default(),
        }
    }
}

impl std::fmt::Debug for TableHits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TableHits")
    }
}

impl Needle {
    pub(super) fn new(raw: &str) -> Needle {
        let folded = crate::names::fold(raw);
        Needle {
            raw: raw.trim().to_string(),
            tables: std::sync::Arc::default(),
            folded,
            prefix: false,
            names: std::sync::Arc::default(),
            values: std::sync::Arc::default(),
            indexed: std::sync::Arc::default(),
        }
    }

    /// A needle for names: a bare word (or unquoted `name:` value) is a `prefix`.
    pub fn name(raw: &str, prefix: bool) -> Needle {
        Needle {
            prefix,
            ..Needle::new(raw)
        }
    }

    /// Whether a name's lookup key ([`crate::names::lookup_key`]: the name as deckbox
    /// compares names, folded, its level and `Team Plasma` aside) holds the needle at the
    /// start of a word, and, unless it is a prefix, ending at the end of one.
    pub fn in_name(&self, key: &str) -> bool {
        // Keys keep `EX` upper case (Pokémon-EX); a query folds it like any word.
        let key = if key.bytes().any(|b| b.is_ascii_uppercase()) {
            std::borrow::Cow::Owned(key.to_lowercase())
        } else {
            std::borrow::Cow::Borrowed(key)
        };
        if self.prefix {
            starts_words(&key, &self.folded)
        } else {
            holds_words(&key, &self.folded)
        }
    }

    /// Every printing one of whose names holds the needle ([`Needle::in_name`]), with the
    /// language of that name: the keys that hold it are found all at once.
    pub fn name_hits(&self, db: &CardDb) -> Vec<crate::cards::NameMatch> {
        db.names_containing(&self.folded, |key| self.in_name(key))
    }

    /// `test` of every value `0..len` of the table the needle's key reads, run the first
    /// time and kept: each distinct set, number, rarity or illustrator is tested once, not
    /// once per printing. A needle belongs to one term, so to one key and one table.
    pub(super) fn memo_hits(&self, len: usize, test: impl FnMut(usize) -> bool) -> &[bool] {
        self.values.get_or_init(|| (0..len).map(test).collect())
    }

    /// [`Needle::in_text`] of text `id` of `lang`'s table, read from the folded table (the
    /// generator folded it with [`crate::names::fold`]): its block is searched once.
    fn in_table(&self, db: &CardDb, lang: Language, id: u32) -> bool {
        let (count, k) = (db.folded_block_count(lang), db.folded_block_of(lang, id));
        self.in_folded(lang, id, count, k, |k| db.folded_block(lang, k))
    }

    /// [`Needle::in_table`] of text `id` of `lang`'s table, in block `k` of the `count`
    /// blocks of its folded table, `block` reading a block: searched once.
    fn in_folded<'b>(
        &self,
        lang: Language,
        id: u32,
        count: usize,
        k: Option<usize>,
        block: impl FnOnce(usize) -> Option<FoldedBlock<'b>>,
    ) -> bool {
        let blocks = self.tables.blocks[lang.index()]
            .get_or_init(|| (0..count).map(|_| OnceLock::new()).collect());
        let Some(cell) = k.and_then(|k| blocks.get(k)) else {
            return false;
        };
        let hits = cell.get_or_init(|| {
            k.and_then(block)
                .map(|block| self.in_block(block))
                .unwrap_or_default()
        });
        hits.binary_search(&id).is_ok()
    }

    /// The ids of the texts of `block` that hold the needle as [`holds_words`] finds it in
    /// each text alone: the block is searched as one string, but a match never runs across
    /// the end of a text (a folded text holds no [`crate::cards::FOLDED_END`], nor does a
    /// needle that can match one), and after a failed match the search goes on past it, as
    /// `str::match_indices` does.
    fn in_block(&self, block: FoldedBlock) -> Box<[u32]> {
        let (text, bytes) = (block.text, block.text.as_bytes());
        let end_byte = crate::cards::FOLDED_END;
        if self.folded.is_empty() || self.folded.as_bytes().contains(&end_byte) {
            return Box::default();
        }
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        let (mut hits, mut from, mut counted, mut id) = (Vec::new(), 0, 0, block.first);
        let finder =
            (self.tables.finder).get_or_init(|| Finder::new(self.folded.as_bytes()).into_owned());
        while let Some(found) = bytes.get(from..).and_then(|rest| finder.find(rest)) {
            let (at, end) = (from + found, from + found + self.folded.len());
            // A match starts and ends on whole characters: both are UTF-8.
            let before = text.get(..at).and_then(|s| s.chars().next_back());
            let after = text.get(end..).and_then(|s| s.chars().next());
            if word(before) || word(after) {
                from = end;
                continue;
            }
            let skipped = bytes.get(counted..at).unwrap_or_default();
            id += u32::try_from(memchr::memchr_iter(end_byte, skipped).count()).unwrap_or(0);
            hits.push(id);
            // The rest of this text needs no search: on to the next text.
            let rest = bytes.get(end..).unwrap_or_default();
            let next = memchr::memchr(end_byte, rest).map_or(bytes.len(), |i| end + i + 1);
            (id, counted, from) = (id + 1, next, next);
        }
        hits.into_boxed_slice()
    }

    /// Which printings hold the needle in one of their texts among `parts`, by printing
    /// id, found through the database's word index ([`crate::cards::database::words`]) and
    /// computed once: the texts that hold every word of the needle are the candidates (a
    /// match at word boundaries is whole words of the text), each checked as
    /// [`Needle::in_table`] checks it unless the needle is one word alone, and the printings
    /// read from each text's uses. `None` when the database has no index, the needle has
    /// no word or a folded table a phrase needs does not open: then each printing's texts
    /// are read.
    pub(super) fn indexed(&self, db: &CardDb, parts: TextParts) -> Option<&Mask> {
        let found = self.indexed.get_or_init(|| {
            let index = db.word_index()?;
            let mut words: Vec<&str> = crate::cards::database::words::words(&self.folded).collect();
            words.sort_unstable();
            words.dedup();
            let alone = matches!(words.as_slice(), [word] if *word == self.folded);
            let mask = crate::cards::database::words::part_mask(parts);
            let mut found = Mask::none(db.len());
            let (first, rest) = words.split_first()?;
            for lang in Language::ALL {
                // One word's ids at a time beside the candidates left: at most two lists of
                // a table's text ids in memory, whatever the needle.
                let mut candidates = index.texts_with(lang, first);
                for word in rest {
                    if candidates.is_empty() {
                        break;
                    }
                    let ids = index.texts_with(lang, word);
                    candidates.retain(|id| ids.binary_search(id).is_ok());
                }
                // A phrase opens its language's folded table alone, only for its candidates.
                let folded = match (alone, candidates.is_empty()) {
                    (false, false) => Some(index.folded(lang)?),
                    _ => None,
                };
                for &id in &candidates {
                    if let Some((table, details)) = folded {
                        let (count, k) = (table.block_count(), table.block_of(id));
                        if !self.in_folded(lang, id, count, k, |k| table.block(details, k)) {
                            continue;
                        }
                    }
                    index.uses(lang, id, mask, &mut |printing| found.set(printing as usize));
                }
            }
            Some(found)
        });
        found.as_ref()
    }

    /// Whether `text`, folded, holds the needle as whole words.
    pub fn in_text(&self, text: &str) -> bool {
        holds_words(&crate::names::fold(text), &self.folded)
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

/// Whether `haystack` holds `needle` starting at a word boundary (both folded).
pub fn starts_words(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    haystack.match_indices(needle).any(|(at, _)| {
        !haystack[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

/// The cards a [`Kind::Card`] value names, as ids in the columns' names pool (a printing's
/// [`Row::card`] and [`Row::evolves`] are ids in that pool, one id a distinct key): the
/// rules keys of every printing whose name holds it, and the lookup keys of what those
/// printings evolve from. `evolves:` and `into:` find the printings whose row holds one of
/// them through the columns' index of the field: no printing is decoded, no name folded.
/// Each list is sorted without repeats.
#[derive(Debug, Default)]
pub struct Related {
    /// What `evolves:` compares [`Row::evolves`] with.
    pub cards: Vec<u32>,
    /// What `into:` compares [`Row::card`] with.
    pub from: Vec<u32>,
}

/// What every test of one search shares: the database.
pub struct State<'a> {
    pub(super) db: &'a CardDb,
    /// Which printings are reprints (`is:reprint`), computed the first time it is asked.
    reprints: OnceLock<Vec<bool>>,
}

impl<'a> State<'a> {
    pub fn new(db: &'a CardDb) -> State<'a> {
        State {
            db,
            reprints: OnceLock::new(),
        }
    }

    /// Whether printing `id` is a reprint ([`reprints`]).
    fn is_reprint(&self, id: PrintingId) -> bool {
        let reprints = self.reprints.get_or_init(|| reprints(self.db.columns()));
        usize::try_from(id)
            .ok()
            .and_then(|index| reprints.get(index))
            .is_some_and(|reprint| *reprint)
    }

    /// Whether one of printing `id`'s names, in some language, holds the needle (see
    /// [`Needle::in_name`]).
    pub(super) fn names_hold(&self, id: PrintingId, needle: &Needle) -> bool {
        usize::try_from(id).is_ok_and(|index| self.names_holding(needle).get(index))
    }

    /// The printings one of whose names, in some language, holds the needle (see
    /// [`Needle::in_name`]): every name that holds it is found the first time, once.
    pub(super) fn names_holding<'n>(&self, needle: &'n Needle) -> &'n Mask {
        needle.names.get_or_init(|| {
            let mut mask = Mask::none(self.db.len());
            for hit in needle.name_hits(self.db) {
                if let Ok(index) = usize::try_from(hit.id) {
                    mask.set(index);
                }
            }
            mask
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_starts() {
        assert!(starts_words("charizard ex", "char"));
        assert!(starts_words("mega charizard x ex", "charizard x"));
        assert!(!starts_words("richard", "char"));
        assert!(!starts_words("mew", ""));
    }

    /// Searching every name key at once for a needle finds what testing each key finds, on
    /// the embedded index (read in place): prefixes and whole words, accents, capitals
    /// (`EX` keys are lowered before the test), a word running across two keys, and none.
    #[test]
    fn names_found_at_once_as_key_by_key() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let needles = [
            "Dreepy",
            "char",
            "\"charizard ex\"",
            "ex",
            "x",
            "Pokémon-EX",
            "pikachu-ex",
            "\"mewtwo ex\"",
            "e",
            "X",
            "fantyrm",
            "é",
            "dra",
            "\"mew\"",
            "m",
            "yrmdr",
            "zzzzqq",
            "a b",
        ];
        let mut found = 0;
        for written in needles {
            let (text, prefix) = match written.strip_prefix('"') {
                Some(rest) => (rest.trim_end_matches('"'), false),
                None => (written, true),
            };
            let needle = Needle::name(text, prefix);
            let at_once = needle.name_hits(&db);
            let key_by_key = db.names_where(|key| needle.in_name(key));
            assert_eq!(at_once, key_by_key, "{written}");
            found += at_once.len();
        }
        assert!(found > 10_000, "{found}");
    }

    /// `is:reprint` read from the rows' twin classes finds what comparing each printing
    /// with the older printings of its name finds (the reprint rule's comparison, Play!
    /// Pokémon Tournament Rules 5.4.1.3: the same name and functionally identical text),
    /// over every printing of the embedded index.
    #[test]
    fn reprints_from_the_rows_are_what_comparing_texts_finds() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let by_texts = |id: PrintingId| {
            let p = db.get(id).unwrap();
            let this = (p.release_date.as_str(), id);
            db.name_matches(p.names.primary()).any(|hit| {
                db.get(hit.id).is_some_and(|other| {
                    (other.release_date.as_str(), hit.id) < this
                        && crate::formats::reprint::functionally_identical(p, other)
                })
            })
        };
        let from_rows = reprints(db.columns());
        assert_eq!(from_rows.len(), db.len());
        let mut found = 0;
        for (index, &reprint) in from_rows.iter().enumerate() {
            let id = PrintingId::try_from(index).unwrap();
            let p = db.get(id).unwrap();
            assert_eq!(reprint, by_texts(id), "{} {}", p.set_code, p.number);
            found += usize::from(reprint);
        }
        assert!(found > 1_000, "{found}");
    }

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
    fn a_folded_block_finds_what_each_text_alone_finds() {
        let texts = [
            "discard your hand and draw 7 cards",
            "discard your handful",
            "",
            "aaa aa",
            "your hand discard your hand",
            "defaussez votre main",
            "x-discard your hand",
            "energie ×2",
        ];
        let joined: String = texts.iter().map(|text| format!("{text}\0")).collect();
        let block = FoldedBlock {
            index: 0,
            first: 7,
            text: &joined,
        };
        for needle in [
            "discard your hand",
            "your hand",
            "hand",
            "aa",
            "a",
            "aaa aa",
            "Défaussez VOTRE main",
            "x",
            "×2",
            "draw 7 cards\0discard",
            "",
        ] {
            let needle = Needle::new(needle);
            let expected: Vec<u32> = (7..)
                .zip(texts)
                .filter(|(_, text)| holds_words(text, &needle.folded))
                .map(|(id, _)| id)
                .collect();
            assert_eq!(*needle.in_block(block), expected, "{}", needle.raw);
        }
    }

    /// The word index finds what reading every printing's texts finds: words and phrases
    /// cut from the texts of every language as written (accents, apostrophes, hyphens,
    /// punctuation, case), the same with accents dropped (`é` folds to `e`), under `text:`,
    /// `attack:`, `ability:` and negated.
    #[test]
    fn the_word_index_finds_what_a_scan_finds() {
        let Ok(indexed) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        assert!(
            indexed.word_index().is_some(),
            "cards/words.bin fits the index"
        );
        let Ok(scanned) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let scanned = scanned.without_word_index();
        assert!(scanned.word_index().is_none());
        let mut needles: Vec<String> = [
            "discard your hand",
            "Phantom Dive",
            "draw",
            "coin",
            "défaussez",
            "DEFAUSSEZ",
            "l'adversaire",
            "Pokémon-EX",
            "pokemon ex",
            "×2",
            "x2",
            "10+",
            "draw 7 cards",
            "your hand.",
            "of",
            "a",
            "-",
            "'",
            "ß",
            "énergie",
        ]
        .map(String::from)
        .to_vec();
        for lang in Language::ALL {
            for id in (1u32..).step_by(797) {
                let Some(text) = indexed.table_text(lang, id) else {
                    break;
                };
                let words: Vec<&str> = text.split_whitespace().collect();
                let at = (id as usize * 7) % words.len().max(1);
                for len in [1, 2, 3] {
                    let Some(phrase) = words.get(at..at + len) else {
                        continue;
                    };
                    let phrase = phrase.join(" ");
                    let plain: String = phrase
                        .chars()
                        .map(|c| match c {
                            'é' | 'è' | 'ê' => 'e',
                            'à' | 'â' => 'a',
                            'ü' => 'u',
                            'ó' | 'ò' => 'o',
                            other => other,
                        })
                        .collect();
                    needles.push(plain.to_uppercase());
                    needles.push(phrase);
                }
            }
        }
        needles.retain(|needle| !needle.contains(['"', '\\']));
        assert!(needles.len() > 400, "{} needles", needles.len());
        let mut found = 0;
        for (index, needle) in needles.iter().enumerate() {
            let key = ["text", "attack", "ability"][index % 3];
            let mut queries = vec![format!("{key}:\"{needle}\"")];
            if index % 7 == 0 {
                queries.push(format!("kind:supporter -text:\"{needle}\""));
            }
            for query in queries {
                let by_index = crate::search::search(&indexed, &query);
                let by_scan = crate::search::search(&scanned, &query);
                assert!(by_index == by_scan, "{query}");
                found += by_index.map_or(0, |ids| ids.len());
            }
        }
        assert!(found > 10_000, "{found} printings found in all");
    }

    /// Phrases of two to four words around an accent, a hyphen, an apostrophe, a `'s` or a
    /// number, cut from the texts of each of the six languages as written (and in upper
    /// case), find the same printings through the word index (the folded table opened
    /// alone) as reading every printing's texts, under the three keys and negated.
    #[test]
    fn phrases_across_languages_through_the_index_are_what_a_scan_finds() {
        let Ok(indexed) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let Ok(scanned) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let scanned = scanned.without_word_index();
        type Mark = fn(&str) -> bool;
        let marks: [(&str, Mark); 5] = [
            ("accent", |w| {
                w.chars().any(|c| !c.is_ascii() && c.is_alphabetic())
            }),
            ("hyphen", |w| w.trim_matches('-').contains('-')),
            ("apostrophe", |w| {
                w.contains(['\'', '’']) && !w.ends_with("'s")
            }),
            ("'s", |w| w.ends_with("'s") || w.ends_with("’s")),
            ("number", |w| w.chars().any(|c| c.is_ascii_digit())),
        ];
        let (mut queries, mut found, mut langs_of_mark) = (0, 0, [0; 5]);
        for lang in Language::ALL {
            for (mark, test) in marks {
                let mut phrases = Vec::new();
                for id in (1u32..).step_by(37) {
                    let Some(text) = indexed.table_text(lang, id) else {
                        break;
                    };
                    let words: Vec<&str> = text.split_whitespace().collect();
                    let Some(at) = words.iter().position(|w| test(w)) else {
                        continue;
                    };
                    let len = 2 + phrases.len() % 3;
                    let from = at.saturating_sub(phrases.len() % 2);
                    let Some(phrase) = words.get(from..(from + len).min(words.len())) else {
                        continue;
                    };
                    let phrase = phrase.join(" ");
                    if phrase.contains(['"', '\\']) || phrases.contains(&phrase) {
                        continue;
                    }
                    phrases.push(phrase);
                    if phrases.len() == 4 {
                        break;
                    }
                }
                // English has every mark; each language has accents or numbers.
                let needed = lang == Language::En || ["accent", "number"].contains(&mark);
                assert!(
                    !needed || phrases.len() == 4,
                    "{lang:?} {mark}: {phrases:?}"
                );
                langs_of_mark[marks.iter().position(|(m, _)| *m == mark).unwrap_or(0)] +=
                    usize::from(!phrases.is_empty());
                for (n, phrase) in phrases.iter().enumerate() {
                    let key = ["text", "attack", "ability"][n % 3];
                    let shown = if n == 3 {
                        phrase.to_uppercase()
                    } else {
                        phrase.clone()
                    };
                    for query in [
                        format!("{key}:\"{shown}\""),
                        format!("kind:trainer -text:\"{shown}\""),
                    ] {
                        let by_index = crate::search::search(&indexed, &query);
                        let by_scan = crate::search::search(&scanned, &query);
                        assert!(by_index == by_scan, "{lang:?} {mark}: {query}");
                        queries += 1;
                    }
                    let text = crate::search::search(&indexed, &format!("text:\"{phrase}\""));
                    found += text.map_or(0, |ids| ids.len());
                }
            }
        }
        assert!(queries > 150, "{queries} queries");
        assert!(found > 100, "{found} printings found by the phrases");
        // Apostrophes and hyphens stand in several languages' texts, not only English.
        assert!(langs_of_mark.iter().all(|&n| n >= 1), "{langs_of_mark:?}");
        assert!(
            langs_of_mark[1] >= 3 && langs_of_mark[2] >= 3,
            "{langs_of_mark:?}"
        );
    }

    /// Phrases answered through the word index (candidates read in place from the plain
    /// folded tables) find what reading every printing's texts finds, in English, French and
    /// German, including phrases whose words all stand in many texts but in another order
    /// (each such phrase is checked to have candidates, so the order check is what decides).
    #[test]
    fn phrases_through_the_index_are_what_a_scan_finds() {
        let Ok(indexed) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let Ok(scanned) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let scanned = scanned.without_word_index();
        let Some(index) = indexed.word_index() else {
            panic!("cards/words.bin fits the index");
        };
        let phrases = [
            (Language::En, "discard your hand", true),
            (Language::En, "your hand discard", false),
            (Language::En, "hand your discard", false),
            (Language::En, "draw a card", true),
            (Language::En, "card a draw", false),
            (Language::En, "flip a coin", true),
            (Language::En, "coin a flip", false),
            (Language::En, "Phantom Dive", true),
            (Language::En, "dive phantom", false),
            (Language::Fr, "défaussez votre main", true),
            (Language::Fr, "main votre defaussez", false),
            (Language::Fr, "lancez une pièce", true),
            (Language::Fr, "piece une lancez", false),
            (Language::De, "wirf eine münze", true),
            (Language::De, "munze eine wirf", false),
        ];
        for (lang, phrase, in_order) in phrases {
            let needle = Needle::new(phrase);
            let mut words: Vec<&str> =
                crate::cards::database::words::words(&needle.folded).collect();
            let first = words.remove(0);
            let mut candidates = index.texts_with(lang, first);
            for word in words {
                let ids = index.texts_with(lang, word);
                candidates.retain(|id| ids.binary_search(id).is_ok());
            }
            assert!(!candidates.is_empty(), "{phrase}: no candidate");
            for key in ["text", "attack", "ability"] {
                for query in [
                    format!("{key}:\"{phrase}\""),
                    format!("kind:pokemon -{key}:\"{phrase}\""),
                ] {
                    let by_index = crate::search::search(&indexed, &query);
                    let by_scan = crate::search::search(&scanned, &query);
                    assert!(by_index == by_scan, "{query}");
                }
            }
            let found = crate::search::search(
                &indexed,
                &format!("text:\"{phrase}\" or attack:\"{phrase}\""),
            );
            // A phrase as the texts word it is found; the same words reordered may be too.
            assert!(
                !in_order || found.is_ok_and(|ids| !ids.is_empty()),
                "{phrase}"
            );
        }
    }

    #[test]
    fn every_key_and_alias_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for key in KEYS {
            for name in key.names() {
                assert!(seen.insert(name), "{name} twice");
            }
        }
    }
}
