//! `deckbox check`: read deck files, check each against the format, report in the chosen
//! output. It never decides exit codes beyond 0/1/2 and never prints.

use std::io::Read;
use std::path::PathBuf;

use clap::ValueEnum;

use super::{Outcome, Settings, SettingsArgs, Terminal, read_deck};
use crate::check::{self, CheckedDeck};
use crate::report::{self, HumanOptions, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Deck list files; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[arg(long, short, value_enum, default_value_t = OutputFormat::Human)]
    pub output: OutputFormat,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

pub(crate) fn run(args: &CheckArgs, stdin: &mut dyn Read, terminal: Terminal) -> Outcome {
    let settings = match Settings::resolve(&args.settings) {
        Ok(settings) => settings,
        Err(message) => return Outcome::failure(message),
    };
    let mut outcome = Outcome::default();
    let mut decks: Vec<CheckedDeck> = Vec::new();
    let mut stdin_used = false;
    for file in &args.files {
        match read_deck(file, stdin, &mut stdin_used) {
            Ok(input) => decks.push(check::check(&input, &settings.db, &settings.format)),
            Err(message) => {
                outcome.stderr.push_str(&format!("error: {message}\n"));
                outcome.code = 2;
            }
        }
    }
    let human = HumanOptions {
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stdout_is_tty,
        },
        width: terminal.width.unwrap_or(100),
    };
    outcome.stdout = match args.output {
        OutputFormat::Human => {
            let mut text: Vec<String> = decks
                .iter()
                .map(|deck| report::human(deck, human))
                .collect();
            if decks.len() > 1 {
                text.push(report::totals(&decks));
            }
            text.join("\n")
        }
        OutputFormat::Short => decks.iter().map(report::short).collect(),
        OutputFormat::Json => report::json(&decks, &settings.db),
    };
    if outcome.code == 0 && decks.iter().any(|deck| !deck.valid()) {
        outcome.code = 1;
    }
    outcome
}
