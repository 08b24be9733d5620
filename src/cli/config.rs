//! `deckbox config`: the settings deck commands would use here, and where each came from
//! (a flag, the environment, a line of deckbox.toml, or the default): worked out by
//! [`deckbox::settings::report`], laid out by [`deckbox::render::config`]. It loads the
//! format to say whether it is usable but opens no card database and reads no deck.

use clap::ValueEnum;

use super::{Outcome, SettingsArgs};
use deckbox::error::{Error, Exit};
use deckbox::formats::Format;
use deckbox::render::config as render;
use deckbox::settings::{report, resolve_layers};

#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub output: super::output::OutputArgs<ConfigOutput>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ConfigOutput {
    /// `key = value   (origin)`, one setting a line (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON document.
    Json,
}

pub(crate) fn run(args: &ConfigArgs) -> Result<Outcome, Error> {
    let flags = args.settings.flags();
    let (config, resolved) = resolve_layers(&flags)?;
    let mut outcome = Outcome {
        stdout: match args.output.format() {
            ConfigOutput::Text => render::text(&report::rows(config.as_ref(), &resolved, &flags)),
            ConfigOutput::Json => render::json(&report::json(config.as_ref(), &resolved)),
        },
        ..Outcome::default()
    };
    if let Err(error) = Format::load(&resolved.format.value) {
        outcome.stderr = super::render(&error.into());
        outcome.code = Exit::Failed;
    }
    Ok(outcome)
}
