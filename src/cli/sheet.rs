//! `deckbox sheet`: a deck registration sheet as PDF, the command-line side of
//! [`deckbox::render::sheet`].
//!
//! The deck is read and checked as `check` does, at the event date. An invalid deck gets no
//! sheet (exit 1, the findings on standard error) unless `--force`, and then its sheet says
//! it is invalid (still exit 1). The PDF is written as every command writes its `-o` file
//! (atomically; an existing file is not replaced without `--force`), so a mistyped
//! `-o deck.txt` cannot lose a deck.

use std::io::Read;
use std::path::PathBuf;

use super::{Outcome, SettingsArgs};
use deckbox::error::{Error, Exit};
use deckbox::render;
use deckbox::render::sheet::pdf::Paper;
use deckbox::render::sheet::{Division, Entrant};
use deckbox::session;
use deckbox::settings::Settings;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit code: 0 the sheet was written for a valid deck, 1 the deck breaks a rule (no sheet without --force), 2 no sheet could be made.",
    mut_arg("output_file", |arg| arg
        .required(true)
        .alias("output")
        .value_name("FILE.pdf")
        .help("The PDF to write (atomically; an existing file is not replaced without `--force`)")),
    mut_arg("force", |arg| arg.help(
        "Print a sheet for a deck that breaks a rule (the sheet says so), and replace an existing file"
    )),
)]
pub struct SheetArgs {
    /// The deck list: any layout and language deckbox reads, JSON included; `-` reads
    /// standard input.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: super::output::FileArgs,
    /// The player's name. Default: the list's `# player: NAME` comment, else a blank line
    /// to write on.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// The Play! Pokémon Player ID. Default: a blank line to write on.
    #[arg(long, value_name = "ID")]
    pub player_id: Option<String>,
    /// Date of birth (YYYY-MM-DD); printed MM/DD/YYYY as the form asks, and the age
    /// division follows from its year.
    #[arg(long, value_name = "DATE", value_parser = super::parse_date)]
    pub birth_date: Option<jiff::civil::Date>,
    /// The age division to tick, instead of the one the birth year gives.
    #[arg(long, value_enum)]
    pub division: Option<Division>,
    /// The event's date (YYYY-MM-DD): printed on the sheet, the date the deck is judged at
    /// and the season the division follows. Default: `--as-of`'s date, else today.
    #[arg(long, value_name = "DATE", value_parser = super::parse_date, conflicts_with = "as_of")]
    pub event_date: Option<jiff::civil::Date>,
    /// The paper size.
    #[arg(long, value_enum, default_value_t = Paper::Letter)]
    pub paper: Paper,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

pub(crate) fn run(args: &SheetArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let mut flags = args.settings.flags();
    if args.event_date.is_some() {
        flags.as_of = args.event_date;
    }
    let settings = Settings::resolve_for(&flags, &args.file)?;
    sheet(args, &settings, stdin)
        .map(|outcome| outcome.noted(&settings.notes))
        .map_err(|error| error.noted(&settings.notes))
}

fn sheet(args: &SheetArgs, settings: &Settings, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let entrant = Entrant {
        name: args.player.clone(),
        player_id: args.player_id.clone(),
        birth_date: args.birth_date,
        division: args.division,
    };
    let force = args.output.force;
    let made = session::sheet::sheet(settings, &args.file, entrant, args.paper, force, stdin)?;
    let (deck, sheet) = (&made.deck, &made.sheet);
    let name = deckbox::util::escape::path_line(&args.file);
    let findings = format!("{}{}\n", render::short(deck), render::summary(deck));
    let Some(path) = args.output.output_file.as_deref() else {
        return Err(Error::Usage {
            message: "`deckbox sheet` needs `-o FILE.pdf`".to_string(),
        });
    };
    let Some(bytes) = &made.pdf else {
        return Ok(Outcome {
            stdout: String::new(),
            stderr: format!(
                "{findings}error: no sheet for {name}: the deck breaks a rule of {}\nhelp: fix the deck, or pass `--force` to print a sheet that says it is invalid\n",
                sheet.format
            ),
            code: Exit::Findings,
        });
    };
    if let Err(message) = super::output::write_new(path, force, bytes) {
        return Ok(Outcome::failure(message));
    }
    let mut stderr = String::new();
    for row in sheet.missing_printing() {
        let line = row.lines.first().copied().unwrap_or(0);
        stderr.push_str(&format!(
            "warning: line {line}: {} has no set code and collector number; the form requires them for every Pokémon, so write them in\n",
            deckbox::util::escape::visible_line(&row.name)
        ));
    }
    if !sheet.verdict.valid {
        stderr.insert_str(0, &findings);
        stderr.push_str("warning: the sheet says the deck is invalid (--force)\n");
    }
    let division = sheet
        .division
        .map(|division| format!(", {} Division", division.label()))
        .unwrap_or_default();
    let player = sheet.player.as_deref().map_or_else(
        || "player left blank".into(),
        deckbox::util::escape::visible_line,
    );
    Ok(Outcome {
        stdout: format!(
            "wrote {}: {player}{division}, {}, {} cards, {}\n",
            deckbox::util::escape::path_line(path),
            deckbox::util::escape::visible_line(&sheet.format),
            sheet.total,
            if sheet.verdict.valid {
                "valid"
            } else {
                "NOT VALID"
            }
        ),
        stderr,
        code: Exit::findings_if(!sheet.verdict.valid),
    })
}
