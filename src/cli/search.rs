//! `deckbox search`: every printing a query describes, grouped by card. The query language
//! and its keys are the library's (`deckbox::search`); this reads the arguments, opens the
//! card database and picks a renderer.

use clap::ValueEnum;

use super::{Outcome, SourceArgs};
use deckbox::error::{Error, Exit};
use deckbox::names::lang::Language;
use deckbox::render::search as render;
use deckbox::search::{self, Sort};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  deckbox search Dreepy
  deckbox search 'type:psychic stage:basic hp>=120 legal:standard'
  deckbox search 'kind:supporter text:\"discard your hand\"'
  deckbox search 'is:ace-spec legal:expanded@2015-06-01'
  deckbox search 'evolves:Dreepy or into:Dragapult' --output list
  deckbox search -- '-is:ex name:Dragapult'

Keys (docs/user-guide.md lists them all): name: set: number: kind: stage: type:/t: weak: \
resist: mark: rarity: artist: is: evolves: into: hp retreat damage cost released year \
attack: ability: text: legal: banned:. Words side by side must all hold; `or`, `-`/`not` \
and parentheses combine them.

Exit status: 0 at least one printing matches; 1 none does; 2 the query cannot be read (the \
message points at the mistake) or the card database or config file cannot be read.")]
pub struct SearchArgs {
    /// The query. Several arguments are read as one query, joined by spaces. A query that
    /// starts with `-` goes after `--` (`deckbox search -- -is:ex`), or starts with `not`.
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// One line a card (its printings found after the name), or one a printing.
    #[arg(long, value_enum, default_value_t = Unique::Cards)]
    pub unique: Unique,
    #[arg(long, value_enum, default_value_t = SortBy::Name)]
    pub sort: SortBy,
    /// Show names in this language (en, fr, es, pt, de, it), else in English.
    #[arg(long, value_parser = super::parse_language, default_value = "en")]
    pub lang: Language,
    #[command(flatten)]
    pub output: super::output::OutputArgs<SearchOutput>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Unique {
    /// One line a card, with the printings found.
    Cards,
    /// One line a printing.
    Printings,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// By name, A to Z.
    Name,
    /// Newest first.
    Released,
    /// Highest HP first.
    Hp,
    /// By set, oldest first, then collector number.
    Set,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SearchOutput {
    /// A table for a terminal (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON document: the query and each card with its printings.
    Json,
    /// Deck list lines (`1 Dreepy TWM 128`), ready for `deckbox add` or a deck file.
    List,
}

/// Runs the search; the JSON answer streams to `out` as it is written (write errors are the
/// writer's to keep: the binary turns them into the exit code), the other outputs come back
/// in the outcome.
pub(crate) fn run(args: &SearchArgs, out: &mut dyn std::io::Write) -> Result<Outcome, Error> {
    let (db, notes) = deckbox::settings::open_source(&args.source.flags())?;
    let query = args.query.join(" ");
    let sort = match args.sort {
        SortBy::Name => Sort::Name,
        SortBy::Released => Sort::Released,
        SortBy::Hp => Sort::Hp,
        SortBy::Set => Sort::Set,
    };
    let each_printing = args.unique == Unique::Printings;
    let answer = search::answer(&db, &query, args.lang, each_printing, sort).map_err(|error| {
        Error::Search {
            query: query.clone(),
            error,
        }
        .noted(&notes)
    })?;
    let found = &answer.found;
    let stdout = match args.output.format() {
        SearchOutput::Text if found.is_empty() => String::new(),
        SearchOutput::Text => render::text(&db, found, each_printing),
        SearchOutput::Json => {
            let _ = render::write_json(out, &db, &query, found, args.lang);
            String::new()
        }
        SearchOutput::List => render::list(&db, found, args.lang, answer.legal_date),
    };
    let (stderr, code) = if found.is_empty() {
        let mut said = format!("no card matches `{query}`\n");
        if let Some((terms, cards)) = &answer.not_legal {
            said.push_str(&not_legal_note(terms, cards));
        }
        for (set, near) in &answer.unknown_sets {
            let guess = near
                .as_ref()
                .map_or_else(String::new, |near| format!("; did you mean `set:{near}`?"));
            said.push_str(&deckbox::util::escape::visible(&format!(
                "note: no set has the code or id `{set}`{guess}\n"
            )));
        }
        (said, Exit::Findings)
    } else {
        (String::new(), Exit::Clean)
    };
    // The process ends once this is printed: freeing the database would only hand its
    // memory back to the allocator, which then returns it to the system page by page at
    // exit (measured in docs/performance.md).
    std::mem::forget(db);
    Ok(Outcome {
        stdout,
        stderr,
        code,
    }
    .noted(&notes))
}

/// Most card names the note of [`not_legal_note`] gives.
const NOT_LEGAL_NAMED: usize = 5;

/// The note for a search that found nothing only because of its `legal:` terms: how many
/// cards match without them, the first few by name, and what to do.
fn not_legal_note(terms: &[String], cards: &[search::Found]) -> String {
    let names: Vec<&str> = cards
        .iter()
        .take(NOT_LEGAL_NAMED)
        .map(|found| found.name.as_str())
        .collect();
    let more = cards.len().saturating_sub(names.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let (count, them) = if cards.len() == 1 {
        ("1 card matches".to_string(), "it exists but is")
    } else {
        (format!("{} cards match", cards.len()), "they exist but are")
    };
    let terms = terms.join(" ");
    deckbox::util::escape::visible(&format!(
        "note: {count} without `{terms}` ({}{more}): {them} not legal there\nhelp: leave `{terms}` out to see them, with the formats and dates each is legal in from `deckbox card NAME`\n",
        names.join(", ")
    ))
    .into_owned()
}
