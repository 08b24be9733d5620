//! [`Columns`]: the few facts of every printing that `search`'s keys test (set, number,
//! kind, stage, types, marks, tags, HP, retreat, Weakness, Resistance, attack costs and
//! damage, rarity, illustrator, the rules name), one small row a printing, so a query over
//! every printing decodes none of them.
//!
//! The embedded index carries them precomputed (`cards/columns.bin`, written by `cargo
//! xtask cards` with [`Columns::build`]); any other database builds them in memory the first
//! time a search asks, from its printings and details, with the same function. Strings
//! (set ids and codes, numbers, rarities, illustrators, rules names) are interned in small
//! pools, so a key tests each distinct value once. This module must not know about deck
//! lists, formats or queries.

use std::collections::HashMap;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::cards::model::details::Details;
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

/// The file's magic bytes; the printing count follows (u32, little-endian), then the
/// `postcard` encoding of the stored columns.
const MAGIC: &[u8; 8] = b"DBXCOLS1";

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Index in [`Columns::editions`].
    pub edition: u32,
    /// Id in the numbers pool.
    pub number: u32,
    /// Id of [`Printing::rules_key`] in the names pool: printings of one card share it.
    pub card: u32,
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
}

/// One attack's printed damage ([`crate::cards::model::details::Attack::base_damage`]) and its Energy
/// count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// What is stored: the rows and the tables they point into.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    rows: Vec<Row>,
    attacks: Vec<AttackFacts>,
    editions: Vec<Edition>,
    names: Pool,
    numbers: Pool,
    rarities: Pool,
    artists: Pool,
}

/// Every printing's row, by printing id, with what each edition's strings mean.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Columns {
    stored: Stored,
    /// By edition: the release date read, and its year.
    dates: Vec<(Option<Date>, Option<u32>)>,
}

impl Columns {
    /// The columns of `printings`, each with its details when the source gives them
    /// (`None` for a printing whose record does not decode). `None` past 4 GiB of strings.
    pub fn build<'a>(
        printings: impl IntoIterator<Item = (Option<&'a Printing>, Option<&'a Details>)>,
    ) -> Option<Columns> {
        let mut stored = Stored::default();
        let mut names = Interner::default();
        let mut numbers = Interner::default();
        let mut rarities = Interner::default();
        let mut artists = Interner::default();
        let mut editions: HashMap<Edition, u32> = HashMap::new();
        for (printing, details) in printings {
            let Some(p) = printing else {
                stored
                    .rows
                    .push(Row::missing(u32::try_from(stored.attacks.len()).ok()?));
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
            stored
                .attacks
                .extend(attacks.iter().map(|attack| AttackFacts {
                    damage: attack.base_damage(),
                    cost: u32::try_from(attack.cost.len()).unwrap_or(u32::MAX),
                }));
            let modifiers = |list: &[crate::cards::model::details::TypeModifier]| {
                type_bits(list.iter().map(|m| &*m.energy_type))
            };
            stored.rows.push(Row {
                edition,
                number: numbers.id(&p.number)?,
                card: names.id(p.rules_key())?,
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
                attacks_end: u32::try_from(stored.attacks.len()).ok()?,
            });
        }
        stored.names = names.pool;
        stored.numbers = numbers.pool;
        stored.rarities = rarities.pool;
        stored.artists = artists.pool;
        Some(Columns::from_stored(stored))
    }

    /// The file form (`cards/columns.bin`).
    pub fn encode(&self) -> Option<Vec<u8>> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&u32::try_from(self.len()).ok()?.to_le_bytes());
        postcard::to_extend(&self.stored, bytes).ok()
    }

    /// Reads the file form; `None` when it is damaged, from another version, or does not
    /// describe `count` printings.
    pub fn decode(bytes: &[u8], count: usize) -> Option<Columns> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (stated, rest) = rest.split_first_chunk::<4>()?;
        if u32::from_le_bytes(*stated) as usize != count {
            return None;
        }
        let stored: Stored = postcard::from_bytes(rest).ok()?;
        let columns = Columns::from_stored(stored);
        (columns.len() == count && columns.valid()).then_some(columns)
    }

    fn from_stored(stored: Stored) -> Columns {
        let dates = stored
            .editions
            .iter()
            .map(|edition| {
                let released = stored.names.get(edition.release_date);
                let year = released.get(..4).and_then(|y| y.parse().ok());
                (crate::util::date::parse(released), year)
            })
            .collect();
        Columns { stored, dates }
    }

    /// Every id in range, the attack ends in order: nothing a lookup can trip on.
    fn valid(&self) -> bool {
        let s = &self.stored;
        let attacks = u32::try_from(s.attacks.len()).unwrap_or(u32::MAX);
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
            && s.rows.is_sorted_by_key(|row| row.attacks_end)
            && s.rows.iter().all(|row| {
                row.has(flag::MISSING)
                    || ((row.edition as usize) < s.editions.len()
                        && in_pool(row.number, &s.numbers)
                        && in_pool(row.card, &s.names)
                        && row.rarity.is_none_or(|id| in_pool(id, &s.rarities))
                        && row.artist.is_none_or(|id| in_pool(id, &s.artists))
                        && row.attacks_end <= attacks)
            })
    }

    /// How many printings the columns describe.
    pub fn len(&self) -> usize {
        self.stored.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stored.rows.is_empty()
    }

    /// Printing `id`'s row; `None` past the end or when its record does not decode.
    pub fn row(&self, id: PrintingId) -> Option<&Row> {
        let row = self.stored.rows.get(usize::try_from(id).ok()?)?;
        (!row.has(flag::MISSING)).then_some(row)
    }

    pub fn editions(&self) -> &[Edition] {
        &self.stored.editions
    }

    /// The pool of set ids and codes, release dates, series and rules names.
    pub fn names(&self) -> &Pool {
        &self.stored.names
    }

    pub fn numbers(&self) -> &Pool {
        &self.stored.numbers
    }

    pub fn rarities(&self) -> &Pool {
        &self.stored.rarities
    }

    pub fn artists(&self) -> &Pool {
        &self.stored.artists
    }

    /// Edition `edition`'s release date and its year, read as [`Printing::release_date`]
    /// is read by `released` and `year`.
    pub fn released(&self, edition: u32) -> (Option<Date>, Option<u32>) {
        self.dates
            .get(edition as usize)
            .copied()
            .unwrap_or((None, None))
    }

    /// Printing `id`'s attacks.
    pub fn attacks(&self, id: PrintingId) -> &[AttackFacts] {
        let Some(index) = usize::try_from(id).ok() else {
            return &[];
        };
        let rows = &self.stored.rows;
        let end = rows.get(index).map_or(0, |row| row.attacks_end as usize);
        let start = index
            .checked_sub(1)
            .and_then(|before| rows.get(before))
            .map_or(0, |row| row.attacks_end as usize);
        self.stored.attacks.get(start..end).unwrap_or(&[])
    }

    /// Fills `stub` with what a format's pool reads of printing `id` (set code, number,
    /// release date, series, regulation mark, kind of card and of Energy) and nothing else:
    /// its names and texts stay as they were. `false` when the printing has no row.
    pub fn fill_pool_facts(&self, id: PrintingId, stub: &mut Printing) -> bool {
        let Some(row) = self.row(id) else {
            return false;
        };
        let Some(edition) = self.stored.editions.get(row.edition as usize) else {
            return false;
        };
        let names = &self.stored.names;
        let set = |field: &mut String, text: &str| {
            field.clear();
            field.push_str(text);
        };
        set(&mut stub.set_code, names.get(edition.set_code));
        set(&mut stub.set_id, names.get(edition.set_id));
        set(&mut stub.release_date, names.get(edition.release_date));
        set(&mut stub.series, names.get(edition.series));
        set(&mut stub.number, self.stored.numbers.get(row.number));
        stub.regulation_mark = row.mark;
        stub.category = row.category;
        stub.energy = row.energy;
        true
    }
}

impl Row {
    fn missing(attacks_end: u32) -> Row {
        Row {
            edition: 0,
            number: 0,
            card: 0,
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
        let columns = Columns::build([
            (Some(&dreepy), Some(&details)),
            (None, None),
            (Some(&research), None),
        ])
        .unwrap();
        let bytes = columns.encode().unwrap();
        let back = Columns::decode(&bytes, 3).unwrap();
        assert_eq!(back, columns);
        assert!(Columns::decode(&bytes, 2).is_none());
        for cut in 0..bytes.len() {
            assert!(Columns::decode(&bytes[..cut], 3).is_none());
        }
        let row = back.row(0).unwrap();
        assert_eq!(row.types, type_bit("dragon"));
        assert_eq!(row.weak, type_bit("darkness"));
        assert!(row.has(flag::BASIC_POKEMON));
        assert_eq!(back.numbers().get(row.number), "128");
        assert_eq!(back.names().get(row.card), "dreepy");
        assert_eq!(
            back.attacks(0),
            [AttackFacts {
                damage: Some(120),
                cost: 2
            }]
        );
        assert!(back.row(1).is_none());
        assert!(back.attacks(2).is_empty());
        assert_eq!(back.released(row.edition).1, Some(2024));
    }
}
