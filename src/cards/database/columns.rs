//! [`Columns`]: the few facts of every printing that `search`'s keys test (set, number,
//! kind, stage, types, marks, tags, HP, retreat, Weakness, Resistance, attack costs and
//! damage, rarity, illustrator, the rules name, the lookup key of what it evolves from), one
//! small row a printing, so a query over
//! every printing decodes none of them.
//!
//! The embedded index carries them precomputed (`cards/columns.bin`, written by `cargo
//! xtask cards` with [`Columns::build`]). Every part of it (rows, attacks, editions, each
//! edition's runs of printings, string pools) is fixed-width records read in place from the
//! file's bytes (the embedded ones are never copied): opening the columns decodes and
//! allocates nothing, and a query decodes only the rows it tests. Any other database builds
//! them in memory the first time a search asks, from its printings and details, with the
//! same function, in the same form. Strings
//! (set ids and codes, numbers, rarities, illustrators, rules names) are interned in small
//! pools, so a key tests each distinct value once. This module must not know about deck
//! lists, formats or queries.

use std::borrow::Cow;
use std::collections::HashMap;

use jiff::civil::Date;

use crate::cards::model::details::Details;
use crate::cards::model::twin::Fingerprint;
use crate::cards::model::{Category, EnergyKind, Printing, PrintingId, Stage, Tags, TrainerKind};

/// The Energy types a type, Weakness or Resistance bit stands for, in bit order (what
/// `type:`, `weak:` and `resist:` accept).
pub const TYPES: &[&str] = &[
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

/// The file's magic bytes; then [`HEADER_WORDS`] little-endian u32s: the printing, attack,
/// edition and run counts, each pool's string count and text length (names, numbers,
/// rarities, illustrators), and how many printings each [`INDEXED`] field's index lists.
/// Then the parts, one after the other: a [`ROW_BYTES`] record a printing, an
/// [`ATTACK_BYTES`] record an attack, an [`EDITION_BYTES`] record an edition, a
/// [`RUN_BYTES`] record a run, each pool's ends (a u32 each) followed by its text (UTF-8),
/// and each index: where each id of the names pool ends in its list (a u32 an id), then the
/// list (a u32 a printing: the printings whose field is that id, in order, those whose
/// record does not decode left out). Every part has a fixed width given by the header, so
/// each is read where it is: opening the columns decodes and allocates nothing.
const MAGIC: &[u8; 8] = b"DBXCOLS5";

/// The string pools, in file order: names, numbers, rarities, illustrators.
const POOLS: usize = 4;

/// The fields of a row indexed by value (ids in the names pool), in file order: `into:`
/// and `evolves:` find the printings of a few cards by them, no row read.
const INDEXED: [Field; 2] = [Field::Card, Field::Evolves];

/// The u32s of the header after [`MAGIC`] (see there).
const HEADER_WORDS: usize = 4 + 2 * POOLS + INDEXED.len();

/// One edition's record: `set_id`, `set_code`, `release_date`, `series` (ids in the names
/// pool), then where its runs end in the runs (u32 each; they start where the previous
/// edition's end).
const EDITION_BYTES: usize = 20;

/// One run's record: the first printing of a run of consecutive printings of one edition,
/// and the one past its last (u32 each). An edition's runs are in order and hold every
/// printing of it whose record decodes: the embedded index, stored set by set, has one run
/// an edition, so a `set:` term reads which printings it keeps from a few records, no row.
const RUN_BYTES: usize = 8;

/// One row's record: `edition`, `number`, `card`, `rarity`, `artist` (`u32::MAX` for none),
/// `attacks_end`, `mark` (a `char`, `u32::MAX` for none), all u32; `types`, `weak`,
/// `resist`, `hp`, `tags` (u16); `category`, `stage`, `trainer`, `energy` (the variant's
/// index, plus one for an `Option`'s `Some`, 0 for `None`), `flags`, `retreat`, and a byte
/// saying whether `hp` (bit 0) and `retreat` (bit 1) are there; `twin` in three bytes
/// ([`NO_TWIN`] for none); then `evolves` (u32, `u32::MAX` for none).
const ROW_BYTES: usize = 52;

/// The three bytes of a row's `twin` when the printing is identical to nothing; ids run
/// below it.
const NO_TWIN: u32 = 0xFF_FFFF;

/// One attack's record: `damage`, `cost` (u32), and 1 when `damage` is there.
const ATTACK_BYTES: usize = 9;

/// The variants of the kinds a row stores, in declaration order (`variant as u8` indexes
/// them; the round-trip test checks each).
const CATEGORIES: [Category; 3] = [Category::Pokemon, Category::Trainer, Category::Energy];
const STAGES: [Stage; 11] = [
    Stage::Basic,
    Stage::Baby,
    Stage::Stage1,
    Stage::Stage2,
    Stage::Restored,
    Stage::VUnion,
    Stage::LevelUp,
    Stage::Break,
    Stage::Vmax,
    Stage::Vstar,
    Stage::Mega,
];
const TRAINERS: [TrainerKind; 6] = [
    TrainerKind::Item,
    TrainerKind::Supporter,
    TrainerKind::Stadium,
    TrainerKind::Tool,
    TrainerKind::TechnicalMachine,
    TrainerKind::RocketsSecretMachine,
];
const ENERGIES: [EnergyKind; 2] = [EnergyKind::Basic, EnergyKind::Special];

/// Bits of [`Row::flags`].
pub mod flag {
    pub const ACE_SPEC: u8 = 1;
    pub const RADIANT: u8 = 1 << 1;
    pub const PRISM_STAR: u8 = 1 << 2;
    pub const STAR: u8 = 1 << 3;
    /// [`crate::cards::model::Printing::is_basic_pokemon`].
    pub const BASIC_POKEMON: u8 = 1 << 4;
    /// [`crate::cards::model::Printing::is_basic_energy`].
    pub const BASIC_ENERGY: u8 = 1 << 5;
    /// [`crate::cards::model::Printing::has_rule_box`].
    pub const RULE_BOX: u8 = 1 << 6;
    /// The printing's record does not decode (a damaged cache): no key matches it.
    pub const MISSING: u8 = 1 << 7;
}

/// One printing's facts. String fields are ids in one of [`Columns`]' pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Index in [`Columns::editions`].
    pub edition: u32,
    /// Id in the numbers pool.
    pub number: u32,
    /// Id of [`Printing::rules_key`] in the names pool: printings of one card share it.
    pub card: u32,
    /// Id in the names pool of the lookup key ([`crate::names::lookup_key`]) of what the
    /// printing evolves from ([`Printing::evolves_from`]): the `card` of the printings of
    /// that card, when the database has them.
    pub evolves: Option<u32>,
    /// The printing's class under the reprint rule's comparison: two printings share it
    /// exactly when their [`Fingerprint::twin_key`]s are equal (the same card, functionally
    /// identical); `None` for a printing identical to nothing (no rules text). So whether a
    /// printing is a reprint of another is a comparison of two rows, neither decoded.
    pub twin: Option<u32>,
    pub category: Category,
    pub stage: Option<Stage>,
    pub trainer: Option<TrainerKind>,
    pub energy: Option<EnergyKind>,
    pub mark: Option<char>,
    /// [`flag`] bits.
    pub flags: u8,
    pub tags: Tags,
    /// A bit per [`TYPES`] entry: the Pokémon's types, its Weakness and its Resistance.
    pub types: u16,
    pub weak: u16,
    pub resist: u16,
    pub hp: Option<u16>,
    pub retreat: Option<u8>,
    /// Ids in the rarities and illustrators pools.
    pub rarity: Option<u32>,
    pub artist: Option<u32>,
    /// The end of the printing's attacks in [`Columns::attacks`] (they start at the end of
    /// the previous printing's).
    pub attacks_end: u32,
}

impl Row {
    pub fn has(&self, bit: u8) -> bool {
        self.flags & bit != 0
    }

    /// The row's `field` (`None` for an `evolves` it has not).
    pub fn get(&self, field: Field) -> Option<u32> {
        match field {
            Field::Edition => Some(self.edition),
            Field::Number => Some(self.number),
            Field::Card => Some(self.card),
            Field::Evolves => self.evolves,
        }
    }
}

/// A `u32` field of a row that a key tests alone: [`Columns::field`] reads it from the
/// record in place, so a query over every printing decodes no row to test it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// [`Row::edition`].
    Edition,
    /// [`Row::number`].
    Number,
    /// [`Row::card`].
    Card,
    /// [`Row::evolves`].
    Evolves,
}

impl Field {
    /// Where the field starts in a record (see [`ROW_BYTES`]).
    fn at(self) -> usize {
        match self {
            Field::Edition => 0,
            Field::Number => 4,
            Field::Card => 8,
            Field::Evolves => 48,
        }
    }
}

/// One attack's printed damage ([`crate::cards::model::details::Attack::base_damage`]) and its Energy
/// count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackFacts {
    pub damage: Option<u32>,
    pub cost: u32,
}

/// What the printings of one set share: ids in the names pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edition {
    pub set_id: u32,
    pub set_code: u32,
    pub release_date: u32,
    pub series: u32,
}

/// Distinct strings, each kept once, read in place: id `i` is the text from the end of
/// string `i - 1` (0 for the first) to the end of string `i`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pool<'a> {
    /// Each string's end in `text`, a little-endian u32 each.
    ends: &'a [u8],
    text: &'a [u8],
}

impl<'a> Pool<'a> {
    pub fn len(&self) -> usize {
        self.ends.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// String `id`; empty past the end (or, in a damaged file, when it is not UTF-8).
    pub fn get(&self, id: u32) -> &'a str {
        std::str::from_utf8(self.bytes(id)).unwrap_or("")
    }

    /// String `id`'s bytes, not checked as UTF-8: to compare with a string, where
    /// [`Pool::get`] would check each value tested; empty past the end.
    pub fn bytes(&self, id: u32) -> &'a [u8] {
        let id = id as usize;
        if id >= self.len() {
            return &[];
        }
        let start = id
            .checked_sub(1)
            .map_or(0, |before| u32_at(self.ends, before * 4) as usize);
        let end = u32_at(self.ends, id * 4) as usize;
        self.text.get(start..end).unwrap_or_default()
    }

    /// Checks the text is UTF-8 and the ends are in order, within it and on character
    /// boundaries.
    fn valid(&self) -> bool {
        let Ok(text) = std::str::from_utf8(self.text) else {
            return false;
        };
        let ends = (0..self.len()).map(|id| u32_at(self.ends, id * 4) as usize);
        ends.clone().is_sorted() && ends.into_iter().all(|end| text.is_char_boundary(end))
    }
}

/// The editions, read in place: each one's strings, and its runs of printings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Editions<'a> {
    records: &'a [u8],
}

impl<'a> Editions<'a> {
    pub fn len(&self) -> usize {
        self.records.len() / EDITION_BYTES
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Edition `index`; `None` past the end.
    pub fn get(&self, index: usize) -> Option<Edition> {
        let record = self.record(index)?;
        Some(Edition {
            set_id: u32_at(record, 0),
            set_code: u32_at(record, 4),
            release_date: u32_at(record, 8),
            series: u32_at(record, 12),
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = Edition> + 'a {
        let editions = *self;
        (0..self.len()).filter_map(move |index| editions.get(index))
    }

    fn record(&self, index: usize) -> Option<&'a [u8]> {
        let start = index.checked_mul(EDITION_BYTES)?;
        self.records.get(start..start.checked_add(EDITION_BYTES)?)
    }

    /// Where edition `index`'s runs start and end in the runs (an empty range past the end).
    fn runs(&self, index: usize) -> std::ops::Range<usize> {
        let end = |index: usize| self.record(index).map(|r| u32_at(r, 16) as usize);
        let start = index.checked_sub(1).map_or(Some(0), end);
        match (start, end(index)) {
            (Some(start), Some(end)) if start <= end => start..end,
            _ => 0..0,
        }
    }
}

/// A [`Pool`] under construction: its text, each string's end, and each string's id.
#[derive(Default)]
struct Interner {
    text: String,
    ends: Vec<u32>,
    ids: HashMap<String, u32>,
}

impl Interner {
    fn id(&mut self, text: &str) -> Option<u32> {
        if let Some(&id) = self.ids.get(text) {
            return Some(id);
        }
        let id = u32::try_from(self.ends.len()).ok()?;
        self.text.push_str(text);
        self.ends.push(u32::try_from(self.text.len()).ok()?);
        self.ids.insert(text.to_string(), id);
        Some(id)
    }
}

/// Where a pool's parts are in the file form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PoolAt {
    ends: usize,
    text: usize,
    /// Strings, and bytes of text.
    count: usize,
    len: usize,
}

/// Where each part of the file form is (see [`MAGIC`]), read from its header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Layout {
    rows: usize,
    attacks: usize,
    editions: usize,
    runs: usize,
    /// Where the row, attack, edition and run records start.
    rows_at: usize,
    attacks_at: usize,
    editions_at: usize,
    runs_at: usize,
    pools: [PoolAt; POOLS],
    /// By [`INDEXED`] field: where its ends (one a string of the names pool) and its list
    /// start, and the list's length.
    indexes: [(usize, usize, usize); INDEXED.len()],
}

impl Layout {
    /// The layout `bytes` state; `None` when they are from another version, not of `count`
    /// rows, or not exactly as long as the parts stated.
    fn read(bytes: &[u8], count: usize) -> Option<Layout> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let header = rest.get(..HEADER_WORDS * 4)?;
        let word = |at: usize| u32_at(header, at * 4) as usize;
        if word(0) != count {
            return None;
        }
        let mut at = MAGIC.len() + HEADER_WORDS * 4;
        let mut part = |records: usize, width: usize| -> Option<usize> {
            let start = at;
            at = at.checked_add(records.checked_mul(width)?)?;
            Some(start)
        };
        let mut layout = Layout {
            rows: word(0),
            attacks: word(1),
            editions: word(2),
            runs: word(3),
            rows_at: part(word(0), ROW_BYTES)?,
            attacks_at: part(word(1), ATTACK_BYTES)?,
            editions_at: part(word(2), EDITION_BYTES)?,
            runs_at: part(word(3), RUN_BYTES)?,
            pools: [PoolAt::default(); POOLS],
            indexes: [(0, 0, 0); INDEXED.len()],
        };
        for (index, pool) in layout.pools.iter_mut().enumerate() {
            let (count, len) = (word(4 + 2 * index), word(5 + 2 * index));
            *pool = PoolAt {
                ends: part(count, 4)?,
                text: part(len, 1)?,
                count,
                len,
            };
        }
        let names = layout.pools[NAMES].count;
        for (index, place) in layout.indexes.iter_mut().enumerate() {
            let listed = word(4 + 2 * POOLS + index);
            *place = (part(names, 4)?, part(listed, 4)?, listed);
        }
        (at == bytes.len()).then_some(layout)
    }
}

/// Every printing's row, by printing id, with what each edition's strings mean: the file
/// form itself (borrowed from the embedded file, or owned), read in place.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    bytes: Cow<'static, [u8]>,
    at: Layout,
    /// By edition: the release date read, and its year, the first time one is asked for.
    dates: std::sync::OnceLock<Vec<(Option<Date>, Option<u32>)>>,
}

/// Two columns are equal when their file forms are.
impl PartialEq for Columns {
    fn eq(&self, other: &Columns) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for Columns {}

/// The pools' indexes in [`Layout::pools`].
const NAMES: usize = 0;
const NUMBERS: usize = 1;
const RARITIES: usize = 2;
const ARTISTS: usize = 3;

impl Columns {
    /// The columns of `printings`, each with its details when the source gives them
    /// (`None` for a printing whose record does not decode). `None` past 4 GiB of strings.
    pub fn build<'a>(
        printings: impl IntoIterator<Item = (Option<&'a Printing>, Option<&'a Details>)>,
    ) -> Option<Columns> {
        let mut rows: Vec<Row> = Vec::new();
        let mut attack_list: Vec<AttackFacts> = Vec::new();
        let mut edition_list: Vec<Edition> = Vec::new();
        let mut names = Interner::default();
        let mut numbers = Interner::default();
        let mut rarities = Interner::default();
        let mut artists = Interner::default();
        let mut editions: HashMap<Edition, u32> = HashMap::new();
        let mut twins: HashMap<Fingerprint, u32> = HashMap::new();
        for (printing, details) in printings {
            let Some(p) = printing else {
                rows.push(Row::missing(u32::try_from(attack_list.len()).ok()?));
                continue;
            };
            let edition = Edition {
                set_id: names.id(&p.set_id)?,
                set_code: names.id(&p.set_code)?,
                release_date: names.id(&p.release_date)?,
                series: names.id(&p.series)?,
            };
            let next = u32::try_from(edition_list.len()).ok()?;
            let edition = *editions.entry(edition).or_insert_with(|| {
                edition_list.push(edition);
                next
            });
            let attacks = details.map_or(&[][..], |d| &d.attacks[..]);
            attack_list.extend(attacks.iter().map(|attack| AttackFacts {
                damage: attack.base_damage(),
                cost: u32::try_from(attack.cost.len()).unwrap_or(u32::MAX),
            }));
            let modifiers = |list: &[crate::cards::model::details::TypeModifier]| {
                type_bits(list.iter().map(|m| &*m.energy_type))
            };
            rows.push(Row {
                edition,
                number: numbers.id(&p.number)?,
                card: names.id(p.rules_key())?,
                evolves: match p.evolves_from.as_deref() {
                    Some(from) => Some(names.id(&crate::names::lookup_key(from))?),
                    None => None,
                },
                twin: match Fingerprint::of(p).twin_key() {
                    Some(key) => Some(twin_id(&mut twins, key)?),
                    None => None,
                },
                category: p.category,
                stage: p.stage,
                trainer: p.trainer,
                energy: p.energy,
                mark: p.regulation_mark,
                flags: flags_of(p),
                tags: p.tags,
                types: type_bits(p.types.iter().map(String::as_str)),
                weak: details.map_or(0, |d| modifiers(&d.weaknesses)),
                resist: details.map_or(0, |d| modifiers(&d.resistances)),
                hp: details.and_then(|d| d.hp),
                retreat: details.and_then(|d| d.retreat),
                rarity: match details.and_then(|d| d.rarity.as_deref()) {
                    Some(rarity) => Some(rarities.id(rarity)?),
                    None => None,
                },
                artist: match details.and_then(|d| d.illustrator.as_deref()) {
                    Some(artist) => Some(artists.id(artist)?),
                    None => None,
                },
                attacks_end: u32::try_from(attack_list.len()).ok()?,
            });
        }
        let bytes = file_form(
            &rows,
            &attack_list,
            &edition_list,
            [&names, &numbers, &rarities, &artists],
        )?;
        let at = Layout::read(&bytes, rows.len())?;
        Some(Columns {
            bytes: Cow::Owned(bytes),
            at,
            dates: std::sync::OnceLock::new(),
        })
    }

    /// The file form (`cards/columns.bin`).
    pub fn encode(&self) -> Option<Vec<u8>> {
        Some(self.bytes.to_vec())
    }

    /// Reads the file form, copying it; `None` when it is damaged, from another version, or
    /// does not describe `count` printings.
    pub fn decode(bytes: &[u8], count: usize) -> Option<Columns> {
        let columns = Columns {
            bytes: Cow::Owned(bytes.to_vec()),
            at: Layout::read(bytes, count)?,
            dates: std::sync::OnceLock::new(),
        };
        columns.valid().then_some(columns)
    }

    /// [`Columns::decode`] of bytes that live as long as the program (the embedded file):
    /// read where they are, and not checked record by record at every start (a test checks
    /// the embedded file; every lookup is checked anyway, so a bad id reads as an empty
    /// string or no row, never a panic).
    pub fn decode_static(bytes: &'static [u8], count: usize) -> Option<Columns> {
        Some(Columns {
            bytes: Cow::Borrowed(bytes),
            at: Layout::read(bytes, count)?,
            dates: std::sync::OnceLock::new(),
        })
    }

    /// `records` records of `width` bytes from `start`: empty when they are not there.
    fn part(&self, start: usize, records: usize, width: usize) -> &[u8] {
        let len = records.saturating_mul(width);
        (start.checked_add(len))
            .and_then(|end| self.bytes.get(start..end))
            .unwrap_or_default()
    }

    fn pool(&self, which: usize) -> Pool<'_> {
        let at = self.at.pools.get(which).copied().unwrap_or_default();
        Pool {
            ends: self.part(at.ends, at.count, 4),
            text: self.part(at.text, at.len, 1),
        }
    }

    /// Row `index`'s record, whether or not its printing decodes.
    fn stored_row(&self, index: usize) -> Option<Row> {
        if index >= self.at.rows {
            return None;
        }
        let start = index.checked_mul(ROW_BYTES)?.checked_add(self.at.rows_at)?;
        let record = self.bytes.get(start..start.checked_add(ROW_BYTES)?)?;
        Row::read(record.try_into().ok()?)
    }

    /// Where printing `index`'s attacks end (and the next one's start).
    fn attacks_end(&self, index: usize) -> usize {
        self.stored_row(index)
            .map_or(0, |row| row.attacks_end as usize)
    }

    /// Every id in range, the attack ends in order, each edition's runs in order and holding
    /// exactly its printings whose record decodes: nothing a lookup can trip on. One pass
    /// over the records, read in place.
    pub(crate) fn valid(&self) -> bool {
        let (names, numbers) = (self.names(), self.numbers());
        let (rarities, artists) = (self.rarities(), self.artists());
        let attacks = u32::try_from(self.at.attacks).unwrap_or(u32::MAX);
        let editions = self.editions();
        let in_pool = |id: u32, pool: &Pool| (id as usize) < pool.len();
        let rows_fit = (0..self.at.rows)
            .try_fold(0u32, |end, index| {
                let row = self.stored_row(index)?;
                let fits = row.has(flag::MISSING)
                    || ((row.edition as usize) < editions.len()
                        && in_pool(row.number, &numbers)
                        && in_pool(row.card, &names)
                        && row.evolves.is_none_or(|id| in_pool(id, &names))
                        && row.rarity.is_none_or(|id| in_pool(id, &rarities))
                        && row.artist.is_none_or(|id| in_pool(id, &artists))
                        && row.attacks_end <= attacks);
                (fits && row.attacks_end >= end).then_some(row.attacks_end)
            })
            .is_some();
        [names, numbers, rarities, artists].iter().all(Pool::valid)
            && editions.iter().all(|e| {
                [e.set_id, e.set_code, e.release_date, e.series]
                    .iter()
                    .all(|&id| in_pool(id, &names))
            })
            && rows_fit
            && self.runs_valid()
            && INDEXED.iter().all(|&field| self.index_valid(field))
    }

    /// Whether `field`'s index lists, for each id of the names pool, the printings whose
    /// record decodes and whose field is that id, in order, and all of them.
    fn index_valid(&self, field: Field) -> bool {
        let (ends, list) = self.index(field);
        let mut start = 0;
        for value in 0..ends.len() / 4 {
            let end = u32_at(ends, value * 4) as usize;
            let Some(rows) = list.get(start * 4..end.saturating_mul(4)) else {
                return false;
            };
            let rows = rows.chunks_exact(4).map(|b| u32_at(b, 0) as usize);
            let in_order = rows.clone().zip(rows.clone().skip(1)).all(|(a, b)| a < b);
            let fit = rows.clone().all(|index| {
                self.stored_row(index).is_some_and(|row| {
                    !row.has(flag::MISSING) && row.get(field) == u32::try_from(value).ok()
                })
            });
            if !in_order || !fit {
                return false;
            }
            start = end;
        }
        let having = (0..self.at.rows)
            .filter_map(|index| self.stored_row(index))
            .filter(|row| !row.has(flag::MISSING) && row.get(field).is_some())
            .count();
        start * 4 == list.len() && start == having
    }

    /// `field`'s index: its ends and its list (both empty for a field not indexed).
    fn index(&self, field: Field) -> (&[u8], &[u8]) {
        let Some(&(ends, list, listed)) =
            (INDEXED.iter().position(|&f| f == field)).and_then(|at| self.at.indexes.get(at))
        else {
            return (&[], &[]);
        };
        let names = self.at.pools[NAMES].count;
        (self.part(ends, names, 4), self.part(list, listed, 4))
    }

    /// The printings whose record decodes and whose `field` is `value`, in order, read from
    /// the field's index; `None` for a field that is not indexed (the rules name and what it
    /// evolves from are).
    pub fn rows_where(&self, field: Field, value: u32) -> Option<impl Iterator<Item = usize> + '_> {
        INDEXED.contains(&field).then_some(())?;
        let (ends, list) = self.index(field);
        let value = value as usize;
        let end = |value: usize| u32_at(ends, value.checked_mul(4)?).try_into().ok();
        let range = match (value.checked_sub(1).map_or(Some(0), end), end(value)) {
            (Some(start), Some(end)) if value < ends.len() / 4 => start..end,
            _ => 0..0,
        };
        let rows = list.get(range.start * 4..range.end * 4).unwrap_or_default();
        Some(rows.chunks_exact(4).map(|b| u32_at(b, 0) as usize))
    }

    /// Whether each edition's runs are in order, of its printings whose record decodes, and
    /// all of them: the runs cover as many printings as decode, and no printing twice.
    fn runs_valid(&self) -> bool {
        let editions = self.editions();
        let (mut covered, mut last_end) = (0usize, 0usize);
        for edition in 0..editions.len() {
            let runs = editions.runs(edition);
            if runs.start != last_end || runs.end > self.at.runs {
                return false;
            }
            last_end = runs.end;
            let mut after = 0;
            for run in self.runs(runs) {
                let rows_ok = run.clone().all(|index| {
                    (self.stored_row(index)).is_some_and(|row| {
                        !row.has(flag::MISSING) && row.edition as usize == edition
                    })
                });
                if run.start < after || run.is_empty() || run.end > self.at.rows || !rows_ok {
                    return false;
                }
                (after, covered) = (run.end, covered + run.len());
            }
        }
        let decoding = (0..self.at.rows)
            .filter(|&index| {
                self.stored_row(index)
                    .is_some_and(|r| !r.has(flag::MISSING))
            })
            .count();
        last_end == self.at.runs && covered == decoding
    }

    /// The runs `range` (indexes in the runs) as ranges of printings.
    fn runs(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let records = self.part(self.at.runs_at, self.at.runs, RUN_BYTES);
        range.filter_map(move |run| {
            let record = records.get(run * RUN_BYTES..(run + 1) * RUN_BYTES)?;
            Some(u32_at(record, 0) as usize..u32_at(record, 4) as usize)
        })
    }

    /// The printings of edition `edition` whose record decodes, as ranges in order: what
    /// testing each row's edition finds, read from a few records.
    pub fn edition_rows(
        &self,
        edition: usize,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.runs(self.editions().runs(edition))
    }

    /// How many printings the columns describe.
    pub fn len(&self) -> usize {
        self.at.rows
    }

    pub fn is_empty(&self) -> bool {
        self.at.rows == 0
    }

    /// Row `index`'s `field` as its record holds it, the rest of the record unread: what
    /// [`Columns::row`] gives as `Row::get(field)` when the row decodes (`None` for an
    /// `evolves` it has not, or past the end). Whether the row decodes is not checked:
    /// [`Columns::row`] says.
    pub fn field(&self, index: usize, field: Field) -> Option<u32> {
        if index >= self.at.rows {
            return None;
        }
        let at = (index.checked_mul(ROW_BYTES)?)
            .checked_add(self.at.rows_at)?
            .checked_add(field.at())?;
        let word = self.bytes.get(at..at.checked_add(4)?)?;
        let value = u32::from_le_bytes(word.try_into().ok()?);
        match field {
            Field::Evolves => optional(value),
            _ => Some(value),
        }
    }

    /// Printing `id`'s row; `None` past the end or when its record does not decode.
    pub fn row(&self, id: PrintingId) -> Option<Row> {
        let row = self.stored_row(usize::try_from(id).ok()?)?;
        (!row.has(flag::MISSING)).then_some(row)
    }

    pub fn editions(&self) -> Editions<'_> {
        Editions {
            records: self.part(self.at.editions_at, self.at.editions, EDITION_BYTES),
        }
    }

    /// The pool of set ids and codes, release dates, series and rules names.
    pub fn names(&self) -> Pool<'_> {
        self.pool(NAMES)
    }

    pub fn numbers(&self) -> Pool<'_> {
        self.pool(NUMBERS)
    }

    pub fn rarities(&self) -> Pool<'_> {
        self.pool(RARITIES)
    }

    pub fn artists(&self) -> Pool<'_> {
        self.pool(ARTISTS)
    }

    /// Edition `edition`'s release date and its year, read as [`Printing::release_date`]
    /// is read by `released` and `year`.
    pub fn released(&self, edition: u32) -> (Option<Date>, Option<u32>) {
        let dates = self.dates.get_or_init(|| {
            let names = self.names();
            (self.editions().iter())
                .map(|edition| {
                    let released = names.get(edition.release_date);
                    let year = released.get(..4).and_then(|y| y.parse().ok());
                    (crate::util::date::parse(released), year)
                })
                .collect()
        });
        dates.get(edition as usize).copied().unwrap_or((None, None))
    }

    /// Printing `id`'s attacks.
    pub fn attacks(&self, id: PrintingId) -> impl Iterator<Item = AttackFacts> + '_ {
        let (start, end) = match usize::try_from(id) {
            Ok(index) => (
                index
                    .checked_sub(1)
                    .map_or(0, |before| self.attacks_end(before)),
                self.attacks_end(index),
            ),
            Err(_) => (0, 0),
        };
        let records = self.part(self.at.attacks_at, self.at.attacks, ATTACK_BYTES);
        let end = end.min(self.at.attacks);
        (start..end.max(start)).filter_map(move |at| {
            let from = at.checked_mul(ATTACK_BYTES)?;
            let record = records.get(from..from.checked_add(ATTACK_BYTES)?)?;
            Some(AttackFacts::read(record.try_into().ok()?))
        })
    }

    /// Fills `stub` with what a format's pool reads of printing `id` (set code, number,
    /// release date, series, regulation mark, kind of card and of Energy) and nothing else:
    /// its names and texts stay as they were. `false` when the printing has no row.
    pub fn fill_pool_facts(&self, id: PrintingId, stub: &mut Printing) -> bool {
        let Some(row) = self.row(id) else {
            return false;
        };
        let Some(edition) = self.editions().get(row.edition as usize) else {
            return false;
        };
        let names = self.names();
        let set = |field: &mut String, text: &str| {
            field.clear();
            field.push_str(text);
        };
        set(&mut stub.set_code, names.get(edition.set_code));
        set(&mut stub.set_id, names.get(edition.set_id));
        set(&mut stub.release_date, names.get(edition.release_date));
        set(&mut stub.series, names.get(edition.series));
        set(&mut stub.number, self.numbers().get(row.number));
        stub.regulation_mark = row.mark;
        stub.category = row.category;
        stub.energy = row.energy;
        true
    }
}

/// The file form (see [`MAGIC`]) of these rows, attacks, editions and pools, with each
/// edition's runs of printings; `None` past 4 GiB.
fn file_form(
    rows: &[Row],
    attacks: &[AttackFacts],
    editions: &[Edition],
    pools: [&Interner; POOLS],
) -> Option<Vec<u8>> {
    // Each edition's runs, in printing order; a printing whose record does not decode is
    // in none.
    let mut runs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); editions.len()];
    for (index, row) in rows.iter().enumerate() {
        let index = u32::try_from(index).ok()?;
        let Some(list) = (!row.has(flag::MISSING))
            .then(|| runs.get_mut(row.edition as usize))
            .flatten()
        else {
            continue;
        };
        match list.last_mut() {
            Some((_, end)) if *end == index => *end = index + 1,
            _ => list.push((index, index + 1)),
        }
    }
    let count = |n: usize| u32::try_from(n).ok();
    let mut header = vec![
        count(rows.len())?,
        count(attacks.len())?,
        count(editions.len())?,
        count(runs.iter().map(Vec::len).sum())?,
    ];
    for pool in pools {
        header.extend([count(pool.ends.len())?, count(pool.text.len())?]);
    }
    // Each indexed field's printings, by value.
    let names = pools[NAMES].ends.len();
    let mut indexes = Vec::new();
    for field in INDEXED {
        let mut by_value: Vec<Vec<u32>> = vec![Vec::new(); names];
        for (index, row) in rows.iter().enumerate() {
            let value = (!row.has(flag::MISSING)).then(|| row.get(field)).flatten();
            if let Some(list) = value.and_then(|value| by_value.get_mut(value as usize)) {
                list.push(count(index)?);
            }
        }
        header.push(count(by_value.iter().map(Vec::len).sum())?);
        indexes.push(by_value);
    }
    let mut out = MAGIC.to_vec();
    for word in header {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for row in rows {
        out.extend_from_slice(&row.record());
    }
    for attack in attacks {
        out.extend_from_slice(&attack.record());
    }
    let mut runs_end = 0;
    for (edition, list) in editions.iter().zip(&runs) {
        runs_end += count(list.len())?;
        let words = [
            edition.set_id,
            edition.set_code,
            edition.release_date,
            edition.series,
            runs_end,
        ];
        words
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    }
    for (start, end) in runs.iter().flatten() {
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&end.to_le_bytes());
    }
    for pool in pools {
        pool.ends
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(pool.text.as_bytes());
    }
    for by_value in indexes {
        let mut end = 0;
        for list in &by_value {
            end += count(list.len())?;
            out.extend_from_slice(&end.to_le_bytes());
        }
        by_value
            .iter()
            .flatten()
            .for_each(|index| out.extend_from_slice(&index.to_le_bytes()));
    }
    Some(out)
}

/// The id of the printings whose twin key is `key`: the next one for a new key; `None` once
/// the ids would reach [`NO_TWIN`].
fn twin_id(twins: &mut HashMap<Fingerprint, u32>, key: Fingerprint) -> Option<u32> {
    let next = u32::try_from(twins.len()).ok().filter(|&id| id < NO_TWIN)?;
    Some(*twins.entry(key).or_insert(next))
}

/// Little-endian integers at fixed places of a record.
fn u32_at(record: &[u8], at: usize) -> u32 {
    record
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn u16_at(record: &[u8], at: usize) -> u16 {
    record
        .get(at..at + 2)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u16::from_le_bytes)
}

/// `u32::MAX` for `None`.
fn optional(value: u32) -> Option<u32> {
    (value != u32::MAX).then_some(value)
}

/// A variant's index plus one, 0 for `None` (see [`ROW_BYTES`]).
fn kind_byte<T: Copy>(value: Option<T>, index: impl Fn(T) -> u8) -> u8 {
    value.map_or(0, |v| index(v).saturating_add(1))
}

/// Reads [`kind_byte`]: `None` for 0, `Some(None)` for an index past `variants`.
fn from_kind_byte<T: Copy>(byte: u8, variants: &[T]) -> Option<Option<T>> {
    match byte.checked_sub(1) {
        None => Some(None),
        Some(index) => variants.get(usize::from(index)).map(|v| Some(*v)),
    }
}

impl AttackFacts {
    fn record(&self) -> [u8; ATTACK_BYTES] {
        let mut out = [0; ATTACK_BYTES];
        out[0..4].copy_from_slice(&self.damage.unwrap_or(0).to_le_bytes());
        out[4..8].copy_from_slice(&self.cost.to_le_bytes());
        out[8] = u8::from(self.damage.is_some());
        out
    }

    fn read(record: &[u8; ATTACK_BYTES]) -> AttackFacts {
        AttackFacts {
            damage: (record[8] != 0).then(|| u32_at(record, 0)),
            cost: u32_at(record, 4),
        }
    }
}

impl Row {
    /// The fixed-width record ([`ROW_BYTES`]).
    fn record(&self) -> [u8; ROW_BYTES] {
        let mut out = [0; ROW_BYTES];
        let words = [
            self.edition,
            self.number,
            self.card,
            self.rarity.unwrap_or(u32::MAX),
            self.artist.unwrap_or(u32::MAX),
            self.attacks_end,
            self.mark.map_or(u32::MAX, u32::from),
        ];
        for (at, word) in words.iter().enumerate() {
            out[at * 4..at * 4 + 4].copy_from_slice(&word.to_le_bytes());
        }
        let halves = [
            self.types,
            self.weak,
            self.resist,
            self.hp.unwrap_or(0),
            self.tags.bits(),
        ];
        for (at, half) in halves.iter().enumerate() {
            out[28 + at * 2..30 + at * 2].copy_from_slice(&half.to_le_bytes());
        }
        out[38] = self.category as u8;
        out[39] = kind_byte(self.stage, |v| v as u8);
        out[40] = kind_byte(self.trainer, |v| v as u8);
        out[41] = kind_byte(self.energy, |v| v as u8);
        out[42] = self.flags;
        out[43] = self.retreat.unwrap_or(0);
        out[44] = u8::from(self.hp.is_some()) | u8::from(self.retreat.is_some()) << 1;
        out[45..48].copy_from_slice(&self.twin.unwrap_or(NO_TWIN).to_le_bytes()[..3]);
        out[48..52].copy_from_slice(&self.evolves.unwrap_or(u32::MAX).to_le_bytes());
        out
    }

    /// Reads [`Row::record`]; `None` for a kind byte no variant has.
    fn read(record: &[u8; ROW_BYTES]) -> Option<Row> {
        let present = record[44];
        Some(Row {
            edition: u32_at(record, 0),
            number: u32_at(record, 4),
            card: u32_at(record, 8),
            evolves: optional(u32_at(record, 48)),
            twin: {
                let twin = u32::from_le_bytes([record[45], record[46], record[47], 0]);
                (twin != NO_TWIN).then_some(twin)
            },
            rarity: optional(u32_at(record, 12)),
            artist: optional(u32_at(record, 16)),
            attacks_end: u32_at(record, 20),
            mark: match optional(u32_at(record, 24)) {
                None => None,
                Some(code) => Some(char::from_u32(code)?),
            },
            types: u16_at(record, 28),
            weak: u16_at(record, 30),
            resist: u16_at(record, 32),
            hp: (present & 1 != 0).then(|| u16_at(record, 34)),
            tags: Tags::from_bits(u16_at(record, 36)),
            category: *CATEGORIES.get(usize::from(record[38]))?,
            stage: from_kind_byte(record[39], &STAGES)?,
            trainer: from_kind_byte(record[40], &TRAINERS)?,
            energy: from_kind_byte(record[41], &ENERGIES)?,
            flags: record[42],
            retreat: (present & 2 != 0).then_some(record[43]),
        })
    }

    fn missing(attacks_end: u32) -> Row {
        Row {
            edition: 0,
            number: 0,
            card: 0,
            evolves: None,
            twin: None,
            category: Category::Pokemon,
            stage: None,
            trainer: None,
            energy: None,
            mark: None,
            flags: flag::MISSING,
            tags: Tags::default(),
            types: 0,
            weak: 0,
            resist: 0,
            hp: None,
            retreat: None,
            rarity: None,
            artist: None,
            attacks_end,
        }
    }
}

/// The [`TYPES`] bits of `types` (case aside).
pub fn type_bits<'a>(types: impl Iterator<Item = &'a str> + Clone) -> u16 {
    (0..)
        .zip(TYPES)
        .filter(|(_, want)| types.clone().any(|t| t.eq_ignore_ascii_case(want)))
        .fold(0, |bits, (bit, _)| bits | 1 << bit)
}

/// The bit of one of [`TYPES`] (0 for another word).
pub fn type_bit(want: &str) -> u16 {
    TYPES
        .iter()
        .position(|t| *t == want)
        .map_or(0, |bit| 1 << bit)
}

fn flags_of(p: &Printing) -> u8 {
    [
        (p.ace_spec, flag::ACE_SPEC),
        (p.radiant, flag::RADIANT),
        (p.prism_star, flag::PRISM_STAR),
        (p.pokemon_star, flag::STAR),
        (p.is_basic_pokemon(), flag::BASIC_POKEMON),
        (p.is_basic_energy(), flag::BASIC_ENERGY),
        (p.has_rule_box(), flag::RULE_BOX),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |flags, (_, bit)| flags | bit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::model::details::{Attack, TypeModifier};

    #[test]
    fn round_trip_and_damage_refused() {
        let mut dreepy = Printing::new("TWM", "128", Category::Pokemon);
        dreepy.set_id = "sv06".into();
        dreepy.release_date = "2024-05-24".into();
        dreepy.stage = Some(Stage::Basic);
        dreepy.types = vec!["Dragon".into()];
        dreepy.names.set(crate::names::lang::Language::En, "Dreepy");
        let details = Details {
            hp: Some(70),
            weaknesses: vec![TypeModifier {
                energy_type: "Darkness".into(),
                value: "×2".into(),
            }],
            attacks: vec![Attack {
                damage: "120+".into(),
                cost: vec!["Fire".into(), "Psychic".into()],
                ..Attack::default()
            }],
            ..Details::default()
        };
        let research = Printing::new("SVI", "189", Category::Trainer);
        let mut drakloak = Printing::new("TWM", "129", Category::Pokemon);
        drakloak
            .names
            .set(crate::names::lang::Language::En, "Drakloak");
        drakloak.evolves_from = Some("Dreepy".into());
        let columns = Columns::build([
            (Some(&dreepy), Some(&details)),
            (None, None),
            (Some(&research), None),
            (Some(&drakloak), None),
        ])
        .unwrap();
        let bytes = columns.encode().unwrap();
        let back = Columns::decode(&bytes, 4).unwrap();
        assert_eq!(back, columns);
        assert!(Columns::decode(&bytes, 3).is_none());
        for cut in 0..bytes.len() {
            assert!(Columns::decode(&bytes[..cut], 4).is_none());
        }
        // What Drakloak evolves from is Dreepy's card: the same id in the names pool.
        let drakloak = back.row(3).unwrap();
        assert_eq!(drakloak.evolves, back.row(0).map(|dreepy| dreepy.card));
        assert_eq!(back.row(0).unwrap().evolves, None);
        let row = back.row(0).unwrap();
        assert_eq!(row.types, type_bit("dragon"));
        assert_eq!(row.weak, type_bit("darkness"));
        assert!(row.has(flag::BASIC_POKEMON));
        assert_eq!(back.numbers().get(row.number), "128");
        assert_eq!(back.names().get(row.card), "dreepy");
        assert_eq!(
            back.attacks(0).collect::<Vec<_>>(),
            [AttackFacts {
                damage: Some(120),
                cost: 2
            }]
        );
        assert!(back.row(1).is_none());
        assert!(back.attacks(2).next().is_none());
        assert_eq!(back.released(row.edition).1, Some(2024));
        // Each edition's runs and each indexed field's lists leave out the printing whose
        // record does not decode (row 1, which reads as edition 0).
        let runs = |edition| back.edition_rows(edition).flatten().collect::<Vec<_>>();
        assert_eq!((runs(0), runs(1), runs(2)), (vec![0], vec![2], vec![3]));
        assert!(runs(3).is_empty());
        let rows_where = |field, value| back.rows_where(field, value).unwrap().collect::<Vec<_>>();
        assert_eq!(rows_where(Field::Card, row.card), [0]);
        assert_eq!(rows_where(Field::Evolves, row.card), [3]);
        assert!(rows_where(Field::Evolves, u32::MAX).is_empty());
        assert!(back.rows_where(Field::Edition, 0).is_none());
        // A run or a list that does not hold what the rows say is refused.
        let at = Layout::read(&bytes, 4).unwrap();
        for place in [at.runs_at, at.runs_at + 4, at.indexes[0].1, at.indexes[1].1] {
            let mut damaged = bytes.clone();
            damaged[place] ^= 1;
            assert!(Columns::decode(&damaged, 4).is_none(), "{place}");
        }
    }

    /// Printings share a twin class exactly when the reprint rule finds them the same
    /// card: the same name and kind with the same text; a printing without text has none.
    #[test]
    fn twins_share_a_class() {
        let trainer = |number: &str, name: &str, text: &str| {
            let mut p = Printing::new("SVI", number, Category::Trainer);
            p.trainer = Some(TrainerKind::Item);
            p.names.set(crate::names::lang::Language::En, name);
            p.set_rules_text(text);
            p
        };
        let printings = [
            trainer(
                "1",
                "Switch",
                "Switch your Active Pokémon with 1 of your Benched Pokémon.",
            ),
            trainer(
                "2",
                "Switch",
                "Switch your Active Pokémon with 1 of your Benched Pokémon.",
            ),
            trainer("3", "Switch", "Draw a card."),
            trainer(
                "4",
                "Potion",
                "Switch your Active Pokémon with 1 of your Benched Pokémon.",
            ),
            trainer("5", "Switch", ""),
        ];
        let columns = Columns::build(printings.iter().map(|p| (Some(p), None))).unwrap();
        let twins: Vec<Option<u32>> = (0..5).map(|id| columns.row(id).unwrap().twin).collect();
        assert_eq!(twins, [Some(0), Some(0), Some(1), Some(2), None]);
    }

    /// Every kind a row stores reads back as written, from its fixed-width record; a kind
    /// byte no variant has makes the record unreadable, not another kind.
    #[test]
    fn every_kind_reads_back_from_its_record() {
        let mut row = Row::missing(7);
        row.flags = flag::RULE_BOX;
        row.mark = Some('H');
        row.hp = Some(340);
        row.retreat = Some(0);
        row.rarity = Some(3);
        row.evolves = Some(5);
        for twin in [None, Some(0), Some(NO_TWIN - 1)] {
            row.twin = twin;
            assert_eq!(Row::read(&row.record()), Some(row));
        }
        for category in CATEGORIES {
            row.category = category;
            assert_eq!(Row::read(&row.record()), Some(row));
        }
        for stage in STAGES.iter().map(|&s| Some(s)).chain([None]) {
            row.stage = stage;
            assert_eq!(Row::read(&row.record()), Some(row));
        }
        for trainer in TRAINERS.iter().map(|&t| Some(t)).chain([None]) {
            row.trainer = trainer;
            assert_eq!(Row::read(&row.record()), Some(row));
        }
        for energy in ENERGIES.iter().map(|&e| Some(e)).chain([None]) {
            row.energy = energy;
            assert_eq!(Row::read(&row.record()), Some(row));
        }
        let mut record = row.record();
        record[39] = STAGES.len() as u8 + 1;
        assert_eq!(Row::read(&record), None);
        for attack in [
            AttackFacts {
                damage: None,
                cost: 0,
            },
            AttackFacts {
                damage: Some(0),
                cost: 3,
            },
        ] {
            assert_eq!(AttackFacts::read(&attack.record()), attack);
        }
    }
}
