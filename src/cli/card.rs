//! `deckbox card`: look a card up by name or by set code and number, and show every
//! printing of it with its legality in each shipped format. Reads no deck; opens the card
//! database the other commands would (`--cards`, `DECKBOX_CARDS`, deckbox.toml, else the
//! embedded index).

use clap::ValueEnum;

use super::{Outcome, SourceArgs};
use deckbox::error::{Error, Exit};
use deckbox::names::lang::Language;
use deckbox::render::card as render;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  deckbox card Iono
  deckbox card \"Boss's Orders\"
  deckbox card Fantyrm            (French for Dreepy)
  deckbox card TWM 128            (or \"PR-SV 12\", \"CRZ GG59\", sv06-128)
  deckbox card Fantyrm --lang fr  (its attacks in French)

Exit status: 0 the card was found; 2 no card matches the query (the message suggests the \
nearest names) or the card database or config file cannot be read.")]
pub struct CardArgs {
    /// A card name in English, French, Spanish, Portuguese, German or Italian, or a set code
    /// and number as deck lists print them. Several words are read as one query.
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Show legality at this date (YYYY-MM-DD) instead of today; formats that did not exist
    /// then are left out.
    #[arg(long, value_name = "DATE", value_parser = super::parse_date)]
    pub as_of: Option<jiff::civil::Date>,
    /// Show each printing's text (attacks, abilities, rules) in this language (en, fr,
    /// es, pt, de, it), in English where the card database has none in it.
    #[arg(long, value_parser = super::parse_language)]
    pub lang: Option<Language>,
    #[command(flatten)]
    pub output: super::output::OutputArgs<CardOutput>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum CardOutput {
    /// Names, printings and legality, for a terminal (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON document (docs/card.md describes its keys).
    Json,
}

pub(crate) fn run(args: &CardArgs) -> Result<Outcome, Error> {
    let (db, notes) = deckbox::settings::open_source(&args.source.flags())?;
    let query = args.query.join(" ");
    let language = args.lang.unwrap_or(Language::En);
    let page = deckbox::session::card::card(&db, &query, args.as_of, language)?;
    let report = &page.report;
    let stdout = match args.output.format() {
        CardOutput::Text if report.cards.is_empty() => String::new(),
        CardOutput::Text => render::text(report),
        CardOutput::Json => render::json(report),
    };
    if report.cards.is_empty() {
        return Ok(Outcome {
            stdout,
            stderr: render::unknown(report, page.coverage.as_deref()),
            code: Exit::Failed,
        }
        .noted(&notes));
    }
    Ok(Outcome {
        stdout,
        ..Outcome::default()
    }
    .noted(&notes))
}
