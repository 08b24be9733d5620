//! Exact opening-hand statistics against the reference values of the issue (60 cards,
//! hand 7, prizes 6; computed and cross-checked against published tables) and identities
//! that must hold for any deck.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use deckbox::formats::{Going, Setup};
use deckbox::stats::exact::{self, DeckShape, Family, Ratio, Window};
use deckbox::stats::query::{self, ResolvedQuery};
use deckbox::stats::{Report, ReportInput};

fn rules() -> Setup {
    Setup::default()
}

fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-6, "got {got}, want {want}");
}

fn exactly(got: Ratio, num: u128, den: u128) {
    assert_eq!((got.numer(), got.denom()), (num, den));
}

/// A 4-of (Basic or not) and the rest of a 60-card deck with `basics` Basic Pokémon in all.
fn deck_with_four(basics: u32, four_is_basic: bool) -> DeckShape {
    let other_basics = basics - if four_is_basic { 4 } else { 0 };
    DeckShape::new([
        (4, four_is_basic),
        (other_basics, true),
        (60 - 4 - other_basics, false),
    ])
}

fn mulligan(basics: u32) -> (Ratio, Ratio) {
    let shape = DeckShape::new([(basics, true), (60 - basics, false)]);
    let space = exact::kind_space(&shape, 0, &rules()).unwrap();
    (
        space.mulligan().unwrap(),
        space.expected_mulligans().unwrap(),
    )
}

#[test]
fn mulligan_probabilities() {
    let table = [
        (1, 0.883333),
        (4, 0.600500),
        (8, 0.346406),
        (10, 0.258629),
        (12, 0.190647),
        (15, 0.117501),
        (20, 0.048274),
    ];
    for (basics, want) in table {
        close(mulligan(basics).0.to_f64(), want);
    }
    let (q, expected) = mulligan(10);
    exactly(q, 75_670, 292_581);
    close(expected.to_f64(), 0.348853);
}

#[test]
fn non_basic_four_of_with_ten_basics() {
    let odds = exact::kind_odds(&deck_with_four(10, false), 0, &rules(), 4, Going::First).unwrap();
    close(odds.opening_hand.to_f64(), 0.376952);
    close(odds.opening_hand_single_shuffle.to_f64(), 0.399500);
    close(odds.prized_at_least_one.to_f64(), 0.354267);
    exactly(odds.prized_all, 405_438, 12_703_392_715);
    close(odds.prized_all.to_f64(), 3.19157e-5);
    exactly(odds.prized_all_single_shuffle, 1, 32_509);
    close(odds.prized_expected.to_f64(), 0.403686);
    close(odds.by_turn[0].to_f64(), 0.423974);
}

#[test]
fn basic_four_of_with_ten_basics() {
    let odds = exact::kind_odds(&deck_with_four(10, true), 0, &rules(), 4, Going::First).unwrap();
    close(odds.opening_hand.to_f64(), 0.538866);
    close(odds.prized_expected.to_f64(), 0.381570);
}

/// A: 4 Basic, B: 3 non-Basic, 6 other Basics, 47 other cards.
fn a_and_b() -> (DeckShape, ResolvedQuery) {
    let shape = DeckShape::new([(4, true), (3, false), (6, true), (47, false)]);
    let query = query::parse("A>=1 & B>=1").unwrap();
    let resolved = query
        .resolve(|name| Ok::<_, ()>(usize::from(name.text != "A")))
        .unwrap();
    (shape, resolved)
}

#[test]
fn joint_query_on_the_opening_hand() {
    let (shape, query) = a_and_b();
    let odds = query.odds(&shape, &rules(), 4, Going::First).unwrap();
    exactly(odds.hand, 11_011_691, 71_580_630);
    close(odds.hand.to_f64(), 0.153836);
    close(odds.hand_single_shuffle.to_f64(), 0.114050);
}

#[test]
fn single_card_query_equals_the_card_figures() {
    let shape = deck_with_four(10, false);
    let resolved = query::parse("Rare Candy >= 1")
        .unwrap()
        .resolve(|_| Ok::<_, ()>(0))
        .unwrap();
    let q = resolved.odds(&shape, &rules(), 4, Going::Second).unwrap();
    let card = exact::kind_odds(&shape, 0, &rules(), 4, Going::Second).unwrap();
    assert_eq!(q.hand, card.opening_hand);
    assert_eq!(q.prizes, card.prized_at_least_one);
    assert_eq!(q.by_turn, card.by_turn);
    assert_eq!(q.by_turn_single_shuffle, card.by_turn_single_shuffle);
}

#[test]
fn a_group_sums_its_names() {
    // Two 4-ofs as a group equal one 8-of.
    let split = DeckShape::new([(4, false), (4, false), (10, true), (42, false)]);
    let merged = DeckShape::new([(8, false), (10, true), (42, false)]);
    let group = query::parse("Nest Ball|Buddy-Buddy Poffin>=2").unwrap();
    let on_split = group
        .resolve(|n| Ok::<_, ()>(usize::from(n.text != "Nest Ball")))
        .unwrap();
    let on_merged = group.resolve(|_| Ok::<_, ()>(0)).unwrap();
    let a = on_split.odds(&split, &rules(), 3, Going::First).unwrap();
    let b = on_merged.odds(&merged, &rules(), 3, Going::First).unwrap();
    assert_eq!(a, b);
}

#[test]
fn both_players_have_seen_hand_plus_t_under_current_rules() {
    let shape = deck_with_four(10, false);
    let first = exact::kind_odds(&shape, 0, &rules(), 4, Going::First).unwrap();
    let second = exact::kind_odds(&shape, 0, &rules(), 4, Going::Second).unwrap();
    assert_eq!(first.by_turn, second.by_turn);
    // Seen by turn t on one shuffle is the hypergeometric of 7 + t cards.
    for (t, p) in first.by_turn_single_shuffle.iter().enumerate() {
        let m = 7 + t as u32 + 1;
        let none = Ratio::new(
            exact::binomial(56, m).unwrap(),
            exact::binomial(60, m).unwrap(),
        );
        close(1.0 - none.unwrap().to_f64(), p.to_f64());
    }
}

#[test]
fn skipping_the_first_draw_shifts_the_first_players_curve() {
    let shape = deck_with_four(10, false);
    let skip = Setup {
        first_player_draws: false,
        ..rules()
    };
    let first = exact::kind_odds(&shape, 0, &skip, 4, Going::First).unwrap();
    let second = exact::kind_odds(&shape, 0, &skip, 4, Going::Second).unwrap();
    assert_eq!(first.by_turn[1..], second.by_turn[..3]);
    // Turn 1 going first without a draw: only the hand.
    assert_eq!(first.by_turn[0], first.opening_hand);
}

fn add(a: Ratio, b: Ratio) -> Ratio {
    let num = a.numer() * b.denom() + b.numer() * a.denom();
    Ratio::new(num, a.denom() * b.denom()).unwrap()
}

#[test]
fn hand_count_distribution_sums_to_one() {
    for (basics, four_is_basic) in [(10, false), (10, true), (4, true), (20, false)] {
        let shape = deck_with_four(basics, four_is_basic);
        for window in [Window::Hand, Window::Prizes, Window::Seen { draws: 3 }] {
            for family in [Family::Kept, Family::SingleShuffle] {
                let dist = exact::count_distribution(&shape, 0, &rules(), window, family).unwrap();
                let sum = dist
                    .iter()
                    .fold(Ratio::new(0, 1).unwrap(), |a, &b| add(a, b));
                assert_eq!(sum, Ratio::new(1, 1).unwrap(), "{window:?} {family:?}");
            }
        }
    }
}

#[test]
fn with_fifty_four_basics_every_hand_is_kept() {
    for four_is_basic in [false, true] {
        let shape = deck_with_four(54 + u32::from(four_is_basic), four_is_basic);
        let odds = exact::kind_odds(&shape, 0, &rules(), 4, Going::First).unwrap();
        assert_eq!(odds.opening_hand, odds.opening_hand_single_shuffle);
        assert_eq!(odds.prized_all, odds.prized_all_single_shuffle);
        assert_eq!(odds.prized_expected, odds.prized_expected_single_shuffle);
        assert_eq!(odds.by_turn, odds.by_turn_single_shuffle);
    }
}

#[test]
fn expected_prizes_on_one_shuffle_is_copies_times_p_over_n() {
    for copies in 1..=4u32 {
        let shape = DeckShape::new([(copies, false), (12, true), (48 - copies, false)]);
        let odds = exact::kind_odds(&shape, 0, &rules(), 1, Going::First).unwrap();
        assert_eq!(
            odds.prized_expected_single_shuffle,
            Ratio::new(u128::from(copies) * 6, 60).unwrap()
        );
    }
}

#[test]
fn report_follows_the_setup_and_the_json_contract() {
    let shape = deck_with_four(10, false);
    let names = ["Rare Candy", "Dreepy", "Other"].map(String::from);
    let setup = Setup {
        hand_size: 8,
        prizes: 4,
        ..Setup::default()
    };
    let input = ReportInput {
        shape: &shape,
        names: &names,
        setup: &setup,
        turns: 3,
        going: Going::Second,
        queries: &[],
    };
    let report = Report::build(input).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    for key in ["deck", "mulligan", "cards", "queries", "simulation"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["deck"]["cards"], 60);
    assert_eq!(json["deck"]["basic_pokemon"], 10);
    assert_eq!(json["cards"][0]["by_turn"].as_array().unwrap().len(), 3);
    assert!(json["simulation"].is_null());
    // Hand 8: P(mulligan) = C(50, 8) / C(60, 8).
    let q = exact::binomial(50, 8).unwrap() as f64 / exact::binomial(60, 8).unwrap() as f64;
    close(report.mulligan.probability, q);
    // Prizes 4 on one shuffle: E = 4 · 4 / 60.
    close(report.cards[0].prized_expected_single_shuffle, 16.0 / 60.0);
    let total: f64 =
        report.mulligan.distribution.iter().sum::<f64>() + report.mulligan.distribution_rest;
    close(total, 1.0);
}

#[test]
fn a_query_over_many_names_stays_fast() {
    // Eight clauses over sixteen kinds and turn 10: still a small enumeration.
    let mut kinds: Vec<(u32, bool)> = (0..16).map(|i| (3, i % 3 == 0)).collect();
    kinds.push((4, true));
    kinds.push((60 - 52, false));
    let shape = DeckShape::new(kinds);
    let text = (0..8)
        .map(|i| format!("k{}|k{}>=1", 2 * i, 2 * i + 1))
        .collect::<Vec<_>>()
        .join(" & ");
    let resolved = query::parse(&text)
        .unwrap()
        .resolve(|n| n.text[1..].parse::<usize>().map_err(|_| ()))
        .unwrap();
    let start = std::time::Instant::now();
    let odds = resolved.odds(&shape, &rules(), 10, Going::First).unwrap();
    assert!(odds.by_turn[9].to_f64() > odds.hand.to_f64());
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn overlapping_clauses_agree_with_plain_enumeration() {
    // Kinds: A (3, Basic), B (4), C (2, Basic), other Basics 5, rest 46.
    let shape = DeckShape::new([(3, true), (4, false), (2, true), (5, true), (46, false)]);
    let text = "A|B>=2 & A<=1 & B|C=2 & C<2";
    let resolved = query::parse(text)
        .unwrap()
        .resolve(|n| Ok::<_, ()>(["A", "B", "C"].iter().position(|x| *x == n.text).unwrap()))
        .unwrap();
    // Every kind its own atom: the event is checked on whole compositions.
    let atoms = shape.kinds.iter().map(|k| exact::Atom {
        copies: k.copies,
        basic: k.basic,
    });
    let space = exact::Space::new(atoms.collect(), &rules()).unwrap();
    let event = |c: &[u32]| resolved.holds(|k| c[k]);
    let odds = resolved.odds(&shape, &rules(), 3, Going::First).unwrap();
    let windows = [
        (Window::Hand, Family::Kept, odds.hand),
        (
            Window::Hand,
            Family::SingleShuffle,
            odds.hand_single_shuffle,
        ),
        (Window::Prizes, Family::Kept, odds.prizes),
        (
            Window::Prizes,
            Family::SingleShuffle,
            odds.prizes_single_shuffle,
        ),
        (Window::Seen { draws: 3 }, Family::Kept, odds.by_turn[2]),
        (
            Window::Seen { draws: 3 },
            Family::SingleShuffle,
            odds.by_turn_single_shuffle[2],
        ),
    ];
    for (window, family, got) in windows {
        let want = space.probability(window, family, event).unwrap();
        assert_eq!(got, want, "{window:?} {family:?}");
        assert!(got.numer() > 0, "{window:?} {family:?}");
    }
}

#[test]
fn hostile_queries_are_errors_not_hangs() {
    // Eight clauses over the same kinds with large counts: the state space is bounded by
    // the budget, and a deck too large for 128-bit counts is refused.
    let shape = DeckShape::new([(40, true), (40, false), (20, true)]);
    let text = ["A|B>=1"; 8].join(" & ");
    let resolved = query::parse(&text)
        .unwrap()
        .resolve(|n| Ok::<_, ()>(usize::from(n.text == "B")))
        .unwrap();
    assert!(resolved.odds(&shape, &rules(), 4, Going::First).is_ok());
    let huge = DeckShape::new([(100_000, true), (100_000, false)]);
    let err = exact::kind_odds(&huge, 0, &rules(), 4, Going::First).unwrap_err();
    assert_eq!(err, exact::StatsError::TooLarge);
}

/// Distinct arrangements of a multiset (`copies[k]` of kind k), each once.
fn arrangements(copies: &[u32], visit: &mut dyn FnMut(&[usize])) {
    fn walk(
        left: &mut [u32],
        order: &mut Vec<usize>,
        size: usize,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        if order.len() == size {
            visit(order);
            return;
        }
        for kind in 0..left.len() {
            if left[kind] > 0 {
                left[kind] -= 1;
                order.push(kind);
                walk(left, order, size, visit);
                order.pop();
                left[kind] += 1;
            }
        }
    }
    let mut left = copies.to_vec();
    let size = left.iter().sum::<u32>() as usize;
    walk(&mut left, &mut Vec::new(), size, visit);
}

/// An oracle written apart from the engine's dynamic programme: every distinct arrangement
/// of a small deck (a multiset permutation, all equally likely), its windows read off by
/// position (hand first, then prizes, then the turn draws), counted; the kept-hand family is
/// the arrangements whose hand holds a Basic. Returns `(hits, arrangements)` per family.
fn arrangements_oracle(
    copies: &[(u32, bool)],
    rules: &Setup,
    mut event: impl FnMut(&[usize]) -> bool,
) -> [(u128, u128); 2] {
    let counts: Vec<u32> = copies.iter().map(|c| c.0).collect();
    let hand = rules.hand_size as usize;
    let (mut kept, mut all) = ((0u128, 0u128), (0u128, 0u128));
    arrangements(&counts, &mut |order: &[usize]| {
        let held = event(order);
        all.1 += 1;
        all.0 += u128::from(held);
        if order[..hand].iter().any(|&k| copies[k].1) {
            kept.1 += 1;
            kept.0 += u128::from(held);
        }
    });
    [kept, all]
}

fn reduced((num, den): (u128, u128)) -> (u128, u128) {
    let (mut a, mut b) = (num, den);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    (num / a.max(1), den / a.max(1))
}

/// Every form of the query language (`|` between terms, `!`, parentheses, name groups,
/// turns on some terms and not others) against the arrangement oracle, exactly: a 10-card
/// deck (hand 3, prizes 2), both players, with and without the first player's draw.
#[test]
fn the_query_language_agrees_with_every_arrangement() {
    // A: 2 Basic, B: 2, C: 1 Basic, D: 5.
    let copies = [(2, true), (2, false), (1, true), (5, false)];
    let shape = DeckShape::new(copies);
    let queries = [
        "A>=1 | B>=1",
        "!(A>=1 & B>=1)",
        "A|B>=2 & !C>=1",
        "(A>=1 | C>=1) & (B<=1 | D>=2)",
        "A==1 | B>2 | C<1",
        "A>=1 by T1 & B>=1 by T2",
        "C>=1 | B>=2 by T3",
        "!A>=2 by T2 & (D>=1 | B>=1 by T1)",
        "A|C>=2 by T2 | !D>=3 by T3",
    ];
    for (going, first_player_draws) in [
        (Going::First, false),
        (Going::First, true),
        (Going::Second, false),
    ] {
        let rules = Setup {
            hand_size: 3,
            prizes: 2,
            first_player_draws,
            ..Setup::default()
        };
        let hand = 3usize;
        let draws_start = 5usize;
        for text in queries {
            let resolved = query::parse(text)
                .unwrap()
                .resolve(|n| {
                    Ok::<_, ()>(
                        n.text
                            .bytes()
                            .next()
                            .map(|b| usize::from(b - b'A'))
                            .unwrap(),
                    )
                })
                .unwrap();
            let count_in = |cards: &[usize], term: &query::ResolvedTerm| {
                cards.iter().filter(|k| term.kinds.contains(k)).count() as u32
            };
            if resolved.has_turns() {
                let got = resolved.event(&shape, &rules, going).unwrap();
                let [kept, all] = arrangements_oracle(&copies, &rules, |order| {
                    resolved.holds_with(|_, term| {
                        let cards: Vec<usize> = match term.turn {
                            None => order[..hand].to_vec(),
                            Some(turn) => {
                                let draws = rules.draws_by_turn(turn, going) as usize;
                                let mut cards = order[..hand].to_vec();
                                cards.extend_from_slice(&order[draws_start..draws_start + draws]);
                                cards
                            }
                        };
                        count_in(&cards, term)
                    })
                });
                let (num, den) = reduced(kept);
                exactly(got.kept, num, den);
                let (num, den) = reduced(all);
                exactly(got.single_shuffle, num, den);
                assert!(
                    num > 0 && num < den,
                    "{text}: a query that never or always holds"
                );
                continue;
            }
            let odds = resolved.odds(&shape, &rules, 3, going).unwrap();
            let window = |order: &[usize], which: usize| -> Vec<usize> {
                match which {
                    0 => order[..hand].to_vec(),
                    1 => order[hand..draws_start].to_vec(),
                    turn => {
                        let draws = rules.draws_by_turn(turn as u32 - 1, going) as usize;
                        let mut cards = order[..hand].to_vec();
                        cards.extend_from_slice(&order[draws_start..draws_start + draws]);
                        cards
                    }
                }
            };
            let mut expected = vec![
                (0, odds.hand, odds.hand_single_shuffle),
                (1, odds.prizes, odds.prizes_single_shuffle),
            ];
            for turn in 1..=3usize {
                expected.push((
                    turn + 1,
                    odds.by_turn[turn - 1],
                    odds.by_turn_single_shuffle[turn - 1],
                ));
            }
            for (which, kept_got, all_got) in expected {
                let [kept, all] = arrangements_oracle(&copies, &rules, |order| {
                    let cards = window(order, which);
                    resolved.holds_with(|_, term| count_in(&cards, term))
                });
                let (num, den) = reduced(kept);
                assert_eq!(
                    (kept_got.numer(), kept_got.denom()),
                    (num, den),
                    "{text}, window {which}, kept, {going:?} {first_player_draws}"
                );
                let (num, den) = reduced(all);
                assert_eq!(
                    (all_got.numer(), all_got.denom()),
                    (num, den),
                    "{text}, window {which}, single shuffle"
                );
            }
        }
    }
}

/// `--exactly`: every card's P(exactly k copies) in the hand (kept and single shuffle), the
/// prizes and by each turn, and the Basic Pokémon of the kept hand, against the arrangement
/// oracle: exact to the last bit of an `f64` made from the oracle's fraction.
#[test]
fn distributions_agree_with_every_arrangement() {
    let copies = [(2, true), (2, false), (1, true), (5, false)];
    let shape = DeckShape::new(copies);
    let rules = Setup {
        hand_size: 3,
        prizes: 2,
        first_player_draws: false,
        ..Setup::default()
    };
    let names: Vec<String> = ["A", "B", "C", "D"].map(String::from).to_vec();
    let input = ReportInput {
        shape: &shape,
        names: &names,
        setup: &rules,
        turns: 3,
        going: Going::First,
        queries: &[],
    };
    let found = Report::distributions(input).unwrap();
    let as_f64 = |(num, den): (u128, u128)| {
        let (num, den) = reduced((num, den));
        exact::Ratio::new(num, den).unwrap().to_f64()
    };
    let (hand, draws_start) = (3usize, 5usize);
    for (kind, card) in found.cards.iter().enumerate() {
        assert_eq!(card.opening_hand.len(), copies[kind].0 as usize + 1);
        for k in 0..=copies[kind].0 as usize {
            let count = |cards: &[usize]| cards.iter().filter(|&&c| c == kind).count();
            let [kept, all] = arrangements_oracle(&copies, &rules, |o| count(&o[..hand]) == k);
            assert_eq!(card.opening_hand[k], as_f64(kept), "{kind} {k} hand");
            assert_eq!(card.opening_hand_single_shuffle[k], as_f64(all));
            let [kept, _] =
                arrangements_oracle(&copies, &rules, |o| count(&o[hand..draws_start]) == k);
            assert_eq!(card.prizes[k], as_f64(kept), "{kind} {k} prizes");
            for turn in 1..=3u32 {
                let draws = rules.draws_by_turn(turn, Going::First) as usize;
                let [kept, _] = arrangements_oracle(&copies, &rules, |o| {
                    count(&o[..hand]) + count(&o[draws_start..draws_start + draws]) == k
                });
                assert_eq!(
                    card.by_turn[turn as usize - 1][k],
                    as_f64(kept),
                    "{kind} {k} T{turn}"
                );
            }
        }
        let total: f64 = card.opening_hand.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
    assert_eq!(found.basics_in_kept_hand[0], 0.0);
    for b in 1..found.basics_in_kept_hand.len() {
        let [kept, _] = arrangements_oracle(&copies, &rules, |o| {
            o[..hand].iter().filter(|&&c| copies[c].1).count() == b
        });
        assert_eq!(found.basics_in_kept_hand[b], as_f64(kept), "{b} Basics");
    }
}

/// `a/b + c/d`, reduced.
fn add_fraction((a, b): (u128, u128), (c, d): (u128, u128)) -> (u128, u128) {
    reduced((a * d + c * b, b * d))
}

/// Mid-game odds (`deckbox odds`) against an oracle of two shuffles: every arrangement of
/// the unknown cards (the first `prizes` are the prizes), then every arrangement of the deck
/// left plus the cards shuffled back (the first `draws` are drawn), each stage's
/// arrangements equally likely.
#[test]
fn midgame_odds_agree_with_two_shuffles() {
    use deckbox::stats::midgame::Table;
    // Unknown: A 2, B 1, C 3; back: B 1, C 1.
    for (unknown, back, prizes, draws) in [
        (vec![2u32, 1, 3], vec![0u32, 0, 0], 2u32, 2u32),
        (vec![2, 1, 3], vec![0, 1, 1], 2, 3),
        (vec![1, 0, 4], vec![1, 1, 0], 3, 2),
    ] {
        let table = Table {
            unknown: unknown.clone(),
            back: back.clone(),
            prizes,
            draws,
        };
        let oracle = |event: &dyn Fn(&[usize], &[usize]) -> bool| -> (u128, u128) {
            let mut firsts = 0u128;
            arrangements(&unknown, &mut |_| firsts += 1);
            let mut total = (0u128, 1u128);
            arrangements(&unknown, &mut |first: &[usize]| {
                let prized = &first[..prizes as usize];
                let mut deck = back.clone();
                for &kind in &first[prizes as usize..] {
                    deck[kind] += 1;
                }
                let (mut hits, mut all) = (0u128, 0u128);
                arrangements(&deck, &mut |second: &[usize]| {
                    all += 1;
                    hits += u128::from(event(prized, &second[..draws as usize]));
                });
                total = add_fraction(total, (hits, all * firsts));
            });
            total
        };
        for (kind, &left) in unknown.iter().enumerate() {
            let figures = table.kind(kind).unwrap();
            let want = oracle(&|_, drawn| drawn.contains(&kind));
            exactly(figures.draw_at_least_one, want.0, want.1);
            if left > 0 {
                let want = oracle(&|prized, _| {
                    prized.iter().filter(|&&k| k == kind).count() == left as usize
                });
                exactly(figures.prized_all, want.0, want.1);
            }
        }
        for text in ["A>=1 | B>=1", "!(C>=2) & A<=1", "A|B>=2", "C==1 | A>1"] {
            let query = query::parse(text)
                .unwrap()
                .resolve(|n| Ok::<_, ()>(usize::from(n.text.as_bytes()[0] - b'A')))
                .unwrap();
            let got = table.query(&query).unwrap();
            let want = oracle(&|_, drawn| {
                query.holds(|k| drawn.iter().filter(|&&c| c == k).count() as u32)
            });
            assert_eq!(
                (got.numer(), got.denom()),
                want,
                "{text} {unknown:?} {back:?}"
            );
        }
    }
}

/// The library answers `stats`, `odds`, `--count-as` and `--vary` without the binary: a
/// checked deck becomes a `StatsDeck` whose names resolve in any language the card data
/// knows, and the builder's P(mulligan) is the report's.
#[test]
fn a_stats_deck_answers_without_the_binary() {
    use deckbox::stats::midgame::{self, MidGameRequest};
    use deckbox::stats::{RequestError, StatsDeck, StatsRequest, compare};
    use deckbox::util::progress::Quiet;
    let db = crate::oracles::embedded_db();
    let bytes = std::fs::read(crate::common::repo().join("examples/dragapult.txt")).unwrap();
    let format = deckbox::formats::Format::load("standard").unwrap();
    let input = deckbox::deck::DeckInput::from_bytes("dragapult.txt", &bytes);
    let checked = deckbox::check::check(&input, db, &format);
    let deck = StatsDeck::from_checked(&checked, db).unwrap();
    let dreepy = deck.kind_of("Dreepy").unwrap();
    assert_eq!(
        deck.kind_of("Fantyrm"),
        Some(dreepy),
        "French, through the card data"
    );
    assert_eq!(
        deck.not_in_deck("Dreepi"),
        "'Dreepi' is not in this deck (did you mean 'Dreepy'?)"
    );
    let setup = &format.setup;
    let report = deck
        .report(&StatsRequest::new(setup, 4, Going::First), &Quiet)
        .unwrap();
    let mulligan = deck.mulligan(setup).unwrap();
    assert_eq!(report.mulligan.probability, mulligan.probability);
    let (want, count_as) = (
        ["Dreepy>=1".to_string()],
        ["Buddy-Buddy Poffin=Basic Pokémon".to_string()],
    );
    let request = MidGameRequest {
        seen: "2 Dreepy",
        shuffle_back: None,
        prizes: 6,
        draws: 1,
        want: &want,
        count_as: &count_as,
    };
    let odds = midgame::odds(&deck, &request).unwrap();
    assert_eq!((odds.cards, odds.known, odds.unknown), (60, 2, 58));
    let card = odds.per_card.iter().find(|card| card.name == "Dreepy");
    assert_eq!(card.map(|card| card.unknown), Some(2));
    let labels: Vec<&str> = odds.queries.iter().map(|q| q.query.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Dreepy>=1",
            "Dreepy>=1 [counting Buddy-Buddy Poffin as Basic Pokémon]"
        ]
    );
    assert!(odds.queries[1].probability > odds.queries[0].probability);
    let itself = compare::vary(
        &deck,
        &StatsRequest::new(setup, 4, Going::First),
        "Dreepy=1..2:Fantyrm",
    );
    assert!(
        matches!(&itself, Err(RequestError::Usage(message)) if message == "--vary: a card cannot be traded against itself"),
        "{itself:?}"
    );
}
