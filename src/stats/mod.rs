//! Opening-hand statistics: exact odds of a deck's setup and the report model behind every
//! `deckbox stats` output.
//!
//! [`exact`] computes probabilities as exact ratios of deal counts, in two families that
//! are always labelled and never mixed: *kept hand* (conditioned on the kept hand holding a
//! Basic Pokémon, what a player holds after mulligans) and *single shuffle* (the plain
//! hypergeometric of one shuffle). [`query`] reads and evaluates `--want` expressions.
//! [`Report`] gathers everything into one serializable value. [`kinds`] turns a checked deck
//! into the card kinds statistics count; [`deck`] makes a checked deck ready for statistics
//! ([`StatsDeck`]: kinds, the names queries use, the report); [`simulate`] runs the engine
//! for the report's simulated estimates. This module reads no files and renders nothing:
//! the caller hands it a checked deck and its card database, or a [`DeckShape`] with names,
//! and formatting floats is the renderer's job.

pub mod compare;
pub mod deck;
pub mod exact;
pub mod kinds;
pub mod midgame;
pub mod observer;
pub mod query;
pub mod simulate;

use std::collections::BTreeMap;

use serde::Serialize;

pub use deck::{RequestError, StatsDeck, StatsRequest};
pub use exact::{DeckShape, Family, KindOdds, KindShape, Ratio, StatsError, Window};
pub use query::{Query, QueryError, QueryOdds, ResolvedQuery};

use crate::formats::{Going, Setup};

/// Entries of the mulligan distribution: P(exactly k) for k = 0..MULLIGAN_BUCKETS; the rest
/// is `distribution_rest`.
pub const MULLIGAN_BUCKETS: usize = 10;

/// Everything `deckbox stats` shows, kept-hand values unless a key says single shuffle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub deck: DeckSummary,
    pub setup: SetupSummary,
    pub mulligan: Mulligan,
    pub cards: Vec<CardStats>,
    pub queries: Vec<QueryStats>,
    /// `--want` queries with a turn on some term: one probability each.
    pub events: Vec<EventStats>,
    /// `--exactly`: every card's exact count distributions; `None` unless asked for.
    pub distributions: Option<Distributions>,
    pub simulation: Option<Simulation>,
}

/// Exact count distributions (`deckbox stats --exactly`), kept-hand values unless a key says
/// single shuffle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distributions {
    /// P(exactly b Basic Pokémon in the kept hand), b = 0..=hand size (b = 0 is 0: a kept
    /// hand holds one).
    pub basics_in_kept_hand: Vec<f64>,
    /// Per card, in the order of `cards`.
    pub cards: Vec<CardDistribution>,
}

/// P(exactly k copies of one card), k = 0..=copies, in each window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardDistribution {
    pub name: String,
    pub opening_hand: Vec<f64>,
    pub opening_hand_single_shuffle: Vec<f64>,
    pub prizes: Vec<f64>,
    /// Per own turn t = 1..=turns: the distribution over the cards seen by its start.
    pub by_turn: Vec<Vec<f64>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeckSummary {
    pub cards: u32,
    pub basic_pokemon: u32,
}

/// The rules the numbers assume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetupSummary {
    pub hand_size: u32,
    pub prizes: u32,
    pub first_player_draws: bool,
    /// Whether the player going first may play a Supporter on turn 1, by the rulebook of
    /// the date judged; absent when the format's rules state none. The odds count draws,
    /// which the rule does not change; it is stated beside them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_turn_supporter: Option<bool>,
    pub going: Going,
    pub turns: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mulligan {
    /// P(a hand has no Basic Pokémon).
    pub probability: f64,
    pub expected_mulligans: f64,
    /// P(exactly k mulligans before the kept hand), k = 0..[`MULLIGAN_BUCKETS`].
    pub distribution: Vec<f64>,
    /// P([`MULLIGAN_BUCKETS`] mulligans or more).
    pub distribution_rest: f64,
}

/// One card name, all printings merged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardStats {
    /// The English name.
    pub name: String,
    /// The name in the list's language, when it is not English (`Fantyrm` for Dreepy): what
    /// the reports show. The caller sets it; [`Report::build`] leaves it `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_name: Option<String>,
    pub copies: u32,
    pub basic: bool,
    pub opening_hand: f64,
    pub opening_hand_single_shuffle: f64,
    pub prized_at_least_one: f64,
    pub prized_at_least_one_single_shuffle: f64,
    pub prized_all: f64,
    pub prized_all_single_shuffle: f64,
    pub prized_expected: f64,
    pub prized_expected_single_shuffle: f64,
    /// P(seen by own turn t), t = 1..=turns, for the chosen `going`.
    pub by_turn: Vec<f64>,
    pub by_turn_single_shuffle: Vec<f64>,
}

/// One `--want` expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryStats {
    pub query: String,
    pub opening_hand: f64,
    pub opening_hand_single_shuffle: f64,
    pub prizes: f64,
    pub prizes_single_shuffle: f64,
    pub by_turn: Vec<f64>,
    pub by_turn_single_shuffle: Vec<f64>,
}

/// One `--want` query with a turn on some term (`Dreepy>=1 & Rare Candy>=1 by T2`): the
/// probability that it holds, its terms without a turn counting the opening hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventStats {
    pub query: String,
    pub probability: f64,
    pub probability_single_shuffle: f64,
    /// The exact kept-hand value as a reduced fraction, `num/den`.
    pub fraction: String,
}

/// What a simulation run found; filled by the caller that ran it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Simulation {
    pub setups: u64,
    pub seed: u64,
    pub threads: u32,
    /// By what is measured and of which card or query; serialized by the key's text
    /// (`mulligan`, `opening_hand/Rare Candy`), in the order of that text.
    #[serde(serialize_with = "serialize_estimates")]
    pub estimates: Estimates,
}

/// Simulated estimates, by what they measure.
pub type Estimates = BTreeMap<EstimateKey, Estimate>;

/// What a simulated estimate measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Measure {
    /// P(mulligan), of the deck.
    Mulligan,
    /// E\[mulligans\], of the deck.
    ExpectedMulligans,
    /// A card in the opening hand.
    OpeningHand,
    /// At least one copy of a card prized.
    PrizedAtLeastOne,
    /// Every copy of a card prized.
    PrizedAll,
    /// E\[copies of a card prized\].
    PrizedExpected,
    /// A card seen by own turn `n` (1-based).
    ByTurn(u32),
    /// A `--want` query holding in the opening hand.
    QueryOpeningHand,
    /// A `--want` query holding in the prizes.
    QueryPrizes,
    /// A `--want` query holding in the cards seen by own turn `n`.
    QueryByTurn(u32),
    /// A `--want` query with turns holding.
    Event,
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Measure::Mulligan => f.write_str("mulligan"),
            Measure::ExpectedMulligans => f.write_str("expected_mulligans"),
            Measure::OpeningHand => f.write_str("opening_hand"),
            Measure::PrizedAtLeastOne => f.write_str("prized_at_least_one"),
            Measure::PrizedAll => f.write_str("prized_all"),
            Measure::PrizedExpected => f.write_str("prized_expected"),
            Measure::ByTurn(turn) => write!(f, "by_turn_{turn}"),
            Measure::QueryOpeningHand => f.write_str("query_opening_hand"),
            Measure::QueryPrizes => f.write_str("query_prizes"),
            Measure::QueryByTurn(turn) => write!(f, "query_by_turn_{turn}"),
            Measure::Event => f.write_str("event"),
        }
    }
}

/// What an estimate measures and of what: a card's English name, a query as written, or
/// nothing for the deck's mulligan figures.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EstimateKey {
    pub measure: Measure,
    pub subject: Option<String>,
}

impl EstimateKey {
    /// A figure of the whole deck.
    pub fn deck(measure: Measure) -> EstimateKey {
        EstimateKey {
            measure,
            subject: None,
        }
    }

    /// A figure of one card or query.
    pub fn of(measure: Measure, subject: &str) -> EstimateKey {
        EstimateKey {
            measure,
            subject: Some(subject.to_string()),
        }
    }
}

/// The key's text, the only one: `mulligan`, `opening_hand/Rare Candy`.
impl std::fmt::Display for EstimateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.subject {
            Some(subject) => write!(f, "{}/{subject}", self.measure),
            None => write!(f, "{}", self.measure),
        }
    }
}

/// The estimates in the order of their keys' text, as JSON and the renderers list them.
pub fn named_estimates(estimates: &Estimates) -> BTreeMap<String, &Estimate> {
    estimates
        .iter()
        .map(|(key, estimate)| (key.to_string(), estimate))
        .collect()
}

fn serialize_estimates<S: serde::Serializer>(
    estimates: &Estimates,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(named_estimates(estimates))
}

/// A simulated frequency next to the exact kept-hand value it estimates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub estimate: f64,
    pub standard_error: f64,
    pub exact: f64,
}

/// Longest name a report shows whole, in characters: card names are far shorter, and a
/// hostile database's 10 MB name must not pad every table row to its width.
pub const MAX_LABEL_CHARS: usize = 60;

impl CardStats {
    /// The name reports show: the list's own, else the English one, cut to
    /// [`MAX_LABEL_CHARS`] with `…`.
    pub fn label(&self) -> std::borrow::Cow<'_, str> {
        let name = self.local_name.as_deref().unwrap_or(&self.name);
        match name.char_indices().nth(MAX_LABEL_CHARS - 1) {
            Some((cut, _)) if name.chars().count() > MAX_LABEL_CHARS => {
                std::borrow::Cow::Owned(format!("{}…", name.get(..cut).unwrap_or(name)))
            }
            _ => std::borrow::Cow::Borrowed(name),
        }
    }
}

/// What [`Report::build`] needs: names parallel to `shape.kinds`, and the queries as typed
/// with their resolved form.
#[derive(Debug, Clone, Copy)]
pub struct ReportInput<'a> {
    pub shape: &'a DeckShape,
    pub names: &'a [String],
    pub setup: &'a Setup,
    pub turns: u32,
    pub going: Going,
    pub queries: &'a [(String, ResolvedQuery)],
}

impl Report {
    /// Computes every exact figure; `simulation` is `None`.
    pub fn build(input: ReportInput<'_>) -> Result<Report, StatsError> {
        let rules = input.setup;
        let shape = input.shape;
        let cards = input
            .names
            .iter()
            .enumerate()
            .map(|(index, name)| card_stats(input, rules, index, name))
            .collect::<Result<Vec<_>, _>>()?;
        let queries = input
            .queries
            .iter()
            .filter(|(_, query)| !query.has_turns())
            .map(|(text, query)| query_stats(input, rules, text, query))
            .collect::<Result<Vec<_>, _>>()?;
        let events = input
            .queries
            .iter()
            .filter(|(_, query)| query.has_turns())
            .map(|(text, query)| event_stats(input, rules, text, query))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Report {
            deck: DeckSummary {
                cards: shape.cards(),
                basic_pokemon: shape.basics(),
            },
            setup: SetupSummary {
                hand_size: rules.hand_size,
                prizes: rules.prizes,
                first_player_draws: rules.first_player_draws,
                first_turn_supporter: rules.first_turn_supporter,
                going: input.going,
                turns: input.turns,
            },
            mulligan: mulligan(shape, rules)?,
            cards,
            queries,
            events,
            distributions: None,
            simulation: None,
        })
    }

    /// Every card's exact count distributions and the Basic Pokémon of the kept hand.
    pub fn distributions(input: ReportInput<'_>) -> Result<Distributions, StatsError> {
        let rules = input.setup;
        let shape = input.shape;
        let space = basics_space(shape, rules)?;
        let basics_in_kept_hand = (0..=rules.hand_size.min(shape.basics()))
            .map(|b| {
                space
                    .probability(Window::Hand, Family::Kept, |c| c.first() == Some(&b))
                    .map(|p| p.to_f64())
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cards = input
            .names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                let of = |window, family| {
                    exact::count_distribution(shape, index, rules, window, family)
                        .map(|ratios| floats(&ratios))
                };
                let by_turn = (1..=input.turns)
                    .map(|t| {
                        let draws = rules.draws_by_turn(t, input.going);
                        of(Window::Seen { draws }, Family::Kept)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(CardDistribution {
                    name: name.clone(),
                    opening_hand: of(Window::Hand, Family::Kept)?,
                    opening_hand_single_shuffle: of(Window::Hand, Family::SingleShuffle)?,
                    prizes: of(Window::Prizes, Family::Kept)?,
                    by_turn,
                })
            })
            .collect::<Result<Vec<_>, StatsError>>()?;
        Ok(Distributions {
            basics_in_kept_hand,
            cards,
        })
    }
}

fn floats(ratios: &[Ratio]) -> Vec<f64> {
    ratios.iter().map(|r| r.to_f64()).collect()
}

/// The deck as two atoms, its Basic Pokémon and the rest: all the mulligan and the Basic
/// Pokémon of the hand depend on.
fn basics_space(shape: &DeckShape, rules: &Setup) -> Result<exact::Space, StatsError> {
    let basics = exact::Atom {
        copies: shape.basics(),
        basic: true,
    };
    let others = exact::Atom {
        copies: shape.cards().saturating_sub(shape.basics()),
        basic: false,
    };
    exact::Space::new(vec![basics, others], rules)
}

/// The mulligan count is geometric: P(k) = q^k (1 − q).
pub(crate) fn mulligan(shape: &DeckShape, rules: &Setup) -> Result<Mulligan, StatsError> {
    let space = basics_space(shape, rules)?;
    let q = space.mulligan()?.to_f64();
    let distribution = (0..MULLIGAN_BUCKETS)
        .map(|k| q.powi(k as i32) * (1.0 - q))
        .collect();
    Ok(Mulligan {
        probability: q,
        expected_mulligans: space.expected_mulligans()?.to_f64(),
        distribution,
        distribution_rest: q.powi(MULLIGAN_BUCKETS as i32),
    })
}

fn card_stats(
    input: ReportInput<'_>,
    rules: &Setup,
    index: usize,
    name: &str,
) -> Result<CardStats, StatsError> {
    let kind = input
        .shape
        .kinds
        .get(index)
        .ok_or(StatsError::UnknownKind { index })?;
    let odds = exact::kind_odds(input.shape, index, rules, input.turns, input.going)?;
    Ok(CardStats {
        name: name.to_string(),
        local_name: None,
        copies: kind.copies,
        basic: kind.basic,
        opening_hand: odds.opening_hand.to_f64(),
        opening_hand_single_shuffle: odds.opening_hand_single_shuffle.to_f64(),
        prized_at_least_one: odds.prized_at_least_one.to_f64(),
        prized_at_least_one_single_shuffle: odds.prized_at_least_one_single_shuffle.to_f64(),
        prized_all: odds.prized_all.to_f64(),
        prized_all_single_shuffle: odds.prized_all_single_shuffle.to_f64(),
        prized_expected: odds.prized_expected.to_f64(),
        prized_expected_single_shuffle: odds.prized_expected_single_shuffle.to_f64(),
        by_turn: floats(&odds.by_turn),
        by_turn_single_shuffle: floats(&odds.by_turn_single_shuffle),
    })
}

fn query_stats(
    input: ReportInput<'_>,
    rules: &Setup,
    text: &str,
    query: &ResolvedQuery,
) -> Result<QueryStats, StatsError> {
    let odds = query.odds(input.shape, rules, input.turns, input.going)?;
    Ok(QueryStats {
        query: text.to_string(),
        opening_hand: odds.hand.to_f64(),
        opening_hand_single_shuffle: odds.hand_single_shuffle.to_f64(),
        prizes: odds.prizes.to_f64(),
        prizes_single_shuffle: odds.prizes_single_shuffle.to_f64(),
        by_turn: floats(&odds.by_turn),
        by_turn_single_shuffle: floats(&odds.by_turn_single_shuffle),
    })
}

fn event_stats(
    input: ReportInput<'_>,
    rules: &Setup,
    text: &str,
    query: &ResolvedQuery,
) -> Result<EventStats, StatsError> {
    let odds = query.event(input.shape, rules, input.going)?;
    Ok(EventStats {
        query: text.to_string(),
        probability: odds.kept.to_f64(),
        probability_single_shuffle: odds.single_shuffle.to_f64(),
        fraction: odds.kept.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key text JSON writes, and its order: the text's, so `by_turn_10` comes before
    /// `by_turn_2` and a query's keys after every card's.
    #[test]
    fn estimates_serialize_by_key_text() {
        let e = |estimate| Estimate {
            estimate,
            standard_error: 0.0,
            exact: 0.0,
        };
        let estimates: Estimates = [
            (EstimateKey::of(Measure::QueryByTurn(1), "A>=1"), e(1.0)),
            (EstimateKey::of(Measure::ByTurn(2), "Ralts"), e(2.0)),
            (EstimateKey::of(Measure::ByTurn(10), "Ralts"), e(3.0)),
            (EstimateKey::deck(Measure::ExpectedMulligans), e(4.0)),
            (EstimateKey::of(Measure::PrizedAtLeastOne, "Ralts"), e(5.0)),
            (EstimateKey::deck(Measure::Mulligan), e(6.0)),
        ]
        .into();
        let simulation = Simulation {
            setups: 1,
            seed: 1,
            threads: 1,
            estimates,
        };
        let json = serde_json::to_string(&simulation).unwrap_or_default();
        let want = [
            "by_turn_10/Ralts",
            "by_turn_2/Ralts",
            "expected_mulligans",
            "mulligan",
            "prized_at_least_one/Ralts",
            "query_by_turn_1/A>=1",
        ];
        let at: Vec<Option<usize>> = want
            .iter()
            .map(|key| json.find(&format!("\"{key}\":")))
            .collect();
        assert!(at.iter().all(Option::is_some), "{json}");
        assert!(at.is_sorted(), "{json}");
        assert!(
            json.contains(r#""by_turn_2/Ralts":{"estimate":2.0,"#),
            "{json}"
        );
    }
}
