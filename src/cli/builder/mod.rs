//! `deckbox build`: a deck builder in the terminal. The builder's model is the library's
//! ([`deckbox::builder`]): this module opens the list (refusing what `fmt --write` refuses,
//! with the same message), runs the terminal (`terminal.rs`: raw mode, the alternate screen,
//! mouse capture and bracketed paste, restored on quit, on a panic, on Ctrl-C, on a signal
//! and while suspended), turns keys and pastes (here) and the mouse
//! (`mouse.rs`) into messages, performs the model's effects (a search on a thread of its
//! own, a save) and draws (`ui.rs`).
//!
//! Saving writes exactly what `deckbox fmt --write` writes (`edit::file::for_writing`), atomically,
//! and only on Ctrl-S.

pub(crate) mod mouse;
pub(crate) mod terminal;
pub(crate) mod ui;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::{Outcome, SettingsArgs};
use deckbox::builder::{Answer, Builder, Effect, Key, Message, SaveRequest, SearchRequest};
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

pub(crate) fn run(args: &BuildArgs) -> Result<Outcome, Error> {
    let (app, notes) = open(args)?;
    if !std::io::stdout().is_terminal() {
        return Ok(Outcome::failure(
            "error: deckbox build draws in a terminal, and standard output is not one\n".into(),
        )
        .noted(&notes));
    }
    match ratatui::crossterm::terminal::size() {
        Ok((width, height)) if width >= ui::MIN_WIDTH && height >= ui::MIN_HEIGHT => {}
        Ok((width, height)) => {
            return Ok(Outcome::failure(format!(
                "error: the terminal is {width}×{height}; deckbox build needs at least {}×{}\n",
                ui::MIN_WIDTH,
                ui::MIN_HEIGHT
            ))
            .noted(&notes));
        }
        Err(error) => {
            return Ok(Outcome::failure(format!(
                "error: cannot read the terminal's size: {error}\n"
            ))
            .noted(&notes));
        }
    }
    let outcome = match interactive(app) {
        Ok(app) if app.dirty() => Outcome {
            stderr: format!("{}: changes not saved\n", app.name()),
            ..Outcome::default()
        },
        Ok(_) => Outcome::default(),
        Err(error) => Outcome::failure(format!("error: the terminal failed: {error}\n")),
    };
    Ok(outcome.noted(&notes))
}

/// Reads the list (an empty one for a new file) and the collection, as the other commands
/// would; the builder and the settings' notes.
pub(crate) fn open(args: &BuildArgs) -> Result<(Builder, String), Error> {
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
        deckbox::edit::file::for_writing(file, &input, &settings.db, &format)?;
    }
    let have = if args.have.is_empty() {
        None
    } else {
        let paths: Vec<&Path> = args.have.iter().map(PathBuf::as_path).collect();
        Some(deckbox::collection::read(&paths, &settings.db, &format)?)
    };
    let notes = settings.notes.clone();
    let mut app = Builder::new(settings.db, format, file.clone(), input.text, exists);
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

/// What wakes the terminal loop: an event of the terminal, a search's answer, or the reader
/// of terminal events failing.
enum Input {
    Terminal(Event),
    Answer(Answer),
    Broken(std::io::Error),
}

/// How often the reader of terminal events looks whether the loop has ended (a bound on how
/// long quitting waits for it); events themselves reach the loop as soon as they are read.
const READER_TICK: Duration = Duration::from_millis(20);

/// The thread that reads the terminal's events and hands them to the loop, so the loop
/// sleeps until an event or a search's answer arrives, whichever comes first (no polling).
struct Reader {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Reader {
    fn start(inputs: std::sync::mpsc::Sender<Input>) -> std::io::Result<Reader> {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("terminal events".into())
            .spawn(move || {
                while !stopped.load(std::sync::atomic::Ordering::SeqCst) {
                    let input = match event::poll(READER_TICK) {
                        Ok(false) => continue,
                        Ok(true) => match event::read() {
                            Ok(event) => Input::Terminal(event),
                            Err(error) => Input::Broken(error),
                        },
                        Err(error) => Input::Broken(error),
                    };
                    let broken = matches!(input, Input::Broken(_));
                    if inputs.send(input).is_err() || broken {
                        return;
                    }
                }
            })?;
        Ok(Reader { stop, thread })
    }

    /// Stops the thread and waits for it (at most about one [`READER_TICK`]), so no event
    /// is read once the terminal is left.
    fn finish(self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = self.thread.join();
    }
}

/// The terminal loop: read one input (a terminal event or a search's answer) and update the
/// model; when nothing is waiting, draw and sleep until the next input. A search runs on a
/// thread of its own (one at a time), so typing redraws at once; its answer is shown as soon
/// as it is ready, when it still answers the query in the box.
fn interactive(mut app: Builder) -> std::io::Result<Builder> {
    let mut terminal = terminal::enter()?;
    let (inputs, input) = std::sync::mpsc::channel::<Input>();
    let scroll = ui::Scroll::default();
    let reader = match Reader::start(inputs.clone()) {
        Ok(reader) => reader,
        Err(error) => {
            terminal::leave()?;
            return Err(error);
        }
    };
    let result = (|| -> std::io::Result<()> {
        loop {
            let next = match input.try_recv() {
                Ok(next) => next,
                Err(_) => {
                    let effects = app.update(Message::Idle);
                    if perform(&mut app, effects, &inputs) {
                        return Ok(());
                    }
                    terminal.draw(|frame| ui::draw(frame, &app, &scroll))?;
                    // The loop holds a sender itself, so this waits for an input, never fails.
                    input.recv().map_err(std::io::Error::other)?
                }
            };
            let message = match next {
                Input::Answer(answer) => Some(Message::Answer(answer)),
                Input::Broken(error) => return Err(error),
                Input::Terminal(Event::Key(key)) if is_suspend(key) => {
                    terminal::suspend();
                    None
                }
                Input::Terminal(Event::Key(key)) => key_message(key),
                Input::Terminal(Event::Mouse(mouse)) => {
                    let size = terminal.size()?;
                    let screen = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                    mouse::mouse(&app, &scroll, mouse, screen)
                }
                Input::Terminal(Event::Paste(text)) => Some(Message::Paste(text)),
                // After a resize or a suspend: the whole screen is drawn again.
                Input::Terminal(Event::Resize(..)) => {
                    terminal.clear()?;
                    None
                }
                Input::Terminal(_) => None,
            };
            if let Some(message) = message {
                let effects = app.update(message);
                if perform(&mut app, effects, &inputs) {
                    return Ok(());
                }
            }
        }
    })();
    reader.finish();
    terminal::leave()?;
    result.map(|()| app)
}

/// Ctrl-Z pressed: deckbox suspends itself (`terminal::suspend`), as a shell's job.
fn is_suspend(key: KeyEvent) -> bool {
    key.kind != KeyEventKind::Release
        && key.modifiers.contains(KeyModifiers::CONTROL)
        && key.code == KeyCode::Char('z')
}

/// The builder's key for a key the terminal read; `None` for a key released.
pub(crate) fn key_message(key: KeyEvent) -> Option<Message> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let key = match key.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Esc => Key::Esc,
        _ => Key::Other,
    };
    Some(Message::Key(key))
}

/// Performs the model's effects in order (a search on a thread of its own, whose answer
/// comes back through `inputs`); true when the builder quits.
fn perform(
    app: &mut Builder,
    effects: Vec<Effect>,
    inputs: &std::sync::mpsc::Sender<Input>,
) -> bool {
    for effect in effects {
        match effect {
            Effect::Search(request) => {
                if !search_aside(app, request.clone(), inputs.clone()) {
                    let answer = request.run(app.db());
                    app.update(Message::Answer(answer));
                }
            }
            Effect::Save(request) => {
                // A file read at the start and gone now is written again, and the player told.
                let deleted = request.previous.is_some()
                    && std::fs::symlink_metadata(&request.path)
                        .is_err_and(|error| error.kind() == std::io::ErrorKind::NotFound);
                let message = match write(app, &request) {
                    Ok(text) if deleted => Message::SavedAgain(text),
                    saved => Message::Saved(saved),
                };
                app.update(message);
            }
            Effect::Quit => return true,
        }
    }
    false
}

/// Starts a search on another thread; false when no thread could be started (the caller
/// searches itself).
fn search_aside(
    app: &Builder,
    request: SearchRequest,
    inputs: std::sync::mpsc::Sender<Input>,
) -> bool {
    let db = std::sync::Arc::clone(app.db());
    std::thread::Builder::new()
        .name("search".into())
        .spawn(move || {
            let _ = inputs.send(Input::Answer(request.run(&db)));
        })
        .is_ok()
}

/// Ctrl-S: the list as `deckbox fmt --write` writes it, atomically; the text written, or
/// why nothing was (on one line, for the status line).
fn write(app: &Builder, request: &SaveRequest) -> Result<String, String> {
    let input = DeckInput::from_bytes(request.name.clone(), request.text.as_bytes());
    let path = &request.path;
    let formatted = deckbox::edit::file::for_writing(path, &input, app.db(), app.format())
        .map_err(|error| one_line(&super::render(&error.into())))?
        .formatted;
    let options = Options::default();
    let written = match &request.previous {
        Some(previous) => Lock::acquire(path).and_then(|lock| {
            lock.replace(Some(previous.as_bytes()), formatted.as_bytes(), options)
        }),
        None => atomic::create(path, formatted.as_bytes(), options),
    };
    match written {
        Ok(()) => Ok(formatted),
        Err(error) => Err(one_line(&super::unwritten(path, &error))),
    }
}

/// A message of several lines on the status line.
fn one_line(message: &str) -> String {
    message.lines().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
