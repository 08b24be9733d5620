//! `deckbox review` and `deckbox log`: the command-line side of
//! [`deckbox::session::review`]. Parses the arguments, asks the library, renders the report
//! ([`deckbox::render::review`]). Review exits as `check` would on the new revision: 0 every
//! changed deck valid (or removed), 1 one breaks a rule, 2 something could not be reviewed.
//! Log exits 0, or 2 when a commit could not be read.

use std::path::PathBuf;

use clap::ValueEnum;

use super::{Outcome, SettingsArgs};
use deckbox::error::{Error, Exit};
use deckbox::render::review as render;
use deckbox::session::review::{self, ReviewRequest};
use deckbox::settings::Settings;

/// How `review` and `log` print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ReviewOutput {
    /// For a terminal (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// GitHub-flavoured Markdown: a job summary or a pull-request comment.
    Markdown,
    /// One JSON document (see docs/repositories.md).
    Json,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit code, as `check` on the new revision: 0 every changed deck list valid, 1 one breaks a rule, 2 something could not be reviewed."
)]
pub struct ReviewArgs {
    /// The revision to compare from (a branch, a tag, a commit: `origin/main`).
    pub base: String,
    /// The revision to compare to. Default: the work tree, files not yet tracked included.
    pub head: Option<String>,
    #[command(flatten)]
    pub output: super::output::OutputArgs<ReviewOutput>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// The deck list whose history to show (followed across renames).
    pub deck: PathBuf,
    #[command(flatten)]
    pub output: super::output::OutputArgs<ReviewOutput>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

fn here() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

pub(crate) fn run_review(args: &ReviewArgs) -> Result<Outcome, Error> {
    let settings = Settings::resolve(&args.settings.flags())?;
    let dir = here();
    let request = ReviewRequest {
        dir: &dir,
        base: &args.base,
        head: args.head.as_deref(),
    };
    let found = review::review(&settings, &request)?;
    let invalid = (found.decks.iter()).any(|deck| deck.after.as_ref().is_some_and(|v| !v.valid));
    let code = if found.failures.is_empty() {
        Exit::findings_if(invalid)
    } else {
        Exit::Failed
    };
    let stdout = match args.output.format() {
        ReviewOutput::Text => render::text(&found),
        ReviewOutput::Markdown => render::markdown_report(&found),
        ReviewOutput::Json => render::json(&found),
    };
    Ok(Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
    .noted(&settings.notes))
}

pub(crate) fn run_log(args: &LogArgs) -> Result<Outcome, Error> {
    let settings = Settings::resolve(&args.settings.flags())?;
    let found = review::log(&settings, &here(), &args.deck)?;
    let stdout = match args.output.format() {
        ReviewOutput::Text => render::log_text(&found),
        ReviewOutput::Markdown => render::log_markdown(&found),
        ReviewOutput::Json => render::json(&found),
    };
    Ok(Outcome {
        stdout,
        stderr: String::new(),
        code: if found.failures.is_empty() {
            Exit::Clean
        } else {
            Exit::Failed
        },
    }
    .noted(&settings.notes))
}
