//! The byte layout [`Details`] are kept in: `cards/details.bin` (embedded beside
//! `cards/index.bin`) and the details section of the `--cards` cache.
//!
//! Texts repeat: a reprint shares every attack and ability text of the card it reprints,
//! and hundreds of cards say "Flip a coin.". So each text is stored once, in a table of its
//! language (one for the texts in no language: Energy types, damage, illustrators, rarities),
//! and each printing is a small record of table ids. Each table and the records are one
//! section, compressed with DEFLATE when that pays; sections are inflated in parallel, and
//! only when [`super::CardDb::details`] is first asked, never by a `check`. This module
//! must not know about deck lists or rules.

use std::io::{Read, Write};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::details::{Ability, Attack, Details, Texts, TypeModifier};
use super::table::{self, Reader};
use crate::names::lang::Language;

const MAGIC: &[u8; 8] = b"DBXDETLS";
/// Bumped whenever the layout or [`Details`] changes.
const VERSION: u32 = 1;
/// Magic, version, total length, printing count.
const HEADER_LEN: usize = 8 + 4 + 8 + 4;
/// The common table, one table per language, the records.
const SECTIONS: usize = 1 + 6 + 1;

/// Largest inflated section read back: the largest of the embedded index is under 3 MB. A
/// damaged or hostile cache file cannot make deckbox inflate more than this per section.
pub const MAX_SECTION_BYTES: usize = 64 << 20;

/// Ids into a table: 0 is "absent", `i` is the table's string `i - 1`.
type TextIds = [u32; 6];

/// One printing's [`Details`] with every text replaced by its id.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Record {
    hp: Option<u16>,
    retreat: Option<u8>,
    weaknesses: Vec<(u32, u32)>,
    resistances: Vec<(u32, u32)>,
    /// Kind (common table), name, text.
    abilities: Vec<(u32, TextIds, TextIds)>,
    /// Name, cost (common table), damage (common table), text.
    attacks: Vec<(TextIds, Vec<u32>, u32, TextIds)>,
    effect: TextIds,
    illustrator: u32,
    rarity: u32,
}

/// Strings in order of first use, each once.
#[derive(Default)]
struct TableBuilder {
    ids: std::collections::HashMap<String, u32>,
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl TableBuilder {
    fn id(&mut self, text: &str) -> Option<u32> {
        if text.is_empty() {
            return Some(0);
        }
        if let Some(&id) = self.ids.get(text) {
            return Some(id);
        }
        self.bytes.extend_from_slice(text.as_bytes());
        self.ends.push(u32::try_from(self.bytes.len()).ok()?);
        let id = u32::try_from(self.ends.len()).ok()?;
        self.ids.insert(text.to_string(), id);
        Some(id)
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes.len() + 4 * self.ends.len() + 16);
        table::put_u32s(&mut out, &self.ends);
        table::put_blob(&mut out, &self.bytes);
        out
    }
}

struct Builder {
    common: TableBuilder,
    languages: [TableBuilder; 6],
}

impl Builder {
    fn texts(&mut self, texts: &Texts) -> Option<TextIds> {
        let mut ids = [0; 6];
        for lang in Language::ALL {
            if let Some(text) = texts.get(lang) {
                ids[lang.index()] = self.languages[lang.index()].id(text)?;
            }
        }
        Some(ids)
    }

    fn modifiers(&mut self, list: &[TypeModifier]) -> Option<Vec<(u32, u32)>> {
        list.iter()
            .map(|m| Some((self.common.id(&m.energy_type)?, self.common.id(&m.value)?)))
            .collect()
    }

    fn record(&mut self, details: &Details) -> Option<Record> {
        let abilities = details.abilities.iter().map(|ability| {
            let kind = self.common.id(&ability.kind)?;
            Some((kind, self.texts(&ability.name)?, self.texts(&ability.text)?))
        });
        let abilities = abilities.collect::<Option<Vec<_>>>()?;
        let mut attacks = Vec::with_capacity(details.attacks.len());
        for attack in &details.attacks {
            let cost = attack.cost.iter().map(|kind| self.common.id(kind));
            let cost = cost.collect::<Option<Vec<u32>>>()?;
            let damage = self.common.id(&attack.damage)?;
            attacks.push((
                self.texts(&attack.name)?,
                cost,
                damage,
                self.texts(&attack.text)?,
            ));
        }
        Some(Record {
            hp: details.hp,
            retreat: details.retreat,
            weaknesses: self.modifiers(&details.weaknesses)?,
            resistances: self.modifiers(&details.resistances)?,
            abilities,
            attacks,
            effect: self.texts(&details.effect)?,
            illustrator: self
                .common
                .id(details.illustrator.as_deref().unwrap_or(""))?,
            rarity: self.common.id(details.rarity.as_deref().unwrap_or(""))?,
        })
    }
}

/// Encodes `details` (one per printing, in printing order). `compress` deflates the
/// sections (the embedded index); the cache keeps them plain, which reads faster. `None`
/// past 4 GiB of text.
pub fn encode(details: &[Details], compress: bool) -> Option<Vec<u8>> {
    let mut builder = Builder {
        common: TableBuilder::default(),
        languages: Default::default(),
    };
    let records = details
        .iter()
        .map(|details| builder.record(details))
        .collect::<Option<Vec<Record>>>()?;
    let mut sections = vec![builder.common.encode()];
    sections.extend(builder.languages.iter().map(TableBuilder::encode));
    sections.push(postcard::to_stdvec(&records).ok()?);
    let mut body = Vec::new();
    for section in &sections {
        let stored = if compress {
            deflate(section)?
        } else {
            section.clone()
        };
        body.push(u8::from(compress));
        body.extend_from_slice(&u32::try_from(section.len()).ok()?.to_le_bytes());
        table::put_blob(&mut body, &stored);
    }
    let total = (HEADER_LEN + body.len()) as u64;
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&u32::try_from(details.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&body);
    Some(out)
}

fn deflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
}

/// Inflates at most `expected` bytes, and fails unless it gets exactly that many.
fn inflate(bytes: &[u8], expected: usize) -> Option<Vec<u8>> {
    if expected > MAX_SECTION_BYTES {
        return None;
    }
    let mut out = Vec::with_capacity(expected);
    let limit = u64::try_from(expected).ok()?.checked_add(1)?;
    flate2::read::DeflateDecoder::new(bytes)
        .take(limit)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() == expected).then_some(out)
}

/// How many printings the encoded `bytes` describe, read from the header alone; `None`
/// when the header is not one [`encode`] writes.
pub fn count(bytes: &[u8]) -> Option<usize> {
    let header = bytes.get(..HEADER_LEN)?;
    let total = u64::from_le_bytes(header.get(12..20)?.try_into().ok()?);
    let fits = header.get(..8)? == MAGIC
        && header.get(8..12)? == VERSION.to_le_bytes()
        && total == bytes.len() as u64;
    let count = u32::from_le_bytes(header.get(20..24)?.try_into().ok()?);
    fits.then(|| usize::try_from(count).ok()).flatten()
}

/// A decoded string table.
struct Table {
    text: String,
    ends: Vec<u32>,
}

impl Table {
    fn read(section: &[u8]) -> Option<Table> {
        let mut reader = Reader::new(section, 0);
        let ends = reader.u32s()?;
        let text = std::str::from_utf8(reader.blob()?).ok()?.to_owned();
        let fits = reader.at_end()
            && ends.is_sorted()
            && ends.last().map_or(0, |&end| end as usize) == text.len()
            && ends.iter().all(|&end| text.is_char_boundary(end as usize));
        fits.then_some(Table { text, ends })
    }

    /// The string of `id`: `Some("")` for 0, `None` when out of range.
    fn get(&self, id: u32) -> Option<&str> {
        match id.checked_sub(1) {
            None => Some(""),
            Some(index) => self.text.get(table::span(&self.ends, index as usize)?),
        }
    }

    fn string(&self, id: u32) -> Option<String> {
        self.get(id).map(str::to_string)
    }

    fn optional(&self, id: u32) -> Option<Option<String>> {
        self.get(id)
            .map(|text| (!text.is_empty()).then(|| text.to_string()))
    }
}

/// Reads every printing's [`Details`] back. `None` when anything is out of place: a
/// damaged file yields no details, never wrong ones.
#[cfg(test)]
pub fn decode(bytes: &[u8]) -> Option<Vec<Details>> {
    let opened = open(bytes)?;
    let decoder = opened.decoder();
    opened
        .records
        .par_iter()
        .with_min_len(256)
        .map(|record| decoder.details(record))
        .collect()
}

/// Encoded details opened for reading one printing at a time: the sections inflated, the
/// string tables and records read and every id checked, but no [`Details`] built until
/// [`Opened::details`] asks for that printing's (building all of them is most of the cost
/// of [`decode`], measured in docs/performance.md).
pub struct Opened {
    common: Table,
    languages: Vec<Table>,
    records: Vec<Record>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opened({} records)", self.records.len())
    }
}

impl Opened {
    /// How many printings the details describe.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// Printing `index`'s details, built now (`None` past the end).
    pub fn details(&self, index: usize) -> Option<Details> {
        self.decoder().details(self.records.get(index)?)
    }

    fn decoder(&self) -> Decoder<'_> {
        Decoder {
            common: &self.common,
            languages: &self.languages,
        }
    }

    /// Whether every id of every record names a string of its table, so that building any
    /// printing's details later cannot fail.
    fn ids_fit(&self) -> bool {
        let common = |id: u32| id as usize <= self.common.ends.len();
        let texts = |ids: &TextIds| {
            ids.iter()
                .zip(&self.languages)
                .all(|(&id, table)| id as usize <= table.ends.len())
        };
        let pairs = |list: &[(u32, u32)]| list.iter().all(|&(a, b)| common(a) && common(b));
        self.records.iter().all(|r| {
            pairs(&r.weaknesses)
                && pairs(&r.resistances)
                && r.abilities
                    .iter()
                    .all(|(kind, name, text)| common(*kind) && texts(name) && texts(text))
                && r.attacks.iter().all(|(name, cost, damage, text)| {
                    texts(name)
                        && cost.iter().all(|&id| common(id))
                        && common(*damage)
                        && texts(text)
                })
                && texts(&r.effect)
                && common(r.illustrator)
                && common(r.rarity)
        })
    }
}

/// Opens encoded details for reading a printing at a time. `None` when anything is out of
/// place, as for [`decode`].
pub fn open(bytes: &[u8]) -> Option<Opened> {
    let count = count(bytes)?;
    let mut reader = Reader::new(bytes, HEADER_LEN);
    let mut stored = Vec::with_capacity(SECTIONS);
    for _ in 0..SECTIONS {
        let start = reader.position();
        let flag = *bytes.get(start)?;
        let len = u32::from_le_bytes(bytes.get(start + 1..start + 5)?.try_into().ok()?);
        let mut section = Reader::new(bytes, start + 5);
        stored.push((flag, len as usize, section.blob()?));
        reader = Reader::new(bytes, section.position());
    }
    if !reader.at_end() {
        return None;
    }
    let sections: Vec<std::borrow::Cow<'_, [u8]>> = stored
        .par_iter()
        .map(|&(flag, len, data)| match flag {
            0 if data.len() == len => Some(std::borrow::Cow::Borrowed(data)),
            1 => inflate(data, len).map(std::borrow::Cow::Owned),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (records, tables) = sections.split_last()?;
    let mut tables: Vec<Table> = tables
        .par_iter()
        .map(|section| Table::read(section))
        .collect::<Option<_>>()?;
    let records: Vec<Record> = postcard::from_bytes(records).ok()?;
    if records.len() != count || tables.is_empty() {
        return None;
    }
    let languages = tables.split_off(1);
    let common = tables.pop()?;
    let opened = Opened {
        common,
        languages,
        records,
    };
    (opened.languages.len() == 6 && opened.ids_fit()).then_some(opened)
}

struct Decoder<'t> {
    common: &'t Table,
    languages: &'t [Table],
}

impl Decoder<'_> {
    fn texts(&self, ids: &TextIds) -> Option<Texts> {
        let mut texts = Texts::default();
        for (slot, (&id, table)) in texts.0.iter_mut().zip(ids.iter().zip(self.languages)) {
            *slot = table.optional(id)?;
        }
        Some(texts)
    }

    fn modifiers(&self, list: &[(u32, u32)]) -> Option<Vec<TypeModifier>> {
        list.iter()
            .map(|&(kind, value)| {
                Some(TypeModifier {
                    energy_type: self.common.string(kind)?,
                    value: self.common.string(value)?,
                })
            })
            .collect()
    }

    fn details(&self, record: &Record) -> Option<Details> {
        let abilities = record.abilities.iter().map(|(kind, name, text)| {
            Some(Ability {
                kind: self.common.string(*kind)?,
                name: self.texts(name)?,
                text: self.texts(text)?,
            })
        });
        let attacks = record.attacks.iter().map(|(name, cost, damage, text)| {
            Some(Attack {
                name: self.texts(name)?,
                cost: cost
                    .iter()
                    .map(|&id| self.common.string(id))
                    .collect::<Option<_>>()?,
                damage: self.common.string(*damage)?,
                text: self.texts(text)?,
            })
        });
        Some(Details {
            hp: record.hp,
            retreat: record.retreat,
            weaknesses: self.modifiers(&record.weaknesses)?,
            resistances: self.modifiers(&record.resistances)?,
            abilities: abilities.collect::<Option<_>>()?,
            attacks: attacks.collect::<Option<_>>()?,
            effect: self.texts(&record.effect)?,
            illustrator: self.common.optional(record.illustrator)?,
            rarity: self.common.optional(record.rarity)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> Vec<Details> {
        let mut bite = Attack {
            cost: vec!["Fire".into(), "Psychic".into()],
            damage: "40".into(),
            ..Attack::default()
        };
        bite.name.0[Language::En.index()] = Some("Bite".into());
        bite.name.0[Language::De.index()] = Some("Biss".into());
        let dreepy = Details {
            hp: Some(70),
            retreat: Some(1),
            weaknesses: vec![TypeModifier {
                energy_type: "Grass".into(),
                value: "×2".into(),
            }],
            attacks: vec![bite.clone(), bite],
            illustrator: Some("Scav".into()),
            rarity: Some("Common".into()),
            ..Details::default()
        };
        let mut orders = Details::default();
        orders.effect.0[Language::Fr.index()] = Some("Échangez.".into());
        orders.abilities.push(Ability {
            kind: "Poké-Power".into(),
            ..Ability::default()
        });
        vec![dreepy, Details::default(), orders]
    }

    #[test]
    fn round_trip_plain_and_compressed() {
        let details = sample();
        for compress in [false, true] {
            let bytes = encode(&details, compress).unwrap();
            assert_eq!(count(&bytes), Some(3));
            assert_eq!(decode(&bytes).unwrap(), details);
            assert_eq!(encode(&details, compress).unwrap(), bytes, "deterministic");
        }
        assert_eq!(decode(&encode(&[], true).unwrap()).unwrap(), []);
    }

    #[test]
    fn damage_yields_none_never_a_panic() {
        for compress in [false, true] {
            let bytes = encode(&sample(), compress).unwrap();
            for cut in 0..bytes.len() {
                assert!(decode(&bytes[..cut]).is_none());
            }
            for at in HEADER_LEN..bytes.len() {
                let mut damaged = bytes.clone();
                damaged[at] ^= 0x55;
                // Some flips land in a text and change it; none may panic.
                let _ = decode(&damaged);
            }
        }
    }
}

#[cfg(test)]
mod measure {
    #[test]
    #[ignore = "a measurement"]
    #[allow(clippy::print_stderr, reason = "prints the measurement")]
    fn phases() {
        let bytes = std::fs::read("cards/details.bin").unwrap();
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let mut reader = super::Reader::new(&bytes, super::HEADER_LEN);
            let mut secs = Vec::new();
            for _ in 0..super::SECTIONS {
                let start = reader.position();
                let len = u32::from_le_bytes(bytes[start + 1..start + 5].try_into().unwrap());
                let mut section = super::Reader::new(&bytes, start + 5);
                let data = section.blob().unwrap();
                secs.push(super::inflate(data, len as usize).unwrap());
                reader = super::Reader::new(&bytes, section.position());
            }
            let t1 = t.elapsed();
            let sizes: Vec<usize> = secs.iter().map(Vec::len).collect();
            let tables: Vec<super::Table> = secs[..7]
                .iter()
                .map(|s| super::Table::read(s).unwrap())
                .collect();
            let t2 = t.elapsed();
            let records: Vec<super::Record> = postcard::from_bytes(&secs[7]).unwrap();
            let t3 = t.elapsed();
            let d = super::Decoder {
                common: &tables[0],
                languages: &tables[1..],
            };
            let all: Vec<_> = records.iter().map(|r| d.details(r).unwrap()).collect();
            let t4 = t.elapsed();
            eprintln!(
                "inflate {t1:?} tables {t2:?} records {t3:?} details {t4:?} {sizes:?} {}",
                all.len()
            );
        }
    }
}
