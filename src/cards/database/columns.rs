//! [`Columns`]: the few facts of every printing that `search`'s keys test (set, number,
//! kind, stage, types, marks, tags, HP, retreat, Weakness, Resistance, attack costs and
//! damage, rarity, illustrator, the rules name, the lookup key of what it evolves from), one
//! small row a printing, so a query over
//! every printing decodes none of them.
//!
//! The embedded index carries them precomputed (`cards/columns.bin`, written by `cargo
//! xtask cards` with [`Columns::build`]). The rows and attacks are fixed-width records read
//! in place from the file's bytes (the embedded ones are never copied): opening the columns
//! allocates only the small string pools, and a query decodes only the rows it tests. Any
//! other database builds them in memory the first
//! time a search asks, from its printings and details, with the same function. Strings
//! (set ids and codes, numbers, rarities, illustrators, rules names) are interned in small
//! pools, so a key tests each distinct value once. This module must not know about deck
//! lists, formats or queries.

use std::borrow::Cow;
use std::collections::HashMap;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

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

/// The file's magic bytes; then the printing count and the attack count (u32,
/// little-endian), a [`ROW_BYTES`] record a printing, an [`ATTACK_BYTES`] record an attack,
/// and the `postcard` encoding of the editions and string pools ([`Tables`]).
const MAGIC: &[u8; 8] = b"DBXCOLS4";

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edition {
    pub set_id: u32,
    pub set_code: u32,
    pub release_date: u32,
    pub series: u32,
}

/// Distinct strings, each kept once: id `i` is `text[ends[i - 1]..ends[i]]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    text: String,
    ends: Vec<u32>,
}

impl Pool {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, id: u32) -> &str {
        let id = id as usize;
        let start = id
            .checked_sub(1)
            .and_then(|before| self.ends.get(before))
            .map_or(0, |&end| end as usize);
        let end = self.ends.get(id).map_or(start, |&end| end as usize);
        self.text.get(start..end).unwrap_or("")
    }

    /// Checks the ends are in order and fall on character boundaries.
    fn valid(&self) -> bool {
        self.ends.is_sorted()
            && self
                .ends
                .iter()
                .all(|&end| self.text.is_char_boundary(end as usize))
    }
}

/// [`Pool`]s under construction: each string's id.
#[derive(Default)]
struct Interner {
    pool: Pool,
    ids: HashMap<String, u32>,
}

impl Interner {
    fn id(&mut self, text: &str) -> Option<u32> {
        if let Some(&id) = self.ids.get(text) {
            return Some(id);
        }
        let id = u32::try_from(self.pool.ends.len()).ok()?;
        self.pool.text.push_str(text);
        self.pool
            .ends
            .push(u32::try_from(self.pool.text.len()).ok()?);
        self.ids.insert(text.to_string(), id);
        Some(id)
    }
}

/// What the rows point into, stored after them with `postcard`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Tables {
    editions: Vec<Edition>,
    names: Pool,
    numbers: Pool,
    rarities: Pool,
    artists: Pool,
}

/// The tables read, with each edition's release date read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Read {
    stored: Tables,
    /// By edition: the release date read, and its year.
    dates: Vec<(Option<Date>, Option<u32>)>,
}

impl Read {
    fn of(stored: Tables) -> Read {
        let dates = stored
            .editions
            .iter()
            .map(|edition| {
                let released = stored.names.get(edition.release_date);
                let year = released.get(..4).and_then(|y| y.parse().ok());
                (crate::util::date::parse(released), year)
            })
            .collect();
        Read { stored, dates }
    }
}

/// Every printing's row, by printing id, with what each edition's strings mean.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// The row records, then the attack records: borrowed from the embedded file.
    records: Cow<'static, [u8]>,
    rows: usize,
    attack_count: usize,
    /// The tables as the embedded file stores them, read the first time a pool or a date is
    /// asked for: a search by name, `evolves:` or `into:` reads only rows. Empty when
    /// `read` was filled at once.
    encoded: &'static [u8],
    read: std::sync::OnceLock<Read>,
}

/// Two columns are equal when they describe the same rows and tables, read or not yet.
impl PartialEq for Columns {
    fn eq(&self, other: &Columns) -> bool {
        (self.records == other.records)
            && self.rows == other.rows
            && self.attack_count == other.attack_count
            && self.tables() == other.tables()
    }
}

impl Eq for Columns {}

impl Columns {
    /// The columns of `printings`, each with its details when the source gives them
    /// (`None` for a printing whose record does not decode). `None` past 4 GiB of strings.
    pub fn build<'a>(
        printings: impl IntoIterator<Item = (Option<&'a Printing>, Option<&'a Details>)>,
    ) -> Option<Columns> {
        let mut rows: Vec<Row> = Vec::new();
        let mut attack_list: Vec<AttackFacts> = Vec::new();
        let mut stored = Tables::default();
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
            let next = u32::try_from(stored.editions.len()).ok()?;
            let edition = *editions.entry(edition).or_insert_with(|| {
                stored.editions.push(edition);
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
        stored.names = names.pool;
        stored.numbers = numbers.pool;
        stored.rarities = rarities.pool;
        stored.artists = artists.pool;
        let mut records =
            Vec::with_capacity(rows.len() * ROW_BYTES + attack_list.len() * ATTACK_BYTES);
        for row in &rows {
            records.extend_from_slice(&row.record());
        }
        for attack in &attack_list {
            records.extend_from_slice(&attack.record());
        }
        Some(Columns::from_parts(
            Cow::Owned(records),
            rows.len(),
            attack_list.len(),
            stored,
        ))
    }

    /// The file form (`cards/columns.bin`).
    pub fn encode(&self) -> Option<Vec<u8>> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&u32::try_from(self.len()).ok()?.to_le_bytes());
        bytes.extend_from_slice(&u32::try_from(self.attack_count).ok()?.to_le_bytes());
        bytes.extend_from_slice(&self.records);
        postcard::to_extend(&self.tables().stored, bytes).ok()
    }

    /// Reads the file form, copying its records; `None` when it is damaged, from another
    /// version, or does not describe `count` printings.
    pub fn decode(bytes: &[u8], count: usize) -> Option<Columns> {
        let (records, attack_count, tables) = Columns::split(bytes, count)?;
        let stored: Tables = postcard::from_bytes(tables).ok()?;
        let columns =
            Columns::from_parts(Cow::Owned(records.to_vec()), count, attack_count, stored);
        columns.valid().then_some(columns)
    }

    /// [`Columns::decode`] of bytes that live as long as the program (the embedded file):
    /// the records are read where they are, and not checked row by row at every start (a
    /// test checks the embedded file; every lookup is checked anyway, so a bad id reads
    /// as an empty string or no row, never a panic). The tables after the records are read
    /// the first time one is asked for (tables that do not decode read as empty ones).
    pub fn decode_static(bytes: &'static [u8], count: usize) -> Option<Columns> {
        let (records, attack_count, tables) = Columns::split(bytes, count)?;
        Some(Columns {
            records: Cow::Borrowed(records),
            rows: count,
            attack_count,
            encoded: tables,
            read: std::sync::OnceLock::new(),
        })
    }

    /// The file form's records (rows, then attacks), its attack count and its encoded
    /// tables; `None` when it is from another version, too short, or not of `count` rows.
    fn split(bytes: &[u8], count: usize) -> Option<(&[u8], usize, &[u8])> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (stated, rest) = rest.split_first_chunk::<4>()?;
        let (attack_count, rest) = rest.split_first_chunk::<4>()?;
        if u32::from_le_bytes(*stated) as usize != count {
            return None;
        }
        let attack_count = u32::from_le_bytes(*attack_count) as usize;
        let size = count
            .checked_mul(ROW_BYTES)?
            .checked_add(attack_count.checked_mul(ATTACK_BYTES)?)?;
        let (records, rest) = rest.split_at_checked(size)?;
        Some((records, attack_count, rest))
    }

    fn from_parts(
        records: Cow<'static, [u8]>,
        rows: usize,
        attack_count: usize,
        stored: Tables,
    ) -> Columns {
        Columns {
            records,
            rows,
            attack_count,
            encoded: &[],
            read: std::sync::OnceLock::from(Read::of(stored)),
        }
    }

    /// The tables, read from `encoded` the first time.
    fn tables(&self) -> &Read {
        self.read
            .get_or_init(|| Read::of(postcard::from_bytes(self.encoded).unwrap_or_default()))
    }

    /// Row `index`'s record, whether or not its printing decodes.
    fn stored_row(&self, index: usize) -> Option<Row> {
        if index >= self.rows {
            return None;
        }
        let start = index.checked_mul(ROW_BYTES)?;
        let record = self.records.get(start..start.checked_add(ROW_BYTES)?)?;
        Row::read(record.try_into().ok()?)
    }

    /// Where printing `index`'s attacks end (and the next one's start).
    fn attacks_end(&self, index: usize) -> usize {
        self.stored_row(index)
            .map_or(0, |row| row.attacks_end as usize)
    }

    /// Every id in range, the attack ends in order: nothing a lookup can trip on. One pass
    /// over the records, read in place.
    pub(crate) fn valid(&self) -> bool {
        let s = &self.tables().stored;
        let attacks = u32::try_from(self.attack_count).unwrap_or(u32::MAX);
        let names = s.names.len();
        let in_pool = |id: u32, pool: &Pool| (id as usize) < pool.len();
        [&s.names, &s.numbers, &s.rarities, &s.artists]
            .iter()
            .all(|pool| pool.valid())
            && s.editions.iter().all(|e| {
                [e.set_id, e.set_code, e.release_date, e.series]
                    .iter()
                    .all(|&id| (id as usize) < names)
            })
            && (0..self.rows)
                .try_fold(0u32, |end, index| {
                    let row = self.stored_row(index)?;
                    let fits = row.has(flag::MISSING)
                        || ((row.edition as usize) < s.editions.len()
                            && in_pool(row.number, &s.numbers)
                            && in_pool(row.card, &s.names)
                            && row.evolves.is_none_or(|id| in_pool(id, &s.names))
                            && row.rarity.is_none_or(|id| in_pool(id, &s.rarities))
                            && row.artist.is_none_or(|id| in_pool(id, &s.artists))
                            && row.attacks_end <= attacks);
                    (fits && row.attacks_end >= end).then_some(row.attacks_end)
                })
                .is_some()
    }

    /// How many printings the columns describe.
    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Row `index`'s `field` as its record holds it, the rest of the record unread: what
    /// [`Columns::row`] gives as `Row::get(field)` when the row decodes (`None` for an
    /// `evolves` it has not, or past the end). Whether the row decodes is not checked:
    /// [`Columns::row`] says.
    pub fn field(&self, index: usize, field: Field) -> Option<u32> {
        if index >= self.rows {
            return None;
        }
        let at = index.checked_mul(ROW_BYTES)?.checked_add(field.at())?;
        let word = self.records.get(at..at.checked_add(4)?)?;
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

    pub fn editions(&self) -> &[Edition] {
        &self.tables().stored.editions
    }

    /// The pool of set ids and codes, release dates, series and rules names.
    pub fn names(&self) -> &Pool {
        &self.tables().stored.names
    }

    pub fn numbers(&self) -> &Pool {
        &self.tables().stored.numbers
    }

    pub fn rarities(&self) -> &Pool {
        &self.tables().stored.rarities
    }

    pub fn artists(&self) -> &Pool {
        &self.tables().stored.artists
    }

    /// Edition `edition`'s release date and its year, read as [`Printing::release_date`]
    /// is read by `released` and `year`.
    pub fn released(&self, edition: u32) -> (Option<Date>, Option<u32>) {
        (self.tables().dates)
            .get(edition as usize)
            .copied()
            .unwrap_or((None, None))
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
        let base = self.rows.saturating_mul(ROW_BYTES);
        let end = end.min(self.attack_count);
        (start..end.max(start)).filter_map(move |at| {
            let from = base.checked_add(at.checked_mul(ATTACK_BYTES)?)?;
            let record = self.records.get(from..from.checked_add(ATTACK_BYTES)?)?;
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
        let stored = &self.tables().stored;
        let Some(edition) = stored.editions.get(row.edition as usize) else {
            return false;
        };
        let names = &stored.names;
        let set = |field: &mut String, text: &str| {
            field.clear();
            field.push_str(text);
        };
        set(&mut stub.set_code, names.get(edition.set_code));
        set(&mut stub.set_id, names.get(edition.set_id));
        set(&mut stub.release_date, names.get(edition.release_date));
        set(&mut stub.series, names.get(edition.series));
        set(&mut stub.number, stored.numbers.get(row.number));
        stub.regulation_mark = row.mark;
        stub.category = row.category;
        stub.energy = row.energy;
        true
    }
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
