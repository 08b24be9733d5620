//! Two decks side by side (`deckbox stats A --compare B`) and one deck as a card's count
//! varies (`--vary "Rare Candy=2..4:Psychic Energy"`): the exact figures of [`Report`]s set
//! next to each other with their differences. Nothing here computes odds; it arranges
//! reports that [`Report::build`] made: [`decks`] and [`vary`] build them from
//! [`StatsDeck`]s, [`compare`] and [`Step::of`] set them side by side.

use serde::Serialize;

use super::deck::{RequestError, StatsDeck, StatsRequest};
use super::{EventStats, QueryStats, Report};

/// A figure of both decks and `b − a`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pair {
    pub a: f64,
    pub b: f64,
    pub difference: f64,
}

impl Pair {
    fn of(a: f64, b: f64) -> Pair {
        Pair {
            a,
            b,
            difference: b - a,
        }
    }
}

/// Two decks' figures side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The decks as named on the command line.
    pub a: String,
    pub b: String,
    pub cards: [u32; 2],
    pub basic_pokemon: [u32; 2],
    pub mulligan: Pair,
    /// Every card of either deck: A's in its order, then B's others.
    pub per_card: Vec<CardPair>,
    pub queries: Vec<QueryPair>,
    pub events: Vec<EventPair>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardPair {
    pub name: String,
    pub copies: [u32; 2],
    pub opening_hand: Pair,
    pub prized_at_least_one: Pair,
    /// Seen by own turn t, t = 1..=turns.
    pub by_turn: Vec<Pair>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryPair {
    pub query: String,
    pub opening_hand: Pair,
    pub prizes: Pair,
    pub by_turn: Vec<Pair>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventPair {
    pub query: String,
    pub probability: Pair,
}

/// `a` and `b` (reports of the same queries and turns) side by side. A card one deck does
/// not play has 0 copies and 0 chances there.
pub fn compare(a: &Report, b: &Report, names: [&str; 2]) -> Comparison {
    let mut per_card = Vec::new();
    let turns = a.setup.turns.max(b.setup.turns) as usize;
    let pairs = |x: &[f64], y: &[f64]| -> Vec<Pair> {
        (0..turns)
            .map(|t| {
                Pair::of(
                    x.get(t).copied().unwrap_or(0.0),
                    y.get(t).copied().unwrap_or(0.0),
                )
            })
            .collect()
    };
    let names_in_order = a.cards.iter().map(|card| &card.name).chain(
        b.cards
            .iter()
            .map(|card| &card.name)
            .filter(|name| !a.cards.iter().any(|card| &card.name == *name)),
    );
    for name in names_in_order {
        let left = a.cards.iter().find(|card| &card.name == name);
        let right = b.cards.iter().find(|card| &card.name == name);
        let value =
            |card: Option<&super::CardStats>, f: fn(&super::CardStats) -> f64| card.map_or(0.0, f);
        let label = left
            .or(right)
            .map_or_else(|| name.clone(), |c| c.label().into_owned());
        per_card.push(CardPair {
            name: label,
            copies: [left.map_or(0, |c| c.copies), right.map_or(0, |c| c.copies)],
            opening_hand: Pair::of(
                value(left, |c| c.opening_hand),
                value(right, |c| c.opening_hand),
            ),
            prized_at_least_one: Pair::of(
                value(left, |c| c.prized_at_least_one),
                value(right, |c| c.prized_at_least_one),
            ),
            by_turn: pairs(
                left.map_or(&[][..], |c| &c.by_turn),
                right.map_or(&[][..], |c| &c.by_turn),
            ),
        });
    }
    let queries = a
        .queries
        .iter()
        .zip(&b.queries)
        .map(|(x, y): (&QueryStats, &QueryStats)| QueryPair {
            query: x.query.clone(),
            opening_hand: Pair::of(x.opening_hand, y.opening_hand),
            prizes: Pair::of(x.prizes, y.prizes),
            by_turn: pairs(&x.by_turn, &y.by_turn),
        })
        .collect();
    let events = a
        .events
        .iter()
        .zip(&b.events)
        .map(|(x, y): (&EventStats, &EventStats)| EventPair {
            query: x.query.clone(),
            probability: Pair::of(x.probability, y.probability),
        })
        .collect();
    Comparison {
        a: names[0].to_string(),
        b: names[1].to_string(),
        cards: [a.deck.cards, b.deck.cards],
        basic_pokemon: [a.deck.basic_pokemon, b.deck.basic_pokemon],
        mulligan: Pair::of(a.mulligan.probability, b.mulligan.probability),
        per_card,
        queries,
        events,
    }
}

/// `deckbox stats A --compare B`: `b`'s report for the queries of `request` set beside `a`'s
/// (its [`StatsDeck::report`]), both under `request`'s setup; `labels` name the decks. A name
/// of `a` that `b` does not play counts 0 there.
pub fn decks(
    a: &StatsDeck<'_>,
    a_report: &Report,
    b: &StatsDeck<'_>,
    request: &StatsRequest<'_>,
    labels: [&str; 2],
) -> Result<Comparison, RequestError> {
    let queries = request
        .want
        .iter()
        .map(|text| {
            b.resolve_want_with(text, |name| {
                b.kinds_of(name)
                    .or_else(|| a.kinds_of(name).map(|_| Vec::new()))
            })
            .map(|query| (text.clone(), query))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (shape, names) = (b.shape(), b.names());
    let b_report = b.localized(request.input(&shape, &names, &queries))?;
    Ok(compare(a_report, &b_report, labels))
}

/// `deckbox stats --vary "Rare Candy=2..4:Psychic Energy"`: the report of `request` at each
/// count of one card, another card making up the difference.
pub fn vary(
    deck: &StatsDeck<'_>,
    request: &StatsRequest<'_>,
    spec: &str,
) -> Result<Variation, RequestError> {
    let queries = deck.wanted(request.want, request.count_as)?;
    let usage = |message: String| RequestError::Usage(format!("--vary: {message}"));
    let spec = parse_vary(spec).map_err(usage)?;
    let index = |name: &str| {
        deck.kind_of(name)
            .ok_or_else(|| usage(deck.not_in_deck(name)))
    };
    let (card, against) = (index(&spec.card)?, index(&spec.against)?);
    if card == against {
        return Err(usage("a card cannot be traded against itself".to_string()));
    }
    let kinds = deck.kinds();
    let copies = |kind: usize| kinds.get(kind).map_or(0, |k| k.copies);
    let (card_copies, against_copies) = (copies(card), copies(against));
    let (base, names) = (deck.shape(), deck.names());
    let mut steps = Vec::new();
    for count in spec.from..=spec.to {
        let traded = i64::from(against_copies) + i64::from(card_copies) - i64::from(count);
        let Ok(traded) = u32::try_from(traded) else {
            return Err(usage(format!(
                "{count} {} would need {} more {} than the deck's {against_copies}",
                spec.card, -traded, spec.against
            )));
        };
        let mut shape = base.clone();
        if let Some(kind) = shape.kinds.get_mut(card) {
            kind.copies = count;
        }
        if let Some(kind) = shape.kinds.get_mut(against) {
            kind.copies = traded;
        }
        let report = Report::build(request.input(&shape, &names, &queries))?;
        steps.push(Step::of(&report, card, count, traded));
    }
    let label = |kind: usize| {
        kinds
            .get(kind)
            .map_or_else(String::new, |k| k.local.clone())
    };
    Ok(Variation {
        card: label(card),
        against: label(against),
        steps,
    })
}

/// One deck as a card's count varies, another card making up the difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variation {
    /// The card whose count varies, and the card traded against it.
    pub card: String,
    pub against: String,
    pub steps: Vec<Step>,
}

/// The deck at one count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub copies: u32,
    pub against_copies: u32,
    pub mulligan: f64,
    /// The varied card in the opening hand and seen by each turn (kept hand).
    pub opening_hand: f64,
    pub by_turn: Vec<f64>,
    pub queries: Vec<QueryStats>,
    pub events: Vec<EventStats>,
}

impl Step {
    /// The step of `report`, the deck with `copies` of kind `card` and `against_copies` of
    /// the traded card.
    pub fn of(report: &Report, card: usize, copies: u32, against_copies: u32) -> Step {
        let stats = report.cards.get(card);
        Step {
            copies,
            against_copies,
            mulligan: report.mulligan.probability,
            opening_hand: stats.map_or(0.0, |c| c.opening_hand),
            by_turn: stats.map_or_else(Vec::new, |c| c.by_turn.clone()),
            queries: report.queries.clone(),
            events: report.events.clone(),
        }
    }
}

/// A `--vary` specification: `Card=FROM..TO:Against`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarySpec {
    pub card: String,
    pub from: u32,
    pub to: u32,
    pub against: String,
}

/// Most steps one `--vary` may ask for.
pub const MAX_STEPS: u32 = 61;

/// Reads `Rare Candy=2..4:Psychic Energy`.
pub fn parse_vary(text: &str) -> Result<VarySpec, String> {
    let shape =
        "expected `Card=FROM..TO:Card traded against it`, such as `Rare Candy=2..4:Psychic Energy`";
    let (card, rest) = text.split_once('=').ok_or(shape)?;
    let (range, against) = rest.split_once(':').ok_or(shape)?;
    let (from, to) = range.split_once("..").ok_or(shape)?;
    let number = |n: &str| {
        n.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{}` is not a count; {shape}", n.trim()))
    };
    let (from, to) = (number(from)?, number(to)?);
    if from > to {
        return Err(format!(
            "the range {from}..{to} is empty: write the smaller count first"
        ));
    }
    if to - from + 1 > MAX_STEPS {
        return Err(format!("at most {MAX_STEPS} steps"));
    }
    let (card, against) = (card.trim(), against.trim());
    if card.is_empty() || against.is_empty() {
        return Err(shape.to_string());
    }
    Ok(VarySpec {
        card: card.to_string(),
        from,
        to,
        against: against.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_vary;

    #[test]
    fn vary_specs() {
        let spec = parse_vary("Rare Candy=2..4:Psychic Energy").unwrap();
        assert_eq!(
            (spec.card.as_str(), spec.from, spec.to),
            ("Rare Candy", 2, 4)
        );
        assert_eq!(spec.against, "Psychic Energy");
        assert!(parse_vary(" Rare Candy = 0 .. 1 : Iono ").is_ok());
        assert!(
            parse_vary("Rare Candy=4..2:Iono")
                .unwrap_err()
                .contains("empty")
        );
        assert!(parse_vary("Rare Candy=2-4:Iono").is_err());
        assert!(
            parse_vary("Rare Candy=a..4:Iono")
                .unwrap_err()
                .contains("`a` is not a count")
        );
        assert!(parse_vary("=1..2:Iono").is_err());
        assert!(parse_vary("A=0..100:B").unwrap_err().contains("at most"));
    }
}
