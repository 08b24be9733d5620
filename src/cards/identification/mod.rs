//! Finding cards in a [`CardDb`](crate::cards::database::CardDb): the card a deck-list
//! line means ([`resolve`]: set code + number, then the name in any language, with
//! suggestions for an unknown name) and the cards a player's query names ([`lookup`], as
//! `deckbox card` and the builder read it). This sub-wing uses `cards::model` and
//! `cards::database`; it must not know about formats or how an answer is shown.

pub mod lookup;
pub mod resolve;
