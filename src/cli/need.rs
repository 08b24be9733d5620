//! `deckbox need`: what is still missing to build one or more decks from the cards a
//! player owns, the command-line side of [`deckbox::collection`].

use std::io::Read;
use std::path::PathBuf;

use super::{Outcome, SettingsArgs};
use deckbox::collection::Collection;
use deckbox::collection::prices::Prices;
use deckbox::error::{Error, Exit};
use deckbox::render::need as render;
use deckbox::session::{
    self,
    need::{Answer, NeedRequest},
};
use deckbox::settings::Settings;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  deckbox need deck.txt --have binder.txt
  deckbox need deck.txt --have binder.txt --have tcgplayer-export.csv --exact-printing
  deckbox need dragapult.txt gardevoir.txt --have binder.txt --output tcgplayer
  deckbox need deck.txt --have binder.txt --prices prices.csv
  deckbox need decks/ --have binder.txt --output csv

Exit status: 0 nothing is missing; 1 something is missing; 2 a deck, collection or price \
file cannot be read.")]
pub struct NeedArgs {
    /// Deck list files (`-` reads standard input). Several decks: what to get to build
    /// all of them at once (their needs are summed). A folder: each deck in it on its own
    /// (legal, buildable or missing N, cost), and the owned cards several decks would use.
    #[arg(required = true, value_name = "DECK")]
    pub decks: Vec<PathBuf>,
    /// A collection file: a list in any layout deckbox reads, or a CSV export of a
    /// collection app (docs/collections.md). Repeatable; the files are added up.
    #[arg(long, required = true, value_name = "COLLECTION")]
    pub have: Vec<PathBuf>,
    /// Count only the same printing; by default any printing the deck's format allows at
    /// the deck's date with the same name and text counts (the reprint rule), and any
    /// basic Energy of the type.
    #[arg(long)]
    pub exact_printing: bool,
    /// A price list (CSV with the header `name,set,number,price,currency`): adds the cost
    /// of what is missing, at the cheapest printing that counts.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    #[command(flatten)]
    pub output: super::output::OutputArgs<NeedOutput>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// How `deckbox need` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum NeedOutput {
    /// Each deck line: missing count, the card, the owned copies counted for it (also
    /// named `text` and `human`).
    #[default]
    #[value(alias = "text", alias = "human")]
    Table,
    /// One JSON document: `buildable`, `missing`, per-deck counts, the cost.
    Json,
    /// What is missing, as deck-list lines.
    List,
    /// What is missing, for TCGplayer's mass entry (`2 Dreepy [TWM] 128`).
    Tcgplayer,
    /// What is missing, for Cardmarket's wants list import (`2 Dreepy`).
    Cardmarket,
    /// Given a folder: each deck on its own and the owned cards decks share, as CSV.
    Csv,
    /// Given a folder: each deck on its own and the owned cards decks share, as Markdown.
    Markdown,
}

pub(crate) fn run(args: &NeedArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let settings = Settings::resolve(&args.settings.flags())?;
    let request = NeedRequest {
        decks: &args.decks,
        have: &args.have,
        have_text: None,
        exact: args.exact_printing,
        prices: args.prices.as_deref(),
        each_deck: matches!(
            args.output.format(),
            NeedOutput::Table | NeedOutput::Csv | NeedOutput::Markdown
        ),
    };
    let needed = session::need::need(&settings, &request, stdin)?;
    let checked = needed.checked();
    let (collection, db) = (&needed.collection, &settings.db);
    let (stdout, code) = match &needed.answer {
        Answer::EachDeck(ready, shared) => {
            let all_ready = ready.iter().all(|deck| deck.need.buildable());
            let each = (ready.as_slice(), shared.as_slice());
            let stdout = match args.output.format() {
                NeedOutput::Csv => render::readiness_csv(each, &checked, collection, db),
                NeedOutput::Markdown => render::readiness_markdown(each, &checked, collection, db),
                _ => render::readiness(each, &checked, collection, db),
            };
            (stdout, Exit::findings_if(!all_ready))
        }
        Answer::Together(result) => {
            let stdout = match args.output.format() {
                NeedOutput::Table => render::table(result, &checked, collection, db),
                NeedOutput::Json => {
                    let each = (needed.each_deck.as_ref())
                        .map(|(ready, shared)| (ready.as_slice(), shared.as_slice()));
                    render::json(result, &checked, collection, db, each)
                        .map_err(|reason| Error::Json { reason })?
                }
                NeedOutput::List => render::list(result, &checked, db),
                NeedOutput::Tcgplayer => render::tcgplayer(result, &checked, db),
                NeedOutput::Cardmarket => render::cardmarket(result, &checked, db),
                NeedOutput::Csv | NeedOutput::Markdown => {
                    return Err(Error::Usage {
                        message: "`--output csv` and `--output markdown` say what each deck of a folder lacks on its own: give a folder (`deckbox need DECKS/ --have ...`)".to_string(),
                    });
                }
            };
            (stdout, Exit::findings_if(!result.buildable()))
        }
    };
    Ok(Outcome {
        stdout,
        stderr: findings(collection, needed.prices.as_ref()),
        code,
    }
    .noted(&settings.notes))
}

/// The collection's (and price list's) findings, one short line each, for standard error.
fn findings(collection: &Collection, prices: Option<&Prices>) -> String {
    let mut out: String = collection
        .files
        .iter()
        .map(|file| deckbox::render::short(&file.checked))
        .collect();
    if let Some(prices) = prices {
        out.push_str(&deckbox::render::short(&prices.checked));
    }
    out
}
