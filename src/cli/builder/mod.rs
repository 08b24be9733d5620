//! `deckbox build`: a deck builder in the terminal. This module opens the list (refusing
//! what `fmt --write` refuses, with the same message), runs the terminal (raw mode, the
//! alternate screen and mouse capture, restored on quit, on a panic and on Ctrl-C) and
//! saves; `app.rs` holds the state and the keys, `mouse.rs` the mouse, `ui.rs` draws it.
//!
//! Saving writes exactly what `deckbox fmt --write` writes (`fmt::for_writing`), atomically,
//! and only on Ctrl-S.

pub(crate) mod app;
pub(crate) mod mouse;
pub(crate) mod ui;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};

use super::{Outcome, SettingsArgs};
use app::{Action, App};
use deckbox::deck::DeckInput;
use deckbox::deck::input::read_deck;
use deckbox::edit::listing;
use deckbox::error::Error;
use deckbox::settings::Settings;
use deckbox::util::atomic::{self, Lock, Options};

#[derive(Debug, clap::Args)]
#[command(after_help = "Keys (also on `?` inside):
  /            focus the search box: the search language (`type:psychic stage:basic`) or a
               card as `deckbox card` reads it (`Dreepy TWM 128`); Enter goes to the results
  ↑ ↓  j k     move              Tab    results ↔ deck
  + or Enter   add one copy      -      remove one copy (in the deck: of the line)
  p            in the deck: the line's next printing legal in the format
  u            undo              Ctrl-S save (as `deckbox fmt --write` writes the list)
  q            quit (asks y/n when there are unsaved changes)
  mouse        a click on a result, a deck line or the search box goes there; the wheel
               moves in the list under the pointer (Shift+drag selects text)

Examples:
  deckbox build new.txt
  deckbox build dragapult.txt --format expanded --as-of 2024-06-01
  deckbox build deck.txt --have binder.txt

Exit status: 0 the builder ran and quit; 2 the list cannot be opened (what `fmt --write` \
refuses, with the same message), standard output is not a terminal, or the terminal is \
smaller than 80×24.")]
pub struct BuildArgs {
    /// The deck list: an existing list, or a new file (written in the Pokémon TCG Live
    /// layout on the first save; a new `*.json` file in deckbox's JSON layout).
    pub file: PathBuf,
    /// Collection files, as `deckbox need --have` reads them: the results show how many
    /// copies you own, the deck how many it still lacks.
    #[arg(long, value_name = "COLLECTION")]
    pub have: Vec<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

pub(crate) fn run(args: &BuildArgs) -> Outcome {
    let (app, notes) = match open(args) {
        Ok(opened) => opened,
        Err(error) => return Outcome::error(&error),
    };
    if !std::io::stdout().is_terminal() {
        return Outcome::failure(
            "error: deckbox build draws in a terminal, and standard output is not one\n".into(),
        )
        .noted(&notes);
    }
    match ratatui::crossterm::terminal::size() {
        Ok((width, height)) if width >= ui::MIN_WIDTH && height >= ui::MIN_HEIGHT => {}
        Ok((width, height)) => {
            return Outcome::failure(format!(
                "error: the terminal is {width}×{height}; deckbox build needs at least {}×{}\n",
                ui::MIN_WIDTH,
                ui::MIN_HEIGHT
            ))
            .noted(&notes);
        }
        Err(error) => {
            return Outcome::failure(format!("error: cannot read the terminal's size: {error}\n"))
                .noted(&notes);
        }
    }
    let outcome = match interactive(app) {
        Ok(app) if app.dirty() => Outcome {
            stderr: format!("{}: changes not saved\n", app.name),
            ..Outcome::default()
        },
        Ok(_) => Outcome::default(),
        Err(error) => Outcome::failure(format!("error: the terminal failed: {error}\n")),
    };
    outcome.noted(&notes)
}

/// Reads the list (an empty one for a new file) and the collection, as the other commands
/// would; the app and the settings' notes.
pub(crate) fn open(args: &BuildArgs) -> Result<(App, String), Error> {
    let file = &args.file;
    if file.as_os_str() == "-" {
        return Err(Error::Usage {
            message: "`deckbox build` edits a file; standard input (`-`) cannot be saved".into(),
        });
    }
    let settings = Settings::resolve_for(&args.settings.flags(), file)?;
    let exists = !matches!(
        std::fs::symlink_metadata(file),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound
    );
    let input = if exists {
        read_deck(file, &mut std::io::empty(), &mut true).map_err(Error::from)?
    } else {
        DeckInput::from_bytes(
            deckbox::util::escape::path_line(file),
            new_list(file).as_bytes(),
        )
    };
    let format = settings.format_for_deck(&input)?.into_owned();
    if exists {
        super::fmt::for_writing(file, &input, &settings.db, &format)?;
    }
    let have = if args.have.is_empty() {
        None
    } else {
        let paths: Vec<&Path> = args.have.iter().map(PathBuf::as_path).collect();
        Some(deckbox::collection::read(&paths, &settings.db, &format)?)
    };
    let notes = settings.notes.clone();
    let mut app = App::new(settings.db, format, file.clone(), input.text, exists);
    if let Some(have) = have {
        app = app.with_collection(have);
    }
    Ok((app, notes))
}

/// The list a new file starts from: nothing, written in the Pokémon TCG Live layout on the
/// first save; for a file named `*.json`, which every command reads as JSON, deckbox's JSON
/// layout with no card, so it is saved as JSON.
fn new_list(file: &Path) -> String {
    let json = file
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"));
    if !json {
        return String::new();
    }
    let empty = listing::Listing {
        language: deckbox::names::lang::Language::En,
        comments: Vec::new(),
        groups: Vec::new(),
    };
    listing::render(&empty, listing::Layout::Json)
}

/// The terminal loop: draw when no key is waiting, then read one event. A search runs on
/// a thread of its own (one at a time), so typing redraws at once; its answer is shown when
/// it still answers the query in the box.
fn interactive(mut app: App) -> std::io::Result<App> {
    // `try_init` enters raw mode and the alternate screen and installs a panic hook that
    // restores the terminal before the panic is reported; the hook set here stops mouse
    // capture first. Ctrl-C is a key in raw mode, and quits through the loop.
    let mut terminal = ratatui::try_init()?;
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = ratatui::crossterm::execute!(std::io::stdout(), DisableMouseCapture);
        restore(info);
    }));
    // The mouse is a convenience: where it cannot be captured, every key still works.
    let _ = ratatui::crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let (answers, answered) = std::sync::mpsc::channel::<app::Answer>();
    let mut searching = false;
    let result = (|| -> std::io::Result<()> {
        loop {
            if let Ok(answer) = answered.try_recv() {
                searching = false;
                app.take_answer(answer);
            }
            if !event::poll(Duration::ZERO)? {
                if app.query_dirty && !searching {
                    searching = search_aside(&app, answers.clone());
                    if !searching {
                        app.refresh_search();
                    }
                }
                terminal.draw(|frame| ui::draw(frame, &app))?;
            }
            // While a search runs, look for its answer every few milliseconds.
            let wait = if searching {
                Duration::from_millis(5)
            } else {
                Duration::from_secs(3600)
            };
            if !event::poll(wait)? {
                continue;
            }
            let action = match event::read()? {
                Event::Key(key) => app.key(key),
                Event::Mouse(mouse) => {
                    let size = terminal.size()?;
                    let screen = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                    mouse::mouse(&mut app, mouse, screen);
                    Action::None
                }
                _ => Action::None,
            };
            match action {
                Action::Save => save(&mut app),
                Action::Quit => return Ok(()),
                Action::None => {}
            }
        }
    })();
    let released = ratatui::crossterm::execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::try_restore()?;
    released?;
    result.map(|()| app)
}

/// Starts the search of the query in the box on another thread; false when no thread could
/// be started (the caller searches itself).
fn search_aside(app: &App, answers: std::sync::mpsc::Sender<app::Answer>) -> bool {
    let (db, query, language) = (
        std::sync::Arc::clone(&app.db),
        app.query.clone(),
        app.language,
    );
    std::thread::Builder::new()
        .name("search".into())
        .spawn(move || {
            let _ = answers.send(app::answer(&db, &query, language));
        })
        .is_ok()
}

/// Ctrl-S: the list as `deckbox fmt --write` writes it, atomically; the outcome in the
/// status line.
pub(crate) fn save(app: &mut App) {
    let input = DeckInput::from_bytes(app.name.clone(), app.text.as_bytes());
    let formatted = match super::fmt::for_writing(&app.path, &input, &app.db, &app.format) {
        Ok(formatted) => formatted.formatted,
        Err(error) => {
            app.message = Some(one_line(&super::render(&error)));
            return;
        }
    };
    let options = Options::default();
    let written = if app.exists {
        Lock::acquire(&app.path).and_then(|lock| {
            lock.replace(Some(app.saved.as_bytes()), formatted.as_bytes(), options)
        })
    } else {
        atomic::create(&app.path, formatted.as_bytes(), options)
    };
    match written {
        Ok(()) => {
            app.message = Some(format!("saved {}", app.name));
            app.saved_as(formatted);
        }
        Err(error) => app.message = Some(one_line(&super::unwritten(&app.path, &error))),
    }
}

/// A message of several lines on the status line.
fn one_line(message: &str) -> String {
    message.lines().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
