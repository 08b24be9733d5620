//! `deckbox stats` and `deckbox sample`: a checked deck becomes card kinds (one per English
//! rules name, printings and languages merged), which feed the exact statistics, the engine's
//! simulation and the sample deals.

use std::io::Read;
use std::path::PathBuf;

use clap::ValueEnum;

use super::{Outcome, Progress, Settings, SettingsArgs, read_deck, render_error};
use crate::cards::CardDb;
use crate::check::{self, CheckedDeck};
use crate::formats::Going;
use crate::names::lang::Language;
use crate::render;

/// The seed used when `--seed` is not given, so that output is reproducible by default.
pub const DEFAULT_SEED: u64 = 1;
/// Most setups `--simulate` runs (about a minute on one core).
pub const MAX_SETUPS: u64 = 1 << 40;
/// Most sample setups `deckbox sample` deals at once.
pub const MAX_SAMPLES: u32 = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatsOutput {
    /// Aligned tables.
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
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub turns: u32,
    /// Seed of the shuffles: the same seed (and thread count) gives the same output.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
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
    /// A combination to compute, e.g. `Rare Candy>=1 & Dreepy>=1` (repeatable).
    #[arg(long = "want", value_name = "EXPR")]
    pub want: Vec<String>,
    #[arg(long, short, value_enum, default_value_t = StatsOutput::Text)]
    pub output: StatsOutput,
}

#[derive(Debug, clap::Args)]
pub struct SampleArgs {
    #[command(flatten)]
    pub deck: DeckSourceArgs,
    /// Setups to deal.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_SAMPLES as i64))]
    pub count: u32,
}

/// One card kind of a deck: every line with the same English rules name.
#[derive(Debug, Clone)]
struct DeckKind {
    /// The English rules name (the report's `name`).
    name: String,
    /// The name in the list's language (the report's `local_name` when it differs).
    local: String,
    /// The names as the deck's lines wrote them, first line first.
    written: Vec<String>,
    copies: u32,
    basic: bool,
}

/// A deck ready for statistics: checked, every line identified.
struct StatsDeck {
    settings: Settings,
    kinds: Vec<DeckKind>,
    /// A one-line note for stderr when the deck breaks construction rules.
    note: String,
}

fn load_stats_deck(args: &DeckSourceArgs, stdin: &mut dyn Read) -> Result<StatsDeck, String> {
    let settings = Settings::resolve_for(&args.settings, &args.file)?;
    let mut stdin_used = false;
    let input = read_deck(&args.file, stdin, &mut stdin_used)
        .map_err(|message| format!("error: {message}\n"))?;
    let deck = check::check(&input, &settings.db, &settings.format);
    let kinds = deck_kinds(&deck, &settings.db)?;
    let broken = deck.count(crate::check::diagnostic::Severity::Error);
    let note = if broken > 0 {
        let rules = if broken == 1 { "rule" } else { "rules" };
        format!(
            "note: the deck breaks {broken} {rules}; `deckbox check {}` for details\n",
            input.path
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

/// Merges the deck's lines into kinds by English rules name, in order of first appearance.
/// Statistics over a card that was not identified would be wrong, so any such line (or an
/// unreadable one) is an error naming them.
fn deck_kinds(deck: &CheckedDeck, db: &CardDb) -> Result<Vec<DeckKind>, String> {
    let mut kinds: Vec<DeckKind> = Vec::new();
    let mut unknown: Vec<String> = deck
        .list
        .issues
        .iter()
        .map(|issue| format!("  {}: {}", deck.path, issue.message))
        .collect();
    for card in &deck.cards {
        let Some(printing) = card.printing.and_then(|id| db.get(id)) else {
            let line = &card.line;
            unknown.push(format!("  line {}: {}", line.line, line.name));
            continue;
        };
        let name = printing.rules_name();
        // A basic Energy's rules name is English in every language: show it as written.
        let local = match deck
            .language
            .and_then(|language| printing.names.get(language))
        {
            _ if printing.is_basic_energy() && deck.language != Some(Language::En) => {
                card.line.name.clone()
            }
            Some(local) => crate::names::canonical(local),
            None => name.clone(),
        };
        let written = card.line.name.clone();
        match kinds.iter_mut().find(|kind| kind.name == name) {
            Some(kind) => {
                kind.copies = kind.copies.saturating_add(card.line.count);
                kind.basic |= printing.is_basic_pokemon();
                if !kind.written.contains(&written) {
                    kind.written.push(written);
                }
            }
            None => kinds.push(DeckKind {
                name,
                local,
                written: vec![written],
                copies: card.line.count,
                basic: printing.is_basic_pokemon(),
            }),
        }
    }
    if !unknown.is_empty() {
        return Err(format!(
            "error: {} has lines deckbox could not identify; statistics need every card:\n{}\n\
             help: `deckbox check {}` explains each line\n",
            deck.path,
            unknown.join("\n"),
            deck.path
        ));
    }
    Ok(kinds)
}

/// Most simulation threads `--threads` accepts: far more than any machine's cores, and a
/// bound on what a typo (`--threads 100000`) can ask of the system.
const MAX_THREADS: usize = 256;

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(threads) if threads <= MAX_THREADS => Ok(threads),
        _ => Err(format!("expected a whole number from 0 to {MAX_THREADS}")),
    }
}

pub(crate) fn run_stats(
    args: &StatsArgs,
    stdin: &mut dyn Read,
    progress: &dyn Progress,
) -> Outcome {
    match stats_outcome(args, stdin, progress) {
        Ok(outcome) => outcome,
        Err(message) => Outcome::failure(message),
    }
}

fn stats_outcome(
    args: &StatsArgs,
    stdin: &mut dyn Read,
    progress: &dyn Progress,
) -> Result<Outcome, String> {
    if args.output == StatsOutput::Html && !HTML_AVAILABLE {
        return Err("error: --output html is not available in this build\n".to_string());
    }
    let deck = load_stats_deck(&args.deck, stdin)?;
    let queries = args
        .want
        .iter()
        .map(|text| resolve_want(text, &deck).map(|query| (text.clone(), query)))
        .collect::<Result<Vec<_>, String>>()?;
    let shape = crate::stats::DeckShape::new(deck.kinds.iter().map(|k| (k.copies, k.basic)));
    let names: Vec<String> = deck.kinds.iter().map(|k| k.name.clone()).collect();
    let going = args.deck.going;
    let input = crate::stats::ReportInput {
        shape: &shape,
        names: &names,
        setup: &deck.settings.format.setup,
        turns: args.deck.turns,
        going,
        queries: &queries,
    };
    let mut report = crate::stats::Report::build(input)
        .map_err(|error| format!("error: cannot compute statistics: {error}\n"))?;
    for (card, kind) in report.cards.iter_mut().zip(&deck.kinds) {
        card.local_name = (kind.local != kind.name).then(|| kind.local.clone());
    }
    if let Some(setups) = args.simulate {
        report.simulation = Some(simulate_report(
            args, &deck, &report, &queries, setups, progress,
        )?);
    }
    let stdout = match args.output {
        StatsOutput::Text => render::stats_text::text(&report),
        StatsOutput::Markdown => render::stats_text::markdown(&report),
        StatsOutput::Json => serde_json::to_string_pretty(&report)
            .map(|json| json + "\n")
            .map_err(|error| format!("error: cannot write JSON: {error}\n"))?,
        StatsOutput::Html => html_page(&report, &args.deck.file),
    };
    Ok(Outcome {
        stdout,
        stderr: deck.note,
        code: 0,
    })
}

/// Whether this build has the HTML report.
const HTML_AVAILABLE: bool = true;

fn html_page(report: &crate::stats::Report, file: &std::path::Path) -> String {
    let title = file.file_name().map_or_else(
        || "deck".to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    render::stats_html::stats_page(report, &title)
}

/// Parses a `--want` expression and resolves its names against the deck's kinds.
fn resolve_want(text: &str, deck: &StatsDeck) -> Result<crate::stats::ResolvedQuery, String> {
    let query = crate::stats::query::parse(text).map_err(|error| error.render(text) + "\n")?;
    query
        .resolve(|name| {
            kind_of(&name.text, deck).ok_or_else(|| {
                let message = match suggest(&name.text, &deck.kinds) {
                    Some(near) => format!(
                        "'{}' is not in this deck (did you mean '{near}'?)",
                        name.text
                    ),
                    None => format!("'{}' is not in this deck", name.text),
                };
                crate::stats::QueryError {
                    message,
                    span: name.span,
                }
            })
        })
        .map_err(|error| error.render(text) + "\n")
}

/// The kind a written name means: its English rules name, a name a line used, or (through
/// the card database) any language's name of a card whose rules name is in the deck.
fn kind_of(written: &str, deck: &StatsDeck) -> Option<usize> {
    let key = crate::names::lookup_key(written);
    let same = |name: &str| crate::names::lookup_key(name) == key;
    let direct = deck.kinds.iter().position(|kind| {
        same(&kind.name) || same(&kind.local) || kind.written.iter().any(|w| same(w))
    });
    direct.or_else(|| {
        deck.settings.db.by_name(written).iter().find_map(|hit| {
            let name = deck.settings.db.get(hit.id)?.rules_name();
            deck.kinds.iter().position(|kind| kind.name == name)
        })
    })
}

/// The deck's card name closest to an unknown one, if any is close.
fn suggest(written: &str, kinds: &[DeckKind]) -> Option<String> {
    let key = crate::names::lookup_key(written);
    kinds
        .iter()
        .map(|kind| {
            let score = strsim::jaro_winkler(&key, &crate::names::lookup_key(&kind.local));
            (score, &kind.local)
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}

fn engine_deck(kinds: &[DeckKind]) -> Result<crate::engine::EngineDeck, String> {
    let kinds: Vec<crate::engine::Kind> = kinds
        .iter()
        .map(|kind| crate::engine::Kind {
            copies: kind.copies,
            basic: kind.basic,
        })
        .collect();
    crate::engine::EngineDeck::new(&kinds).map_err(render_error)
}

/// Runs the simulation (with a progress watcher when it should take over a second) and sets
/// its estimates beside the report's exact values.
fn simulate_report(
    args: &StatsArgs,
    deck: &StatsDeck,
    report: &crate::stats::Report,
    queries: &[(String, crate::stats::ResolvedQuery)],
    setups: u64,
    progress: &dyn Progress,
) -> Result<crate::stats::Simulation, String> {
    use crate::stats::observer::{QueryObserver, SetupObserver, estimates};
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let engine = engine_deck(&deck.kinds)?;
    let setup = &deck.settings.format.setup;
    let turns = args.deck.turns;
    let going = args.deck.going;
    let resolved: Vec<_> = queries.iter().map(|(_, query)| query.clone()).collect();
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let done = AtomicU64::new(0);
    let plan = crate::engine::Plan {
        turns,
        setups,
        seed: args.deck.seed,
        threads,
        progress: Some(&done),
    };
    let make = || SetupObserver {
        counts: crate::engine::CountObserver::new(&engine, setup, turns),
        queries: QueryObserver::new(&resolved, engine.kinds(), setup, turns, going),
    };
    // About 10 million setups per second per thread: only a run longer than a second
    // gets a progress bar.
    let watch = setups as f64 / (10e6 * threads as f64) > 1.0;
    let finished = AtomicBool::new(false);
    let seen = std::thread::scope(|scope| {
        if watch {
            progress.start(setups);
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    progress.advance(done.load(Ordering::Relaxed));
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                progress.finish();
            });
        }
        let seen = crate::engine::run(&engine, setup, &plan, make);
        finished.store(true, Ordering::Relaxed);
        seen
    })
    .map_err(render_error)?;
    Ok(crate::stats::Simulation {
        setups,
        seed: args.deck.seed,
        threads: u32::try_from(threads).unwrap_or(u32::MAX),
        estimates: estimates(report, &seen),
    })
}

pub(crate) fn run_sample(args: &SampleArgs, stdin: &mut dyn Read) -> Outcome {
    let sampled = load_stats_deck(&args.deck, stdin).and_then(|deck| {
        let engine = engine_deck(&deck.kinds)?;
        let rules = &deck.settings.format.setup;
        let mut rng = crate::engine::chunk_rng(args.deck.seed, 0);
        let mut stdout = String::new();
        for index in 1..=args.count {
            let deal = crate::engine::TwoPlayerSetup::deal(
                &engine,
                &engine,
                rules,
                args.deck.turns,
                &mut rng,
            )
            .map_err(render_error)?;
            if index > 1 {
                stdout.push('\n');
            }
            stdout.push_str(&show_sample(index, args, &deck.kinds, &deal));
        }
        Ok((stdout, deck.note))
    });
    match sampled {
        Ok((stdout, stderr)) => Outcome {
            stdout,
            stderr,
            code: 0,
        },
        Err(message) => Outcome::failure(message),
    }
}

/// Cards grouped by kind in deck-list order, with the deck's own written names:
/// `2× Dreepy, Rare Candy`.
fn group(cards: &[u16], kinds: &[DeckKind]) -> String {
    if cards.is_empty() {
        return "(none)".to_string();
    }
    let mut counts: Vec<(u16, u32)> = Vec::new();
    for &card in cards {
        match counts.iter_mut().find(|(kind, _)| *kind == card) {
            Some((_, n)) => *n += 1,
            None => counts.push((card, 1)),
        }
    }
    counts.sort_unstable();
    let name = |kind: u16| {
        let kind = kinds.get(usize::from(kind));
        kind.and_then(|k| k.written.first())
            .map_or("?", String::as_str)
    };
    let parts: Vec<String> = counts
        .iter()
        .map(|&(kind, n)| match n {
            1 => name(kind).to_string(),
            n => format!("{n}× {}", name(kind)),
        })
        .collect();
    parts.join(", ")
}

fn show_sample(
    index: u32,
    args: &SampleArgs,
    kinds: &[DeckKind],
    deal: &crate::engine::TwoPlayerSetup,
) -> String {
    let (you, opponent, going) = match args.deck.going {
        Going::First => (&deal.first, &deal.second, "first"),
        Going::Second => (&deal.second, &deal.first, "second"),
    };
    let mut out = format!("Sample {index} (you go {going}, seed {})\n", args.deck.seed);
    for (n, hand) in (1..).zip(&you.revealed) {
        out.push_str(&format!(
            "  mulligan {n}: {} (revealed, shuffled back)\n",
            group(hand, kinds)
        ));
    }
    out.push_str(&format!("  hand:       {}\n", group(&you.hand, kinds)));
    out.push_str(&format!(
        "  in play:    {} (Basic Pokémon you may put in play)\n",
        group(&you.basics, kinds)
    ));
    out.push_str(&format!(
        "  prizes:     {} (you would not see these)\n",
        group(&you.prizes, kinds)
    ));
    let theirs = opponent.mulligans;
    let plural = if theirs == 1 { "" } else { "s" };
    if you.extra.is_empty() {
        out.push_str(&format!("  opponent:   {theirs} mulligan{plural}\n"));
    } else {
        out.push_str(&format!(
            "  opponent:   {theirs} mulligan{plural}; you may draw {}\n",
            group(&you.extra, kinds)
        ));
    }
    for draw in &you.draws {
        out.push_str(&format!(
            "  turn {}:     draw {}\n",
            draw.turn,
            group(&[draw.kind], kinds)
        ));
    }
    out
}
