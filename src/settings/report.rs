//! What `deckbox config` reports: the layered settings ([`super::resolve_layers`]) and the
//! config file, as rows and JSON for [`crate::render::config`]. It loads nothing and opens
//! no card database.

use std::path::{Path, PathBuf};

use super::config::{CardData, Config, Origin, Override, Resolved};
use super::walk::DEFAULT_INCLUDE;
use super::{Flags, origin_text as origin, shown};
use crate::cards::storage::update;
use crate::render::config::{Json, JsonCardData, JsonOverride, Row};

/// The rows of `deckbox config`'s text: the config file (and how it was found, from
/// `flags`), the format, the cards, the language, the date, what the config file adds.
pub fn rows(config: Option<&Config>, resolved: &Resolved, flags: &Flags) -> Vec<Row> {
    let row = |key, value, origin| Row { key, value, origin };
    let file_origin = |from_file: bool| match (config, from_file) {
        (Some(config), true) => format!("({})", shown(&config.path)),
        _ => "(default)".to_string(),
    };
    let format = &resolved.format.value;
    let format_value = if Path::new(format).is_absolute() {
        shown(Path::new(format))
    } else {
        format.clone()
    };
    let mut rows = vec![
        row(
            "config",
            config.map_or("none".to_string(), |config| shown(&config.path)),
            if flags.no_config {
                "(--no-config)"
            } else if flags.config.is_some() {
                "(--config)"
            } else if config.is_some() {
                "(found)"
            } else {
                "(none found from here up)"
            }
            .to_string(),
        ),
        row("format", format_value, origin(&resolved.format.origin)),
        match (resolved.cards.value.as_deref(), updated_index()) {
            (None, Some(installed)) => row(
                "cards",
                shown(&installed),
                "(deckbox cards update)".to_string(),
            ),
            (cards, _) => row(
                "cards",
                cards.map_or("embedded".to_string(), shown),
                origin(&resolved.cards.origin),
            ),
        },
        row(
            "language",
            resolved
                .language
                .value
                .map_or("each list's own".to_string(), |language| {
                    language.to_string()
                }),
            origin(&resolved.language.origin),
        ),
        row(
            "as of",
            resolved.as_of.value.map_or_else(
                || "today (or the format file's as_of)".to_string(),
                |date| date.to_string(),
            ),
            origin(&resolved.as_of.origin),
        ),
    ];
    if let Some((config, expected)) = config.and_then(|c| Some((c, c.card_data.as_ref()?))) {
        rows.push(row(
            "card data",
            match &expected.value {
                CardData::Embedded => "embedded".to_string(),
                CardData::NewestSet(set) => format!("newest set {set}"),
            },
            origin(&Origin::File {
                path: config.path.clone(),
                line: expected.line,
            }),
        ));
    }
    let include = config.and_then(|config| config.include.clone());
    rows.push(row(
        "include",
        include.clone().unwrap_or_else(default_include).join(", "),
        file_origin(include.is_some()),
    ));
    let exclude = config
        .map(|config| config.exclude.clone())
        .unwrap_or_default();
    rows.push(row(
        "exclude",
        if exclude.is_empty() {
            "nothing".to_string()
        } else {
            exclude.join(", ")
        },
        file_origin(!exclude.is_empty()),
    ));
    for entry in config
        .map(|config| config.overrides.as_slice())
        .unwrap_or_default()
    {
        let given: Vec<String> = entry
            .format
            .iter()
            .map(|format| format.value.clone())
            .chain(
                entry
                    .as_of
                    .iter()
                    .map(|date| format!("as of {}", date.value)),
            )
            .collect();
        rows.push(row(
            "override",
            format!("{} → {}", entry.paths.join(", "), given.join(", ")),
            origin(&Origin::File {
                path: config.map(|c| c.path.clone()).unwrap_or_default(),
                line: override_line(entry),
            }),
        ));
    }
    rows
}

/// `deckbox config --output json`'s report.
pub fn json<'a>(config: Option<&'a Config>, resolved: &'a Resolved) -> Json<'a, Resolved> {
    Json {
        version: 1,
        config: config.map(|config| config.path.as_path()),
        resolved,
        updated_index: updated_index(),
        card_data: config
            .and_then(|config| config.card_data.as_ref())
            .map(|expected| match &expected.value {
                CardData::Embedded => JsonCardData::Embedded,
                CardData::NewestSet(set) => JsonCardData::NewestSet(set),
            }),
        include: config
            .and_then(|config| config.include.clone())
            .unwrap_or_else(default_include),
        exclude: config
            .map(|config| config.exclude.clone())
            .unwrap_or_default(),
        overrides: config
            .map(|config| config.overrides.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|entry| JsonOverride {
                paths: &entry.paths,
                format: entry.format.as_ref().map(|format| format.value.as_str()),
                as_of: entry.as_of.as_ref().map(|date| date.value.to_string()),
                line: override_line(entry),
            })
            .collect(),
    }
}

fn default_include() -> Vec<String> {
    DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect()
}

/// The index `deckbox cards update` installed, when there is one: what runs without `--cards`
/// use. Only its presence is looked at; `deckbox cards status` reads it.
fn updated_index() -> Option<PathBuf> {
    let path = update::installed_path(&update::data_dir().ok()?);
    path.is_file().then_some(path)
}

/// The line of an override entry: its `format`, else its `as_of`.
fn override_line(entry: &Override) -> usize {
    entry
        .format
        .as_ref()
        .map(|format| format.line)
        .or(entry.as_of.as_ref().map(|date| date.line))
        .unwrap_or(0)
}
