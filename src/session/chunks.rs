//! The chunked parallel walk of a command over many files (`check`, `fmt --check`): the
//! files walked on one thread, worked on a chunk at a time on the [`Pool`], the results
//! handed over in file order, so memory stays flat in the number of files.

use std::io::Read;
use std::path::PathBuf;

use super::pool::Pool;
use crate::deck::DeckInput;
use crate::deck::input::read_deck;
use crate::error::Error;
use crate::settings::walk::{self, DeckFile, Selection, Walked};
use crate::settings::{FormatPlan, Settings};

/// Files worked on at once by a command over many files: their results are in memory
/// together ([`AHEAD`] chunks being worked on while the one before is written), so memory
/// stays flat in the number of files.
pub const CHUNK: usize = 512;

/// Chunks given to the pool beyond the one being written: the results of [`CHUNK`] ×
/// (`AHEAD` + 1) files are in memory at most.
pub const AHEAD: usize = 2;

/// Files the walk hands over at once: one hand-over per file made the walking and the
/// checking threads wake each other for every file. Divides [`CHUNK`].
pub const BATCH: usize = 64;

/// What [`in_chunks`] walked: the walk's errors and warnings, and how many files it gave.
#[derive(Debug, Default)]
pub struct Streamed {
    pub walked: Walked,
    pub files: usize,
}

/// Walks `operands` and runs `work` on every file in order, [`CHUNK`] files at a time in
/// parallel, handing each chunk's results, in file order, to `done`. Three things happen at
/// once: the walk (on its own thread, a bounded queue of files ahead), the work on a chunk
/// (on `pool`, else rayon's global pool), and `done` with the chunk before (on this
/// thread). No list of every file is kept. Standard input (the file `-`) is read on this
/// thread and given to `work` as `Some`; `work` reads any other file itself (see
/// [`read_file`]), so it can do what must come first (take a lock). Stops at `done`'s first
/// error. On one thread (`--threads 1`, or a machine with one processor) the walk, the work
/// and `done` take turns on this thread.
pub fn in_chunks<T: Send>(
    operands: &[PathBuf],
    selection: &Selection,
    stdin: &mut dyn Read,
    pool: Option<&Pool>,
    work: impl Fn(&DeckFile, Option<Result<DeckInput, Error>>) -> T + Sync,
    mut done: impl FnMut(Vec<T>) -> std::io::Result<()>,
) -> (Streamed, std::io::Result<()>) {
    let global = Pool::default();
    let pool = pool.unwrap_or(&global);
    if pool.threads() == 1 {
        return in_turn(operands, selection, stdin, work, done);
    }
    std::thread::scope(|scope| {
        let (sender, queue) = std::sync::mpsc::sync_channel::<Vec<DeckFile>>(CHUNK / BATCH);
        let walker = scope.spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let walked = walk::stream(operands, selection, |file| {
                batch.push(file);
                batch.len() < BATCH
                    || sender
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_ok()
            });
            if !batch.is_empty() {
                // Nobody takes it when the writing stopped first: nothing is lost then.
                let _ = sender.send(batch);
            }
            walked
        });
        let (mut files, mut stdin_used, mut written) = (0, false, Ok(()));
        let mut pending: std::collections::VecDeque<std::thread::ScopedJoinHandle<Vec<T>>> =
            std::collections::VecDeque::new();
        loop {
            let part: Vec<_> = (queue.iter().take(CHUNK / BATCH).flatten())
                .map(|file| {
                    let ready = read_stdin(&file, stdin, &mut stdin_used);
                    (file, ready)
                })
                .collect();
            files += part.len();
            let work = &work;
            let finished = part.is_empty();
            if !finished {
                pending.push_back(
                    scope.spawn(move || pool.map(part, |(file, ready)| work(&file, ready))),
                );
            }
            // The oldest chunk is written once AHEAD more wait behind it (all at the end):
            // the pool has work while this thread, woken, waits for a processor to write.
            while pending.len() > AHEAD || (finished && !pending.is_empty()) {
                let Some(handle) = pending.pop_front() else {
                    break;
                };
                written = match handle.join() {
                    Ok(results) => done(results),
                    Err(_) => Err(std::io::Error::other("a worker thread stopped")),
                };
                if written.is_err() {
                    break;
                }
            }
            if finished || written.is_err() {
                break;
            }
        }
        // The walk stops at its next file once nobody takes them.
        drop(queue);
        let walked = walker.join().unwrap_or_default();
        (Streamed { walked, files }, written)
    })
}

/// [`in_chunks`] on one thread: each file walked, worked on, and its result kept until
/// [`CHUNK`] of them go to `done` together (so `done` is called as often as on many threads).
fn in_turn<T>(
    operands: &[PathBuf],
    selection: &Selection,
    stdin: &mut dyn Read,
    work: impl Fn(&DeckFile, Option<Result<DeckInput, Error>>) -> T,
    mut done: impl FnMut(Vec<T>) -> std::io::Result<()>,
) -> (Streamed, std::io::Result<()>) {
    let (mut files, mut stdin_used, mut written) = (0, false, Ok(()));
    let mut results = Vec::with_capacity(CHUNK);
    let walked = walk::stream(operands, selection, |file| {
        let ready = read_stdin(&file, stdin, &mut stdin_used);
        results.push(work(&file, ready));
        files += 1;
        if results.len() == CHUNK {
            written = done(std::mem::replace(&mut results, Vec::with_capacity(CHUNK)));
        }
        written.is_ok()
    });
    if written.is_ok() && !results.is_empty() {
        written = done(results);
    }
    (Streamed { walked, files }, written)
}

/// Standard input's deck when `file` is `-` (read once: `stdin_used`), else `None`: the
/// worker reads any other file itself.
fn read_stdin(
    file: &DeckFile,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Option<Result<DeckInput, Error>> {
    (file.path.as_os_str() == "-")
        .then(|| read_deck(&file.path, stdin, stdin_used).map_err(Error::from))
}

/// Reads one walked file (never standard input, which [`in_chunks`] read first).
pub fn read_file(file: &DeckFile) -> Result<DeckInput, Error> {
    read_deck(&file.path, &mut std::io::empty(), &mut true).map_err(Error::from)
}

/// The formats of the files `operands` name: when the config file has `[[overrides]]`, a
/// first walk loads each format they choose, so a format that cannot be loaded stops the run
/// before any file is checked (the walk that checks keeps no list of files).
pub fn plan_formats<'a>(
    settings: &'a Settings,
    operands: &[PathBuf],
    selection: &Selection,
) -> Result<FormatPlan<'a>, Error> {
    let mut plan = FormatPlan::empty(settings);
    if plan.may_override() {
        let mut failed = None;
        walk::stream(operands, selection, |file| match plan.prepare(&file) {
            Ok(()) => true,
            Err(error) => {
                failed = Some(error);
                false
            }
        });
        if let Some(error) = failed {
            return Err(error);
        }
    }
    Ok(plan)
}
