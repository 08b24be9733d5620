//! A TOML file deckbox reads strictly (a format file, `deckbox.toml`) that cannot be used:
//! one error type for every such file ([`FileError`]): unreadable, or its text does not fit
//! the schema ([`InvalidFile`], pointing at the offending span).

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A strictly read file (format file, `deckbox.toml`) that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read. `reason` is the whole cause: the message says it once,
    /// with no cause line repeating it.
    #[error("cannot read {kind} file {path}: {reason}")]
    Io {
        /// What the file is, as the message says it: `format`, `config`.
        kind: &'static str,
        path: PathBuf,
        reason: std::io::Error,
    },
    /// The file's text does not fit the schema.
    #[error(transparent)]
    Invalid(Box<InvalidFile>),
}

impl FileError {
    /// The file at `path` could not be read.
    pub(crate) fn io(kind: &'static str, path: &Path, reason: std::io::Error) -> FileError {
        FileError::Io {
            kind,
            path: path.to_path_buf(),
            reason,
        }
    }
}

impl From<InvalidFile> for FileError {
    fn from(invalid: InvalidFile) -> FileError {
        FileError::Invalid(Box::new(invalid))
    }
}

impl miette::Diagnostic for FileError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self {
            FileError::Io { kind, .. } => Some(Box::new(*kind)),
            FileError::Invalid(invalid) => invalid.code(),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self {
            FileError::Io { .. } => None,
            FileError::Invalid(invalid) => invalid.help(),
        }
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        match self {
            FileError::Io { .. } => None,
            FileError::Invalid(invalid) => invalid.source_code(),
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        match self {
            FileError::Io { .. } => None,
            FileError::Invalid(invalid) => invalid.labels(),
        }
    }
}

/// A strictly read file whose text does not fit the schema, with the offending span.
#[derive(Debug)]
pub struct InvalidFile {
    /// What the file is, as the message says it: `format`, `config`.
    pub kind: &'static str,
    pub path: PathBuf,
    pub message: String,
    pub source_code: miette::NamedSource<String>,
    pub span: Option<miette::SourceSpan>,
    /// What to write under the span: the message, or its first clause when it is long.
    pub label: String,
    pub help: Option<String>,
}

impl InvalidFile {
    pub(crate) fn new(
        kind: &'static str,
        path: &Path,
        text: &str,
        message: String,
        span: Option<Range<usize>>,
        label: String,
        help: Option<String>,
    ) -> InvalidFile {
        InvalidFile {
            kind,
            path: path.to_path_buf(),
            message,
            source_code: miette::NamedSource::new(path.display().to_string(), text.to_string()),
            span: span.map(miette::SourceSpan::from),
            label,
            help,
        }
    }

    /// From the TOML reader's error: its span, its message in plain words, and for an
    /// unknown key the nearest known one.
    pub(crate) fn from_toml(
        kind: &'static str,
        path: &Path,
        text: &str,
        error: &toml::de::Error,
    ) -> InvalidFile {
        let message = plain_types(error.message());
        let (label, help) = explain_unknown_key(&message);
        InvalidFile::new(kind, path, text, message, error.span(), label, help)
    }
}

impl fmt::Display for InvalidFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} file {}: {}",
            self.kind,
            self.path.display(),
            self.message
        )
    }
}

impl std::error::Error for InvalidFile {}

impl miette::Diagnostic for InvalidFile {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source_code)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.span?;
        let label = miette::LabeledSpan::new_with_span(Some(self.label.clone()), span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// Serde names Rust types in its messages; say what a file's author writes instead.
fn plain_types(message: &str) -> String {
    message
        .replace("expected u32", "expected a whole number")
        .replace("expected a boolean", "expected true or false")
        .replace("expected a string", "expected text in quotes")
        .replace("expected a sequence", "expected a list in brackets")
}

/// For serde's "unknown field `x`, expected one of `a`, `b`": a short label and a help
/// naming the nearest known key. Other messages label the span as they are.
fn explain_unknown_key(message: &str) -> (String, Option<String>) {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return (message.to_string(), None);
    };
    let Some((key, expected)) = rest.split_once('`') else {
        return (message.to_string(), None);
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let nearest = known
        .iter()
        .map(|candidate| (strsim::jaro_winkler(key, candidate), *candidate))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let list = known.join(", ");
    let help = match nearest {
        Some((_, name)) => format!("did you mean `{name}`? known keys here: {list}"),
        None => format!("known keys here: {list}"),
    };
    (format!("unknown key `{key}`"), Some(help))
}
