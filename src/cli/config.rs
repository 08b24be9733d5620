//! `deckbox config`: the settings deck commands would use here, and where each came from
//! (a flag, the environment, a line of deckbox.toml, or the default). It loads the format
//! to say whether it is usable but opens no card database and reads no deck.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use serde::Serialize;

use super::{Outcome, SettingsArgs};
use deckbox::cards::storage::update;
use deckbox::error::Exit;
use deckbox::formats::Format;
use deckbox::settings::config::{CardData, Config, Origin, Resolved};
use deckbox::settings::walk::DEFAULT_INCLUDE;
use deckbox::settings::{origin_text as origin, resolve_layers, shown};
use deckbox::util::escape::visible_line;

#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub output: super::output::OutputArgs<ConfigOutput>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ConfigOutput {
    /// `key = value   (origin)`, one setting a line (also named `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON document.
    Json,
}

pub(crate) fn run(args: &ConfigArgs) -> Outcome {
    let (config, resolved) = match resolve_layers(&args.settings.flags()) {
        Ok(layers) => layers,
        Err(error) => return Outcome::error(&error),
    };
    let mut outcome = Outcome {
        stdout: match args.output.format() {
            ConfigOutput::Text => text(config.as_ref(), &resolved, &args.settings),
            ConfigOutput::Json => json(config.as_ref(), &resolved),
        },
        ..Outcome::default()
    };
    if let Err(error) = Format::load(&resolved.format.value) {
        outcome.stderr = super::render(&error.into());
        outcome.code = Exit::Failed;
    }
    outcome
}

fn text(config: Option<&Config>, resolved: &Resolved, args: &SettingsArgs) -> String {
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
    let mut rows: Vec<(&str, String, String)> = vec![
        (
            "config",
            config.map_or("none".to_string(), |config| shown(&config.path)),
            if args.source.no_config {
                "(--no-config)"
            } else if args.source.config.is_some() {
                "(--config)"
            } else if config.is_some() {
                "(found)"
            } else {
                "(none found from here up)"
            }
            .to_string(),
        ),
        ("format", format_value, origin(&resolved.format.origin)),
        match (resolved.cards.value.as_deref(), updated_index()) {
            (None, Some(installed)) => (
                "cards",
                shown(&installed),
                "(deckbox cards update)".to_string(),
            ),
            (cards, _) => (
                "cards",
                cards.map_or("embedded".to_string(), shown),
                origin(&resolved.cards.origin),
            ),
        },
        (
            "language",
            resolved
                .language
                .value
                .map_or("each list's own".to_string(), |language| {
                    language.to_string()
                }),
            origin(&resolved.language.origin),
        ),
        (
            "as of",
            resolved.as_of.value.map_or_else(
                || "today (or the format file's as_of)".to_string(),
                |date| date.to_string(),
            ),
            origin(&resolved.as_of.origin),
        ),
    ];
    if let Some((config, expected)) = config.and_then(|c| Some((c, c.card_data.as_ref()?))) {
        rows.push((
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
    rows.push((
        "include",
        include
            .clone()
            .unwrap_or_else(|| DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect())
            .join(", "),
        file_origin(include.is_some()),
    ));
    let exclude = config
        .map(|config| config.exclude.clone())
        .unwrap_or_default();
    rows.push((
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
        rows.push((
            "override",
            format!("{} → {}", entry.paths.join(", "), given.join(", ")),
            origin(&Origin::File {
                path: config.map(|c| c.path.clone()).unwrap_or_default(),
                line: override_line(entry),
            }),
        ));
    }
    // Values come from deckbox.toml, the environment and flags: shown on one line, with
    // invisible and control characters escaped.
    let rows: Vec<(&str, String, String)> = rows
        .into_iter()
        .map(|(key, value, from)| {
            let value = visible_line(&value).into_owned();
            (key, value, visible_line(&from).into_owned())
        })
        .collect();
    let width = rows
        .iter()
        .map(|(_, value, _)| value.chars().count())
        .max()
        .unwrap_or(0);
    let key_width = rows.iter().map(|(key, _, _)| key.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(key, value, from)| {
            let pad = width - value.chars().count();
            format!("{key:<key_width$} = {value}{}   {from}\n", " ".repeat(pad))
        })
        .collect()
}

/// The index `deckbox cards update` installed, when there is one: what runs without `--cards`
/// use. Only its presence is looked at; `deckbox cards status` reads it.
fn updated_index() -> Option<PathBuf> {
    let path = update::installed_path(&update::data_dir().ok()?);
    path.is_file().then_some(path)
}

#[derive(Serialize)]
struct JsonConfig<'a> {
    version: u32,
    config: Option<&'a Path>,
    #[serde(flatten)]
    resolved: &'a Resolved,
    /// The index `deckbox cards update` installed, used when `cards` is null.
    updated_index: Option<PathBuf>,
    /// `card_data` in deckbox.toml: `"embedded"`, `{"newest_set": CODE}`, or null.
    card_data: Option<JsonCardData<'a>>,
    include: Vec<String>,
    exclude: Vec<String>,
    overrides: Vec<JsonOverride<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum JsonCardData<'a> {
    Embedded,
    NewestSet(&'a str),
}

#[derive(Serialize)]
struct JsonOverride<'a> {
    paths: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    as_of: Option<String>,
    line: usize,
}

/// The line of an override entry: its `format`, else its `as_of`.
fn override_line(entry: &deckbox::settings::config::Override) -> usize {
    entry
        .format
        .as_ref()
        .map(|format| format.line)
        .or(entry.as_of.as_ref().map(|date| date.line))
        .unwrap_or(0)
}

fn json(config: Option<&Config>, resolved: &Resolved) -> String {
    let report = JsonConfig {
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
            .unwrap_or_else(|| DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect()),
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
    };
    let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
    out.push('\n');
    out
}
