//! A checked deck made ready for statistics ([`StatsDeck`]): its kinds, the names a
//! `--want` query, a `--count-as` rule or a card list may use for them, and the report of
//! `deckbox stats` built from them ([`StatsDeck::report`]). `stats`, `odds`, `sample` and the
//! builder start here, so they merge and name cards one way.
//!
//! It reads no files and opens no database: the caller hands it a checked deck and the
//! database it was checked against. Errors are values ([`RequestError`]), rendered by the
//! caller.

use crate::cards::CardDb;
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::engine::{EngineError, TwoPlayerSetup};
use crate::formats::{Going, Setup};

use super::kinds::{DeckKind, Unidentified, check_size, deck_kinds};
use super::query::{QueryError, ResolvedQuery};
use super::simulate::{SimulationPlan, engine_deck, simulate_report};
use super::{DeckShape, Report, ReportInput, StatsError};
use crate::util::progress::Progress;

/// Most sample setups [`StatsDeck::samples`] deals at once.
pub const MAX_SAMPLES: u32 = 1_000;

/// Why statistics could not be made of a deck, or a request of them not answered.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// A line of the deck was not identified: statistics need every card.
    #[error(transparent)]
    Unidentified(#[from] Unidentified),
    #[error(transparent)]
    Stats(#[from] StatsError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A `--want` expression that cannot be read or names a card not in the deck.
    #[error("{}", error.message)]
    Query { text: String, error: QueryError },
    /// A card list (`--count-as`, `odds --seen`) that cannot be read or names a card not
    /// in the deck, drawn under the item.
    #[error("{}", error.message)]
    CardList { list: String, error: QueryError },
    /// Counts or names that do not go together; the message says which.
    #[error("{0}")]
    Usage(String),
}

impl RequestError {
    fn query(text: &str, error: QueryError) -> RequestError {
        RequestError::Query {
            text: text.to_string(),
            error,
        }
    }

    pub(crate) fn card_list(list: &str, error: QueryError) -> RequestError {
        RequestError::CardList {
            list: list.to_string(),
            error,
        }
    }
}

/// A checked deck as statistics see it: every line identified, merged into kinds
/// ([`deck_kinds`]), with the database that names them in any language.
#[derive(Debug)]
pub struct StatsDeck<'db> {
    kinds: Vec<DeckKind>,
    db: &'db CardDb,
    /// Construction rules the deck breaks (findings of severity error).
    broken: usize,
}

/// What `deckbox stats` asks of one deck.
#[derive(Debug, Clone, Copy)]
pub struct StatsRequest<'a> {
    /// The format's setup the odds assume.
    pub setup: &'a Setup,
    pub turns: u32,
    pub going: Going,
    /// `--want` expressions, as written.
    pub want: &'a [String],
    /// `--count-as` rules, as written (`Nest Ball=Basic Pokémon`).
    pub count_as: &'a [String],
    /// Also every card's exact count distributions.
    pub exactly: bool,
    /// Also simulate this many setups with the engine.
    pub simulate: Option<Simulate>,
}

/// How `--simulate` runs: setups, the seed of the shuffles, threads (0: one per core).
#[derive(Debug, Clone, Copy)]
pub struct Simulate {
    pub setups: u64,
    pub seed: u64,
    pub threads: usize,
}

impl<'a> StatsRequest<'a> {
    /// What [`Report::build`] needs for `shape`, named `names`, with `queries`, under this
    /// request's setup, turns and going.
    pub fn input<'b>(
        &self,
        shape: &'b DeckShape,
        names: &'b [String],
        queries: &'b [(String, ResolvedQuery)],
    ) -> ReportInput<'b>
    where
        'a: 'b,
    {
        ReportInput {
            shape,
            names,
            setup: self.setup,
            turns: self.turns,
            going: self.going,
            queries,
        }
    }

    /// The plain report over `turns` of `going`: no query, no distribution, no simulation.
    pub fn new(setup: &'a Setup, turns: u32, going: Going) -> StatsRequest<'a> {
        StatsRequest {
            setup,
            turns,
            going,
            want: &[],
            count_as: &[],
            exactly: false,
            simulate: None,
        }
    }
}

impl<'db> StatsDeck<'db> {
    /// Refuses a deck too large for statistics ([`check_size`]) or with a line not
    /// identified ([`deck_kinds`]), then merges its lines into kinds.
    pub fn from_checked(deck: &CheckedDeck, db: &'db CardDb) -> Result<Self, RequestError> {
        check_size(deck)?;
        let kinds = deck_kinds(deck, db)?;
        Ok(StatsDeck {
            kinds,
            db,
            broken: deck.count(Severity::Error),
        })
    }

    /// The kinds, in order of first appearance.
    pub fn kinds(&self) -> &[DeckKind] {
        &self.kinds
    }

    pub fn into_kinds(self) -> Vec<DeckKind> {
        self.kinds
    }

    /// Construction rules the deck breaks: statistics are still made, with a note.
    pub fn broken(&self) -> usize {
        self.broken
    }

    /// Copies and Basic Pokémon of each kind, what the exact odds count.
    pub fn shape(&self) -> DeckShape {
        DeckShape::new(self.kinds.iter().map(|k| (k.copies, k.basic)))
    }

    /// The kinds' English names, parallel to [`StatsDeck::shape`].
    pub fn names(&self) -> Vec<String> {
        self.kinds.iter().map(|k| k.name.clone()).collect()
    }

    /// P(mulligan) and the mulligan distribution under `setup`.
    pub fn mulligan(&self, setup: &Setup) -> Result<super::Mulligan, StatsError> {
        super::mulligan(&self.shape(), setup)
    }

    /// Everything `deckbox stats` shows of the deck: the exact report, each card named in
    /// the list's language, with the queries, distributions and simulation asked for.
    pub fn report(
        &self,
        request: &StatsRequest<'_>,
        progress: &dyn Progress,
    ) -> Result<Report, RequestError> {
        let queries = self.wanted(request.want, request.count_as)?;
        let (shape, names) = (self.shape(), self.names());
        let input = request.input(&shape, &names, &queries);
        let mut report = self.localized(input)?;
        if request.exactly {
            report.distributions = Some(Report::distributions(input)?);
        }
        if let Some(simulate) = request.simulate {
            let resolved: Vec<_> = queries.iter().map(|(_, query)| query.clone()).collect();
            // Deal as many turns as the latest a query names (`by T6` with `--turns 4`).
            let turns = resolved
                .iter()
                .filter_map(ResolvedQuery::last_turn)
                .fold(request.turns, u32::max);
            let plan = SimulationPlan {
                setups: simulate.setups,
                seed: simulate.seed,
                threads: simulate.threads,
                turns,
                going: request.going,
            };
            let simulation = simulate_report(
                &self.kinds,
                request.setup,
                &report,
                &resolved,
                plan,
                progress,
            )?;
            report.simulation = Some(simulation);
        }
        Ok(report)
    }

    /// `count` setups (at most [`MAX_SAMPLES`]) of the deck against itself, dealt from
    /// `seed` (`deckbox sample`): the same seed deals the same setups.
    pub fn samples(
        &self,
        setup: &Setup,
        turns: u32,
        seed: u64,
        count: u32,
    ) -> Result<Vec<TwoPlayerSetup>, EngineError> {
        let engine = engine_deck(&self.kinds)?;
        let mut rng = crate::engine::chunk_rng(seed, 0);
        (0..count.min(MAX_SAMPLES))
            .map(|_| TwoPlayerSetup::deal(&engine, &engine, setup, turns, &mut rng))
            .collect()
    }

    /// [`Report::build`], each card given its name in the list's language when it is not
    /// English.
    pub(crate) fn localized(&self, input: ReportInput<'_>) -> Result<Report, StatsError> {
        let mut report = Report::build(input)?;
        for (card, kind) in report.cards.iter_mut().zip(&self.kinds) {
            card.local_name = (kind.local != kind.name).then(|| kind.local.clone());
        }
        Ok(report)
    }

    /// Parses a `--want` expression and resolves its names against the deck's kinds: a
    /// card, or a class of cards (`Basic Pokémon`, `Supporter`, ...).
    pub fn resolve_want(&self, text: &str) -> Result<ResolvedQuery, RequestError> {
        self.resolve_want_with(text, |name| self.kinds_of(name))
    }

    /// Parses `text` and resolves each name through `kinds_of`; a name it does not know is
    /// drawn under, with this deck's nearest name.
    pub(crate) fn resolve_want_with(
        &self,
        text: &str,
        kinds_of: impl Fn(&str) -> Option<Vec<usize>>,
    ) -> Result<ResolvedQuery, RequestError> {
        let query = super::query::parse(text).map_err(|error| RequestError::query(text, error))?;
        query
            .resolve_groups(|name| {
                kinds_of(&name.text).ok_or_else(|| {
                    QueryError::new(
                        self.not_in_deck(&name.text),
                        name.span.offset,
                        name.span.length,
                    )
                })
            })
            .map_err(|error| RequestError::query(text, error))
    }

    /// The `--want` queries resolved, each followed by its `--count-as` form when a rule
    /// changes it (conservative first, then counting the search).
    pub fn wanted(
        &self,
        want: &[String],
        count_as: &[String],
    ) -> Result<Vec<(String, ResolvedQuery)>, RequestError> {
        let queries = want
            .iter()
            .map(|text| self.resolve_want(text).map(|query| (text.clone(), query)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(with_count_as(queries, &self.count_as_rules(count_as)?))
    }

    /// "'X' is not in this deck", with the nearest name when one is close.
    pub fn not_in_deck(&self, name: &str) -> String {
        match self.suggest(name) {
            Some(near) => format!("'{name}' is not in this deck (did you mean '{near}'?)"),
            None => format!("'{name}' is not in this deck"),
        }
    }

    /// The kinds a written name means: one card, or every card of a class
    /// ([`super::kinds::CLASSES`]; none when the deck has no such card).
    pub fn kinds_of(&self, written: &str) -> Option<Vec<usize>> {
        if let Some(kind) = self.kind_of(written) {
            return Some(vec![kind]);
        }
        let mut members = Vec::new();
        for (index, kind) in self.kinds.iter().enumerate() {
            if kind.in_class(written)? {
                members.push(index);
            }
        }
        Some(members)
    }

    /// The kind a written name means: its English rules name, a name a line used, or
    /// (through the card database) any language's name of a card whose rules name is in
    /// the deck.
    pub fn kind_of(&self, written: &str) -> Option<usize> {
        // Spelled as a kind is named first: `Mewtwo LV.X` and `Mewtwo` have one rules name
        // but are two kinds (one is not a Basic Pokémon).
        let spelled = crate::names::plain_spelling(written);
        let exact = |name: &str| crate::names::plain_spelling(name) == spelled;
        let key = crate::names::lookup_key(written);
        let same = |name: &str| crate::names::lookup_key(name) == key;
        let by = |same: &dyn Fn(&str) -> bool| {
            self.kinds.iter().position(|kind| {
                same(&kind.name) || same(&kind.local) || kind.written.iter().any(|w| same(w))
            })
        };
        let direct = by(&exact).or_else(|| by(&same));
        direct.or_else(|| {
            self.db.by_name(written).iter().find_map(|hit| {
                let name = self.db.get(hit.id)?.rules_name();
                self.kinds.iter().position(|kind| kind.name == name)
            })
        })
    }

    /// The deck's card name closest to an unknown one, if any is close.
    fn suggest(&self, written: &str) -> Option<String> {
        let key = crate::names::lookup_key(written);
        self.kinds
            .iter()
            .map(|kind| {
                let score = strsim::jaro_winkler(&key, &crate::names::lookup_key(&kind.local));
                (score, &kind.local)
            })
            .filter(|(score, _)| *score > 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, name)| name.clone())
    }

    /// Reads the `--count-as` rules; a mistake is drawn under the side that is wrong.
    fn count_as_rules(&self, rules: &[String]) -> Result<Vec<CountAs>, RequestError> {
        rules.iter().map(|rule| self.count_as_rule(rule)).collect()
    }

    fn count_as_rule(&self, rule: &str) -> Result<CountAs, RequestError> {
        let Some((left, right)) = rule.split_once('=') else {
            let message = "expected `Card=Card or class`, such as `Nest Ball=Basic Pokémon`";
            let error = QueryError::new(message, 0, rule.len());
            return Err(RequestError::card_list(rule, error));
        };
        let at = |side: &str, offset: usize| offset + (side.len() - side.trim_start().len());
        let (searcher, target) = (left.trim(), right.trim());
        let Some(kind) = self.kind_of(searcher) else {
            let error = QueryError::new(self.not_in_deck(searcher), at(left, 0), searcher.len());
            return Err(RequestError::card_list(rule, error));
        };
        let Some(targets) = self.kinds_of(target) else {
            let offset = at(right, left.len() + 1);
            let error = QueryError::new(self.not_in_deck(target), offset, target.len());
            return Err(RequestError::card_list(rule, error));
        };
        Ok(CountAs {
            searcher: kind,
            targets,
            text: format!("{searcher} as {target}"),
        })
    }
}

/// One `--count-as "Nest Ball=Basic Pokémon"`: the searching card's kind, the kinds it can
/// find, and the rule as written.
struct CountAs {
    searcher: usize,
    targets: Vec<usize>,
    text: String,
}

/// Each query as written (conservative: a search card counts for nothing), followed, when a
/// `--count-as` rule applies to it, by the query with the search cards counted (optimistic:
/// the search always finds its target), labelled with the rules that applied.
fn with_count_as(
    queries: Vec<(String, ResolvedQuery)>,
    rules: &[CountAs],
) -> Vec<(String, ResolvedQuery)> {
    let mut out = Vec::with_capacity(queries.len());
    for (text, query) in queries {
        let mut counted = query.clone();
        let mut applied = Vec::new();
        for rule in rules {
            if let Some(next) = counted.counting(rule.searcher, &rule.targets) {
                counted = next;
                applied.push(rule.text.as_str());
            }
        }
        let label =
            (!applied.is_empty()).then(|| format!("{text} [counting {}]", applied.join(", ")));
        out.push((text, query));
        if let Some(label) = label {
            out.push((label, counted));
        }
    }
    out
}
