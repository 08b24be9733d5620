//! Opens a card database checkout (TCGdex or pokemon-tcg-data) through an on-disk cache.
//!
//! Loading a checkout parses ~20k files; the cache keeps the resulting printings as one
//! `postcard` file per checkout, keyed by its canonical path, and rebuilds it when the
//! checkout's fingerprint changes. A cache that is corrupt, truncated, from another
//! format version, or cannot be written is never an error: the checkout is just loaded
//! again. This module must not know how either format is read (see [`super::tcgdex`],
//! [`super::pokemontcg`]) nor anything about deck lists.
//!
//! # The fingerprint
//! Statting all ~24k files of a TCGdex checkout costs far more than the few milliseconds a
//! warm `check` may spend here (measured by `cargo bench --bench index`), so the
//! fingerprint covers what changes whenever files are added, removed or renamed, and what
//! git touches: the mtime and size of every directory down to the set folders, of every
//! series and set file, and of the top-level files, plus the contents of `.git/HEAD` and
//! of the ref it points to. Creating, deleting or renaming a card file changes its set
//! folder's mtime; a commit, checkout or pull changes the ref. An edit made in place to an
//! existing card file outside git is not seen: `IndexOptions::rebuild` forces a reload.
//! For pokemon-tcg-data (under 200 files) every file is fingerprinted.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::{CardDb, CardDbError, Printing, Source, pokemontcg, tcgdex};

/// Bumped whenever [`Printing`] or the loaders change what they produce, so that older
/// cache files are rebuilt.
const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"DBXCARDS";
const HEADER_LEN: usize = 8 + 4 + 8;

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
    /// The checkout was loaded; no cache could be written (no cache folder, read-only).
    Uncached,
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
    let root = std::fs::canonicalize(path).map_err(|source| CardDbError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let layout = detect(&root)?;
    let fingerprint = fingerprint(&root, layout);
    let cache_file = cache_path(&root, options);
    let cached = match (&cache_file, options.rebuild) {
        (Some(file), false) => read_cache(file, fingerprint),
        _ => None,
    };
    let (mut printings, status) = match cached {
        Some(printings) => (printings, CacheUse::Hit),
        None => {
            let printings = match layout {
                Layout::Tcgdex => tcgdex::load(&root)?,
                Layout::PokemonTcg => pokemontcg::load(&root)?,
            };
            let written = cache_file
                .as_deref()
                .is_some_and(|file| write_cache(file, fingerprint, &printings));
            let status = if written {
                CacheUse::Built
            } else {
                CacheUse::Uncached
            };
            (printings, status)
        }
    };
    // Applied on every open rather than stored, so curated fixes in a newer deckbox take
    // effect without a rebuild.
    apply_curated(&mut printings, &curated_facts());
    let source = match layout {
        Layout::Tcgdex => Source::Tcgdex(root),
        Layout::PokemonTcg => Source::PokemonTcg(root),
    };
    Ok((CardDb::new(source, printings), status))
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

/// The curated printings shipped with deckbox (see [`super::embedded`]). The pool is
/// checked by its own tests; should it fail to parse, the datasets still stand on their
/// own, so the checkout opens without the curated flags rather than not at all.
fn curated_facts() -> Vec<Printing> {
    super::embedded::load().unwrap_or_default()
}

/// A cheap hash of what changes when the checkout changes (see the module docs).
pub fn fingerprint(root: &Path, layout: Layout) -> u64 {
    let mut hasher = DefaultHasher::new();
    FORMAT_VERSION.hash(&mut hasher);
    stat_tree(root, 1, &mut hasher);
    match layout {
        // data/ → series files and folders → set files and folders (statted, not read).
        Layout::Tcgdex => stat_tree(&root.join("data"), 2, &mut hasher),
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
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(PathBuf, bool)> = entries
        .flatten()
        .map(|entry| (entry.path(), entry.file_type().is_ok_and(|t| t.is_dir())))
        .collect();
    entries.sort();
    for (path, is_dir) in entries {
        if is_dir {
            stat_tree(&path, depth - 1, hasher);
        } else {
            stat_into(&path, hasher);
        }
    }
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

/// `.git/HEAD`, and the ref it names (loose or in `packed-refs`), when `.git` exists.
fn git_head_into(root: &Path, hasher: &mut DefaultHasher) {
    let git = root.join(".git");
    let Ok(head) = std::fs::read_to_string(git.join("HEAD")) else {
        return;
    };
    head.hash(hasher);
    if let Some(reference) = head.trim().strip_prefix("ref: ") {
        std::fs::read(git.join(reference)).ok().hash(hasher);
        stat_into(&git.join("packed-refs"), hasher);
    }
}

fn read_cache(file: &Path, fingerprint: u64) -> Option<Vec<Printing>> {
    let bytes = std::fs::read(file).ok()?;
    let header = bytes.get(..HEADER_LEN)?;
    if header.get(..8)? != MAGIC.as_slice()
        || header.get(8..12)? != FORMAT_VERSION.to_le_bytes().as_slice()
        || header.get(12..20)? != fingerprint.to_le_bytes().as_slice()
    {
        return None;
    }
    postcard::from_bytes(bytes.get(HEADER_LEN..)?).ok()
}

/// Writes the cache through a temporary file renamed into place, so a reader never sees
/// half a file. Returns whether the cache now holds these printings.
fn write_cache(file: &Path, fingerprint: u64, printings: &[Printing]) -> bool {
    let Some(dir) = file.parent() else {
        return false;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    let Ok(body) = postcard::to_stdvec(printings) else {
        return false;
    };
    let mut bytes = Vec::with_capacity(HEADER_LEN + body.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&fingerprint.to_le_bytes());
    bytes.extend_from_slice(&body);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let temp = file.with_extension(format!("tmp-{}-{nanos}", std::process::id()));
    let written = std::fs::write(&temp, &bytes).is_ok() && std::fs::rename(&temp, file).is_ok();
    if !written {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Category, Names};

    fn printing(code: &str, number: &str) -> Printing {
        Printing {
            set_code: code.into(),
            set_id: code.to_lowercase(),
            number: number.into(),
            release_date: String::new(),
            series: String::new(),
            names: Names::default(),
            category: Category::Trainer,
            stage: None,
            evolves_from: None,
            types: Vec::new(),
            trainer: None,
            energy: None,
            ace_spec: false,
            radiant: false,
            prism_star: false,
            pokemon_star: false,
            regulation_mark: None,
            rules_text: String::new(),
        }
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

    #[test]
    fn cache_round_trip_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sub").join("c.postcard");
        let printings = vec![printing("TWM", "128")];
        assert!(write_cache(&file, 7, &printings));
        assert_eq!(read_cache(&file, 7), Some(printings));
        assert_eq!(read_cache(&file, 8), None);
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
        assert_eq!(read_cache(&file, 7), None);
        std::fs::write(&file, b"DBX").unwrap();
        assert_eq!(read_cache(&file, 7), None);
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
