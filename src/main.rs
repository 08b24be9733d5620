//! The `deckbox` binary: parse arguments, run one command, print, exit. The progress bar of
//! a long simulation lives here too: the library only reports progress.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use deckbox::cli::{self, Args, Progress, Silent, Terminal};

/// Checking a repository allocates many small strings per card line; mimalloc serves them
/// faster than the system allocator (see the README's repository-check figures).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A progress bar on stderr, for a terminal only.
struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn start(&self, total: u64) {
        self.0.set_length(total);
        self.0.set_style(
            indicatif::ProgressStyle::with_template(
                "simulating {bar:40} {percent:>3}% {human_pos}/{human_len} setups, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        self.0
            .set_draw_target(indicatif::ProgressDrawTarget::stderr());
    }

    fn advance(&self, done: u64) {
        self.0.set_position(done);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let terminal = Terminal {
        stdout_is_tty: std::io::stdout().is_terminal(),
        width: std::env::var("COLUMNS")
            .ok()
            .and_then(|cols| cols.parse().ok()),
    };
    let bar;
    let progress: &dyn Progress = if std::io::stderr().is_terminal() {
        bar = Bar(indicatif::ProgressBar::hidden());
        &bar
    } else {
        &Silent
    };
    let outcome = cli::run_with_progress(&args, &mut std::io::stdin().lock(), terminal, progress);
    let mut code = outcome.code;
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(outcome.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    let mut stderr = outcome.stderr;
    match written {
        // A closed pipe (`deckbox check ... | head`) is not an error worth reporting.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        // A full disk or `> /dev/full`: the output is incomplete, so the run failed.
        Err(error) => {
            stderr.push_str(&format!(
                "error: cannot write to standard output: {error}\n"
            ));
            code = 2;
        }
        Ok(()) => {}
    }
    let _ = std::io::stderr().lock().write_all(stderr.as_bytes());
    ExitCode::from(code)
}
