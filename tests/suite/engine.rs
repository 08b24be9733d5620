//! The setup engine against the rulebooks and exact odds: errors instead of endless
//! mulligans, zones that partition one shuffle, simulation estimates within 5 standard errors
//! of the exact kept-hand values, reproducible seeds, and the two-player mulligan rules.

#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::sync::atomic::{AtomicU64, Ordering};

use deckbox::engine::{
    CountObserver, Dealer, EngineDeck, EngineError, Kind, Plan, TwoPlayerSetup, chunk_rng,
    extra_draws, run, simulate,
};
use deckbox::formats::{Going, Setup};

/// Release-mode runs (CI) do the full 10^7 setups; a debug `cargo test` does a tenth.
const SETUPS: u64 = if cfg!(debug_assertions) {
    1_000_000
} else {
    10_000_000
};

fn rules() -> Setup {
    Setup::default()
}

fn kind(copies: u32, basic: bool) -> Kind {
    Kind { copies, basic }
}

/// 60 cards: kind 0 = 10 Basic Pokémon, kind 1 = a non-Basic 4-of, kind 2 = 46 others.
fn ten_basics() -> EngineDeck {
    EngineDeck::new(&[kind(10, true), kind(4, false), kind(46, false)]).unwrap()
}

/// Asserts `estimate` is within 5 standard errors of `exact`.
fn assert_close(what: &str, estimate: f64, exact: f64, standard_error: f64) {
    let off = (estimate - exact).abs() / standard_error;
    assert!(
        off < 5.0,
        "{what}: estimate {estimate:.6}, exact {exact:.6}, {off:.2} standard errors off"
    );
}

fn assert_proportion(what: &str, count: u64, setups: u64, exact: f64) {
    let n = setups as f64;
    let standard_error = (exact * (1.0 - exact) / n).sqrt();
    assert_close(what, count as f64 / n, exact, standard_error);
}

/// Mean and standard error of the mean of a distribution given as counts per value.
fn mean_and_error(counts: &[u64]) -> (f64, f64) {
    let n: f64 = counts.iter().sum::<u64>() as f64;
    let values = || {
        counts
            .iter()
            .enumerate()
            .map(|(v, c)| (v as f64, *c as f64))
    };
    let mean = values().map(|(v, c)| v * c).sum::<f64>() / n;
    let variance = values().map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

#[test]
fn a_deck_without_basic_pokemon_is_an_error_not_an_endless_mulligan() {
    let deck = EngineDeck::new(&[kind(60, false)]).unwrap();
    let rules = rules();
    assert_eq!(
        Dealer::new(&deck, &rules, 4).err(),
        Some(EngineError::NoBasicPokemon)
    );
    let counts = simulate(&deck, &rules, 4, 1000, 1, 1, || {
        CountObserver::new(&deck, &rules, 4)
    });
    assert_eq!(counts.err(), Some(EngineError::NoBasicPokemon));
    let game = TwoPlayerSetup::deal(&deck, &ten_basics(), &rules, 4, &mut chunk_rng(1, 0));
    assert_eq!(game.err(), Some(EngineError::NoBasicPokemon));
}

#[test]
fn sizes_are_bounded() {
    assert!(matches!(
        EngineDeck::new(&[kind(1001, true)]),
        Err(EngineError::TooManyCards { cards: 1001 })
    ));
    let many = vec![kind(0, false); 65_536];
    assert!(matches!(
        EngineDeck::new(&many),
        Err(EngineError::TooManyKinds { .. })
    ));
    let small = EngineDeck::new(&[kind(5, true), kind(10, false)]).unwrap();
    assert!(matches!(
        Dealer::new(&small, &rules(), 4),
        Err(EngineError::TooFewCards {
            cards: 15,
            needed: 17
        })
    ));
    let no_hand = Setup {
        hand_size: 0,
        ..rules()
    };
    assert_eq!(
        Dealer::new(&ten_basics(), &no_hand, 4).err(),
        Some(EngineError::EmptyHand)
    );
}

#[test]
fn zones_are_disjoint_positions_of_one_shuffle() {
    let kinds = [
        kind(1, true),
        kind(3, true),
        kind(4, false),
        kind(2, false),
        kind(50, false),
    ];
    let deck = EngineDeck::new(&kinds).unwrap();
    let rules = rules();
    // Draw every card left after hand and prizes: the zones must hold the deck exactly.
    let draws = 60 - rules.hand_size - rules.prizes;
    let mut dealer = Dealer::new(&deck, &rules, draws).unwrap();
    let mut rng = chunk_rng(3, 0);
    let mut mulligans = 0;
    for _ in 0..2000 {
        let view = dealer.deal(&mut rng);
        mulligans += view.mulligans;
        assert_eq!(view.hand.len(), 7);
        assert_eq!(view.prizes.len(), 6);
        assert_eq!(view.draws.len(), draws as usize);
        assert!(view.hand.iter().any(|&k| deck.is_basic(k)));
        let mut seen = [0u32; 5];
        for &k in view.hand.iter().chain(view.prizes).chain(view.draws) {
            seen[usize::from(k)] += 1;
        }
        assert_eq!(seen, kinds.map(|k| k.copies));
    }
    assert!(
        mulligans > 0,
        "4 Basics in 60 mulligan about 60% of the time"
    );
}

/// Everything the counts say, for comparing two runs.
fn summary(counts: &CountObserver, kinds: u16, turns: u32) -> Vec<u64> {
    let mut out = vec![counts.setups()];
    out.extend_from_slice(counts.mulligan_distribution());
    for k in 0..kinds {
        out.extend([
            counts.opening_hand(k),
            counts.prized_at_least_one(k),
            counts.prized_all(k),
            counts.prized_total(k),
        ]);
        for turn in 1..=turns {
            for going in [Going::First, Going::Second] {
                out.push(counts.seen_by_turn(k, turn, going).unwrap());
            }
        }
    }
    out
}

#[test]
fn simulation_agrees_with_exact_kept_hand_odds() {
    let deck = ten_basics();
    let rules = rules();
    let counts = simulate(&deck, &rules, 4, SETUPS, 20_240_601, 0, || {
        CountObserver::new(&deck, &rules, 4)
    })
    .unwrap();
    assert_eq!(counts.setups(), SETUPS);
    let kept_first = counts.mulligan_distribution()[0];
    // P(mulligan) = C(50,7)/C(60,7) with 10 Basics; E[mulligans] = q/(1-q).
    let q = 75_670.0 / 292_581.0;
    assert_proportion("P(mulligan)", SETUPS - kept_first, SETUPS, q);
    let (mean, error) = mean_and_error(counts.mulligan_distribution());
    assert_close("E[mulligans]", mean, 0.348853, error);
    // The non-Basic 4-of.
    assert_proportion("kept hand >= 1", counts.opening_hand(1), SETUPS, 0.376952);
    assert_proportion(
        "prized >= 1",
        counts.prized_at_least_one(1),
        SETUPS,
        0.354267,
    );
    let (mean, error) = mean_and_error(&counts.prized_distribution(1));
    assert_close("E[#prized]", mean, 0.403686, error);
    assert_eq!(
        counts.prized_total(1) as f64 / SETUPS as f64,
        mean,
        "prized_total agrees with the distribution"
    );
    let seen = counts.seen_by_turn(1, 1, Going::First).unwrap();
    assert_proportion("seen by own turn 1 going first", seen, SETUPS, 0.423974);
    // Both players have seen 7 + T cards at their own turn T under the current rules.
    for turn in 1..=4 {
        assert_eq!(
            counts.seen_by_turn(1, turn, Going::First),
            counts.seen_by_turn(1, turn, Going::Second)
        );
    }
    assert_eq!(counts.seen_by_turn(1, 5, Going::First), None);
    assert_eq!(counts.seen_by_turn(1, 0, Going::First), None);
}

#[test]
fn a_first_player_who_skips_the_turn_one_draw_sees_one_card_fewer() {
    let deck = ten_basics();
    let rules = Setup {
        first_player_draws: false,
        ..rules()
    };
    let counts = simulate(&deck, &rules, 3, 200_000, 5, 1, || {
        CountObserver::new(&deck, &rules, 3)
    })
    .unwrap();
    let first = |turn| counts.seen_by_turn(1, turn, Going::First).unwrap();
    let second = |turn| counts.seen_by_turn(1, turn, Going::Second).unwrap();
    assert_eq!(first(1), counts.opening_hand(1));
    assert_eq!(first(2), second(1));
    assert_eq!(first(3), second(2));
    assert!(second(3) > first(3));
}

#[test]
fn same_seed_same_result_and_other_seeds_differ() {
    let deck = ten_basics();
    let rules = rules();
    let setups = 500_000;
    let counted = |seed, threads| {
        let counts = simulate(&deck, &rules, 4, setups, seed, threads, || {
            CountObserver::new(&deck, &rules, 4)
        })
        .unwrap();
        summary(&counts, 3, 4)
    };
    let two = counted(42, 2);
    assert_eq!(two, counted(42, 2));
    // Chunks are seeded by index, so counts do not even depend on the thread count.
    assert_eq!(two, counted(42, 1));
    assert_eq!(two, counted(42, 3));
    assert_ne!(two, counted(43, 2));
}

#[test]
fn progress_counts_every_setup() {
    let deck = ten_basics();
    let rules = rules();
    let progress = AtomicU64::new(0);
    let plan = Plan {
        turns: 2,
        setups: 300_001,
        seed: 9,
        threads: 2,
        progress: Some(&progress),
    };
    let counts = run(&deck, &rules, &plan, || {
        CountObserver::new(&deck, &rules, 2)
    })
    .unwrap();
    assert_eq!(counts.setups(), 300_001);
    assert_eq!(progress.load(Ordering::Relaxed), 300_001);
}

/// Rulebook (rulebook-en-sun-moon.txt, "Full details of taking a mulligan", step 3): "the
/// player who did not have to start over may draw a card for each extra mulligan their
/// opponent took. For example, if both players took 2 mulligans, and then Player A took 3
/// additional mulligans, Player B may draw up to 3 cards."
#[test]
fn extra_draws_follow_the_rulebook_example() {
    let rules = rules();
    // Player A: 2 + 3 mulligans; Player B: 2.
    assert_eq!(extra_draws(&rules, 2, 5), 3, "Player B");
    assert_eq!(extra_draws(&rules, 5, 2), 0, "Player A");
    let no_cancel = Setup {
        mutual_mulligans_cancel: false,
        ..rules.clone()
    };
    assert_eq!(extra_draws(&no_cancel, 2, 5), 5);
    let no_extra = Setup {
        mulligan_extra_draw: false,
        ..rules.clone()
    };
    assert_eq!(extra_draws(&no_extra, 2, 5), 0);
    assert_eq!(extra_draws(&no_extra, 0, 4), 0);
}

fn assert_game_is_consistent(game: &TwoPlayerSetup, deck: &EngineDeck, rules: &Setup) {
    for (player, opponent) in [(&game.first, &game.second), (&game.second, &game.first)] {
        assert_eq!(player.revealed.len() as u32, player.mulligans);
        for hand in &player.revealed {
            assert_eq!(hand.len(), 7);
            assert!(
                hand.iter().all(|&k| !deck.is_basic(k)),
                "a revealed hand has no Basic"
            );
        }
        assert!(!player.basics.is_empty());
        assert!(player.basics.iter().all(|&k| deck.is_basic(k)));
        assert_eq!(player.prizes.len(), 6);
        let earned = extra_draws(rules, player.mulligans, opponent.mulligans);
        assert_eq!(player.extra.len() as u32, earned);
        let mut copies = vec![0u32; deck.kinds()];
        let draws = player.draws.iter().map(|draw| draw.kind);
        for k in player
            .hand
            .iter()
            .chain(&player.prizes)
            .chain(&player.extra)
            .copied()
        {
            copies[usize::from(k)] += 1;
        }
        for k in draws {
            copies[usize::from(k)] += 1;
        }
        for (k, n) in copies.iter().enumerate() {
            assert!(*n <= deck.copies(k as u16), "kind {k} dealt {n} times");
        }
    }
}

#[test]
fn two_player_setups_draw_extra_cards_after_prizes() {
    // 3 Basics in 60 mulligan about 70% of the time, so unequal mulligans are common.
    let deck = EngineDeck::new(&[kind(3, true), kind(4, false), kind(53, false)]).unwrap();
    let rules = rules();
    let mut rng = chunk_rng(11, 0);
    let mut extra_seen = 0;
    for _ in 0..300 {
        let game = TwoPlayerSetup::deal(&deck, &deck, &rules, 3, &mut rng).unwrap();
        assert_game_is_consistent(&game, &deck, &rules);
        let (a, b) = (game.first.mulligans, game.second.mulligans);
        assert_eq!(game.first.extra.len() as u32, b.saturating_sub(a));
        extra_seen += game.first.extra.len() + game.second.extra.len();
        let turns: Vec<u32> = game.first.draws.iter().map(|d| d.turn).collect();
        assert_eq!(turns, [1, 2, 3]);
    }
    assert!(extra_seen > 0);
    let no_extra = Setup {
        mulligan_extra_draw: false,
        first_player_draws: false,
        ..rules.clone()
    };
    for _ in 0..300 {
        let game = TwoPlayerSetup::deal(&deck, &deck, &no_extra, 3, &mut rng).unwrap();
        assert_game_is_consistent(&game, &deck, &no_extra);
        assert!(game.first.extra.is_empty() && game.second.extra.is_empty());
        let turns: Vec<u32> = game.first.draws.iter().map(|d| d.turn).collect();
        assert_eq!(turns, [2, 3], "the first player skips the turn-1 draw");
        assert_eq!(game.second.draws.len(), 3);
    }
}

#[test]
fn a_seed_deals_the_same_game() {
    let deck = ten_basics();
    let rules = rules();
    let deal = |seed| TwoPlayerSetup::deal(&deck, &deck, &rules, 4, &mut chunk_rng(seed, 0));
    assert_eq!(deal(5).unwrap(), deal(5).unwrap());
    let games: Vec<_> = (0..8).map(|seed| deal(seed).unwrap()).collect();
    assert!(games.iter().any(|game| *game != games[0]));
}

/// Kinds with no copies add no card, so a deck padded past 64 kinds deals the same setups:
/// the general counting path (more than 64 kinds) must agree with the bitmask path exactly.
#[test]
fn both_counting_paths_agree() {
    let rules = rules();
    let mut kinds = vec![kind(2, true), kind(1, true), kind(4, false), kind(3, false)];
    kinds.extend((0..26).map(|_| kind(2, false)));
    let small = EngineDeck::new(&kinds).unwrap();
    kinds.extend((0..70).map(|_| kind(0, false)));
    let padded = EngineDeck::new(&kinds).unwrap();
    let count = |deck: &EngineDeck| {
        let counts = simulate(deck, &rules, 4, 300_000, 8, 2, || {
            CountObserver::new(deck, &rules, 4)
        })
        .unwrap();
        summary(&counts, 30, 4)
    };
    assert_eq!(count(&small), count(&padded));
}
