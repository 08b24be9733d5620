//! The `deckbox` binary: parse arguments, run one command, print, exit.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use deckbox::cli::{self, Args, Terminal};

fn main() -> ExitCode {
    let args = Args::parse();
    let terminal = Terminal {
        stdout_is_tty: std::io::stdout().is_terminal(),
        width: std::env::var("COLUMNS")
            .ok()
            .and_then(|cols| cols.parse().ok()),
    };
    let outcome = cli::run(&args, &mut std::io::stdin().lock(), terminal);
    // A closed pipe (`deckbox check ... | head`) is not an error worth reporting.
    let _ = std::io::stdout()
        .lock()
        .write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr()
        .lock()
        .write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.code)
}
