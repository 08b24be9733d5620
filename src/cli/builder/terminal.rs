//! The terminal's modes while the builder runs, and their restoring on every way out: raw
//! mode, the alternate screen, mouse capture and bracketed paste (a paste is one
//! [`Event::Paste`](ratatui::crossterm::event::Event::Paste), never keystrokes) are set by
//! [`enter`] and undone by [`leave`]: on quit, on a panic (the hook), on a signal that ends
//! the process (SIGTERM, SIGHUP, SIGINT, SIGQUIT: the terminal is restored, then the
//! signal's own action ends deckbox) and while deckbox is suspended (Ctrl-Z or SIGTSTP: the
//! terminal is restored before it stops; on SIGCONT the modes are set again and the screen
//! is drawn whole).

use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the builder holds the terminal (between [`enter`] and [`leave`]): a SIGCONT
/// sets the modes again only then.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode, the alternate screen, mouse capture and bracketed paste, with a panic hook
/// that restores them and (on Unix) a thread that restores them on a signal.
pub(crate) fn enter() -> std::io::Result<ratatui::DefaultTerminal> {
    // Ctrl-C is a key in raw mode, and quits through the loop.
    restoring_hook(|| {
        let _ = restore();
    });
    set()?;
    ACTIVE.store(true, Ordering::SeqCst);
    #[cfg(unix)]
    signals::watch();
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))
}

/// The terminal as it was before [`enter`].
pub(crate) fn leave() -> std::io::Result<()> {
    ACTIVE.store(false, Ordering::SeqCst);
    restore()
}

/// The modes set. Mouse capture and bracketed paste are conveniences: where a terminal has
/// neither, every key still works.
fn set() -> std::io::Result<()> {
    enable_raw_mode()?;
    let mut out = out()?;
    execute!(out, EnterAlternateScreen)?;
    let _ = execute!(out, EnableMouseCapture, EnableBracketedPaste);
    Ok(())
}

/// Sets the panic hook: `restore` runs before the panic is reported (by the hook set
/// before), so the report is printed on the normal screen, in a terminal that echoes again.
fn restoring_hook(restore: impl Fn() + Send + Sync + 'static) {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        report(info);
    }));
}

/// Undoes [`enter`]'s modes, whether or not they are set.
fn restore() -> std::io::Result<()> {
    restore_to(&mut out()?)
}

/// [`restore`], with the escape sequences written to `out`.
fn restore_to(out: &mut impl std::io::Write) -> std::io::Result<()> {
    let raw = disable_raw_mode();
    execute!(
        out,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen
    )?;
    raw
}

/// Standard output, written around its lock: the command's caller holds that lock while
/// the builder runs, and a signal's thread or a panicking search thread must still reach
/// the terminal.
#[cfg(unix)]
fn out() -> std::io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    Ok(std::io::stdout().as_fd().try_clone_to_owned()?.into())
}

#[cfg(not(unix))]
fn out() -> std::io::Result<std::io::Stdout> {
    Ok(std::io::stdout())
}

/// Ctrl-Z (a key in raw mode): the terminal restored and deckbox stopped, as a shell's job
/// is; the signal thread sets the terminal again when it continues.
pub(crate) fn suspend() {
    #[cfg(unix)]
    signals::suspend();
}

#[cfg(unix)]
mod signals {
    use signal_hook::consts::signal::{
        SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGSTOP, SIGTERM, SIGTSTP, SIGWINCH,
    };
    use signal_hook::iterator::Signals;
    use signal_hook::low_level;

    /// Starts the thread that reads the signals; without it (no thread, a handler refused)
    /// the signals keep their default actions.
    pub(super) fn watch() {
        let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT])
        else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    match signal {
                        SIGTSTP => suspend(),
                        SIGCONT => resume(),
                        ending => {
                            let _ = super::restore();
                            let _ = low_level::emulate_default_handler(ending);
                        }
                    }
                }
            });
    }

    /// The terminal restored, then the process stopped until a SIGCONT.
    pub(super) fn suspend() {
        let _ = super::restore();
        let _ = low_level::raise(SIGSTOP);
    }

    /// After a stop (ours, or a SIGSTOP from outside, after which a shell may have reset the
    /// terminal): the modes set again, and a SIGWINCH to ourselves so the event loop gets a
    /// resize and draws the whole screen.
    fn resume() {
        if super::ACTIVE.load(super::Ordering::SeqCst) {
            let _ = super::set();
            let _ = low_level::raise(SIGWINCH);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::Command;
    use std::sync::{Arc, Mutex};

    /// A panic hook, as `std::panic::take_hook` gives it.
    type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync>;

    /// Issue 49 item 4, "a panic restoring the terminal": the hook [`enter`] sets writes the
    /// sequences that leave mouse reporting, bracketed paste and the alternate screen, and
    /// only then lets the panic be reported. Tested here, on a recording writer and a panic
    /// caught on this thread, because no input of the shipped binary may reach a panic, and
    /// a switch that made one (an environment variable, a hidden key) would ship too. What
    /// runs in the hook besides `restore_to`'s writer (`out()`, standard output's handle;
    /// `disable_raw_mode`, crossterm's) is not faked.
    #[test]
    fn a_panic_restores_the_terminal_before_it_is_reported() {
        let me = std::thread::current().id();
        let seen = Arc::new(Mutex::new(Vec::<u8>::new()));
        // The hook before ours: here it records the report (for this thread; any other
        // test's panic is reported as usual).
        let usual: Arc<Hook> = Arc::new(std::panic::take_hook());
        let (reported, otherwise) = (Arc::clone(&seen), Arc::clone(&usual));
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() == me {
                reported.lock().unwrap().extend_from_slice(b"<reported>");
            } else {
                otherwise(info);
            }
        }));
        let terminal = Arc::clone(&seen);
        restoring_hook(move || {
            if std::thread::current().id() == me {
                let _ = restore_to(&mut *terminal.lock().unwrap());
            }
        });
        let caught = std::panic::catch_unwind(|| panic!("a bug in the builder"));
        // Both hooks removed, the usual one set again.
        let _ = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| usual(info)));
        assert!(caught.is_err());
        let mut expected = String::new();
        DisableMouseCapture.write_ansi(&mut expected).unwrap();
        DisableBracketedPaste.write_ansi(&mut expected).unwrap();
        LeaveAlternateScreen.write_ansi(&mut expected).unwrap();
        expected.push_str("<reported>");
        let seen = String::from_utf8(seen.lock().unwrap().clone()).unwrap();
        assert_eq!(seen, expected);
        // The modes by name: any-event and button mouse reporting, SGR mouse, bracketed
        // paste, the alternate screen.
        for mode in ["?1003l", "?1000l", "?1006l", "?2004l", "?1049l"] {
            assert!(seen.contains(&format!("\u{1b}[{mode}")), "{mode}: {seen:?}");
        }
    }
}
