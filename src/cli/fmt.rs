//! `deckbox fmt` and `deckbox convert` (being written: see issue 5).

use std::io::Read;
use std::path::PathBuf;

use super::{Outcome, Terminal};

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    pub files: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    pub file: PathBuf,
}

pub(crate) fn run_fmt(_args: &FmtArgs, _stdin: &mut dyn Read, _terminal: Terminal) -> Outcome {
    Outcome::failure("error: `deckbox fmt` is not available yet\n".to_string())
}

pub(crate) fn run_convert(_args: &ConvertArgs, _stdin: &mut dyn Read) -> Outcome {
    Outcome::failure("error: `deckbox convert` is not available yet\n".to_string())
}
