//! Why deckbox could not do its job, as one type ([`Error`]), and the exit codes that are
//! the tool's contract ([`Exit`]).
//!
//! Every library function that can fail for a reason a user must read returns [`Error`]
//! (or a narrower error that converts into it): a deck file that cannot be read, a format
//! or config file that cannot be used, a card database that cannot be opened, a `--want`
//! query that cannot be read, an edit that cannot be made. It is a `miette::Diagnostic`:
//! the binary renders it once, in one place. A deck that breaks a rule is not an error:
//! that is a finding ([`crate::check`]). This module renders nothing and decides no exit.

use std::path::PathBuf;

use crate::cards::CardDbError;
use crate::deck::input::ReadError;
use crate::engine::EngineError;
use crate::formats::FormatError;
use crate::stats::kinds::Unidentified;
use crate::stats::{QueryError, StatsError};
use crate::util::invalid_file::FileError;

/// How a run ends, as the process's exit code: the documented contract (README "Exit
/// codes"). Scripts and CI rely on the numbers; never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Exit {
    /// 0: every deck is valid (warnings allowed); nothing changed (`diff`); every file
    /// canonical (`fmt --check`).
    #[default]
    Clean = 0,
    /// 1: at least one deck breaks a rule; the decks differ (`diff`); some file is not
    /// canonical (`fmt --check`); no card matches the query (`search`).
    Findings = 1,
    /// 2: deckbox could not do its job: bad arguments, an unreadable file, an invalid card
    /// database or format file.
    Failed = 2,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// [`Exit::Findings`] when `found`, else [`Exit::Clean`].
    pub fn findings_if(found: bool) -> Exit {
        if found { Exit::Findings } else { Exit::Clean }
    }
}

/// Why deckbox could not do its job.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum Error {
    /// A deck list (or standard input) that could not be read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Read(#[from] ReadError),
    /// A collection or price file that could not be read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Collection(#[from] crate::collection::CollectionError),
    /// `add` or `remove` on a path that is no regular file.
    #[error(
        "cannot edit {name}: it is {kind}, not a file; add and remove edit a deck list file in place"
    )]
    NotEditable { name: String, kind: &'static str },
    /// A file that would be written back in another encoding than it was read in.
    #[error("{name} is not UTF-8 (it reads as {encoding}); {remedy}")]
    NotUtf8 {
        name: String,
        encoding: &'static str,
        remedy: String,
    },
    /// A format or config file that cannot be used.
    #[error(transparent)]
    #[diagnostic(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Format(#[from] FormatError),
    #[error(transparent)]
    Cards(#[from] CardDbError),
    /// `deckbox cards update` or `reset` that changed nothing.
    #[error(transparent)]
    Update(#[from] crate::cards::storage::update::UpdateError),
    /// An environment variable that is not UTF-8.
    #[error("{name} is not valid UTF-8 ({value}); unset it or give a format id or path")]
    EnvNotUtf8 { name: &'static str, value: String },
    /// `DECKBOX_AS_OF` or `DECKBOX_TODAY` that is not a date.
    #[error("{name} is not a date ({value}); write it as YYYY-MM-DD or unset it")]
    EnvNotDate { name: &'static str, value: String },
    /// A deck's `# deckbox:` line that cannot be used.
    #[error("{path}: {source}")]
    Declared {
        path: String,
        source: crate::deck::declared::DeclaredError,
    },
    #[error("the [files] globs of {path} cannot be used: {reason}", path = crate::util::escape::path_line(path))]
    Glob {
        path: PathBuf,
        reason: globset::Error,
    },
    /// A setting that failed, with where it was set (a config file line, a variable).
    #[error("{error}")]
    #[diagnostic(forward(error))]
    SetBy {
        setting: &'static str,
        /// Where it was set, as `deckbox config` says it (`deckbox.toml:3`, `DECKBOX_FORMAT`).
        origin: String,
        error: Box<Error>,
    },
    /// A deck whose lines could not all be identified, for statistics that need every card.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Unidentified(#[from] Unidentified),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Engine(#[from] EngineError),
    #[error("cannot compute statistics: {reason}")]
    Stats { reason: StatsError },
    /// A card list (`odds --seen`, `--shuffle-back`) that cannot be read or names a card
    /// not in the deck.
    #[error("{message}")]
    #[diagnostic(code(cards))]
    CardList {
        #[source_code]
        list: String,
        message: String,
        #[label]
        span: miette::SourceSpan,
    },
    /// A `--want` expression that cannot be read or names a card not in the deck.
    #[error("{message}")]
    #[diagnostic(code(want))]
    Query {
        #[source_code]
        query: String,
        message: String,
        #[label]
        span: miette::SourceSpan,
    },
    /// A `deckbox search` query that cannot be read: drawn with a caret under the mistake.
    #[error("{}", error.message)]
    Search {
        query: String,
        error: crate::search::SearchError,
    },
    /// An error that came after notes for standard error (the card database's warnings),
    /// which are shown first.
    #[error("{error}")]
    #[diagnostic(forward(error))]
    Noted { notes: String, error: Box<Error> },
    #[error("cannot write JSON: {reason}")]
    Json { reason: serde_json::Error },
    /// A deck list that formatting or conversion would damage (lines it cannot file).
    #[error("{name}: {reason}")]
    Refused { name: String, reason: String },
    /// A rule id `deckbox explain` does not know.
    #[error("unknown rule '{id}'{did_you_mean}\nknown rules: {known}")]
    UnknownRule {
        id: String,
        /// `; did you mean 'copy-limit'?`, or empty.
        did_you_mean: String,
        known: String,
    },
    /// A command `deckbox man` does not know.
    #[error("unknown command '{name}'\nknown commands: {known}")]
    UnknownCommand { name: String, known: String },
    /// Arguments that do not go together (what clap cannot say), or output the tool could
    /// not produce; `message` says which.
    #[error("{message}")]
    Usage { message: String },
}

impl Error {
    /// A `--want` query's error, with the query's text to underline.
    /// A card list's mistake, drawn under the item like a query's.
    pub fn card_list(list: &str, error: QueryError) -> Error {
        Error::CardList {
            list: list.to_string(),
            message: error.message,
            span: error.span,
        }
    }

    pub fn query(query: &str, error: QueryError) -> Error {
        Error::Query {
            query: query.to_string(),
            message: error.message,
            span: error.span,
        }
    }
}

impl From<crate::edit::file::FileError> for Error {
    fn from(error: crate::edit::file::FileError) -> Error {
        use crate::edit::file::FileError;
        match error {
            FileError::NotEditable { name, kind } => Error::NotEditable { name, kind },
            FileError::NotUtf8 {
                name,
                encoding,
                remedy,
            } => Error::NotUtf8 {
                name,
                encoding,
                remedy,
            },
            FileError::Refused { name, reason } => Error::Refused { name, reason },
            FileError::Misuse(message) => Error::Usage {
                message: message.to_string(),
            },
        }
    }
}

impl Error {
    /// This error after `notes` (the card database's warnings); as it is when there are none.
    pub fn noted(self, notes: &str) -> Error {
        if notes.is_empty() {
            return self;
        }
        Error::Noted {
            notes: notes.to_string(),
            error: Box::new(self),
        }
    }
}

impl From<StatsError> for Error {
    fn from(reason: StatsError) -> Error {
        Error::Stats { reason }
    }
}

impl From<crate::stats::RequestError> for Error {
    fn from(error: crate::stats::RequestError) -> Error {
        use crate::stats::RequestError;
        match error {
            RequestError::Unidentified(error) => Error::Unidentified(error),
            RequestError::Stats(reason) => Error::Stats { reason },
            RequestError::Engine(error) => Error::Engine(error),
            RequestError::Query { text, error } => Error::query(&text, error),
            RequestError::CardList { list, error } => Error::card_list(&list, error),
            RequestError::Usage(message) => Error::Usage { message },
        }
    }
}
