//! `deckbox check` over the files its operands name: every deck checked against its format
//! in parallel and its part of the report written as soon as its chunk is done
//! ([`check_files`]), or every deck judged in every listed format ([`everywhere()`]).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::chunks::{Streamed, in_chunks, plan_formats, read_file};
use super::pool::Pool;
use crate::check::everywhere::{self, Everywhere};
use crate::check::rules::Rule;
use crate::check::{self, CheckedDeck};
use crate::collection::{self, Collection, need};
use crate::deck::DeckInput;
use crate::deck::input::read_deck;
use crate::error::Error;
use crate::render::stream::{Piece, ReportWriter, Style};
use crate::settings::walk::{self, DeckFile, Selection, Walked};
use crate::settings::{FormatPlan, Settings};

/// What `deckbox check` is asked to do, besides the settings.
pub struct CheckRequest<'a> {
    /// Deck files and directories; `-` is standard input.
    pub operands: &'a [PathBuf],
    /// The output and its options.
    pub style: Style,
    /// `--have`: collection files each deck's missing cards are counted from.
    pub have: &'a [PathBuf],
    /// `--threads`: 0 is one per core.
    pub threads: usize,
}

/// What a `check` run found besides the report it wrote.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// What the walk found: its warnings and the files skipped.
    pub walked: Walked,
    /// Why files could not be checked: the walk's errors, then the files', in order.
    pub failures: Vec<String>,
    /// The collection of `--have`, whose files' findings the caller shows.
    pub collection: Option<Collection>,
    /// The event table's closing line (for CSV, shown on standard error).
    pub summary: String,
    /// Some deck breaks a rule.
    pub invalid: bool,
    /// When some deck names a card the index does not know: what the card data covers.
    pub coverage: Option<String>,
    /// The walk found no file and no error.
    pub nothing_found: bool,
}

/// Walks, reads, checks and reports every file `request` names in order, a chunk of files at
/// a time in parallel, writing each deck's part of the report to `out` as soon as its chunk
/// is done: memory stays flat in the number of files. A write error stops the run
/// (`deckbox check . | head`: the reader has seen enough); what it means for the exit code is
/// the writer's owner's call. An error is returned only before any file is checked.
pub fn check_files(
    settings: &Settings,
    request: &CheckRequest,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<CheckReport, Error> {
    let selection = settings.selection()?;
    let formats = plan_formats(settings, request.operands, &selection)?;
    let collection = if request.have.is_empty() {
        None
    } else {
        let paths: Vec<&Path> = request.have.iter().map(PathBuf::as_path).collect();
        Some(collection::read(&paths, &settings.db, &settings.format)?)
    };
    let pool = Pool::new(request.threads)?;
    let run = Run {
        operands: request.operands,
        selection: &selection,
        settings,
        formats: &formats,
        style: request.style,
        collection: collection.as_ref(),
        pool: &pool,
    };
    let (mut report, unknown) = run.check_all(stdin, out);
    if unknown {
        report.coverage = crate::cards::storage::embedded::coverage_hint(&settings.db);
    }
    report.collection = collection;
    Ok(report)
}

/// One `check` run over the files its operands name.
struct Run<'a> {
    operands: &'a [PathBuf],
    selection: &'a Selection,
    settings: &'a Settings,
    formats: &'a FormatPlan<'a>,
    style: Style,
    /// `--have`: the collection each deck's missing cards are counted from.
    collection: Option<&'a Collection>,
    /// `--threads N`: the pool to check on.
    pool: &'a Pool,
}

/// One file, checked by a worker thread.
enum Done {
    /// Its part of the report, rendered where it was checked (the deck is dropped there).
    Piece {
        piece: Piece,
        valid: bool,
        unknown: bool,
    },
    /// The deck, for a report whose pieces number the decks (SARIF): rendered in order, once
    /// the decks before it are counted (a file that cannot be read takes no number).
    Deck(Box<(CheckedDeck, Option<u64>)>),
    /// Why it could not be checked.
    Failed(String),
}

/// Whether `deck` names a card the index does not know.
fn names_unknown_card(deck: &CheckedDeck) -> bool {
    (deck.diagnostics.iter()).any(|found| found.rule == Rule::UnknownCard)
}

impl Run<'_> {
    /// See [`check_files`]; with whether some deck names a card the index does not know.
    fn check_all(&self, stdin: &mut dyn Read, out: &mut dyn Write) -> (CheckReport, bool) {
        let mut report = CheckReport::default();
        let mut failures = Vec::new();
        let Ok(mut writer) = ReportWriter::begin_with(out, self.style, self.collection.is_some())
        else {
            return (report, false);
        };
        let numbered = Piece::numbered(self.style.output);
        let work = |file: &DeckFile, ready: Option<Result<DeckInput, Error>>| {
            let (deck, missing) = match self.check(file, ready) {
                Ok(checked) => checked,
                Err(error) => return Done::Failed(error.to_string()),
            };
            if numbered {
                return Done::Deck(Box::new((deck, missing)));
            }
            let unknown = names_unknown_card(&deck);
            let piece = self.piece(&deck, 0, missing);
            Done::Piece {
                piece,
                valid: deck.valid(),
                unknown,
            }
        };
        let (mut invalid, mut unknown) = (false, false);
        let done = |chunk: Vec<Done>| {
            for done in chunk {
                let (piece, valid, names_unknown) = match done {
                    Done::Piece {
                        piece,
                        valid,
                        unknown,
                    } => (piece, valid, unknown),
                    Done::Deck(checked) => {
                        let (deck, missing) = *checked;
                        let piece = self.piece(&deck, writer.decks(), missing);
                        (piece, deck.valid(), names_unknown_card(&deck))
                    }
                    Done::Failed(message) => {
                        failures.push(message);
                        continue;
                    }
                };
                invalid |= !valid;
                unknown |= names_unknown;
                writer.push(piece)?;
            }
            Ok(())
        };
        let (streamed, written) = in_chunks(
            self.operands,
            self.selection,
            stdin,
            Some(self.pool),
            work,
            done,
        );
        let Streamed { walked, files } = streamed;
        let mut failures: Vec<String> = (walked.errors.iter().cloned()).chain(failures).collect();
        report.nothing_found = files == 0 && walked.errors.is_empty();
        if written.is_ok() {
            report.summary = writer.summary(failures.len(), walked.skipped_count);
            let _ = writer.finish(&failures, walked.skipped_count);
        }
        failures.shrink_to_fit();
        report.invalid = invalid;
        report.walked = walked;
        report.failures = failures;
        (report, unknown)
    }

    /// Reads and checks one file against its format, with its missing cards for `--have`.
    fn check(
        &self,
        file: &DeckFile,
        ready: Option<Result<DeckInput, Error>>,
    ) -> Result<(CheckedDeck, Option<u64>), Error> {
        let input = ready.unwrap_or_else(|| read_file(file))?;
        let planned = self.formats.format(file)?;
        let declared = self.settings.declared_format(&planned, &input)?;
        let format = declared.as_ref().unwrap_or(&planned);
        let deck = check::check(&input, &self.settings.db, format);
        let missing = self.collection.map(|collection| {
            let decks = [(&deck, format)];
            need::need(&decks, collection, &self.settings.db, false, None).missing()
        });
        Ok((deck, missing))
    }

    /// One deck's part of the report, the `index`-th deck.
    fn piece(&self, deck: &CheckedDeck, index: usize, missing: Option<u64>) -> Piece {
        Piece::render_with(deck, index, self.style, &self.settings.db, missing)
    }
}

/// `--format all` over the files `operands` name: each deck judged in every listed format
/// at its date.
#[derive(Debug, Default)]
pub struct AllFormats {
    /// What the walk found: its warnings, errors and the files skipped.
    pub walked: Walked,
    /// Each deck read, in order.
    pub decks: Vec<Everywhere>,
    /// Why files could not be read, in order.
    pub errors: Vec<String>,
}

impl AllFormats {
    /// A file could not be walked or read.
    pub fn failed(&self) -> bool {
        !self.walked.errors.is_empty() || !self.errors.is_empty()
    }

    /// Some deck is legal in no format.
    pub fn nowhere(&self) -> bool {
        (self.decks.iter()).any(|deck| deck.legal_in().is_empty())
    }
}

/// `--format all`: each deck `operands` name judged in every listed format at its date
/// (the settings' date, else the deck's own). The formats of one date are loaded once.
pub fn everywhere(
    settings: &Settings,
    operands: &[PathBuf],
    stdin: &mut dyn Read,
) -> Result<AllFormats, Error> {
    let walked = walk::deck_files(operands, &settings.selection()?);
    let mut formats_by_date = HashMap::new();
    let mut all = AllFormats::default();
    let mut stdin_used = false;
    for file in &walked.files {
        let judged = read_deck(&file.path, stdin, &mut stdin_used)
            .map_err(Error::from)
            .and_then(|input| {
                let date = settings.deck_date(&input)?;
                let formats = formats_by_date
                    .entry(date)
                    .or_insert_with(|| crate::settings::listed_formats_at(date));
                Ok(everywhere::judge(&input, date, formats, &settings.db))
            });
        match judged {
            Ok(deck) => all.decks.push(deck),
            Err(error) => all.errors.push(error.to_string()),
        }
    }
    all.walked = walked;
    Ok(all)
}
