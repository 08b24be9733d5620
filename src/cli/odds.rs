//! `deckbox odds`: mid-game odds from the cards a player knows, the command-line side of
//! [`deckbox::stats::midgame`].
//!
//! `--seen "2 Dreepy, 1 Ultra Ball, Iono"` lists the known cards (hand, discard pile, in
//! play, prizes taken); `--prizes` of the others lie face down as prizes; the next `--draws`
//! cards come from the rest, after the cards of `--shuffle-back` (known cards a hand-reset
//! puts back) join the deck. A list item is `N Name`, `Nx Name` or `Name` (one copy), names
//! in any language the card data knows; a mistake is drawn under the item.

use std::io::Read;
use std::path::PathBuf;

use super::stats::{StatsDeck, kind_of, load_stats_deck, not_in_deck, wanted};
use super::{Outcome, SettingsArgs};
use deckbox::error::{Error, Exit};
use deckbox::stats::QueryError;
use deckbox::stats::midgame::{
    MidGameCard, MidGameError, MidGameQuery, MidGameReport, MidGameSeen, Table,
};

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

pub(crate) fn run(args: &OddsArgs, stdin: &mut dyn Read) -> Outcome {
    match odds(args, stdin) {
        Ok(outcome) => outcome,
        Err(error) => Outcome::error(&error),
    }
}

fn odds(args: &OddsArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let deck = load_stats_deck(&args.file, &args.settings, stdin)?;
    let seen = card_counts(&args.seen, &deck)?;
    let back = match &args.shuffle_back {
        Some(list) => match list.trim().parse::<u32>() {
            Ok(cards) => first_cards(&args.seen, cards, &deck)?,
            Err(_) => card_counts(list, &deck)?,
        },
        None => vec![0; deck.kinds.len()],
    };
    let mut unknown = Vec::with_capacity(deck.kinds.len());
    for (index, kind) in deck.kinds.iter().enumerate() {
        let known = seen.get(index).copied().unwrap_or(0);
        let returned = back.get(index).copied().unwrap_or(0);
        if known > kind.copies {
            return Err(usage(format!(
                "--seen has {known} {}, but the deck has {}",
                kind.local, kind.copies
            )));
        }
        if returned > known {
            return Err(usage(format!(
                "--shuffle-back returns {returned} {}, but --seen knows {known}",
                kind.local
            )));
        }
        unknown.push(kind.copies - known);
    }
    let table = Table {
        unknown,
        back,
        prizes: args.prizes.unwrap_or(deck.settings.format.setup.prizes),
        draws: args.draws,
    };
    table.check().map_err(|error| usage(error.to_string()))?;
    let mut per_card = Vec::new();
    for (index, kind) in deck.kinds.iter().enumerate() {
        let (left, returned) = (table.unknown[index], table.back[index]);
        if left == 0 && returned == 0 {
            continue;
        }
        let figures = table.kind(index).map_err(midgame_error)?;
        per_card.push(MidGameCard {
            name: kind.local.clone(),
            unknown: left,
            shuffled_back: returned,
            draw_at_least_one: figures.draw_at_least_one.to_f64(),
            draw_at_least_one_fraction: fraction(figures.draw_at_least_one),
            prized_all: figures.prized_all.to_f64(),
            prized_expected: figures.prized_expected.to_f64(),
        });
    }
    let mut queries = Vec::new();
    for (text, query) in &wanted(&args.want, &args.count_as, &deck)? {
        let probability = table.query(query).map_err(|error| match error {
            MidGameError::Turn { .. } => {
                let at = text.to_ascii_lowercase().find(" by ").unwrap_or(0);
                Error::query(text, QueryError::new(error.to_string(), at + 1, 2))
            }
            other => midgame_error(other),
        })?;
        queries.push(MidGameQuery {
            query: text.clone(),
            probability: probability.to_f64(),
            fraction: fraction(probability),
        });
    }
    let known: u32 = seen.iter().sum();
    let seen_cards = deck
        .kinds
        .iter()
        .zip(&seen)
        .filter(|(_, copies)| **copies > 0)
        .map(|(kind, copies)| MidGameSeen {
            name: kind.local.clone(),
            copies: *copies,
        })
        .collect();
    let report = MidGameReport {
        cards: deck.kinds.iter().map(|kind| kind.copies).sum(),
        known,
        unknown: table.unknown_cards(),
        prizes: table.prizes,
        shuffled_back: table.back_cards(),
        deck: table.deck_cards(),
        draws: table.draws,
        seen: seen_cards,
        per_card,
        queries,
    };
    let stdout = match args.output.format() {
        OddsOutput::Json => super::stats::json(&report)?,
        OddsOutput::Text => deckbox::render::stats_text::midgame_text(&report),
        OddsOutput::Markdown => deckbox::render::stats_text::midgame_markdown(&report),
        OddsOutput::Html => deckbox::render::stats_html::midgame_page(
            &report,
            &super::stats::page_title(&args.file),
        ),
    };
    Ok(Outcome {
        stdout,
        stderr: deck.note,
        code: Exit::Clean,
    })
}

fn usage(message: String) -> Error {
    Error::Usage { message }
}

fn midgame_error(error: MidGameError) -> Error {
    match error {
        MidGameError::Stats(reason) => Error::Stats { reason },
        other => usage(other.to_string()),
    }
}

fn fraction(ratio: deckbox::stats::Ratio) -> String {
    format!("{}/{}", ratio.numer(), ratio.denom())
}

/// Copies per kind of a card list (`2 Dreepy, 1 Ultra Ball, Iono`); an unknown name or a bad
/// count is drawn under the item.
fn card_counts(list: &str, deck: &StatsDeck) -> Result<Vec<u32>, Error> {
    let mut counts = vec![0u32; deck.kinds.len()];
    for (kind, count) in card_items(list, deck)? {
        if let Some(slot) = counts.get_mut(kind) {
            *slot = slot.saturating_add(count);
        }
    }
    Ok(counts)
}

/// The first `cards` cards of a card list, as copies per kind (`--shuffle-back 7`: the
/// first seven cards of `--seen`, the hand when it is listed first).
fn first_cards(list: &str, cards: u32, deck: &StatsDeck) -> Result<Vec<u32>, Error> {
    let mut counts = vec![0u32; deck.kinds.len()];
    let mut left = cards;
    for (kind, count) in card_items(list, deck)? {
        let taken = count.min(left);
        if let Some(slot) = counts.get_mut(kind) {
            *slot = slot.saturating_add(taken);
        }
        left -= taken;
    }
    if left > 0 {
        return Err(usage(format!(
            "--shuffle-back {cards}: --seen lists only {} cards",
            cards - left
        )));
    }
    Ok(counts)
}

/// The items of a card list in order: `(kind, copies)`.
fn card_items(list: &str, deck: &StatsDeck) -> Result<Vec<(usize, u32)>, Error> {
    let mut items = Vec::new();
    let mut offset = 0;
    for item in list.split(',') {
        let start = offset + (item.len() - item.trim_start().len());
        offset += item.len() + 1;
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let digits = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (count, name) = if digits == 0 {
            (1, item)
        } else {
            let count = item
                .get(..digits)
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|count| *count <= 60_000);
            let Some(count) = count else {
                let error = QueryError::new("a count of at most 60000 copies", start, digits);
                return Err(Error::card_list(list, error));
            };
            let rest = item.get(digits..).unwrap_or("");
            let rest = rest
                .strip_prefix(['x', 'X', '×'])
                .filter(|r| r.starts_with(' '))
                .unwrap_or(rest);
            (count, rest.trim())
        };
        let name_at = start + item.find(name).unwrap_or(0);
        let Some(kind) = kind_of(name, deck) else {
            let error = QueryError::new(not_in_deck(name, deck), name_at, name.len().max(1));
            return Err(Error::card_list(list, error));
        };
        items.push((kind, count));
    }
    Ok(items)
}
