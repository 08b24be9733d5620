//! The game-setup engine: one model of the rulebooks' setup, shared by the simulator, by
//! `deckbox sample` and by tests.
//!
//! A deck is a list of card kinds ([`Kind`]: copies, Basic Pokémon or not); the engine deals
//! with kind indices and never sees card names. [`Dealer`] runs one player's setup (shuffle,
//! hand, mulligans, prizes, turn draws) as a cheap [`SetupView`]; [`simulate`] runs millions of
//! them over threads into an [`Observer`]; [`TwoPlayerSetup`] deals a whole game's setup for
//! display. Every number (hand size, prizes, who draws on turn 1) comes from the format's
//! [`Setup`], read from the format file. This module computes no exact odds (see `stats`),
//! never prints, and never loops forever: a deck that could never keep a hand is an error.

mod count;
mod deal;
mod game;
mod simulate;

pub use count::CountObserver;
pub use deal::{Dealer, EngineRng, SetupView, chunk_rng};
pub use game::{PlayerSetup, TurnDraw, TwoPlayerSetup, extra_draws};
pub use simulate::{CHUNK_SETUPS, Observer, Plan, run, simulate};

use crate::formats::{Going, Setup};

/// Most cards a deck may have: bounds the work of one setup and fits kinds in `u16`.
pub const MAX_CARDS: u64 = 1_000;
/// Most kinds a deck may have (kind indices are `u16`).
pub const MAX_KINDS: usize = 65_535;
/// Most own turns of draws `deckbox stats --turns` follows.
pub const MAX_TURNS: u32 = 30;

/// One kind of card: all copies of it are interchangeable for the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    pub copies: u32,
    /// A Basic Pokémon: a hand with one is kept, and it may be put in play at setup.
    pub basic: bool,
}

/// Why the engine cannot deal a deck.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum EngineError {
    #[error("the deck has {cards} cards; the engine handles at most {max}", max = MAX_CARDS)]
    #[diagnostic(code(engine))]
    TooManyCards { cards: u64 },
    #[error("the deck has {kinds} different cards; the engine handles at most {max}", max = MAX_KINDS)]
    #[diagnostic(code(engine))]
    TooManyKinds { kinds: usize },
    #[error("the deck has no Basic Pokémon, so every opening hand would be a mulligan")]
    #[diagnostic(
        code(engine),
        help("add Basic Pokémon: a legal deck needs at least one to start the game")
    )]
    NoBasicPokemon,
    #[error("the format's hand size is 0, so no opening hand could hold a Basic Pokémon")]
    #[diagnostic(code(engine))]
    EmptyHand,
    #[error("the deck has {cards} cards; this setup needs at least {needed}")]
    #[diagnostic(
        code(engine),
        help("the hand, the prize cards and the turn draws must all come from the deck")
    )]
    TooFewCards { cards: usize, needed: u64 },
    #[error("cannot start {threads} simulation threads: {reason}")]
    #[diagnostic(code(engine), help("ask for fewer with `--threads N`"))]
    Threads { threads: usize, reason: String },
}

/// A deck as the engine sees it: one entry per card, holding its kind index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineDeck {
    /// Kind of each card, in kind order (the starting permutation).
    cards: Vec<u16>,
    /// Per kind: a Basic Pokémon.
    basic: Vec<bool>,
    /// Per kind: copies in the deck.
    copies: Vec<u32>,
}

impl EngineDeck {
    /// A deck from its kinds; the kind index is the position in `kinds`.
    pub fn new(kinds: &[Kind]) -> Result<EngineDeck, EngineError> {
        if kinds.len() > MAX_KINDS {
            return Err(EngineError::TooManyKinds { kinds: kinds.len() });
        }
        let total: u64 = kinds.iter().map(|kind| u64::from(kind.copies)).sum();
        if total > MAX_CARDS {
            return Err(EngineError::TooManyCards { cards: total });
        }
        let mut cards = Vec::with_capacity(total as usize);
        for (index, kind) in (0u16..).zip(kinds) {
            cards.extend(std::iter::repeat_n(index, kind.copies as usize));
        }
        Ok(EngineDeck {
            cards,
            basic: kinds.iter().map(|kind| kind.basic).collect(),
            copies: kinds.iter().map(|kind| kind.copies).collect(),
        })
    }

    /// Cards in the deck.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the deck has no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Number of kinds (including kinds with 0 copies).
    pub fn kinds(&self) -> usize {
        self.copies.len()
    }

    /// Copies of a kind (0 for an unknown index).
    pub fn copies(&self, kind: u16) -> u32 {
        self.copies.get(usize::from(kind)).copied().unwrap_or(0)
    }

    /// Whether a kind is a Basic Pokémon (false for an unknown index).
    pub fn is_basic(&self, kind: u16) -> bool {
        self.basic.get(usize::from(kind)).copied().unwrap_or(false)
    }

    /// Basic Pokémon cards in the deck.
    pub fn basic_cards(&self) -> u32 {
        self.copies
            .iter()
            .zip(&self.basic)
            .filter(|(_, basic)| **basic)
            .map(|(copies, _)| *copies)
            .sum()
    }

    /// The cards in kind order: the permutation every shuffle starts from.
    pub(crate) fn cards(&self) -> &[u16] {
        &self.cards
    }

    /// Per kind: whether it is a Basic Pokémon.
    pub(crate) fn basic_table(&self) -> &[bool] {
        &self.basic
    }

    /// Checks that a setup with `rules` and `draws` turn draws can be dealt from this deck.
    pub(crate) fn check_setup(&self, rules: &Setup, draws: u32) -> Result<(), EngineError> {
        if rules.hand_size == 0 {
            return Err(EngineError::EmptyHand);
        }
        if self.basic_cards() == 0 {
            return Err(EngineError::NoBasicPokemon);
        }
        let needed = u64::from(rules.hand_size) + u64::from(rules.prizes) + u64::from(draws);
        if needed > self.cards.len() as u64 {
            return Err(EngineError::TooFewCards {
                cards: self.cards.len(),
                needed,
            });
        }
        Ok(())
    }
}
