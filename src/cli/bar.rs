//! The binary's one progress bar, for whatever long work the library reports through
//! [`Progress`]: a simulation, a download, an install, an index built from a checkout.

use std::io::IsTerminal;
use std::time::Duration;

use deckbox::util::progress::{Progress, Unit};

/// A progress bar on standard error when it is a terminal; nothing otherwise.
pub(crate) struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub(crate) fn new() -> Bar {
        // Hidden until the first step, so no empty bar is drawn.
        Bar(std::io::stderr()
            .is_terminal()
            .then(indicatif::ProgressBar::hidden))
    }
}

impl Progress for Bar {
    fn step(&self, name: &str, total: Option<u64>, unit: Unit) {
        let Some(bar) = &self.0 else {
            return;
        };
        bar.disable_steady_tick();
        bar.reset();
        bar.set_length(total.unwrap_or(0));
        let template = match (total, unit) {
            (None, _) => "{msg:24} {spinner} {elapsed}".to_string(),
            (Some(_), Unit::Bytes) => {
                "{msg:24} {bar:40} {bytes}/{total_bytes}, {eta} left".to_string()
            }
            (Some(_), Unit::Items(items)) => format!(
                "{{msg}} {{bar:40}} {{percent:>3}}% {{human_pos}}/{{human_len}} {items}, {{eta}} left"
            ),
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(name.to_string());
        // Shown only now, with its style and message set: no default bar drawn first.
        if bar.is_hidden() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        if total.is_none() {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
    }

    fn advance(&self, done: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
