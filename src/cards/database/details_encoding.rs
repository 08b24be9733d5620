//! The byte layout [`Details`] are kept in: `cards/details.bin` (embedded beside
//! `cards/index.bin`) and the details section of the `--cards` cache.
//!
//! Texts repeat: a reprint shares every attack and ability text of the card it reprints,
//! and hundreds of cards say "Flip a coin.". So each text is stored once, in a table of its
//! language (one for the texts in no language: Energy types, damage, illustrators, rarities),
//! and each printing is a small record of table ids. Each table and the records are one
//! section, cut into blocks of whole strings of about 32 KiB, each block compressed with
//! DEFLATE alone (in the embedded index): nothing is inflated by a `check`, showing one card
//! inflates the few blocks that hold its texts, a query on HP or cost inflates only
//! records, and a text query reads each distinct text once, by its id.
//!
//! Each language's table also comes folded ([`crate::names::fold`], the folding a search
//! query gets), in blocks of whole texts that each end with a NUL: a text search is a
//! substring search over those blocks, without folding anything at run time and without
//! inflating the texts as written. The folded blocks are stored plain, even in the embedded
//! index: a search reads them in place ([`compact`] deflates them too, for a copy that
//! travels). The folding is the one this build of deckbox runs: the
//! generator writes what `fold` gives, and `tests/suite/card_index.rs` regenerates the index
//! and compares, so a change to the folding cannot leave stale folded tables behind. This
//! module must not know about deck lists or rules.

use std::io::{Read, Write};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::key_table::{self as table, Reader};
use crate::cards::model::details::{Ability, Attack, Details, Texts, TypeModifier};
use crate::names::lang::Language;

const MAGIC: &[u8; 8] = b"DBXDETLS";
/// Bumped whenever the layout or [`Details`] changes. 2: each section compressed in blocks,
/// each record on its own. 3: each language's table folded too, string ends as lengths.
const VERSION: u32 = 3;
/// Magic, version, total length, printing count.
const HEADER_LEN: usize = 8 + 4 + 8 + 4;
/// The common table, one table per language, the records, one folded table per language.
const SECTIONS: usize = 1 + 6 + 1 + 6;
/// The byte that ends each text of a folded table: a folded text holds none (`fold` keeps
/// no control character but spaces), so a needle without it never matches across two texts.
pub const FOLDED_END: u8 = 0;
/// A section's strings are compressed in blocks of about this many bytes (whole strings
/// each): `card` reads a few texts and inflates a few blocks, not the 2 MB of a language.
/// DEFLATE looks back 32 KiB at most, so blocks of this size lose little.
const BLOCK_BYTES: usize = 32 << 10;

/// Largest inflated block read back (a block is [`BLOCK_BYTES`] plus at most one string).
/// A damaged or hostile cache file cannot make deckbox inflate more than this per block.
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

    fn encode(&self, compress: bool) -> Option<Vec<u8>> {
        encode_section(&self.bytes, &self.ends, compress)
    }
}

/// Where each block of a section starts and ends: strings given by their `ends` are cut into
/// blocks of whole strings of about [`BLOCK_BYTES`]; `(first string, end byte)` of each.
fn block_bounds(ends: &[u32]) -> Vec<(u32, u32)> {
    let mut bounds = Vec::new();
    let (mut start, mut first) = (0, 0);
    for (index, &end) in ends.iter().enumerate() {
        if end - start < BLOCK_BYTES as u32 && index + 1 < ends.len() {
            continue;
        }
        bounds.push((first, end));
        // Fewer than 2^32 strings: each ends at a `u32` offset past the previous one.
        (start, first) = (end, u32::try_from(index + 1).unwrap_or(u32::MAX));
    }
    bounds
}

/// A section: strings (texts, or encoded records) given as their bytes end to end and the
/// end of each, cut into blocks of whole strings of about [`BLOCK_BYTES`], each block
/// deflated alone when `compress`. Stored: the string ends ([`put_ends`]), the first string
/// of each block, the compression flag, the end of each stored block, the stored blocks.
fn encode_section(bytes: &[u8], ends: &[u32], compress: bool) -> Option<Vec<u8>> {
    let mut firsts = Vec::new();
    let mut block_ends = Vec::new();
    let mut data = Vec::new();
    let mut start = 0;
    for (first, end) in block_bounds(ends) {
        let raw = bytes.get(start..end as usize)?;
        if compress {
            data.extend(deflate(raw)?);
        } else {
            data.extend_from_slice(raw);
        }
        firsts.push(first);
        block_ends.push(u32::try_from(data.len()).ok()?);
        start = end as usize;
    }
    let mut out = Vec::with_capacity(data.len() + 2 * ends.len() + 8 * firsts.len() + 32);
    put_ends(&mut out, ends)?;
    table::put_u32s(&mut out, &firsts);
    table::put_blob(&mut out, &[u8::from(compress)]);
    table::put_u32s(&mut out, &block_ends);
    table::put_blob(&mut out, &data);
    Some(out)
}

/// Appends the string `ends` as a blob of each string's length in LEB128 (most texts are
/// under 128 bytes: a byte each, where a `u32` end took four).
fn put_ends(out: &mut Vec<u8>, ends: &[u32]) -> Option<()> {
    let mut lengths = Vec::with_capacity(ends.len() + ends.len() / 2);
    let mut start = 0;
    for &end in ends {
        let mut length = end.checked_sub(start)?;
        while length >= 0x80 {
            lengths.push(0x80 | (length & 0x7f) as u8);
            length >>= 7;
        }
        lengths.push(length as u8);
        start = end;
    }
    table::put_blob(out, &lengths);
    Some(())
}

/// Reads what [`put_ends`] wrote (the blob's bytes); `None` when a length is cut short or
/// the ends pass `u32::MAX`.
fn read_ends(blob: &[u8]) -> Option<Vec<u32>> {
    let mut ends = Vec::with_capacity(ends_in(blob));
    let (mut end, mut length, mut shift) = (0u32, 0u32, 0u32);
    for &byte in blob {
        length |= u32::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 != 0 {
            shift += 7;
            (shift < 32).then_some(())?;
            continue;
        }
        end = end.checked_add(length)?;
        ends.push(end);
        (length, shift) = (0, 0);
    }
    (shift == 0).then_some(ends)
}

/// How many string ends [`put_ends`] wrote in `blob`: one a byte without the continuation
/// bit. Counted without reading the ends, so a section opens without them.
fn ends_in(blob: &[u8]) -> usize {
    blob.iter().filter(|&&byte| byte & 0x80 == 0).count()
}

/// A language's table folded: each text as [`crate::names::fold`] folds it, followed by
/// [`FOLDED_END`], cut into blocks of whole texts. Stored: the first text of each block,
/// then a section ([`encode_section`]) whose strings are the blocks, one block each (a
/// search reads every block, so no text's own end is kept).
fn encode_folded(table: &TableBuilder, compress: bool) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(table.bytes.len() + table.ends.len());
    let mut ends = Vec::with_capacity(table.ends.len());
    for index in 0..table.ends.len() {
        let text = std::str::from_utf8(table.bytes.get(table::span(&table.ends, index)?)?).ok()?;
        bytes.extend_from_slice(crate::names::fold(text).as_bytes());
        bytes.push(FOLDED_END);
        ends.push(u32::try_from(bytes.len()).ok()?);
    }
    let bounds = block_bounds(&ends);
    let firsts: Vec<u32> = bounds.iter().map(|&(first, _)| first).collect();
    let block_ends: Vec<u32> = bounds.iter().map(|&(_, end)| end).collect();
    let mut out = Vec::new();
    table::put_u32s(&mut out, &firsts);
    out.extend(encode_section(&bytes, &block_ends, compress)?);
    Some(out)
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
/// blocks of the texts as written and of the records (the embedded index); the cache keeps
/// them plain, which reads faster. The folded tables are plain either way.
/// `None` past 4 GiB of text.
pub fn encode(details: &[Details], compress: bool) -> Option<Vec<u8>> {
    encode_with(details, compress, false)
}

/// `bytes` (encoded details) with every section's blocks deflated, the folded tables'
/// too: the smallest form, for a copy that travels (the web page downloads its texts and
/// searches them without a word index). `None` when they do not read back whole.
pub fn compact(bytes: &[u8]) -> Option<Vec<u8>> {
    let opened = open(std::borrow::Cow::Owned(bytes.to_vec()))?;
    let details = (0..opened.len())
        .map(|index| opened.details(index))
        .collect::<Option<Vec<_>>>()?;
    encode_with(&details, true, true)
}

/// [`encode`], the folded tables deflated too when `compress_folded`.
fn encode_with(details: &[Details], compress: bool, compress_folded: bool) -> Option<Vec<u8>> {
    let mut builder = Builder {
        common: TableBuilder::default(),
        languages: Default::default(),
    };
    let mut records = TableBuilder::default();
    for details in details {
        let record = postcard::to_stdvec(&builder.record(details)?).ok()?;
        records.bytes.extend_from_slice(&record);
        records.ends.push(u32::try_from(records.bytes.len()).ok()?);
    }
    let mut body = Vec::new();
    for table in std::iter::once(&builder.common)
        .chain(&builder.languages)
        .chain([&records])
    {
        table::put_blob(&mut body, &table.encode(compress)?);
    }
    // The folded tables are kept plain even in the embedded index: a text search reads them
    // in place, where inflating a language's blocks cost more than the rest of the search
    // (the package's gzip compresses them better than the blocks' DEFLATE did).
    for table in &builder.languages {
        table::put_blob(&mut body, &encode_folded(table, compress_folded)?);
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

/// A section opened for reading ([`encode_section`]): the string ends and blocks are read,
/// each block is inflated when deflated (and, for texts, checked to be UTF-8) the first time
/// one of its strings is asked for; a plain block is read in place.
struct Section {
    /// Where the string ends ([`put_ends`]) are in the encoded bytes: read the first time a
    /// string is asked for, so opening the texts reads no table's lengths.
    ends_stored: std::ops::Range<usize>,
    ends: OnceLock<Option<Vec<u32>>>,
    /// How many strings the section holds ([`ends_in`]).
    count: usize,
    firsts: Vec<u32>,
    compressed: bool,
    /// Where each stored block is in the encoded bytes.
    stored: Vec<std::ops::Range<usize>>,
    /// Whether the strings are texts (checked to be UTF-8 on whole characters).
    text: bool,
    blocks: Vec<OnceLock<Option<Block>>>,
}

/// A block of a [`Section`] once read and checked.
enum Block {
    /// A compressed block, inflated.
    Inflated(Box<[u8]>),
    /// A plain block: its stored bytes are its strings.
    InPlace,
}

impl Section {
    /// Reads a section's frame at `reader`; `None` when it is not consistent.
    fn read(reader: &mut Reader<'_>, text: bool) -> Option<Section> {
        let ends_start = reader.position() + 8;
        let ends_blob = reader.blob()?;
        let ends_stored = ends_start..ends_start + ends_blob.len();
        // The last length ends the blob (the rest is checked when the ends are read).
        let count = ends_in(ends_blob);
        (ends_blob.last().is_none_or(|&byte| byte & 0x80 == 0)).then_some(())?;
        let firsts = reader.u32s()?;
        let flag = match reader.blob()? {
            [flag] => *flag,
            _ => return None,
        };
        let block_ends = reader.u32s()?;
        let data_start = reader.position() + 8;
        let data = reader.blob()?;
        let compressed = match flag {
            0 => false,
            1 => true,
            _ => return None,
        };
        // The ends read back sorted (each adds a length): only their count is needed here.
        let fits = firsts.is_sorted()
            && firsts.first().is_none_or(|&first| first == 0)
            && firsts.len() == block_ends.len()
            && firsts.last().is_none_or(|&last| (last as usize) < count)
            && (firsts.is_empty() == (count == 0))
            && block_ends.is_sorted()
            && block_ends.last().map_or(0, |&end| end as usize) == data.len();
        if !fits {
            return None;
        }
        let stored = (0..block_ends.len())
            .map(|k| {
                let range = table::span(&block_ends, k)?;
                Some(data_start + range.start..data_start + range.end)
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Section {
            blocks: (0..stored.len()).map(|_| OnceLock::new()).collect(),
            ends_stored,
            ends: OnceLock::new(),
            count,
            firsts,
            compressed,
            stored,
            text,
        })
    }

    fn len(&self) -> usize {
        self.count
    }

    /// The end of each string, read from `bytes` the first time; `None` when they do not
    /// read back as many as the section holds.
    fn ends<'s>(&'s self, bytes: &[u8]) -> Option<&'s [u32]> {
        let read = || {
            let ends = read_ends(bytes.get(self.ends_stored.clone())?)?;
            (ends.len() == self.count).then_some(ends)
        };
        self.ends.get_or_init(read).as_deref()
    }

    /// The strings of block `k`: first string, and where the block starts among the bytes
    /// of every string.
    fn block_start(&self, ends: &[u32], k: usize) -> Option<(usize, usize)> {
        let first = *self.firsts.get(k)? as usize;
        let start = match first.checked_sub(1) {
            Some(previous) => *ends.get(previous)? as usize,
            None => 0,
        };
        Some((first, start))
    }

    /// Block `k`, checked: inflated the first time when the section is compressed, read in
    /// place from `bytes` when it is plain.
    fn block<'s>(&'s self, bytes: &'s [u8], k: usize) -> Option<&'s [u8]> {
        let cell = self.blocks.get(k)?;
        let stored = bytes.get(self.stored.get(k)?.clone())?;
        let read = || {
            let ends = self.ends(bytes)?;
            let (first, start) = self.block_start(ends, k)?;
            let next = self
                .firsts
                .get(k + 1)
                .map_or(self.len(), |&next| next as usize);
            let end = *ends.get(next.checked_sub(1)?)? as usize;
            let inflated = if self.compressed {
                Some(inflate(stored, end.checked_sub(start)?)?)
            } else {
                (stored.len() == end.checked_sub(start)?).then_some(None)?
            };
            let raw = inflated.as_deref().unwrap_or(stored);
            if self.text {
                let text = std::str::from_utf8(raw).ok()?;
                let whole = (ends.get(first..next)?.iter())
                    .all(|&end| text.is_char_boundary(end as usize - start));
                whole.then_some(())?;
            }
            Some(match inflated {
                Some(raw) => Block::Inflated(raw.into_boxed_slice()),
                None => Block::InPlace,
            })
        };
        match cell.get_or_init(read).as_ref()? {
            Block::Inflated(raw) => Some(raw),
            Block::InPlace => Some(stored),
        }
    }

    /// String `index`'s bytes.
    fn bytes<'s>(&'s self, bytes: &'s [u8], index: usize) -> Option<&'s [u8]> {
        let k = self
            .firsts
            .partition_point(|&first| first as usize <= index)
            .checked_sub(1)?;
        let ends = self.ends(bytes)?;
        let (_, start) = self.block_start(ends, k)?;
        let range = table::span(ends, index)?;
        self.block(bytes, k)?
            .get(range.start.checked_sub(start)?..range.end.checked_sub(start)?)
    }

    /// The text of `id` (0 is "absent", `i` the string `i - 1`): `Some("")` for 0, `None`
    /// when out of range or damaged.
    fn text<'s>(&'s self, bytes: &'s [u8], id: u32) -> Option<&'s str> {
        match id.checked_sub(1) {
            None => Some(""),
            // Checked to be UTF-8 on whole characters when the block was read.
            Some(index) => std::str::from_utf8(self.bytes(bytes, index as usize)?).ok(),
        }
    }

    fn fits(&self, id: u32) -> bool {
        id as usize <= self.len()
    }
}

/// Reads every printing's [`Details`] back. `None` when anything is out of place: a
/// damaged file yields no details, never wrong ones.
#[cfg(test)]
pub fn decode(bytes: &[u8]) -> Option<Vec<Details>> {
    let opened = open(std::borrow::Cow::Owned(bytes.to_vec()))?;
    (0..opened.len())
        .map(|index| opened.details(index))
        .collect()
}

/// Which texts of a printing `Opened::texts` visits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextParts {
    pub attack_names: bool,
    pub attack_texts: bool,
    pub ability_names: bool,
    pub ability_texts: bool,
    /// The rules text of a Trainer or Energy, and a Pokémon's rule lines.
    pub effect: bool,
}

/// Encoded details opened for reading one printing at a time: only the frame of each
/// section is read; a block of texts or records is inflated the first time it is needed,
/// so showing one card inflates a few blocks and a query on HP never inflates a text.
pub struct Opened {
    bytes: std::borrow::Cow<'static, [u8]>,
    common: Section,
    languages: Vec<Section>,
    records: Section,
    /// Each language's table folded, by [`Language::index`].
    folded: Vec<Folded>,
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

    /// Printing `index`'s record, every id checked against its table.
    fn record(&self, index: usize) -> Option<Record> {
        let record: Record = postcard::from_bytes(self.records.bytes(&self.bytes, index)?).ok()?;
        self.ids_fit(&record).then_some(record)
    }

    /// Printing `index`'s details, built now (`None` past the end or when damaged).
    pub fn details(&self, index: usize) -> Option<Details> {
        self.decoder(true).details(&self.record(index)?)
    }

    /// Printing `index`'s details without their texts (names and texts of attacks and
    /// abilities, rules text left empty): what a test of HP, cost or rarity reads, built
    /// without inflating any language's texts.
    pub fn facts(&self, index: usize) -> Option<Details> {
        self.decoder(false).details(&self.record(index)?)
    }

    /// Calls `visit` with the language and table id of each text of printing `index` among
    /// `parts`, until it returns true; whether it did. Read the text with [`Opened::text`].
    pub fn texts(
        &self,
        index: usize,
        parts: TextParts,
        visit: &mut dyn FnMut(Language, u32) -> bool,
    ) -> bool {
        let Some(record) = self.record(index) else {
            return false;
        };
        let mut each = |ids: &TextIds| {
            Language::ALL
                .into_iter()
                .zip(ids)
                .any(|(lang, &id)| id != 0 && visit(lang, id))
        };
        (parts.effect && each(&record.effect))
            || record.attacks.iter().any(|(name, _, _, text)| {
                (parts.attack_names && each(name)) || (parts.attack_texts && each(text))
            })
            || record.abilities.iter().any(|(_, name, text)| {
                (parts.ability_names && each(name)) || (parts.ability_texts && each(text))
            })
    }

    /// How many texts `lang`'s table holds.
    pub(crate) fn text_count(&self, lang: Language) -> usize {
        self.languages.get(lang.index()).map_or(0, Section::len)
    }

    /// The text `id` of `lang`'s table (as [`Opened::texts`] gives it).
    pub fn text(&self, lang: Language, id: u32) -> Option<&str> {
        self.languages.get(lang.index())?.text(&self.bytes, id)
    }

    /// Which block of `lang`'s folded table holds text `id` (as [`Opened::texts`] gives
    /// it); `None` for 0 and past the end.
    pub fn folded_block_of(&self, lang: Language, id: u32) -> Option<usize> {
        self.folded.get(lang.index())?.holding(id)
    }

    /// Block `k` of `lang`'s folded table, checked (and inflated, when stored deflated) the
    /// first time; `None` past the end or when damaged.
    pub fn folded_block(&self, lang: Language, k: usize) -> Option<FoldedBlock<'_>> {
        self.folded.get(lang.index())?.block(&self.bytes, k)
    }

    /// How many blocks `lang`'s folded table has ([`FoldedBlock::index`] runs below it).
    pub fn folded_block_count(&self, lang: Language) -> usize {
        self.folded
            .get(lang.index())
            .map_or(0, |folded| folded.firsts.len())
    }

    fn decoder(&self, texts: bool) -> Decoder<'_> {
        Decoder {
            bytes: &self.bytes,
            common: &self.common,
            languages: &self.languages,
            texts,
        }
    }

    /// Whether every id of `r` names a string of its table, so that building its details
    /// cannot fail on an id.
    fn ids_fit(&self, r: &Record) -> bool {
        let common = |id: u32| self.common.fits(id);
        let texts = |ids: &TextIds| {
            ids.iter()
                .zip(&self.languages)
                .all(|(&id, table)| table.fits(id))
        };
        let pairs = |list: &[(u32, u32)]| list.iter().all(|&(a, b)| common(a) && common(b));
        pairs(&r.weaknesses)
            && pairs(&r.resistances)
            && r.abilities
                .iter()
                .all(|(kind, name, text)| common(*kind) && texts(name) && texts(text))
            && r.attacks.iter().all(|(name, cost, damage, text)| {
                texts(name) && cost.iter().all(|&id| common(id)) && common(*damage) && texts(text)
            })
            && texts(&r.effect)
            && common(r.illustrator)
            && common(r.rarity)
    }
}

/// Opens encoded details for reading a printing at a time. `None` when the frame is out of
/// place; a damaged block is found when it is read, and the printings it holds get no
/// details, never wrong ones.
pub fn open(bytes: std::borrow::Cow<'static, [u8]>) -> Option<Opened> {
    let count = count(&bytes)?;
    let mut reader = Reader::new(&bytes, HEADER_LEN);
    let mut sections = Vec::with_capacity(SECTIONS);
    let mut folded_frames = Vec::with_capacity(6);
    for index in 0..SECTIONS {
        let frame = reader.blob()?;
        let start = reader.position() - frame.len();
        // The records (section 7) are not texts; the folded tables (8 and on) are read
        // once the languages' text counts are known.
        if index > 7 {
            folded_frames.push(start..reader.position());
            continue;
        }
        let mut inner = Reader::new(bytes.get(..reader.position())?, start);
        let section = Section::read(&mut inner, index < 7)?;
        inner.at_end().then_some(())?;
        sections.push(section);
    }
    if !reader.at_end() {
        return None;
    }
    let records = sections.pop()?;
    let languages = sections.split_off(1);
    let common = sections.pop()?;
    let folded = (folded_frames.into_iter().zip(&languages))
        .map(|(frame, table)| Some(open_folded(&bytes, frame, table.len())?.0))
        .collect::<Option<Vec<_>>>()?;
    (records.len() == count && languages.len() == 6).then_some(Opened {
        bytes,
        common,
        languages,
        records,
        folded,
    })
}

/// Where each language's folded table is in encoded details (by [`Language::index`]): the
/// frame a [`FoldedTable`] opens from, found by walking the sections' lengths (no section
/// is read). `None` when the frame is out of place.
pub fn folded_frames(bytes: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    count(bytes)?;
    let mut reader = Reader::new(bytes, HEADER_LEN);
    let mut frames = Vec::with_capacity(6);
    for index in 0..SECTIONS {
        let frame = reader.blob()?;
        if index > 7 {
            frames.push(reader.position() - frame.len()..reader.position());
        }
    }
    reader.at_end().then_some(frames)
}

/// One language's folded table opened alone, from its frame ([`folded_frames`]) in the
/// encoded details `bytes`, for a table of `texts` texts: what a text search checks its
/// candidates against without opening the rest of the details.
pub struct FoldedTable(Folded);

impl std::fmt::Debug for FoldedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FoldedTable({} blocks)", self.0.firsts.len())
    }
}

/// Opens the folded table whose frame is `frame` in `bytes` (the first text of each block,
/// then the blocks as the strings of a section); `None` when it is out of place or does not
/// hold `texts` texts.
pub fn open_folded(
    bytes: &[u8],
    frame: std::ops::Range<usize>,
    texts: usize,
) -> Option<FoldedTable> {
    let mut inner = Reader::new(bytes.get(..frame.end)?, frame.start);
    let firsts = inner.u32s()?;
    // Each string is a block that `Folded::block` checks to be UTF-8 itself.
    let blocks = Section::read(&mut inner, false)?;
    inner.at_end().then_some(())?;
    Folded::new(firsts, blocks, texts).map(FoldedTable)
}

impl FoldedTable {
    /// Which block holds text `id` (1 is the table's first text); `None` for 0 and past
    /// the end.
    pub fn block_of(&self, id: u32) -> Option<usize> {
        self.0.holding(id)
    }

    /// Block `k`, checked, read from the encoded details `bytes` it was opened from.
    pub fn block<'s>(&'s self, bytes: &'s [u8], k: usize) -> Option<FoldedBlock<'s>> {
        self.0.block(bytes, k)
    }

    /// How many blocks the table has.
    pub fn block_count(&self) -> usize {
        self.0.firsts.len()
    }
}

/// A language's table folded ([`encode_folded`]): the first text of each block, and the
/// blocks as the strings of a section.
struct Folded {
    firsts: Vec<u32>,
    blocks: Section,
    /// How many texts the table holds.
    count: usize,
}

impl Folded {
    /// `None` unless the blocks hold the table's texts, each block from its first.
    fn new(firsts: Vec<u32>, blocks: Section, count: usize) -> Option<Folded> {
        let fits = firsts.len() == blocks.len()
            && firsts.first().is_none_or(|&first| first == 0)
            && firsts.windows(2).all(|pair| pair[0] < pair[1])
            && firsts.last().is_none_or(|&last| (last as usize) < count)
            && (firsts.is_empty() == (count == 0));
        fits.then_some(Folded {
            firsts,
            blocks,
            count,
        })
    }

    /// Block `k`, checked to hold exactly its texts, each ended by [`FOLDED_END`].
    fn block<'s>(&'s self, bytes: &'s [u8], k: usize) -> Option<FoldedBlock<'s>> {
        let first = *self.firsts.get(k)?;
        let next = self
            .firsts
            .get(k + 1)
            .map_or(self.count, |&next| next as usize);
        let text = std::str::from_utf8(self.blocks.bytes(bytes, k)?).ok()?;
        let ends = memchr::memchr_iter(FOLDED_END, text.as_bytes()).count();
        let whole = ends == next.checked_sub(first as usize)? && text.ends_with('\0');
        whole.then_some(FoldedBlock {
            index: k,
            first: first + 1,
            text,
        })
    }

    /// The block holding text `id` (1 is the table's first text).
    fn holding(&self, id: u32) -> Option<usize> {
        let index = id.checked_sub(1)?;
        ((index as usize) < self.count).then_some(())?;
        self.firsts
            .partition_point(|&first| first <= index)
            .checked_sub(1)
    }
}

/// One block of a language's folded table: the texts of ids `first`, `first + 1`... each
/// as [`crate::names::fold`] folds it and followed by [`FOLDED_END`].
#[derive(Debug, Clone, Copy)]
pub struct FoldedBlock<'a> {
    /// The block's place among the table's blocks (0 first).
    pub index: usize,
    /// The table id of its first text.
    pub first: u32,
    pub text: &'a str,
}

struct Decoder<'t> {
    bytes: &'t [u8],
    common: &'t Section,
    languages: &'t [Section],
    /// Whether to read the texts of languages (else they are left empty).
    texts: bool,
}

impl Decoder<'_> {
    fn string(&self, id: u32) -> Option<String> {
        self.common.text(self.bytes, id).map(str::to_string)
    }

    fn optional(&self, id: u32) -> Option<Option<String>> {
        let text = self.common.text(self.bytes, id)?;
        Some((!text.is_empty()).then(|| text.to_string()))
    }

    fn texts(&self, ids: &TextIds) -> Option<Texts> {
        let mut texts = Texts::default();
        if !self.texts {
            return Some(texts);
        }
        for (slot, (&id, table)) in texts.0.iter_mut().zip(ids.iter().zip(self.languages)) {
            let text = table.text(self.bytes, id)?;
            *slot = (!text.is_empty()).then(|| text.to_string());
        }
        Some(texts)
    }

    fn modifiers(&self, list: &[(u32, u32)]) -> Option<Vec<TypeModifier>> {
        list.iter()
            .map(|&(kind, value)| {
                Some(TypeModifier {
                    energy_type: self.string(kind)?,
                    value: self.string(value)?,
                })
            })
            .collect()
    }

    fn details(&self, record: &Record) -> Option<Details> {
        let abilities = record.abilities.iter().map(|(kind, name, text)| {
            Some(Ability {
                kind: self.string(*kind)?,
                name: self.texts(name)?,
                text: self.texts(text)?,
            })
        });
        let attacks = record.attacks.iter().map(|(name, cost, damage, text)| {
            Some(Attack {
                name: self.texts(name)?,
                cost: cost
                    .iter()
                    .map(|&id| self.string(id))
                    .collect::<Option<_>>()?,
                damage: self.string(*damage)?,
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
            illustrator: self.optional(record.illustrator)?,
            rarity: self.optional(record.rarity)?,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
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

    /// The compact copy (the web page's) holds the same details and the same folded
    /// tables as the embedded form, its folded tables deflated where those are plain.
    #[test]
    fn a_compact_copy_reads_back_the_same() {
        let details = sample();
        let embedded = encode(&details, true).unwrap();
        let compact = compact(&embedded).unwrap();
        assert_eq!(decode(&compact).unwrap(), details);
        let (a, b) = (
            open(std::borrow::Cow::Owned(embedded)).unwrap(),
            open(std::borrow::Cow::Owned(compact)).unwrap(),
        );
        for lang in Language::ALL {
            assert_eq!(a.folded_block_count(lang), b.folded_block_count(lang));
            for k in 0..a.folded_block_count(lang) {
                let (x, y) = (
                    a.folded_block(lang, k).unwrap(),
                    b.folded_block(lang, k).unwrap(),
                );
                assert_eq!((x.first, x.text), (y.first, y.text));
            }
        }
        assert!(a.folded.iter().all(|folded| !folded.blocks.compressed));
        assert!(b.folded.iter().all(|folded| folded.blocks.compressed));
    }

    #[test]
    fn facts_and_texts_by_id() {
        let opened = open(std::borrow::Cow::Owned(encode(&sample(), true).unwrap())).unwrap();
        let facts = opened.facts(0).unwrap();
        assert_eq!((facts.hp, facts.attacks.len()), (Some(70), 2));
        assert_eq!(facts.attacks[0].cost, ["Fire", "Psychic"]);
        assert!(
            facts.attacks[0].name.is_empty(),
            "no text read for the facts"
        );
        let names = TextParts {
            attack_names: true,
            ..TextParts::default()
        };
        let mut seen = Vec::new();
        opened.texts(0, names, &mut |lang, id| {
            seen.push((lang, opened.text(lang, id).unwrap().to_string()));
            false
        });
        // Both attacks are the same Bite: one id per language, visited per attack.
        let bite = [(Language::En, "Bite".into()), (Language::De, "Biss".into())];
        assert_eq!(seen, [bite.clone(), bite].concat());
        assert!(!opened.texts(0, TextParts::default(), &mut |_, _| true));
        let effect = TextParts {
            effect: true,
            ..TextParts::default()
        };
        assert!(opened.texts(2, effect, &mut |lang, _| lang == Language::Fr));
    }

    #[test]
    fn ends_round_trip_as_lengths() {
        let ends = [0, 5, 5, 132, 20_000, 3_000_000, u32::MAX];
        let mut bytes = Vec::new();
        put_ends(&mut bytes, &ends).unwrap();
        // One byte for each length under 128, two under 16,384...
        assert_eq!(bytes.len(), 8 + 1 + 1 + 1 + 1 + 3 + 4 + 5);
        let blob = Reader::new(&bytes, 0).blob().unwrap();
        assert_eq!(read_ends(blob).unwrap(), ends);
        assert_eq!(ends_in(blob), ends.len());
        // A length cut short, and ends past u32::MAX, are refused.
        assert_eq!(read_ends(&[0x80]), None);
        let mut past = Vec::new();
        put_ends(&mut past, &[u32::MAX]).unwrap();
        assert_eq!(read_ends(&[&past[8..], &past[8..]].concat()), None);
        assert!(
            put_ends(&mut Vec::new(), &[5, 4]).is_none(),
            "ends never go back"
        );
    }

    #[test]
    fn folded_tables_hold_each_text_folded() {
        let mut details = sample();
        details[1].effect.0[Language::Fr.index()] = Some("Défaussez  VOTRE main.".into());
        let opened = open(std::borrow::Cow::Owned(encode(&details, true).unwrap())).unwrap();
        assert_eq!(opened.folded_block_count(Language::Fr), 1);
        let block = opened.folded_block(Language::Fr, 0).unwrap();
        assert_eq!((block.index, block.first), (0, 1));
        assert_eq!(block.text, "defaussez votre main\0echangez\0");
        assert_eq!(opened.folded_block_of(Language::Fr, 2), Some(0));
        assert_eq!(opened.folded_block_of(Language::Fr, 3), None);
        assert_eq!(opened.folded_block_of(Language::Fr, 0), None);
        assert_eq!(opened.folded_block_count(Language::Es), 0);
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
