//! `deckbox config` (being written: see issue 5).

use super::Outcome;

#[derive(Debug, clap::Args)]
pub struct ConfigArgs {}

pub(crate) fn run(_args: &ConfigArgs) -> Outcome {
    Outcome::failure("error: `deckbox config` is not available yet\n".to_string())
}
