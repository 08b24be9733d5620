//! Formats as data: each format is a TOML file under `formats/`, the rules only read it.
//!
//! A [`Format`] says how a deck is built (size, copy limit, tag limits). Files are strict:
//! an unknown key or a wrong type is an error pointing at the offending text. The formats
//! shipped with deckbox are compiled in; `--format path.toml` reads an organizer's own.
//! This module does not check decks (see [`crate::check`]).

use std::path::{Path, PathBuf};

pub mod rules;

use serde::{Deserialize, Serialize};

/// Formats compiled into the binary: `(id, file name, text)`.
const BUILTIN: &[(&str, &str, &str)] = &[(
    "unlimited",
    "formats/unlimited.toml",
    include_str!("../../formats/unlimited.toml"),
)];

/// A format: what decks must look like to be played in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Format {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub construction: Construction,
}

/// Deck-construction limits. Each rule of [`crate::check`] reads one of these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Construction {
    /// Exact number of cards (`deck-size`).
    pub deck_size: u32,
    /// Copies allowed per name, basic Energy excepted (`copy-limit`).
    pub copy_limit: u32,
    /// ACE SPEC cards allowed in total (`ace-spec-limit`).
    pub ace_spec_limit: u32,
    /// Copies allowed per Prism Star name (`prism-star-limit`).
    pub prism_star_copies: u32,
    /// Radiant Pokémon allowed in total (`radiant-limit`).
    pub radiant_limit: u32,
    /// Pokémon Star cards allowed in total (`gold-star-limit`).
    pub pokemon_star_limit: u32,
    /// Basic Pokémon required (`no-basic-pokemon`).
    pub min_basic_pokemon: u32,
}

/// A format file that could not be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum FormatError {
    #[error("unknown format '{name}'")]
    #[diagnostic(
        code(format),
        help(
            "known formats: {known}; or give the path of a format file (`--format my-format.toml`)"
        )
    )]
    Unknown { name: String, known: String },
    #[error("cannot read format file {path}: {source}")]
    #[diagnostic(code(format))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Invalid(Box<InvalidFormat>),
}

/// A format file whose text does not fit the schema, with the offending span.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("invalid format file {path}: {message}")]
#[diagnostic(code(format))]
pub struct InvalidFormat {
    pub path: PathBuf,
    pub message: String,
    #[source_code]
    pub source_code: miette::NamedSource<String>,
    #[label("{message}")]
    pub span: Option<miette::SourceSpan>,
}

impl Format {
    /// Ids of the formats compiled into deckbox.
    pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(id, _, _)| *id)
    }

    /// A built-in format by id, or a format file when `name` is a path (ends in `.toml` or
    /// names an existing file).
    pub fn load(name: &str) -> Result<Format, FormatError> {
        if let Some((_, file, text)) = BUILTIN.iter().find(|(id, _, _)| *id == name) {
            return Format::parse(Path::new(file), text);
        }
        let path = Path::new(name);
        if name.ends_with(".toml") || path.is_file() {
            let text = std::fs::read_to_string(path).map_err(|source| FormatError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            return Format::parse(path, &text);
        }
        Err(FormatError::Unknown {
            name: name.to_string(),
            known: Format::builtin_ids().collect::<Vec<_>>().join(", "),
        })
    }

    /// Parses a format file's text; `path` is only used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<Format, FormatError> {
        toml::from_str(text).map_err(|error| {
            FormatError::Invalid(Box::new(InvalidFormat {
                path: path.to_path_buf(),
                message: error.message().to_string(),
                source_code: miette::NamedSource::new(path.display().to_string(), text.to_string()),
                span: error.span().map(miette::SourceSpan::from),
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_formats_load() {
        for id in Format::builtin_ids() {
            let format = Format::load(id).unwrap();
            assert_eq!(format.id, id);
        }
    }

    #[test]
    fn unknown_keys_are_errors_with_a_span() {
        let text = "id = \"x\"\nname = \"X\"\ncolour = \"red\"\n[construction]\n";
        let error = Format::parse(Path::new("x.toml"), text).unwrap_err();
        let FormatError::Invalid(invalid) = error else {
            panic!("expected an invalid-file error");
        };
        let InvalidFormat { message, span, .. } = *invalid;
        assert!(message.contains("colour"), "{message}");
        let span = span.unwrap();
        assert_eq!(&text[span.offset()..span.offset() + span.len()], "colour");
    }

    #[test]
    fn unknown_format_names_the_known_ones() {
        let error = Format::load("modern").unwrap_err();
        assert!(error.to_string().contains("modern"));
        assert!(matches!(error, FormatError::Unknown { known, .. } if known.contains("unlimited")));
    }
}
