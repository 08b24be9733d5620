//! The `deckbox` binary: parse arguments, run one command ([`cli`], binary-only), print,
//! exit. The library only reports progress; the binary draws it ([`cli::bar`]).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use cli::Terminal;

mod cli;

/// Checking a repository allocates many small strings per card line; mimalloc serves them
/// faster than the system allocator (see the README's repository-check figures). Its 2.x
/// line (Cargo.toml) starts and exits with fewer page faults than its 3.x line: every
/// short command pays that (docs/performance.md, "The cost of a deckbox process").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Standard output that remembers its first write error: a command stops at an error, and
/// the binary alone decides what it means for the exit code.
struct FirstError<W> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> FirstError<W> {
    fn record<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        match result {
            Err(error) => {
                let kind = error.kind();
                if self.error.is_none() {
                    self.error = Some(error);
                }
                Err(kind.into())
            }
            ok => ok,
        }
    }
}

impl<W: Write> Write for FirstError<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(bytes);
        self.record(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.record(result)
    }
}

fn main() -> ExitCode {
    let args = cli::parse::args();
    let terminal = Terminal {
        stdout_is_tty: std::io::stdout().is_terminal(),
        width: std::env::var("COLUMNS")
            .ok()
            .and_then(|cols| cols.parse().ok()),
    };
    // `deckbox lsp` reads and writes standard input and output on threads of its own: neither
    // is locked for it.
    #[cfg(feature = "lsp")]
    if let cli::Command::Lsp(lsp_args) = &args.command {
        let outcome = cli::run_lsp(lsp_args);
        let _ = std::io::stderr()
            .lock()
            .write_all(outcome.stderr.as_bytes());
        return ExitCode::from(outcome.code.code());
    }
    // A bar on standard error for a long simulation, when it is a terminal.
    let progress = cli::bar::Bar::new();
    // Standard input and output are locked per call, not for the whole run: `deckbox mcp`
    // reads and writes them from its runtime's threads.
    let mut stdout = FirstError {
        inner: std::io::BufWriter::new(std::io::stdout()),
        error: None,
    };
    let outcome = cli::run(
        &args,
        &mut std::io::stdin(),
        terminal,
        &progress,
        &mut stdout,
    );
    let mut code = outcome.code;
    // Errors while the report streamed were kept; these come after.
    let _ = stdout
        .write_all(outcome.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    let mut stderr = outcome.stderr;
    match stdout.error {
        // A closed pipe (`deckbox check ... | head`) is not an error worth reporting.
        Some(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        // A full disk or `> /dev/full`: the output is incomplete, so the run failed.
        Some(error) => {
            stderr.push_str(&format!(
                "error: cannot write to standard output: {error}\n"
            ));
            code = deckbox::error::Exit::Failed;
        }
        None => {}
    }
    let _ = std::io::stderr().lock().write_all(stderr.as_bytes());
    ExitCode::from(code.code())
}
