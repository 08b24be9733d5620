//! `deckbox add`, `deckbox remove` and `deckbox diff` (being written: see issue 5).

use std::io::Read;
use std::path::PathBuf;

use super::Outcome;

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    pub file: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct RemoveArgs {
    pub file: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    pub old: PathBuf,
    pub new: PathBuf,
}

pub(crate) fn run_add(_args: &AddArgs) -> Outcome {
    Outcome::failure("error: `deckbox add` is not available yet\n".to_string())
}

pub(crate) fn run_remove(_args: &RemoveArgs) -> Outcome {
    Outcome::failure("error: `deckbox remove` is not available yet\n".to_string())
}

pub(crate) fn run_diff(_args: &DiffArgs, _stdin: &mut dyn Read) -> Outcome {
    Outcome::failure("error: `deckbox diff` is not available yet\n".to_string())
}
