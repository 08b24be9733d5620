//! Where printings come from: the loaders of a TCGdex checkout ([`from_tcgdex`], with its
//! repairs) and of a pokemon-tcg-data checkout ([`from_pokemontcg`]), each bounded in all by
//! one [`budget`]; and the hand-checked flags every source gets ([`curated`]). A loader
//! reads a dataset into [`Printing`](crate::cards::model::Printing)s and their
//! [`Details`](crate::cards::model::details::Details); it does not index them (that is
//! [`crate::cards::database`]) nor cache them (that is [`crate::cards::storage`]). This
//! sub-wing uses only `cards::model` and must not know about deck lists or rules.

pub mod budget;
pub mod curated;
pub mod from_pokemontcg;
pub mod from_tcgdex;

use std::path::PathBuf;

/// What every printing of a set inherits from it, as the loaders read it.
#[derive(Debug, Clone)]
pub(crate) struct SetInfo {
    pub set_id: String,
    pub set_code: String,
    pub release_date: String,
    pub series: String,
}

/// Errors while loading a card database. Each names the file it is about.
#[derive(Debug, thiserror::Error)]
pub enum CardDbError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    /// The dataset holds more than deckbox loads (see [`budget`]).
    #[error("{path}: {message}")]
    TooLarge { path: PathBuf, message: String },
    #[error(
        "{path} is not a card database: expected a TCGdex checkout (data/<Serie>/<Set>/<id>.ts) or a pokemon-tcg-data checkout (sets/en.json, cards/en/*.json)"
    )]
    UnknownLayout { path: PathBuf },
}
