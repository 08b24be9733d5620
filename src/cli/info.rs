//! `deckbox explain` and `deckbox formats`: documentation the tool carries about its rules
//! and its formats. Reads no deck and opens no card database.

use clap::Subcommand;

use super::Outcome;
use deckbox::error::Error;

#[derive(Debug, Subcommand)]
pub enum FormatsAction {
    /// Show one format: a built-in id or the path of a format file.
    Show {
        format: String,
        /// Show the format as it was on this date (YYYY-MM-DD): its season, bans and sets.
        #[arg(long, value_name = "DATE", value_parser = super::parse_date)]
        as_of: Option<jiff::civil::Date>,
    },
}

pub(crate) fn explain(rule: Option<&str>) -> Result<Outcome, Error> {
    Ok(Outcome {
        stdout: deckbox::session::assist::explain(rule)?,
        ..Outcome::default()
    })
}

pub(crate) fn formats(action: Option<&FormatsAction>) -> Result<Outcome, Error> {
    let show = action.map(|FormatsAction::Show { format, as_of }| (format.as_str(), *as_of));
    Ok(Outcome {
        stdout: deckbox::session::assist::formats(show)?,
        ..Outcome::default()
    })
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// A completion script for `shell`, generated from the command-line definition.
pub(crate) fn completions(args: &CompletionsArgs) -> Result<Outcome, Error> {
    let mut command = <super::Args as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "deckbox", &mut script);
    match String::from_utf8(script) {
        Ok(stdout) => Ok(Outcome {
            stdout,
            ..Outcome::default()
        }),
        Err(error) => Err(Error::Usage {
            message: format!("completion script: {error}"),
        }),
    }
}

/// The man page, in roff, generated from the command-line definition: deckbox's own, or
/// `deckbox-<command>(1)` for one command.
pub(crate) fn man(command: Option<&str>) -> Result<Outcome, Error> {
    let deckbox = <super::Args as clap::CommandFactory>::command();
    let page = match command {
        None => deckbox,
        Some(name) => {
            let known: Vec<String> = deckbox
                .get_subcommands()
                .map(|sub| sub.get_name().to_string())
                .collect();
            match deckbox.find_subcommand(name) {
                // A subcommand's page is named `deckbox-<command>` (as git's are).
                Some(sub) => sub
                    .clone()
                    .display_name(format!("deckbox-{name}"))
                    .bin_name(format!("deckbox {name}")),
                None => {
                    return Err(Error::UnknownCommand {
                        name: name.to_string(),
                        known: known.join(", "),
                    });
                }
            }
        }
    };
    let mut roff = Vec::new();
    let source = format!("deckbox {}", env!("CARGO_PKG_VERSION"));
    if let Err(error) = clap_mangen::Man::new(page).source(source).render(&mut roff) {
        return Err(Error::Usage {
            message: format!("man page: {error}"),
        });
    }
    match String::from_utf8(roff) {
        Ok(stdout) => Ok(Outcome {
            stdout,
            ..Outcome::default()
        }),
        Err(error) => Err(Error::Usage {
            message: format!("man page: {error}"),
        }),
    }
}
