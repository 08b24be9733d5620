//! The six languages deckbox reads and writes, and their codes.
//!
//! Only a plain enum: what a language *means* for parsing (headers) or naming (suffixes,
//! owners) lives with the module that needs it.

use serde::{Deserialize, Serialize};

/// A language of printed cards and deck lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    Fr,
    Es,
    Pt,
    De,
    It,
}

impl Language {
    /// Every language, English first (the language rules compare names in).
    pub const ALL: [Language; 6] = [
        Language::En,
        Language::Fr,
        Language::Es,
        Language::Pt,
        Language::De,
        Language::It,
    ];

    /// The ISO 639-1 code, as used in card databases and on the command line.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
            Language::Es => "es",
            Language::Pt => "pt",
            Language::De => "de",
            Language::It => "it",
        }
    }

    /// Parses an ISO 639-1 code (`"fr"`), ignoring case and a region (`"es-mx"` is Spanish).
    pub fn from_code(code: &str) -> Option<Language> {
        let base = code.split(['-', '_']).next().unwrap_or(code);
        Language::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(base))
    }

    /// The language's name in English (`French`), for text read by English speakers.
    pub fn english_name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Fr => "French",
            Language::Es => "Spanish",
            Language::Pt => "Portuguese",
            Language::De => "German",
            Language::It => "Italian",
        }
    }

    /// Index into per-language arrays such as [`crate::cards::Names`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A regional edition of a language whose cards are named apart: TCGdex's `es-mx`, the
/// Latin-American Spanish cards (`Determinación de Lillie`, `Ultrabola`; Spain's are
/// `Determinación de Lylia`, `Ultra Ball`). Lists written there are in that language,
/// with these names. (TCGdex's other one, `pt-br`, names only TCG Pocket cards.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Region {
    EsMx,
}

impl Region {
    /// Every regional edition.
    pub const ALL: [Region; 1] = [Region::EsMx];

    /// The code TCGdex writes (`es-mx`).
    pub fn code(self) -> &'static str {
        match self {
            Region::EsMx => "es-mx",
        }
    }

    /// The language it is an edition of.
    pub fn language(self) -> Language {
        match self {
            Region::EsMx => Language::Es,
        }
    }

    /// Parses a code (`es-mx`, `ES_MX`), ignoring case.
    pub fn from_code(code: &str) -> Option<Region> {
        let code = code.replace('_', "-");
        Region::ALL
            .into_iter()
            .find(|region| region.code().eq_ignore_ascii_case(&code))
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
