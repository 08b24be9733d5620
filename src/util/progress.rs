//! How far long work has come, for a progress bar: a simulation (`deckbox stats
//! --simulate`), an install (`deckbox cards update`), an index built from a checkout. The
//! library never draws anything; the binary implements [`Progress`] with one bar on a
//! terminal.

/// What a step counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (of a download, an archive).
    Bytes,
    /// Things named by this plural word ("setups").
    Items(&'static str),
}

/// How far a piece of work has come. Every method does nothing unless implemented.
pub trait Progress: Sync {
    /// A new step: its name, and its size in `unit` when known.
    fn step(&self, _name: &str, _total: Option<u64>, _unit: Unit) {}
    /// How much of the step is done so far.
    fn advance(&self, _done: u64) {}
    /// The work is over (done or failed).
    fn finish(&self) {}
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Progress for Quiet {}
