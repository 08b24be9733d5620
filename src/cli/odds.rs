//! `deckbox odds`: mid-game odds from the cards a player knows, the command-line side of
//! [`deckbox::stats::midgame`].
//!
//! `--seen "2 Dreepy, 1 Ultra Ball, Iono"` lists the known cards (hand, discard pile, in
//! play, prizes taken); `--prizes` of the others lie face down as prizes; the next `--draws`
//! cards come from the rest, after the cards of `--shuffle-back` (known cards a hand-reset
//! puts back) join the deck. A list item is `N Name`, `Nx Name` or `Name` (one copy), names
//! in any language the card data knows; a mistake is drawn under the item
//! ([`deckbox::stats::midgame::odds`] reads the lists and computes every figure).

use std::io::Read;
use std::path::PathBuf;

use super::output::json;
use super::{Outcome, SettingsArgs};
use deckbox::error::{Error, Exit};
use deckbox::render;
use deckbox::stats::StatsDeck;
use deckbox::stats::midgame::{self, MidGameRequest};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: deckbox odds deck.txt --seen \"Dreepy, Drakloak, 2 Rare Candy, Iono, Ultra Ball, 2 Psychic Energy\" --draws 2 --want \"Dragapult ex>=1\""
)]
pub struct OddsArgs {
    /// A deck list file; `-` reads standard input.
    pub file: PathBuf,
    /// The known cards: hand, discard pile, in play, prizes taken (`2 Dreepy, 1 Ultra Ball`).
    #[arg(
        long,
        value_name = "CARDS",
        default_value = "",
        hide_default_value = true
    )]
    pub seen: String,
    /// Cards drawn next.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=60_000))]
    pub draws: u32,
    /// Face-down prize cards among the unknown ones. Default: the format's prize count.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(0..=60_000))]
    pub prizes: Option<u32>,
    /// Known cards shuffled back into the deck before the draws (a hand-reset such as
    /// Iono or Judge): cards of `--seen`, listed the same way, or a number K for the first
    /// K cards of `--seen` (list your hand first).
    #[arg(long, value_name = "CARDS")]
    pub shuffle_back: Option<String>,
    /// A combination over the next draws (repeatable), as `stats --want`, without turns.
    #[arg(long = "want", value_name = "EXPR")]
    pub want: Vec<String>,
    /// A card that searches for another counts as it in queries, as `stats --count-as`.
    #[arg(long = "count-as", value_name = "CARD=TARGET")]
    pub count_as: Vec<String>,
    #[command(flatten)]
    pub output: super::output::OutputArgs<OddsOutput>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// How `deckbox odds` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OddsOutput {
    /// Aligned tables (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    Markdown,
    Json,
    /// A self-contained HTML page.
    Html,
}

pub(crate) fn run(args: &OddsArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let (settings, checked) = super::read_for_stats(&args.file, &args.settings, stdin)?;
    let deck = StatsDeck::from_checked(&checked, &settings.db)?;
    let request = MidGameRequest::new(
        &settings.format.setup,
        &args.seen,
        args.shuffle_back.as_deref(),
        args.prizes,
        args.draws,
        &args.want,
        &args.count_as,
    );
    let report = midgame::odds(&deck, &request)?;
    let stdout = match args.output.format() {
        OddsOutput::Json => json(&report)?,
        OddsOutput::Text => render::stats_text::midgame_text(&report),
        OddsOutput::Markdown => render::stats_text::midgame_markdown(&report),
        OddsOutput::Html => {
            render::stats_html::midgame_page(&report, &render::stats_html::page_title(&args.file))
        }
    };
    Ok(Outcome {
        stdout,
        stderr: super::stats_note(&settings, &checked, &deck),
        code: Exit::Clean,
    })
}
