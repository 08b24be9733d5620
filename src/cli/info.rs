//! `deckbox explain` and `deckbox formats`: documentation the tool carries about its rules
//! and its formats. Reads no deck and opens no card database.

use clap::Subcommand;

use super::Outcome;
use deckbox::check::rules::Rule;
use deckbox::error::Error;
use deckbox::formats::Format;
use deckbox::render;

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
    let Some(id) = rule else {
        return Ok(Outcome {
            stdout: render::explain::rule_list(),
            ..Outcome::default()
        });
    };
    let Some(rule) = Rule::from_id(id).or_else(|| Rule::from_loose_id(id)) else {
        let known: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
        let did_you_mean = Rule::closest(id)
            .map(|rule| format!("; did you mean '{}'?", rule.id()))
            .unwrap_or_default();
        return Err(Error::UnknownRule {
            id: id.to_string(),
            did_you_mean,
            known: known.join(", "),
        });
    };
    Ok(Outcome {
        stdout: render::explain::rule_page(rule),
        ..Outcome::default()
    })
}

pub(crate) fn formats(action: Option<&FormatsAction>) -> Result<Outcome, Error> {
    let shown = match action {
        None => Format::listed_ids()
            .map(Format::load)
            .collect::<Result<Vec<_>, _>>()
            .map(|all| render::formats::list(&all)),
        Some(FormatsAction::Show { format, as_of }) => {
            Format::load_at(format, *as_of).map(|format| render::formats::show(&format))
        }
    };
    match shown {
        // Format files may come from a cloned repository: their strings are shown escaped.
        Ok(stdout) => Ok(Outcome {
            stdout: deckbox::util::escape::visible(&stdout).into_owned(),
            ..Outcome::default()
        }),
        Err(error) => Err(error.into()),
    }
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
