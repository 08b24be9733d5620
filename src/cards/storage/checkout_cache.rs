//! Opens a card database checkout (TCGdex or pokemon-tcg-data) through an on-disk cache.
//!
//! Loading a checkout parses ~20k files; the cache keeps the finished [`CardDb`] (its
//! lookup tables and its printings, curated flags applied, each printing encoded on its
//! own, and their texts, decoded only by [`CardDb::details`]) as one file per checkout, keyed by its canonical path. A warm open reads that file
//! once, checks the header and copies the tables out in bulk: no printing is decoded
//! until a lookup asks for it. The header records the checkout's fingerprint and a hash of
//! the curated flags, so a changed checkout or a deckbox with other curated flags rebuilds
//! it. A cache that is from another format version or checkout state, or cannot be written,
//! is never an error: the checkout is just loaded again. One that is damaged (truncated, a
//! bit flipped) is rebuilt too, and [`Opened::damaged_cache`] says so. Files of the
//! checkout that cannot be read are left out with their cards ([`Opened::unreadable`]) and
//! no cache is written, so that the next run reports them again. This module must not know
//! how either format is read (see [`crate::cards::sources::from_tcgdex`],
//! [`crate::cards::sources::from_pokemontcg`]) nor anything about deck lists.
//!
//! # The fingerprint
//! The fingerprint covers the mtime and size of every directory, series file, set file and
//! card file of a TCGdex checkout, and of the top-level files, plus the contents of
//! `.git/HEAD` and of the ref it points to. Creating, deleting or renaming a card file
//! changes its set folder's mtime; an edit made in place (a truncation, garbage written
//! over it) changes the file's own size or mtime; a commit, checkout or pull changes the
//! ref. Statting the ~24k card files is the largest part of a warm open, so the set folders
//! are statted in parallel (`cargo bench --bench index` measures it).
//! For pokemon-tcg-data (under 200 files) every file is fingerprinted.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::cards::database::CardDb;
use crate::cards::model::{Printing, Source};
use crate::cards::sources::from_tcgdex::Skipped;
use crate::cards::sources::{CardDbError, curated, from_pokemontcg, from_tcgdex};

/// Bumped whenever [`Printing`] or the loaders change what they produce, so that older
/// cache files are rebuilt (20: the search columns they keep are `DBXCOLS2`; 21: the word
/// index of the texts follows them; 22: the columns are `DBXCOLS3`; 23: `DBXCOLS4`; 24:
/// `DBXCOLS5`; 25: the word index is `DBXWORDS` 2).
pub(crate) const FORMAT_VERSION: u32 = 25;
const MAGIC: &[u8; 8] = b"DBXCARDS";
/// Magic, version, checkout fingerprint, curated-flags hash, total file length.
const HEADER_LEN: usize = 8 + 4 + 8 + 8 + 8 + 4;

/// How [`open`] may use the cache.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Where cache files live; `None` means `$DECKBOX_CACHE_DIR`, else the user's cache
    /// folder (`~/.cache/deckbox` on Linux).
    pub cache_dir: Option<PathBuf>,
    /// Reload the checkout even when the cache looks current.
    pub rebuild: bool,
}

/// The two checkout layouts [`open`] understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `data/<Serie>.ts`, `data/<Serie>/<Set>.ts`, `data/<Serie>/<Set>/<id>.ts`.
    Tcgdex,
    /// `sets/en.json` and `cards/en/<setId>.json`.
    PokemonTcg,
}

/// Whether [`open_with_status`] read the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheUse {
    /// The cache was current and was read.
    Hit,
    /// The checkout was loaded and the cache (re)written.
    Built,
    /// The checkout was loaded; no cache was written (no cache folder, a read-only one, or
    /// files of the checkout that could not be read: a cache would hide them from the next
    /// run).
    Uncached,
}

/// What [`open_detailed`] opened, and what the caller should tell the user.
#[derive(Debug)]
pub struct Opened {
    pub db: CardDb,
    pub cache: CacheUse,
    /// The cache file existed for this checkout and version but was damaged (truncated,
    /// a bit flipped, not a regular file): it was ignored and, when it could be, rebuilt.
    pub damaged_cache: Option<PathBuf>,
    /// The cache's folder (or a folder on its way) is a file: no cache was read or written.
    pub cache_not_a_folder: Option<PathBuf>,
    /// The cache's folder could not be read or written (a link in a loop, a folder without
    /// write permission, an immutable one, a read-only file system), with the system's
    /// reason: the card data was loaded without a cache.
    pub cache_unusable: Option<(PathBuf, String)>,
    /// Files of the checkout that could not be read or placed, each with why; their cards
    /// are not in `db`.
    pub unreadable: Vec<Skipped>,
}

/// Opens the card database checkout at `path`, through the cache.
pub fn open(path: &Path, options: &IndexOptions) -> Result<CardDb, CardDbError> {
    open_with_status(path, options).map(|(db, _)| db)
}

/// Like [`open`], also telling whether the cache was used.
pub fn open_with_status(
    path: &Path,
    options: &IndexOptions,
) -> Result<(CardDb, CacheUse), CardDbError> {
    open_detailed(path, options).map(|opened| (opened.db, opened.cache))
}

/// Like [`open`], also telling how the cache was used, whether it was damaged, and which
/// files of the checkout could not be read.
pub fn open_detailed(path: &Path, options: &IndexOptions) -> Result<Opened, CardDbError> {
    let root = std::fs::canonicalize(path).map_err(|source| CardDbError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let layout = detect(&root)?;
    let cache_file = cache_path(&root, options);
    let curated = curated_facts();
    let stamp = Stamp {
        fingerprint: fingerprint(&root, layout),
        curated: curated_hash(&curated),
    };
    let source = match layout {
        Layout::Tcgdex => Source::Tcgdex(root.clone()),
        Layout::PokemonTcg => Source::PokemonTcg(root.clone()),
    };
    let mut damaged_cache = None;
    let mut cache_not_a_folder = None;
    let mut cache_unusable = None;
    if let (Some(file), false) = (&cache_file, options.rebuild) {
        match read_cache(file, &stamp, source.clone()) {
            Ok(db) => {
                return Ok(Opened {
                    db,
                    cache: CacheUse::Hit,
                    damaged_cache: None,
                    cache_not_a_folder: None,
                    cache_unusable: None,
                    unreadable: Vec::new(),
                });
            }
            Err(CacheMiss::Damaged) => damaged_cache = Some(file.clone()),
            Err(CacheMiss::NoFolder(folder)) => cache_not_a_folder = Some(folder),
            Err(CacheMiss::Unusable(folder, reason)) => cache_unusable = Some((folder, reason)),
            Err(CacheMiss::Missing | CacheMiss::Outdated) => {}
        }
    }
    // A few seconds, once per checkout: the binary shows a spinner on a terminal.
    let _building = super::progress::IndexBuild::start();
    let (mut printings, details, unreadable) = match layout {
        Layout::Tcgdex => {
            let loaded = from_tcgdex::load_detailed(&root)?;
            (loaded.printings, loaded.details, loaded.damaged)
        }
        Layout::PokemonTcg => from_pokemontcg::load_detailed(&root)?,
    };
    // Stored in the cache with the flags applied; the stamp's `curated` hash rebuilds the
    // cache when a newer deckbox ships other curated flags.
    apply_curated(&mut printings, &curated);
    let db = CardDb::new(source, printings).with_details(details);
    let mut written = false;
    if let (true, Some(file)) = (unreadable.is_empty(), cache_file.as_deref()) {
        match write_cache(file, &stamp, &db) {
            Ok(()) => written = true,
            // Said once: the folder is a file, or could not be read either.
            Err(_) if cache_not_a_folder.is_some() || cache_unusable.is_some() => {}
            Err(reason) => {
                let folder = file.parent().unwrap_or(file).to_path_buf();
                cache_unusable = Some((folder, reason.to_string()));
            }
        }
    }
    let cache = if written {
        CacheUse::Built
    } else {
        CacheUse::Uncached
    };
    Ok(Opened {
        db,
        cache,
        damaged_cache,
        cache_not_a_folder,
        cache_unusable,
        unreadable,
    })
}

/// Tells which kind of checkout `root` is.
pub fn detect(root: &Path) -> Result<Layout, CardDbError> {
    let data = root.join("data");
    let has_series_file = std::fs::read_dir(&data).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.path().extension().is_some_and(|ext| ext == "ts"))
    });
    if has_series_file {
        return Ok(Layout::Tcgdex);
    }
    if root.join("sets").join("en.json").is_file() && root.join("cards").join("en").is_dir() {
        return Ok(Layout::PokemonTcg);
    }
    Err(CardDbError::UnknownLayout {
        path: root.to_path_buf(),
    })
}

/// The cache file for the checkout at `root` (already canonical), or `None` when no
/// cache folder is known.
pub fn cache_path(root: &Path, options: &IndexOptions) -> Option<PathBuf> {
    let dir = options
        .cache_dir
        .clone()
        .or_else(|| {
            std::env::var_os("DECKBOX_CACHE_DIR")
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from)
        })
        .or_else(|| dirs::cache_dir().map(|dir| dir.join("deckbox")))?;
    let mut hasher = DefaultHasher::new();
    root.hash(&mut hasher);
    FORMAT_VERSION.hash(&mut hasher);
    Some(dir.join(format!("cards-{:016x}.postcard", hasher.finish())))
}

/// Sets `ace_spec`, `radiant`, `prism_star` and `pokemon_star` on every printing with the
/// same set code and number as a curated printing that has them: the datasets miss some
/// (BW-era ACE SPECs in TCGdex, for one). Flags are only ever added.
pub fn apply_curated(printings: &mut [Printing], curated: &[Printing]) {
    let mut by_key: HashMap<(&str, &str), Vec<&Printing>> = HashMap::new();
    for fact in curated {
        if !fact.set_code.is_empty() {
            by_key
                .entry((fact.set_code.as_str(), fact.number.as_str()))
                .or_default()
                .push(fact);
        }
    }
    if by_key.is_empty() {
        return;
    }
    for printing in printings.iter_mut() {
        let key = (printing.set_code.as_str(), printing.number.as_str());
        let Some(facts) = by_key.get(&key) else {
            continue;
        };
        let (ace, radiant, prism, star) =
            facts.iter().fold((false, false, false, false), |f, p| {
                (
                    f.0 | p.ace_spec,
                    f.1 | p.radiant,
                    f.2 | p.prism_star,
                    f.3 | p.pokemon_star,
                )
            });
        printing.ace_spec |= ace;
        printing.radiant |= radiant;
        printing.prism_star |= prism;
        printing.pokemon_star |= star;
    }
}

/// The curated printings shipped with deckbox (see [`curated`]). The pool is
/// checked by its own tests; should it fail to parse, the datasets still stand on their
/// own, so the checkout opens without the curated flags rather than not at all.
pub fn curated_facts() -> Vec<Printing> {
    curated::load().unwrap_or_default()
}

/// A hash of what [`apply_curated`] would take from `curated`: the set, number and flags
/// of every curated printing, so the cache is rebuilt when those change.
fn curated_hash(curated: &[Printing]) -> u64 {
    let mut hasher = DefaultHasher::new();
    for fact in curated.iter().filter(|fact| !fact.set_code.is_empty()) {
        (&fact.set_code, &fact.number).hash(&mut hasher);
        [
            fact.ace_spec,
            fact.radiant,
            fact.prism_star,
            fact.pokemon_star,
        ]
        .hash(&mut hasher);
    }
    hasher.finish()
}

/// A cheap hash of what changes when the checkout changes (see the module docs).
pub fn fingerprint(root: &Path, layout: Layout) -> u64 {
    let mut hasher = DefaultHasher::new();
    FORMAT_VERSION.hash(&mut hasher);
    stat_tree(root, 1, &mut hasher);
    match layout {
        // data/ → series files and folders → set files and folders → card files (statted,
        // not read): an edit made in place to one card file changes its size or mtime.
        Layout::Tcgdex => stat_card_tree(&root.join("data"), &mut hasher),
        // Under 200 files: every one of them.
        Layout::PokemonTcg => {
            stat_tree(&root.join("cards"), 2, &mut hasher);
            stat_tree(&root.join("sets"), 1, &mut hasher);
        }
    }
    git_head_into(root, &mut hasher);
    hasher.finish()
}

/// Hashes the name, size and mtime of `dir` and, while `depth` > 0, of its entries,
/// reading sub-folders `depth - 1` levels further. Entries are sorted so the order of
/// `read_dir` does not matter.
fn stat_tree(dir: &Path, depth: u32, hasher: &mut DefaultHasher) {
    stat_into(dir, hasher);
    if depth == 0 {
        return;
    }
    for (path, is_dir) in sorted_entries(dir) {
        if is_dir {
            stat_tree(&path, depth - 1, hasher);
        } else {
            stat_into(&path, hasher);
        }
    }
}

/// [`stat_tree`] of a TCGdex `data/` folder down to the card files, the set folders
/// statted in parallel (each into its own hash, combined in order).
fn stat_card_tree(data: &Path, hasher: &mut DefaultHasher) {
    use crate::util::parallel::prelude::*;
    stat_tree(data, 2, hasher);
    let mut set_dirs: Vec<PathBuf> = sorted_entries(data)
        .into_iter()
        .filter(|(_, is_dir)| *is_dir)
        .flat_map(|(serie, _)| sorted_entries(&serie))
        .filter(|(_, is_dir)| *is_dir)
        .map(|(set, _)| set)
        .collect();
    set_dirs.sort();
    let hashes: Vec<u64> = set_dirs.par_iter().map(|dir| stat_cards(dir)).collect();
    hashes.hash(hasher);
}

/// The names, sizes and mtimes of a set folder's entries, hashed in name order. Statted
/// through the open folder (`DirEntry::metadata`), which spares resolving the whole path of
/// each of the ~24k card files.
fn stat_cards(dir: &Path) -> u64 {
    let mut own = DefaultHasher::new();
    stat_into(dir, &mut own);
    let mut stats: Vec<(std::ffi::OsString, u64, Option<u128>)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| {
                    let meta = entry.metadata().ok();
                    let mtime = meta
                        .as_ref()
                        .and_then(|meta| meta.modified().ok())
                        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
                        .map(|since| since.as_nanos());
                    (entry.file_name(), meta.map_or(0, |meta| meta.len()), mtime)
                })
                .collect()
        })
        .unwrap_or_default();
    stats.sort_unstable();
    stats.hash(&mut own);
    own.finish()
}

/// The entries of `dir`, sorted, each with whether it is a folder.
fn sorted_entries(dir: &Path) -> Vec<(PathBuf, bool)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut entries: Vec<(PathBuf, bool)> = entries
        .flatten()
        .map(|entry| (entry.path(), entry.file_type().is_ok_and(|t| t.is_dir())))
        .collect();
    entries.sort();
    entries
}

fn stat_into(path: &Path, hasher: &mut DefaultHasher) {
    path.file_name().hash(hasher);
    match std::fs::metadata(path) {
        Ok(meta) => {
            meta.len().hash(hasher);
            let mtime = meta
                .modified()
                .ok()
                .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
                .map(|since| since.as_nanos());
            mtime.hash(hasher);
        }
        Err(_) => 0u8.hash(hasher),
    }
}

/// Largest `.git/HEAD` or ref file read (they hold one line).
const MAX_GIT_REF_BYTES: u64 = 64 << 10;

/// Largest cache file read: the cache of a full TCGdex checkout is 3.8 MB (2026-11); one
/// that is a link to `/dev/zero` or a named pipe is never read whole or waited on.
const MAX_CACHE_BYTES: u64 = 256 << 20;

/// `.git/HEAD`, and the ref it names (loose or in `packed-refs`), when `.git` exists.
fn git_head_into(root: &Path, hasher: &mut DefaultHasher) {
    let git = root.join(".git");
    let Ok(head) = crate::util::bounded::read_to_string(&git.join("HEAD"), MAX_GIT_REF_BYTES)
    else {
        return;
    };
    head.hash(hasher);
    if let Some(reference) = head.trim().strip_prefix("ref: ") {
        crate::util::bounded::read(&git.join(reference), MAX_GIT_REF_BYTES)
            .ok()
            .hash(hasher);
        stat_into(&git.join("packed-refs"), hasher);
    }
}

/// What a cache file must have been built from to be used: the checkout as it is now,
/// and the curated flags this deckbox ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    fingerprint: u64,
    curated: u64,
}

/// Why the cache was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CacheMiss {
    /// No cache file yet.
    Missing,
    /// A cache of another deckbox version, checkout state or curated flags: replaced
    /// without a word.
    Outdated,
    /// A cache that should have been current but is not whole: truncated, a bit flipped,
    /// not a regular file, undecodable. Replaced, and the user told.
    Damaged,
    /// A cache that cannot be there: its folder is a file. The card data is loaded without
    /// it, and the user told why (it is no damage a rebuild fixes).
    NoFolder(PathBuf),
    /// A folder that cannot be reached (a link in a loop): said with the system's reason.
    Unusable(PathBuf, String),
}

/// Reads the cache: one read, a header check, and the tables copied out in bulk
/// ([`CardDb::decode`]); printings stay encoded until asked for. Otherwise says why not
/// (so the checkout is loaded again).
fn read_cache(file: &Path, stamp: &Stamp, source: Source) -> Result<CardDb, CacheMiss> {
    let bytes = match crate::util::bounded::read(file, MAX_CACHE_BYTES) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(CacheMiss::Missing);
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
            let folder = file.ancestors().skip(1).find(|at| at.exists());
            let folder = folder.unwrap_or(file).to_path_buf();
            return Err(CacheMiss::NoFolder(folder));
        }
        Err(_) => {
            // The folder itself cannot be reached: no damage of the file.
            let folder = file.parent().unwrap_or(file);
            return Err(match std::fs::metadata(folder) {
                Err(reason) => CacheMiss::Unusable(folder.to_path_buf(), reason.to_string()),
                Ok(_) => CacheMiss::Damaged,
            });
        }
    };
    let (Some(header), Some(body)) = (bytes.get(..HEADER_LEN), bytes.get(HEADER_LEN..)) else {
        return Err(CacheMiss::Damaged);
    };
    let expected = header_bytes(stamp, bytes.len() as u64, crc32fast::hash(body));
    // Magic, version and stamp first: another version or checkout state is not damage.
    let stamped = MAGIC.len() + 4 + 8 + 8;
    if header.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
        return Err(CacheMiss::Damaged);
    }
    if header.get(..stamped) != expected.get(..stamped) {
        return Err(CacheMiss::Outdated);
    }
    if header != expected.as_slice() {
        return Err(CacheMiss::Damaged);
    }
    CardDb::decode(source, bytes, HEADER_LEN).ok_or(CacheMiss::Damaged)
}

/// The header: magic, format version, the stamp, the length of the whole file (a
/// truncated or overlong file is refused before anything else is read) and the CRC-32 of
/// the body (a bit flipped on disk rebuilds the cache instead of giving wrong findings).
fn header_bytes(stamp: &Stamp, total_len: u64, body_crc: u32) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(&stamp.fingerprint.to_le_bytes());
    header.extend_from_slice(&stamp.curated.to_le_bytes());
    header.extend_from_slice(&total_len.to_le_bytes());
    header.extend_from_slice(&body_crc.to_le_bytes());
    header
}

/// Writes the cache through a temporary file renamed into place, so a reader never sees
/// half a file. The temporary file is created new (a link of that name is never written
/// through), and the rename replaces a link at the cache's name rather than the file it
/// names. Why the cache does not hold `db`, when it does not.
fn write_cache(file: &Path, stamp: &Stamp, db: &CardDb) -> std::io::Result<()> {
    use std::io::Write;
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut body = Vec::new();
    if db.encode(&mut body, true).is_none() {
        return Err(std::io::Error::other(
            "the index does not fit the cache's layout",
        ));
    }
    let mut bytes = header_bytes(
        stamp,
        (HEADER_LEN + body.len()) as u64,
        crc32fast::hash(&body),
    );
    bytes.extend_from_slice(&body);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let temp = file.with_extension(format!("tmp-{}-{nanos}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut out| {
            let written = out
                .write_all(&bytes)
                .and_then(|()| std::fs::rename(&temp, file));
            if written.is_err() {
                let _ = std::fs::remove_file(&temp);
            }
            written
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::model::Category;

    fn printing(code: &str, number: &str) -> Printing {
        Printing::new(code, number, Category::Trainer)
    }

    #[test]
    fn curated_flags_are_added_by_set_and_number() {
        let mut loaded = vec![printing("BCR", "137"), printing("BCR", "138")];
        let mut fact = printing("BCR", "137");
        fact.ace_spec = true;
        apply_curated(&mut loaded, &[fact]);
        assert!(loaded[0].ace_spec);
        assert!(!loaded[1].ace_spec);
    }

    /// A pokemon-tcg-data checkout of three cards, one of them a curated ACE SPEC
    /// (Prime Catcher, TEF 157) whose subtypes leave the flag out.
    fn tiny_checkout() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sets")).unwrap();
        std::fs::create_dir_all(dir.path().join("cards/en")).unwrap();
        let sets = r#"[{"id":"sv6","series":"Scarlet & Violet","ptcgoCode":"TWM","releaseDate":"2024/05/24"},
            {"id":"sv5","series":"Scarlet & Violet","ptcgoCode":"TEF","releaseDate":"2024/03/22"}]"#;
        std::fs::write(dir.path().join("sets/en.json"), sets).unwrap();
        let twm = r#"[{"name":"Dreepy","supertype":"Pokémon","subtypes":["Basic"],"number":"128","hp":"70",
              "attacks":[{"name":"Bite","cost":["Fire","Psychic"],"damage":"40","text":""}],"artist":"Scav","rarity":"Common"},
            {"name":"Drakloak","supertype":"Pokémon","subtypes":["Stage 1"],"number":"129","evolvesFrom":"Dreepy"}]"#;
        std::fs::write(dir.path().join("cards/en/sv6.json"), twm).unwrap();
        let tef = r#"[{"name":"Prime Catcher","supertype":"Trainer","subtypes":["Item"],"number":"157",
              "rules":["Switch in 1 of your opponent's Benched Pokémon.","You can't have more than 1 ACE SPEC card in your deck."]}]"#;
        std::fs::write(dir.path().join("cards/en/sv5.json"), tef).unwrap();
        dir
    }

    fn open_in(checkout: &Path, cache: &Path) -> (CardDb, CacheUse) {
        let options = IndexOptions {
            cache_dir: Some(cache.to_path_buf()),
            rebuild: false,
        };
        open_with_status(checkout, &options).unwrap()
    }

    #[test]
    fn cache_round_trip_answers_like_the_loaded_db() {
        let (checkout, cache) = (tiny_checkout(), tempfile::tempdir().unwrap());
        let (built, status) = open_in(checkout.path(), cache.path());
        assert_eq!(status, CacheUse::Built);
        let (reopened, status) = open_in(checkout.path(), cache.path());
        assert_eq!(status, CacheUse::Hit);
        assert_eq!(reopened.source(), built.source());
        crate::cards::database::card_db::tests::assert_same(&built, &reopened);
        assert_eq!(reopened.by_name("dreepy").len(), 1);
        // The curated flag was stored with the printing.
        let catcher = reopened.by_set_number("TEF", "157")[0];
        assert!(reopened.get(catcher).unwrap().ace_spec);
        // The texts were stored too, and read back only when asked for.
        assert_eq!(reopened.all_details(), built.all_details());
        let dreepy = reopened.details(reopened.by_name("dreepy")[0].id).unwrap();
        assert_eq!((dreepy.hp, dreepy.retreat), (Some(70), Some(0)));
        assert_eq!(
            dreepy.attacks[0].name.get(crate::names::lang::Language::En),
            Some("Bite")
        );
        assert_eq!(dreepy.attacks[0].cost, ["Fire", "Psychic"]);
        assert_eq!(dreepy.illustrator.as_deref(), Some("Scav"));
        let rules = reopened
            .details(catcher)
            .unwrap()
            .effect
            .get(crate::names::lang::Language::En);
        assert!(rules.is_some_and(|r| r.ends_with(
            "Benched Pokémon.\nYou can't have more than 1 ACE SPEC card in your deck."
        )));
    }

    #[test]
    fn damaged_caches_are_rebuilt() {
        let (checkout, cache) = (tiny_checkout(), tempfile::tempdir().unwrap());
        let (built, _) = open_in(checkout.path(), cache.path());
        let root = std::fs::canonicalize(checkout.path()).unwrap();
        let options = IndexOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            rebuild: false,
        };
        let file = cache_path(&root, &options).unwrap();
        let good = std::fs::read(&file).unwrap();
        let mut damages: Vec<Vec<u8>> = vec![
            good[..good.len() - 1].to_vec(),
            good[..HEADER_LEN].to_vec(),
            b"DBX".to_vec(),
            [good.as_slice(), b"x"].concat(),
        ];
        // A flipped byte anywhere in the header (magic, version, stamp, length, CRC), and
        // a single flipped bit at every 97th byte of the body (the CRC catches each).
        for at in (0..HEADER_LEN).chain((HEADER_LEN..good.len()).step_by(97)) {
            let mut bytes = good.clone();
            bytes[at] ^= if at < HEADER_LEN { 0x10 } else { 0x01 };
            damages.push(bytes);
        }
        // The version and the stamp (bytes 8 to 36) say "another deckbox or checkout
        // state": rebuilt without a word. Anything else is damage, and said.
        let stamped = MAGIC.len()..MAGIC.len() + 4 + 8 + 8;
        let silent: Vec<bool> = (0..4)
            .map(|_| false)
            .chain((0..HEADER_LEN).map(|at| stamped.contains(&at)))
            .chain((HEADER_LEN..good.len()).step_by(97).map(|_| false))
            .collect();
        for (case, (damaged, silent)) in damages.into_iter().zip(silent).enumerate() {
            std::fs::write(&file, &damaged).unwrap();
            let opened = open_detailed(checkout.path(), &options).unwrap();
            assert_eq!(opened.cache, CacheUse::Built, "case {case}");
            assert_eq!(opened.damaged_cache.is_none(), silent, "case {case}");
            crate::cards::database::card_db::tests::assert_same(&built, &opened.db);
            assert_eq!(std::fs::read(&file).unwrap(), good, "case {case}");
        }
    }

    #[test]
    fn a_changed_curated_pool_or_checkout_misses_the_cache() {
        let (checkout, cache) = (tiny_checkout(), tempfile::tempdir().unwrap());
        open_in(checkout.path(), cache.path());
        let root = std::fs::canonicalize(checkout.path()).unwrap();
        let layout = detect(&root).unwrap();
        let stamp = Stamp {
            fingerprint: fingerprint(&root, layout),
            curated: curated_hash(&curated_facts()),
        };
        let options = IndexOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            rebuild: false,
        };
        let file = cache_path(&root, &options).unwrap();
        let source = Source::PokemonTcg(root.clone());
        assert!(read_cache(&file, &stamp, source.clone()).is_ok());
        let mut other = stamp;
        other.curated ^= 1;
        let missed = read_cache(&file, &other, source.clone()).err();
        assert_eq!(missed, Some(CacheMiss::Outdated));
        let mut other = stamp;
        other.fingerprint ^= 1;
        let missed = read_cache(&file, &other, source).err();
        assert_eq!(missed, Some(CacheMiss::Outdated));
        let mut flagged = printing("TWM", "128");
        assert_ne!(curated_hash(&[flagged.clone()]), curated_hash(&[]));
        let before = curated_hash(&[flagged.clone()]);
        flagged.radiant = true;
        assert_ne!(curated_hash(&[flagged]), before);
    }

    #[test]
    fn unknown_layout() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            detect(dir.path()),
            Err(CardDbError::UnknownLayout { .. })
        ));
    }
}
