//! `deckbox stats` and `deckbox sample`: a checked deck becomes card kinds (one per English
//! rules name, printings and languages merged), which feed the exact statistics, the engine's
//! simulation and the sample deals.

use std::io::Read;
use std::path::PathBuf;

use clap::ValueEnum;

use super::{Outcome, SettingsArgs, parse_threads};
use deckbox::error::{Error, Exit};
use deckbox::formats::Going;
use deckbox::render;
use deckbox::settings::Settings;
use deckbox::stats::QueryError;
use deckbox::stats::kinds::{DeckKind, deck_kinds};
use deckbox::stats::simulate::{SimulationPlan, engine_deck, simulate_report};
use deckbox::util::progress::Progress;

/// The seed `stats --simulate` uses when `--seed` is not given, so that its estimates are
/// reproducible by default. `sample` deals a new hand each run instead (and prints its seed).
pub const DEFAULT_SEED: u64 = 1;
/// Most setups `--simulate` runs: about 40 s on one core of the development machine (27 M
/// setups a second, docs/statistics.md), 20 s on two. Its standard errors are below 0.002
/// percentage points, far finer than any change to a deck moves a figure; the former bound,
/// 2⁴⁰, was eleven hours of one core.
pub const MAX_SETUPS: u64 = 1_000_000_000;
/// Most sample setups `deckbox sample` deals at once.
pub const MAX_SAMPLES: u32 = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum StatsOutput {
    /// Aligned tables (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// The `Report` as JSON (see the README for the keys).
    Json,
    /// GitHub tables.
    Markdown,
    /// A self-contained HTML page with charts.
    Html,
}

/// Where a deck and its cards come from (shared by `stats` and `sample`).
#[derive(Debug, clap::Args)]
pub struct DeckSourceArgs {
    /// A deck list file; `-` reads standard input.
    pub file: PathBuf,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Which player's turns the curves count.
    #[arg(long, value_enum, default_value_t = Going::First)]
    pub going: Going,
    /// Own turns to count draws for.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=i64::from(deckbox::engine::MAX_TURNS)))]
    pub turns: u32,
    /// Seed of the shuffles: the same seed (and thread count) gives the same output.
    /// `stats --simulate` takes 1 when it is not given; `sample` takes a new one each run
    /// and prints it.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub deck: DeckSourceArgs,
    /// Also simulate N setups with the engine and show each estimate beside the exact value.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_SETUPS))]
    pub simulate: Option<u64>,
    /// Simulation threads, at most 256; 0 means one per core.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// A combination to compute (repeatable): terms `Name>=k`, `<=`, `==`, `>`, `<`, names
    /// joined by `|` counting together, combined with `&`, `|`, `!` and parentheses; a term
    /// may end in `by T2` (seen by the start of own turn 2). `Rare Candy>=1 & Dreepy>=1`,
    /// `Dreepy>=1 & Rare Candy>=1 by T2`.
    #[arg(long = "want", value_name = "EXPR")]
    pub want: Vec<String>,
    /// Set another deck beside this one: both decks' figures and the difference, card by
    /// card and query by query (a card one deck does not play counts 0 there).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["simulate", "vary", "count_as", "exactly"])]
    pub compare: Option<PathBuf>,
    /// Show the figures as one card's count varies, another card making up the difference:
    /// `--vary "Rare Candy=2..4:Psychic Energy"`.
    #[arg(long, value_name = "CARD=FROM..TO:CARD", conflicts_with_all = ["simulate", "exactly"])]
    pub vary: Option<String>,
    /// A card that searches for another counts as it in queries (repeatable):
    /// `--count-as "Nest Ball=Basic Pokémon"`, `--count-as "Ultra Ball=Pokémon"`. Each query
    /// it changes is shown twice: as written (the search counts for nothing) and counting the
    /// search (it always finds its target).
    #[arg(long = "count-as", value_name = "CARD=TARGET")]
    pub count_as: Vec<String>,
    /// Also print every card's exact distribution: P(exactly k copies) in the opening hand,
    /// the prizes and seen by each turn, k = 0..copies, and of the Basic Pokémon in the kept
    /// hand.
    #[arg(long)]
    pub exactly: bool,
    #[command(flatten)]
    pub output: super::output::OutputArgs<StatsOutput>,
}

#[derive(Debug, clap::Args)]
pub struct SampleArgs {
    #[command(flatten)]
    pub deck: DeckSourceArgs,
    /// Setups to deal.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_SAMPLES as i64))]
    pub count: u32,
    #[command(flatten)]
    pub output: super::output::FileArgs,
}

/// A deck ready for statistics: checked, every line identified.
pub(super) struct StatsDeck {
    pub(super) settings: Settings,
    pub(super) kinds: Vec<DeckKind>,
    /// A one-line note for stderr when the deck breaks construction rules.
    pub(super) note: String,
}

pub(super) fn load_stats_deck(
    file: &std::path::Path,
    settings: &super::SettingsArgs,
    stdin: &mut dyn Read,
) -> Result<StatsDeck, Error> {
    let settings = Settings::resolve_for(&settings.flags(), file)?;
    let (input, _, deck) = super::read_and_check(file, &settings, stdin, &mut false)?;
    deckbox::stats::kinds::check_size(&deck)?;
    let kinds = deck_kinds(&deck, &settings.db)?;
    let broken = deck.count(deckbox::check::diagnostic::Severity::Error);
    let note = if broken > 0 {
        let rules = if broken == 1 { "rule" } else { "rules" };
        format!(
            "note: the deck breaks {broken} {rules}; `deckbox check {}` for details\n",
            deckbox::util::escape::visible_line(&input.path)
        )
    } else {
        String::new()
    };
    Ok(StatsDeck {
        note: format!("{}{note}", settings.notes),
        settings,
        kinds,
    })
}

pub(crate) fn run_stats(
    args: &StatsArgs,
    stdin: &mut dyn Read,
    progress: &dyn Progress,
) -> Outcome {
    match stats_outcome(args, stdin, progress) {
        Ok(outcome) => outcome,
        Err(error) => Outcome::error(&error),
    }
}

fn stats_outcome(
    args: &StatsArgs,
    stdin: &mut dyn Read,
    progress: &dyn Progress,
) -> Result<Outcome, Error> {
    let deck = load_stats_deck(&args.deck.file, &args.deck.settings, stdin)?;
    let queries = wanted(&args.want, &args.count_as, &deck)?;
    let shape = deckbox::stats::DeckShape::new(deck.kinds.iter().map(|k| (k.copies, k.basic)));
    let names: Vec<String> = deck.kinds.iter().map(|k| k.name.clone()).collect();
    let going = args.deck.going;
    let input = deckbox::stats::ReportInput {
        shape: &shape,
        names: &names,
        setup: &deck.settings.format.setup,
        turns: args.deck.turns,
        going,
        queries: &queries,
    };
    let mut report = deckbox::stats::Report::build(input)?;
    localize(&mut report, &deck);
    if let Some(other) = &args.compare {
        return compare(args, &deck, &report, other, stdin);
    }
    if let Some(spec) = &args.vary {
        return vary(args, &deck, input, spec);
    }
    if args.exactly {
        report.distributions = Some(deckbox::stats::Report::distributions(input)?);
    }
    if let Some(setups) = args.simulate {
        let resolved: Vec<_> = queries.iter().map(|(_, query)| query.clone()).collect();
        // Deal as many turns as the latest a query names (`by T6` with `--turns 4`).
        let turns = resolved
            .iter()
            .filter_map(deckbox::stats::ResolvedQuery::last_turn)
            .fold(args.deck.turns, u32::max);
        let plan = SimulationPlan {
            setups,
            seed: args.deck.seed.unwrap_or(DEFAULT_SEED),
            threads: args.threads,
            turns,
            going,
        };
        let simulation = simulate_report(
            &deck.kinds,
            &deck.settings.format.setup,
            &report,
            &resolved,
            plan,
            progress,
        )?;
        report.simulation = Some(simulation);
    }
    let stdout = match args.output.format() {
        StatsOutput::Text => render::stats_text::text(&report),
        StatsOutput::Markdown => render::stats_text::markdown(&report),
        StatsOutput::Json => json(&report)?,
        StatsOutput::Html => html_page(&report, &args.deck.file),
    };
    Ok(Outcome {
        stdout,
        stderr: deck.note,
        code: Exit::Clean,
    })
}

/// Gives each card of `report` its name in the list's language, when not English.
fn localize(report: &mut deckbox::stats::Report, deck: &StatsDeck) {
    for (card, kind) in report.cards.iter_mut().zip(&deck.kinds) {
        card.local_name = (kind.local != kind.name).then(|| kind.local.clone());
    }
}

/// `--compare`: the second deck's report for the same queries, set beside the first.
fn compare(
    args: &StatsArgs,
    deck: &StatsDeck,
    report: &deckbox::stats::Report,
    other: &std::path::Path,
    stdin: &mut dyn Read,
) -> Result<Outcome, Error> {
    let (file, other_file) = (&args.deck.file, other);
    if file.as_os_str() == "-" && other_file.as_os_str() == "-" {
        return Err(Error::Usage {
            message: "only one of the two decks can be read from standard input".to_string(),
        });
    }
    let second = load_stats_deck(other_file, &args.deck.settings, stdin)?;
    // A name of the first deck that the second does not play counts 0 there.
    let queries = args
        .want
        .iter()
        .map(|text| {
            let query = deckbox::stats::query::parse(text).map_err(|e| Error::query(text, e))?;
            query
                .resolve_groups(|name| {
                    kinds_of(&name.text, &second)
                        .or_else(|| kinds_of(&name.text, deck).map(|_| Vec::new()))
                        .ok_or_else(|| {
                            QueryError::new(
                                not_in_deck(&name.text, &second),
                                name.span.offset,
                                name.span.length,
                            )
                        })
                })
                .map(|query| (text.clone(), query))
                .map_err(|error| Error::query(text, error))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let shape = deckbox::stats::DeckShape::new(second.kinds.iter().map(|k| (k.copies, k.basic)));
    let names: Vec<String> = second.kinds.iter().map(|k| k.name.clone()).collect();
    let input = deckbox::stats::ReportInput {
        shape: &shape,
        names: &names,
        setup: &deck.settings.format.setup,
        turns: args.deck.turns,
        going: args.deck.going,
        queries: &queries,
    };
    let mut second_report = deckbox::stats::Report::build(input)?;
    localize(&mut second_report, &second);
    let labels = [file, other_file].map(deckbox::util::escape::path);
    let comparison =
        deckbox::stats::compare::compare(report, &second_report, [&labels[0], &labels[1]]);
    let stdout = match args.output.format() {
        StatsOutput::Json => json(&comparison)?,
        StatsOutput::Markdown => render::stats_text::comparison(&comparison, true),
        StatsOutput::Text => render::stats_text::comparison(&comparison, false),
        StatsOutput::Html => render::stats_html::comparison_page(
            &comparison,
            &format!("{} and {}", page_title(file), page_title(other_file)),
        ),
    };
    Ok(Outcome {
        stdout,
        stderr: format!("{}{}", deck.note, second.note),
        code: Exit::Clean,
    })
}

/// `--vary`: the report at each count of one card, another making up the difference.
fn vary(
    args: &StatsArgs,
    deck: &StatsDeck,
    input: deckbox::stats::ReportInput<'_>,
    spec: &str,
) -> Result<Outcome, Error> {
    let spec = deckbox::stats::compare::parse_vary(spec).map_err(|message| Error::Usage {
        message: format!("--vary: {message}"),
    })?;
    let index = |name: &str| {
        kind_of(name, deck).ok_or_else(|| Error::Usage {
            message: format!("--vary: {}", not_in_deck(name, deck)),
        })
    };
    let (card, against) = (index(&spec.card)?, index(&spec.against)?);
    if card == against {
        return Err(Error::Usage {
            message: "--vary: a card cannot be traded against itself".to_string(),
        });
    }
    let copies = |kind: usize| deck.kinds.get(kind).map_or(0, |k| k.copies);
    let (card_copies, against_copies) = (copies(card), copies(against));
    let mut steps = Vec::new();
    for count in spec.from..=spec.to {
        let traded = i64::from(against_copies) + i64::from(card_copies) - i64::from(count);
        let Ok(traded) = u32::try_from(traded) else {
            return Err(Error::Usage {
                message: format!(
                    "--vary: {count} {} would need {} more {} than the deck's {against_copies}",
                    spec.card, -traded, spec.against
                ),
            });
        };
        let mut shape = input.shape.clone();
        if let Some(kind) = shape.kinds.get_mut(card) {
            kind.copies = count;
        }
        if let Some(kind) = shape.kinds.get_mut(against) {
            kind.copies = traded;
        }
        let report = deckbox::stats::Report::build(deckbox::stats::ReportInput {
            shape: &shape,
            ..input
        })?;
        steps.push(deckbox::stats::compare::Step::of(
            &report, card, count, traded,
        ));
    }
    let label = |kind: usize| {
        deck.kinds
            .get(kind)
            .map_or_else(String::new, |k| k.local.clone())
    };
    let variation = deckbox::stats::compare::Variation {
        card: label(card),
        against: label(against),
        steps,
    };
    let stdout = match args.output.format() {
        StatsOutput::Json => json(&variation)?,
        StatsOutput::Markdown => render::stats_text::variation(&variation, true),
        StatsOutput::Text => render::stats_text::variation(&variation, false),
        StatsOutput::Html => {
            render::stats_html::variation_page(&variation, &page_title(&args.deck.file))
        }
    };
    Ok(Outcome {
        stdout,
        stderr: deck.note.clone(),
        code: Exit::Clean,
    })
}

/// Pretty JSON and a final newline, as every `--output json` prints.
pub(super) fn json(value: &impl serde::Serialize) -> Result<String, Error> {
    serde_json::to_string_pretty(value)
        .map(|json| json + "\n")
        .map_err(|reason| Error::Json { reason })
}

fn html_page(report: &deckbox::stats::Report, file: &std::path::Path) -> String {
    render::stats_html::stats_page(report, &page_title(file))
}

/// A page's title: the deck file's name.
pub(super) fn page_title(file: &std::path::Path) -> String {
    file.file_name().map_or_else(
        || "deck".to_string(),
        |name| deckbox::util::escape::path(std::path::Path::new(name)),
    )
}

/// Parses a `--want` expression and resolves its names against the deck's kinds: a card,
/// or a class of cards (`Basic Pokémon`, `Supporter`, ...).
pub(super) fn resolve_want(
    text: &str,
    deck: &StatsDeck,
) -> Result<deckbox::stats::ResolvedQuery, Error> {
    let query = deckbox::stats::query::parse(text).map_err(|error| Error::query(text, error))?;
    query
        .resolve_groups(|name| {
            kinds_of(&name.text, deck).ok_or_else(|| {
                deckbox::stats::QueryError::new(
                    not_in_deck(&name.text, deck),
                    name.span.offset,
                    name.span.length,
                )
            })
        })
        .map_err(|error| Error::query(text, error))
}

/// "'X' is not in this deck", with the nearest name when one is close.
pub(super) fn not_in_deck(name: &str, deck: &StatsDeck) -> String {
    match suggest(name, &deck.kinds) {
        Some(near) => format!("'{name}' is not in this deck (did you mean '{near}'?)"),
        None => format!("'{name}' is not in this deck"),
    }
}

/// The kinds a written name means: one card, or every card of a class
/// ([`deckbox::stats::kinds::CLASSES`]; none when the deck has no such card).
pub(super) fn kinds_of(written: &str, deck: &StatsDeck) -> Option<Vec<usize>> {
    if let Some(kind) = kind_of(written, deck) {
        return Some(vec![kind]);
    }
    let mut members = Vec::new();
    for (index, kind) in deck.kinds.iter().enumerate() {
        if kind.in_class(written)? {
            members.push(index);
        }
    }
    Some(members)
}

/// One `--count-as "Nest Ball=Basic Pokémon"`: the searching card's kind, the kinds it can
/// find, and the rule as written.
pub(super) struct CountAs {
    searcher: usize,
    targets: Vec<usize>,
    text: String,
}

/// Reads the `--count-as` rules; a mistake is drawn under the side that is wrong.
fn count_as_rules(rules: &[String], deck: &StatsDeck) -> Result<Vec<CountAs>, Error> {
    rules
        .iter()
        .map(|rule| {
            let Some((left, right)) = rule.split_once('=') else {
                let message = "expected `Card=Card or class`, such as `Nest Ball=Basic Pokémon`";
                return Err(Error::card_list(
                    rule,
                    QueryError::new(message, 0, rule.len()),
                ));
            };
            let at = |side: &str, offset: usize| offset + (side.len() - side.trim_start().len());
            let (searcher, target) = (left.trim(), right.trim());
            let Some(kind) = kind_of(searcher, deck) else {
                let error =
                    QueryError::new(not_in_deck(searcher, deck), at(left, 0), searcher.len());
                return Err(Error::card_list(rule, error));
            };
            let Some(targets) = kinds_of(target, deck) else {
                let offset = at(right, left.len() + 1);
                let error = QueryError::new(not_in_deck(target, deck), offset, target.len());
                return Err(Error::card_list(rule, error));
            };
            Ok(CountAs {
                searcher: kind,
                targets,
                text: format!("{searcher} as {target}"),
            })
        })
        .collect()
}

/// The `--want` queries resolved, each followed by its `--count-as` form when a rule
/// changes it ([`with_count_as`]).
pub(super) fn wanted(
    want: &[String],
    count_as: &[String],
    deck: &StatsDeck,
) -> Result<Vec<(String, deckbox::stats::ResolvedQuery)>, Error> {
    let queries = want
        .iter()
        .map(|text| resolve_want(text, deck).map(|query| (text.clone(), query)))
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(with_count_as(queries, &count_as_rules(count_as, deck)?))
}

/// Each query as written (conservative: a search card counts for nothing), followed, when a
/// `--count-as` rule applies to it, by the query with the search cards counted (optimistic:
/// the search always finds its target), labelled with the rules that applied.
fn with_count_as(
    queries: Vec<(String, deckbox::stats::ResolvedQuery)>,
    rules: &[CountAs],
) -> Vec<(String, deckbox::stats::ResolvedQuery)> {
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

/// The kind a written name means: its English rules name, a name a line used, or (through
/// the card database) any language's name of a card whose rules name is in the deck.
pub(super) fn kind_of(written: &str, deck: &StatsDeck) -> Option<usize> {
    // Spelled as a kind is named first: `Mewtwo LV.X` and `Mewtwo` have one rules name but
    // are two kinds (one is not a Basic Pokémon).
    let spelled = deckbox::names::plain_spelling(written);
    let exact = |name: &str| deckbox::names::plain_spelling(name) == spelled;
    let key = deckbox::names::lookup_key(written);
    let same = |name: &str| deckbox::names::lookup_key(name) == key;
    let by = |same: &dyn Fn(&str) -> bool| {
        deck.kinds.iter().position(|kind| {
            same(&kind.name) || same(&kind.local) || kind.written.iter().any(|w| same(w))
        })
    };
    let direct = by(&exact).or_else(|| by(&same));
    direct.or_else(|| {
        deck.settings.db.by_name(written).iter().find_map(|hit| {
            let name = deck.settings.db.get(hit.id)?.rules_name();
            deck.kinds.iter().position(|kind| kind.name == name)
        })
    })
}

/// The deck's card name closest to an unknown one, if any is close.
pub(super) fn suggest(written: &str, kinds: &[DeckKind]) -> Option<String> {
    let key = deckbox::names::lookup_key(written);
    kinds
        .iter()
        .map(|kind| {
            let score = strsim::jaro_winkler(&key, &deckbox::names::lookup_key(&kind.local));
            (score, &kind.local)
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}

/// A seed no earlier run is likely to have used: the standard library's per-process random
/// hash keys (from the operating system), mixed with the clock.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    hasher.write_u128(now);
    // Seeds a person retypes: keep them short (at most 9 digits).
    hasher.finish() % 1_000_000_000
}

pub(crate) fn run_sample(args: &SampleArgs, stdin: &mut dyn Read) -> Outcome {
    let sampled = load_stats_deck(&args.deck.file, &args.deck.settings, stdin).and_then(|deck| {
        let engine = engine_deck(&deck.kinds)?;
        let rules = &deck.settings.format.setup;
        let seed = args.deck.seed.unwrap_or_else(fresh_seed);
        let mut rng = deckbox::engine::chunk_rng(seed, 0);
        let mut stdout = String::new();
        for index in 1..=args.count {
            let deal = deckbox::engine::TwoPlayerSetup::deal(
                &engine,
                &engine,
                rules,
                args.deck.turns,
                &mut rng,
            )?;
            if index > 1 {
                stdout.push('\n');
            }
            let going_first = args.deck.going == Going::First;
            stdout.push_str(&render::sample::setup(
                index,
                seed,
                going_first,
                &deck.kinds,
                &deal,
            ));
        }
        Ok((stdout, deck.note))
    });
    match sampled {
        Ok((stdout, stderr)) => Outcome {
            stdout,
            stderr,
            code: Exit::Clean,
        },
        Err(error) => Outcome::error(&error),
    }
}
