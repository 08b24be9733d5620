//! The sweep ([`ResolvedQuery::odds`], [`ResolvedQuery::event`]) against the dynamic
//! programme over atoms it replaced, kept for the tests only
//! ([`ResolvedQuery::odds_by_window`], [`ResolvedQuery::event_by_windows`]): random decks and
//! queries, every window (the hand, the prizes, every turn up to 30), both families, both
//! players, fractions compared exactly.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use super::*;

/// A small deterministic generator (xorshift64*).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n.max(1)
    }

    /// A random query over the kinds `A`.. of `kinds` kinds: up to `most` terms with one or
    /// two names, every comparison, counts 0 to 3, a turn up to `last` on some terms when
    /// `turns`, joined by `&`, `|`, `!` and parentheses.
    fn query(&mut self, kinds: u64, most: u64, turns: bool, last: u64) -> String {
        let terms = 1 + self.below(most);
        let mut text = String::new();
        for t in 0..terms {
            if t > 0 {
                text.push_str([" & ", " | "][self.below(2) as usize]);
            }
            if self.below(4) == 0 {
                text.push('!');
            }
            let name = |d: &mut Dice| char::from(b'A' + d.below(kinds) as u8).to_string();
            let mut names = name(self);
            if self.below(3) == 0 {
                names = format!("{names}|{}", name(self));
            }
            let cmp = [">=", "<=", "=", ">", "<"][self.below(5) as usize];
            let count = self.below(4);
            if self.below(4) == 0 && terms + t < 8 {
                text.push('(');
                text.push_str(&format!("{names}{cmp}{count} | "));
                let other = name(self);
                text.push_str(&format!("{other}>={})", 1 + self.below(2)));
            } else {
                text.push_str(&format!("{names}{cmp}{count}"));
            }
            if turns && self.below(3) > 0 {
                text.push_str(&format!(" by T{}", 1 + self.below(last)));
            }
        }
        text
    }

    /// A deck of `kinds` kinds of 1 to 5 copies (some Basic), other Basics and a filler.
    fn deck(&mut self, kinds: u64, filler: u64) -> Vec<(u32, bool)> {
        let mut copies: Vec<(u32, bool)> = (0..kinds)
            .map(|_| (1 + self.below(5) as u32, self.below(2) == 0))
            .collect();
        copies.push((1 + self.below(3) as u32, true));
        copies.push((8 + self.below(filler) as u32, false));
        copies
    }
}

fn resolve(text: &str) -> ResolvedQuery {
    parse(text)
        .unwrap()
        .resolve(|n| Ok::<_, ()>(usize::from(n.text.as_bytes()[0] - b'A')))
        .unwrap()
}

/// Whether the programme over atoms refused: past its budget or 128 bits.
fn beyond_the_oracle<T>(want: &Result<T, StatsError>) -> bool {
    matches!(
        want,
        Err(StatsError::TooComplex { .. }
            | StatsError::TooManyStates { .. }
            | StatsError::TooLarge)
    )
}

/// Runs `cases` random cases, queries of up to `most` terms, turns up to `last`; returns
/// how many were events (queries with turns).
fn differential(seed: u64, cases: u32, most: u64, last: u64, filler: u64) -> u32 {
    let mut dice = Dice(seed);
    let mut events = 0;
    for case in 0..cases {
        let kinds = 2 + dice.below(5);
        let copies = dice.deck(kinds, filler);
        let shape = DeckShape::new(copies.clone());
        let small = case % 2 == 0;
        let rules = Setup {
            hand_size: if small { 4 } else { 7 },
            prizes: if small { 2 } else { 6 },
            first_player_draws: dice.below(2) == 0,
            ..Setup::default()
        };
        let going = [Going::First, Going::Second][dice.below(2) as usize];
        let text = dice.query(kinds, most, case % 3 != 0, last);
        let resolved = resolve(&text);
        let cards = shape.cards();
        let room = cards - rules.hand_size - rules.prizes;
        if resolved.has_turns() {
            let last = resolved.last_turn().unwrap_or(0);
            if rules.draws_by_turn(last, going) > room {
                continue;
            }
            let got = resolved.event(&shape, &rules, going);
            let want = resolved.event_by_windows(&shape, &rules, going);
            if beyond_the_oracle(&want) {
                // The programme over atoms gives up (its budget, or 128 bits): the sweep
                // must still answer.
                assert!(got.is_ok(), "{text} {copies:?}: {got:?}");
                continue;
            }
            assert_eq!(got, want, "{text} {copies:?} {rules:?} {going:?}");
            events += 1;
        } else {
            let turns = (1 + dice.below(last) as u32).min(room);
            let got = resolved.odds(&shape, &rules, turns, going);
            let want = resolved.odds_by_window(&shape, &rules, turns, going);
            if beyond_the_oracle(&want) {
                assert!(got.is_ok(), "{text} {copies:?}: {got:?}");
                continue;
            }
            assert_eq!(got, want, "{text} {copies:?} {rules:?} {going:?}");
        }
    }
    events
}

/// 400 small cases: up to five terms, turns up to 8 (the hand, the prizes, every turn).
#[test]
fn the_sweep_agrees_with_the_programme_it_replaced() {
    let events = differential(0x5eed_0dd5, 400, 5, 8, 30);
    assert!(events > 150, "{events} events");
}

/// Many turns: queries without turns read at up to 30 turns (`--turns 30`), and events
/// whose terms close anywhere up to turn 30, on decks of up to 60 cards.
#[test]
fn the_sweep_agrees_over_thirty_turns() {
    let events = differential(0x7ab1_e5ee, 60, 4, 30, 50);
    assert!(events > 15, "{events} events");
}

/// The prize window alone, every comparison (`<`, `=`, `!` and groups), both families:
/// the sweep's prize batch against the programme's prize segment.
#[test]
fn prize_windows_agree_with_the_programme() {
    let mut dice = Dice(0x0094_12e5);
    for case in 0..200 {
        let kinds = 2 + dice.below(5);
        let copies = dice.deck(kinds, 30);
        let shape = DeckShape::new(copies.clone());
        let rules = Setup {
            hand_size: [7, 4, 5][case % 3],
            prizes: [6, 2, 4, 1][case % 4],
            ..Setup::default()
        };
        let text = dice.query(kinds, 6, false, 1);
        let resolved = resolve(&text);
        let got = resolved.odds(&shape, &rules, 1, Going::First).unwrap();
        let want = resolved.odds_by_window(&shape, &rules, 1, Going::First);
        let want = want.unwrap();
        assert_eq!(
            (got.prizes, got.prizes_single_shuffle),
            (want.prizes, want.prizes_single_shuffle),
            "{text} {copies:?} {rules:?}"
        );
    }
}

/// Eight terms of `>=2` read at every one of 30 turns (the case the dense sweep took
/// 28.7× a plain `stats` for) on a 60-card deck, and three terms over three turns up
/// to turn 29: the same fractions as the programme, window by window.
#[test]
fn eight_terms_over_thirty_turns_agree() {
    let mut kinds: Vec<(u32, bool)> = (0..8).map(|i| (3 + i % 2, i < 2)).collect();
    kinds.push((8, true));
    kinds.push((60 - 28 - 8, false));
    let shape = DeckShape::new(kinds);
    let rules = Setup::default();
    let eight = (0..8)
        .map(|i| format!("{}>=2", char::from(b'A' + i)))
        .collect::<Vec<_>>()
        .join(" & ");
    let resolved = resolve(&eight);
    let got = resolved.odds(&shape, &rules, 30, Going::Second).unwrap();
    let want = resolved.odds_by_window(&shape, &rules, 30, Going::Second);
    assert_eq!(got, want.unwrap());
    let event = (0..3)
        .map(|i| format!("{}>=1 by T{}", char::from(b'A' + i), 1 + 14 * i))
        .collect::<Vec<_>>()
        .join(" & ");
    let resolved = resolve(&event);
    let got = resolved.event(&shape, &rules, Going::First).unwrap();
    let want = resolved.event_by_windows(&shape, &rules, Going::First);
    assert_eq!(got, want.unwrap());
}
