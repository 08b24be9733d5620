//! `deckbox stats` and `deckbox sample`: the arguments read, the deck read and checked, then
//! one call to the library's [`StatsDeck`] (the report, `--compare`, `--vary`, the sample
//! deals), and the answer rendered.

use std::io::Read;
use std::path::PathBuf;

use clap::ValueEnum;

use super::output::json;
use super::{Outcome, SettingsArgs, parse_threads};
use deckbox::error::{Error, Exit};
use deckbox::formats::Going;
use deckbox::render;
use deckbox::stats::compare;
use deckbox::stats::deck::Simulate;
use deckbox::stats::{StatsDeck, StatsRequest};
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
pub const MAX_SAMPLES: u32 = deckbox::stats::deck::MAX_SAMPLES;

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

pub(crate) fn run_stats(
    args: &StatsArgs,
    stdin: &mut dyn Read,
    progress: &dyn Progress,
) -> Result<Outcome, Error> {
    let (settings, checked) = super::read_for_stats(&args.deck.file, &args.deck.settings, stdin)?;
    let deck = StatsDeck::from_checked(&checked, &settings.db)?;
    let request = StatsRequest {
        setup: &settings.format.setup,
        turns: args.deck.turns,
        going: args.deck.going,
        want: &args.want,
        count_as: &args.count_as,
        exactly: args.exactly,
        simulate: args.simulate.map(|setups| Simulate {
            setups,
            seed: args.deck.seed.unwrap_or(DEFAULT_SEED),
            threads: args.threads,
        }),
    };
    let mut stderr = super::stats_note(&settings, &checked, &deck);
    let stdout = if let Some(spec) = &args.vary {
        let variation = compare::vary(&deck, &request, spec)?;
        match args.output.format() {
            StatsOutput::Json => json(&variation)?,
            StatsOutput::Markdown => render::stats_text::variation(&variation, true),
            StatsOutput::Text => render::stats_text::variation(&variation, false),
            StatsOutput::Html => render::stats_html::variation_page(
                &variation,
                &render::stats_html::page_title(&args.deck.file),
            ),
        }
    } else if let Some(other) = &args.compare {
        let report = deck.report(&request, progress)?;
        let (stdout, second) = compared(args, &deck, &report, other, &request, stdin)?;
        stderr.push_str(&second);
        stdout
    } else {
        let report = deck.report(&request, progress)?;
        match args.output.format() {
            StatsOutput::Text => render::stats_text::text(&report),
            StatsOutput::Markdown => render::stats_text::markdown(&report),
            StatsOutput::Json => json(&report)?,
            StatsOutput::Html => render::stats_html::stats_page(
                &report,
                &render::stats_html::page_title(&args.deck.file),
            ),
        }
    };
    Ok(Outcome {
        stdout,
        stderr,
        code: Exit::Clean,
    })
}

/// `--compare`: the second deck read, set beside the first ([`compare::decks`]); the page
/// and the second deck's notes.
fn compared(
    args: &StatsArgs,
    deck: &StatsDeck<'_>,
    report: &deckbox::stats::Report,
    other: &std::path::Path,
    request: &StatsRequest<'_>,
    stdin: &mut dyn Read,
) -> Result<(String, String), Error> {
    let file = &args.deck.file;
    if file.as_os_str() == "-" && other.as_os_str() == "-" {
        return Err(Error::Usage {
            message: "only one of the two decks can be read from standard input".to_string(),
        });
    }
    let (other_settings, other_checked) = super::read_for_stats(other, &args.deck.settings, stdin)?;
    let second = StatsDeck::from_checked(&other_checked, &other_settings.db)?;
    let labels = [file.as_path(), other].map(deckbox::util::escape::path);
    let comparison = compare::decks(deck, report, &second, request, [&labels[0], &labels[1]])?;
    let title = |file| render::stats_html::page_title(file);
    let stdout = match args.output.format() {
        StatsOutput::Json => json(&comparison)?,
        StatsOutput::Markdown => render::stats_text::comparison(&comparison, true),
        StatsOutput::Text => render::stats_text::comparison(&comparison, false),
        StatsOutput::Html => render::stats_html::comparison_page(
            &comparison,
            &format!("{} and {}", title(file), title(other)),
        ),
    };
    Ok((
        stdout,
        super::stats_note(&other_settings, &other_checked, &second),
    ))
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

pub(crate) fn run_sample(args: &SampleArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let (settings, checked) = super::read_for_stats(&args.deck.file, &args.deck.settings, stdin)?;
    let deck = StatsDeck::from_checked(&checked, &settings.db)?;
    let seed = args.deck.seed.unwrap_or_else(fresh_seed);
    let deals = deck.samples(&settings.format.setup, args.deck.turns, seed, args.count)?;
    let going_first = args.deck.going == Going::First;
    let stdout = (1..)
        .zip(&deals)
        .map(|(index, deal)| render::sample::setup(index, seed, going_first, deck.kinds(), deal))
        .collect::<Vec<_>>()
        .join("\n");
    Ok(Outcome {
        stdout,
        stderr: super::stats_note(&settings, &checked, &deck),
        code: Exit::Clean,
    })
}
