//! Both players' setup, for showing a sample game (`deckbox sample`) and for tests of the
//! mulligan rules. Not the simulator's hot path: it keeps every revealed hand.
//!
//! Order, per the rulebook's "Full details of taking a mulligan": each player draws until a
//! hand holds a Basic Pokémon (a both-players mulligan is just both starting over, so each
//! player's mulligans are independent), both set their prize cards, then a player may draw a
//! card for each extra mulligan the opponent took — mulligans both took cancel out when the
//! format says so — and the game begins.

use super::deal::{Dealer, EngineRng};
use super::{EngineDeck, EngineError, Going, Setup};

/// A card drawn at the start of one of the player's own turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnDraw {
    /// The player's own turn number, from 1.
    pub turn: u32,
    pub kind: u16,
}

/// One player's side of a setup, as kinds of the player's deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSetup {
    pub going: Going,
    pub mulligans: u32,
    /// Each hand revealed and shuffled back, in order (`mulligans` of them).
    pub revealed: Vec<Vec<u16>>,
    /// The kept hand.
    pub hand: Vec<u16>,
    /// The Basic Pokémon of the kept hand: the cards that could go in play (Active and
    /// Bench); the player picks which.
    pub basics: Vec<u16>,
    pub prizes: Vec<u16>,
    /// Cards drawn for the opponent's extra mulligans, after the prizes were set ("may draw up
    /// to": this shows them all). Basic Pokémon among them may go onto the Bench too. Fewer
    /// than earned only when the deck runs out.
    pub extra: Vec<u16>,
    /// The cards drawn at the start of the player's first turns.
    pub draws: Vec<TurnDraw>,
}

/// A whole game's setup: the player going first and the player going second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoPlayerSetup {
    pub first: PlayerSetup,
    pub second: PlayerSetup,
}

/// A player's deck once the kept hand is drawn, waiting for prizes and draws.
struct Pending<'d> {
    dealer: Dealer<'d>,
    revealed: Vec<Vec<u16>>,
    hand: Vec<u16>,
    basics: Vec<u16>,
}

impl TwoPlayerSetup {
    /// Deals both players' setups and their draws for `turns` own turns each.
    pub fn deal(
        first: &EngineDeck,
        second: &EngineDeck,
        rules: &Setup,
        turns: u32,
        rng: &mut EngineRng,
    ) -> Result<TwoPlayerSetup, EngineError> {
        let first_hands = kept_hand(first, rules, rng)?;
        let second_hands = kept_hand(second, rules, rng)?;
        let first_mulligans = first_hands.revealed.len() as u32;
        let second_mulligans = second_hands.revealed.len() as u32;
        let first_extra = extra_draws(rules, first_mulligans, second_mulligans);
        let second_extra = extra_draws(rules, second_mulligans, first_mulligans);
        Ok(TwoPlayerSetup {
            first: finish(first_hands, rules, Going::First, first_extra, turns, rng),
            second: finish(second_hands, rules, Going::Second, second_extra, turns, rng),
        })
    }
}

/// Cards a player may draw for the opponent's mulligans: none when the format gives none, and
/// only the mulligans beyond the player's own when mutual mulligans cancel.
pub fn extra_draws(rules: &Setup, own: u32, opponent: u32) -> u32 {
    if !rules.mulligan_extra_draw {
        0
    } else if rules.mutual_mulligans_cancel {
        opponent.saturating_sub(own)
    } else {
        opponent
    }
}

fn kept_hand<'d>(
    deck: &'d EngineDeck,
    rules: &Setup,
    rng: &mut EngineRng,
) -> Result<Pending<'d>, EngineError> {
    let mut dealer = Dealer::new(deck, rules, 0)?;
    let mut revealed = Vec::new();
    loop {
        let hand = dealer.draw_hand(rng);
        let basics: Vec<u16> = hand
            .iter()
            .copied()
            .filter(|&kind| deck.is_basic(kind))
            .collect();
        if !basics.is_empty() {
            let hand = hand.to_vec();
            return Ok(Pending {
                dealer,
                revealed,
                hand,
                basics,
            });
        }
        revealed.push(hand.to_vec());
    }
}

fn finish(
    pending: Pending,
    rules: &Setup,
    going: Going,
    extra: u32,
    turns: u32,
    rng: &mut EngineRng,
) -> PlayerSetup {
    let Pending {
        mut dealer,
        revealed,
        hand,
        basics,
    } = pending;
    let hand_end = rules.hand_size as usize;
    let prize_end = hand_end + rules.prizes as usize;
    let prizes = dealer.draw_range(hand_end, prize_end, rng).to_vec();
    let extra = dealer
        .draw_range(prize_end, prize_end + extra as usize, rng)
        .to_vec();
    let draws_start = prize_end + extra.len();
    let count = rules.draws_by_turn(turns, going) as usize;
    // The first player who skips the turn-1 draw draws from turn 2 on.
    let first_turn = 1 + turns - rules.draws_by_turn(turns, going);
    let draws = dealer
        .draw_range(draws_start, draws_start + count, rng)
        .iter()
        .zip(first_turn..)
        .map(|(&kind, turn)| TurnDraw { turn, kind })
        .collect();
    PlayerSetup {
        going,
        mulligans: revealed.len() as u32,
        revealed,
        hand,
        basics,
        prizes,
        extra,
        draws,
    }
}
