//! `deckbox need`: what is still missing to build one or more decks from the cards a player
//! owns, the decks read and checked, the collection and price files read.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{Checked, read_and_check};
use crate::collection::need::{self, Need, Readiness, Shared};
use crate::collection::prices::{self, Prices};
use crate::collection::{self, Collection};
use crate::error::Error;
use crate::settings::Settings;

/// What `deckbox need` is asked, besides the settings.
pub struct NeedRequest<'a> {
    /// Deck files (`-` is standard input) or folders.
    pub decks: &'a [PathBuf],
    /// Collection files, added up.
    pub have: &'a [PathBuf],
    /// A collection given as its text (a list or a CSV export), added after the files and
    /// named `collection` in findings.
    pub have_text: Option<&'a str>,
    /// Count only the same printing (`--exact-printing`), not the reprint rule.
    pub exact: bool,
    /// A price list.
    pub prices: Option<&'a Path>,
    /// Given a folder, each deck in it on its own ([`Answer::EachDeck`]) instead of all
    /// the decks at once.
    pub each_deck: bool,
}

/// What the decks still need.
pub enum Answer {
    /// All the decks at once: their needs summed.
    Together(Need),
    /// A folder's decks, each on its own, and the owned cards several of them count.
    EachDeck(Vec<Readiness>, Vec<Shared>),
}

/// The decks, the collection and what is missing.
pub struct Needed<'s> {
    pub decks: Vec<Checked<'s>>,
    pub collection: Collection,
    pub prices: Option<Prices>,
    pub answer: Answer,
    /// Given a folder, when [`answer`](Self::answer) sums its decks (every output but the
    /// table): each deck on its own too, and the owned cards several of them count.
    pub each_deck: Option<(Vec<Readiness>, Vec<Shared>)>,
}

impl Needed<'_> {
    /// The decks as checked, in order.
    pub fn checked(&self) -> Vec<&crate::check::CheckedDeck> {
        self.decks.iter().map(|(_, _, deck)| deck).collect()
    }
}

/// Reads and checks the decks `request` names (a folder: each deck in it, as `check DIR`
/// finds them), reads the collection and the prices, and finds what is missing.
pub fn need<'s>(
    settings: &'s Settings,
    request: &NeedRequest,
    stdin: &mut dyn Read,
) -> Result<Needed<'s>, Error> {
    let folder = request.decks.iter().any(|path| path.is_dir());
    let files: Vec<PathBuf> = if folder {
        let selection = settings.selection().map_err(|error| Error::Usage {
            message: error.to_string(),
        })?;
        let walked = crate::settings::walk::deck_files(request.decks, &selection);
        if let Some(error) = walked.errors.first() {
            return Err(Error::Usage {
                message: error.clone(),
            });
        }
        walked.files.into_iter().map(|file| file.path).collect()
    } else {
        request.decks.to_vec()
    };
    let mut stdin_used = false;
    let mut decks: Vec<Checked> = Vec::new();
    for file in &files {
        decks.push(read_and_check(file, settings, stdin, &mut stdin_used)?);
    }
    let paths: Vec<&Path> = request.have.iter().map(PathBuf::as_path).collect();
    let mut collection = collection::read(&paths, &settings.db, &settings.format)?;
    if let Some(text) = request.have_text {
        if text.len() as u64 > collection::MAX_COLLECTION_BYTES {
            return Err(collection::CollectionError::Read {
                name: "collection".to_string(),
                reason: std::io::Error::other(format!(
                    "larger than {} MiB",
                    collection::MAX_COLLECTION_BYTES / 1024 / 1024
                )),
            }
            .into());
        }
        let file = collection::parse(
            "collection",
            text.as_bytes(),
            &settings.db,
            &settings.format,
        )?;
        collection.push(file);
    }
    let prices = match request.prices {
        Some(path) => Some(prices::read(path, &settings.db, &settings.format)?),
        None => None,
    };
    let judged: Vec<need::DeckIn> = decks
        .iter()
        .map(|(_, format, deck)| (deck, format.as_ref()))
        .collect();
    let (db, exact) = (&settings.db, request.exact);
    let each = || need::readiness(&judged, &collection, db, exact, prices.as_ref());
    let (answer, each_deck) = if folder && request.each_deck {
        let (ready, shared) = each();
        (Answer::EachDeck(ready, shared), None)
    } else {
        let together = need::need(&judged, &collection, db, exact, prices.as_ref());
        (Answer::Together(together), folder.then(each))
    };
    drop(judged);
    Ok(Needed {
        decks,
        collection,
        prices,
        answer,
        each_deck,
    })
}
