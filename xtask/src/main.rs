//! deckbox's project tasks, run as `cargo xtask <task>`; not part of the shipped binary.
//!
//! `cargo xtask cards [TCGDEX_CHECKOUT [POKEMONTCG_CHECKOUT]]` regenerates the embedded card
//! index (`cards/index.tsv`, `cards/index.bin`, the card texts, `cards/details.bin`, and the
//! search columns, `cards/columns.bin`, and the word index of the texts, `cards/words.bin`) from a
//! TCGdex cards-database checkout (default: `../shared/data/tcgdex-repo`), taking the
//! fingerprints of rules text TCGdex lacks from pokemon-tcg-data (default:
//! `../shared/data/pokemontcg`; none when a TCGdex checkout alone is given).
//! `cargo xtask cards --from-tsv` rebuilds
//! `cards/index.bin`, the search columns and the word index from the committed `cards/index.tsv` and
//! `cards/details.bin` (after a change to name normalization, say; no dataset needed). Both are deterministic: the same input gives the same bytes, which
//! `tests/suite/card_index.rs` checks.
//!
//! `cargo xtask rules` writes `docs/rules.md` from the rule registry
//! (`src/check/rules/`); `tests/suite/readme.rs` checks the committed page is current.
//!
//! `cargo xtask dist` builds the release binary and writes the release archive,
//! `target/dist/deckbox-VERSION-TARGET.tar.gz`, and its `.sha256` (see [`dist`]).
//!
//! `cargo xtask wheel [--dev]` builds the Python wheel that holds the binary (maturin,
//! `pyproject.toml`) into `target/wheels` (see [`wheel`]); `--dev` with the dev profile.
//!
//! `cargo xtask web` builds deckbox's web page into `target/web` (see [`web`]).

mod dist;
mod web;
mod wheel;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use deckbox::cards::storage::committed_index;

const USAGE: &str = "usage: cargo xtask cards [TCGDEX_CHECKOUT [POKEMONTCG_CHECKOUT] | --from-tsv] | cargo xtask rules | cargo xtask dist | cargo xtask web | cargo xtask wheel [--dev]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["cards"] => cards(&default_checkout(), Some(&default_pokemontcg())),
        ["cards", "--from-tsv"] => from_tsv(),
        ["rules"] => rules(),
        ["dist"] => dist::dist(&root()),
        ["web"] => web::web(&root()),
        ["wheel"] => wheel::wheel(&root(), wheel::Profile::Release),
        ["wheel", "--dev"] => wheel::wheel(&root(), wheel::Profile::Dev),
        ["cards", checkout] if !checkout.starts_with('-') => cards(Path::new(checkout), None),
        ["cards", checkout, pokemontcg] if !checkout.starts_with('-') => {
            cards(Path::new(checkout), Some(Path::new(pokemontcg)))
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(summary) => {
            let _ = writeln!(std::io::stdout(), "{summary}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The repository root (the folder above `xtask/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

fn default_checkout() -> PathBuf {
    root().join("../shared/data/tcgdex-repo")
}

/// pokemon-tcg-data, for the fingerprints of rules text TCGdex lacks.
fn default_pokemontcg() -> PathBuf {
    root().join("../shared/data/pokemontcg")
}

fn rules() -> Result<String, String> {
    let page = deckbox::render::rules_reference::markdown();
    write(&root().join("docs/rules.md"), page.as_bytes())?;
    Ok(format!(
        "docs/rules.md: {} rules",
        deckbox::check::rules::Rule::ALL.len()
    ))
}

fn cards(checkout: &Path, pokemontcg: Option<&Path>) -> Result<String, String> {
    let generated =
        committed_index::generate(checkout, pokemontcg).map_err(|err| err.to_string())?;
    write(&root().join("cards/index.tsv"), generated.tsv.as_bytes())?;
    write(&root().join("cards/index.bin"), &generated.bin)?;
    write(&root().join("cards/details.bin"), &generated.details)?;
    write(&root().join("cards/columns.bin"), &generated.columns)?;
    let words = deckbox::cards::database::words::encode(&generated.details)
        .ok_or("the word index of the card texts could not be built")?;
    write(&root().join("cards/words.bin"), &words)?;
    let mut summary = format!(
        "cards/index.tsv, cards/index.bin, cards/details.bin, cards/columns.bin, cards/words.bin: {} printings ({} bytes binary, {} bytes of details, {} bytes of search columns, {} bytes of word index) from {}",
        generated.printings,
        generated.bin.len(),
        generated.details.len(),
        generated.columns.len(),
        words.len(),
        checkout.display()
    );
    for repaired in &generated.repairs {
        summary.push_str(&format!(
            "\nrepair {}: {} printings",
            repaired.rule, repaired.printings
        ));
    }
    for gap in &generated.text_gaps {
        summary.push_str(&format!(
            "\nno rules text in TCGdex: {} {} printings, {} repaired from pokemon-tcg-data",
            gap.missing, gap.kind, gap.repaired
        ));
    }
    for skipped in &generated.skipped {
        summary.push_str(&format!(
            "\nskipped {}: {}",
            skipped.path.display(),
            skipped.reason
        ));
    }
    Ok(summary)
}

fn from_tsv() -> Result<String, String> {
    let path = root().join("cards/index.tsv");
    let tsv = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let details_path = root().join("cards/details.bin");
    let details =
        std::fs::read(&details_path).map_err(|err| format!("{}: {err}", details_path.display()))?;
    // Both built before either is written: a failure leaves the committed pair as it was.
    let bin = committed_index::bin_from_tsv(&tsv).map_err(|err| err.to_string())?;
    let columns =
        committed_index::columns_from_tsv(&tsv, &details).map_err(|err| err.to_string())?;
    let words = deckbox::cards::database::words::encode(&details)
        .ok_or("the word index of cards/details.bin could not be built")?;
    write(&root().join("cards/index.bin"), &bin)?;
    write(&root().join("cards/columns.bin"), &columns)?;
    write(&root().join("cards/words.bin"), &words)?;
    Ok(format!(
        "cards/index.bin, cards/columns.bin, cards/words.bin: {}, {} and {} bytes from cards/index.tsv and cards/details.bin",
        bin.len(),
        columns.len(),
        words.len()
    ))
}

/// Writes through a temporary file and a rename, so a failed run leaves the old file.
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temp = path.with_extension("tmp");
    std::fs::write(&temp, bytes)
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(|err| format!("{}: {err}", path.display()))
}
