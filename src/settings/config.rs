//! `deckbox.toml`: finding it, reading it strictly, and layering it under flags and the
//! environment.
//!
//! The file is found from the current directory upward ([`discover`]). Its schema is strict:
//! an unknown key or a wrong value is an error pointing at the line, with the nearest known
//! key suggested. Paths in the file (`cards`, a format file, globs) are relative to the
//! file's folder and may not leave it: a config file checked into a repository must not make
//! deckbox read elsewhere. [`resolve`] applies the precedence flags > environment > file >
//! defaults and records where each value came from. This module reads the config file only:
//! it opens no card database, loads no format and walks no directory.

use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::names::lang::Language;
use crate::settings::walk;
use crate::util::invalid_file::{FileError, InvalidFile};

/// The config file's name.
pub const FILE_NAME: &str = "deckbox.toml";

/// The format used when nothing says otherwise.
pub const DEFAULT_FORMAT: &str = "standard";

/// A config file, read and checked. Paths are absolute.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file, absolute.
    pub path: PathBuf,
    /// Its folder: what relative paths and globs in it are relative to.
    pub dir: PathBuf,
    /// A built-in format id, or the absolute path of a format file.
    pub format: Option<Setting<String>>,
    pub cards: Option<Setting<PathBuf>>,
    pub language: Option<Setting<Language>>,
    /// The date decks are judged at (`as_of`).
    pub as_of: Option<Setting<Date>>,
    /// The card data the repository expects (`card_data`): a run with other data warns.
    pub card_data: Option<Setting<CardData>>,
    /// `[files]`; `None` when the file does not say (the walk's defaults apply).
    pub include: Option<Vec<String>>,
    pub exclude: Vec<String>,
    pub overrides: Vec<Override>,
    /// Every override's globs in one set, built once: matching a file costs one pass over
    /// the set instead of one per entry.
    override_matcher: OverrideMatcher,
}

/// The globs of all `[[overrides]]` entries, each glob knowing its entry.
#[derive(Debug, Clone, Default)]
struct OverrideMatcher {
    globs: GlobSet,
    /// Per glob of `globs`: the index of its entry in [`Config::overrides`].
    entry: Vec<usize>,
}

/// The card data a repository expects (`card_data` in deckbox.toml).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardData {
    /// `card_data = "embedded"`: the index built into deckbox, nothing newer or other.
    Embedded,
    /// `card_data = { newest_set = "PBL" }`: data that knows this set (a code as lists
    /// write it, or a TCGdex set id), embedded or updated.
    NewestSet(String),
}

/// `card_data` as written.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawCardData {
    Word(String),
    Table(RawNewestSet),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewestSet {
    newest_set: String,
}

/// A value from the config file and the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting<T> {
    pub value: T,
    pub line: usize,
}

/// `[[overrides]]`: files matching `paths` are checked against `format`, at `as_of`
/// (an entry gives one or both).
#[derive(Debug, Clone)]
pub struct Override {
    pub paths: Vec<String>,
    pub format: Option<Setting<String>>,
    pub as_of: Option<Setting<Date>>,
}

/// Most override globs, all entries together: far more than any repository has. Each glob
/// is compiled into the one matcher, at a cost of about 5 KB (100,000 cost 465 MB to 1 GB
/// and 3 to 12 s); this many cost under 30 MB and a fraction of a second.
pub const MAX_OVERRIDE_GLOBS: usize = 5_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    format: Option<Spanned<String>>,
    cards: Option<Spanned<String>>,
    language: Option<Spanned<String>>,
    as_of: Option<Spanned<String>>,
    card_data: Option<Spanned<RawCardData>>,
    files: Option<RawFiles>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFiles {
    include: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    paths: Spanned<Vec<Spanned<String>>>,
    format: Option<Spanned<String>>,
    as_of: Option<Spanned<String>>,
}

/// The nearest `deckbox.toml` in `start` or a folder above it, up to the file-system root.
pub fn discover(start: &Path) -> Option<PathBuf> {
    walk::absolute(start)
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

/// Largest config file read: a real deckbox.toml is a few hundred bytes, and one with
/// [`MAX_OVERRIDE_GLOBS`] globs in one-glob entries stays under 256 KiB.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Most TOML values (keys, tables, array elements: [`crate::util::toml_shape`]) a config
/// file may hold, counted before it is parsed: the parser keeps a few hundred bytes per
/// value, so this bounds what parsing can cost (tens of MB) whatever the file's bytes are.
/// [`MAX_OVERRIDE_GLOBS`] one-glob entries take 25,000.
pub const MAX_CONFIG_VALUES: usize = 30_000;

/// Deepest nesting of arrays and tables in a config file (its schema needs 3).
pub const MAX_CONFIG_DEPTH: usize = 8;

/// Reads and checks the config file at `path`.
pub fn load(path: &Path) -> Result<Config, FileError> {
    let text = crate::util::bounded::read_to_string(path, MAX_CONFIG_BYTES)
        .map_err(|reason| FileError::io("config", path, reason))?;
    parse(path, &text)
}

/// Checks a config file's text; `path` locates the paths in it and names it in errors.
/// A text with more than [`MAX_CONFIG_VALUES`] values or nested deeper than
/// [`MAX_CONFIG_DEPTH`] is refused before it is parsed.
pub fn parse(path: &Path, text: &str) -> Result<Config, FileError> {
    crate::util::toml_shape::check(text, MAX_CONFIG_VALUES, MAX_CONFIG_DEPTH)
        .map_err(|reason| FileError::io("config", path, reason))?;
    let raw: RawConfig = toml::from_str(text).map_err(|error| {
        FileError::Invalid(Box::new(InvalidFile::from_toml(
            "config", path, text, &error,
        )))
    })?;
    let path = walk::absolute(path);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let reader = Reader {
        path: &path,
        dir: &dir,
        text,
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect(),
    };
    reader.build(raw)
}

/// What checking the values of one file shares.
struct Reader<'a> {
    path: &'a Path,
    dir: &'a Path,
    text: &'a str,
    /// Where each line starts: the line of a value is a binary search away.
    line_starts: Vec<usize>,
}

impl Reader<'_> {
    fn build(&self, raw: RawConfig) -> Result<Config, FileError> {
        let format = raw.format.map(|value| self.format(&value)).transpose()?;
        let cards = raw.cards.map(|value| self.cards(&value)).transpose()?;
        let language = raw
            .language
            .map(|value| self.language(&value))
            .transpose()?;
        let as_of = raw.as_of.map(|value| self.date(&value)).transpose()?;
        let card_data = raw
            .card_data
            .map(|value| self.card_data(value))
            .transpose()?;
        let (include, exclude) = match raw.files {
            Some(files) => (
                files.include.map(|globs| self.globs(&globs)).transpose()?,
                self.globs(&files.exclude)?,
            ),
            None => (None, Vec::new()),
        };
        let (overrides, override_matcher) = self.overrides(&raw.overrides)?;
        Ok(Config {
            path: self.path.to_path_buf(),
            dir: self.dir.to_path_buf(),
            format,
            cards,
            language,
            as_of,
            card_data,
            include,
            exclude,
            overrides,
            override_matcher,
        })
    }

    fn card_data(&self, value: Spanned<RawCardData>) -> Result<Setting<CardData>, FileError> {
        let line = self.line(&value);
        let span = value.span();
        let help = "write `card_data = \"embedded\"` or `card_data = { newest_set = \"PBL\" }` (a set code or a TCGdex set id)";
        let value = match value.into_inner() {
            RawCardData::Word(word) if word == "embedded" => CardData::Embedded,
            RawCardData::Word(word) => {
                return Err(self.error(span, format!("unknown card data `{word}`"), help));
            }
            RawCardData::Table(table) if !table.newest_set.trim().is_empty() => {
                CardData::NewestSet(table.newest_set.trim().to_string())
            }
            RawCardData::Table(_) => {
                return Err(self.error(span, "`newest_set` is empty".into(), help));
            }
        };
        Ok(Setting { value, line })
    }

    fn line(&self, value: &Spanned<impl Sized>) -> usize {
        self.line_starts
            .partition_point(|&start| start <= value.span().start)
    }

    fn error(&self, at: std::ops::Range<usize>, message: String, help: &str) -> FileError {
        let label = message.clone();
        FileError::Invalid(Box::new(InvalidFile::new(
            "config",
            self.path,
            self.text,
            message,
            Some(at),
            label,
            Some(help.to_string()),
        )))
    }

    /// A built-in id stays as it is; anything else is a format file under the folder.
    fn format(&self, value: &Spanned<String>) -> Result<Setting<String>, FileError> {
        let name = value.get_ref();
        let builtin = crate::formats::Format::builtin_ids().any(|id| id == name);
        let resolved = if builtin {
            name.clone()
        } else if name.ends_with(".toml") || name.contains('/') {
            self.inside(value)?.display().to_string()
        } else {
            let known: Vec<&str> = crate::formats::Format::builtin_ids().collect();
            return Err(self.error(
                value.span(),
                format!("unknown format `{name}`"),
                &format!(
                    "known formats: {}; or the path of a format file ending in `.toml`",
                    known.join(", ")
                ),
            ));
        };
        Ok(Setting {
            value: resolved,
            line: self.line(value),
        })
    }

    fn cards(&self, value: &Spanned<String>) -> Result<Setting<PathBuf>, FileError> {
        Ok(Setting {
            value: self.inside(value)?,
            line: self.line(value),
        })
    }

    fn date(&self, value: &Spanned<String>) -> Result<Setting<Date>, FileError> {
        let date = crate::util::date::parse(value.get_ref()).ok_or_else(|| {
            self.error(
                value.span(),
                format!("`{}` is not a date", value.get_ref()),
                "write the date as YYYY-MM-DD (`as_of = \"2012-08-10\"`)",
            )
        })?;
        Ok(Setting {
            value: date,
            line: self.line(value),
        })
    }

    fn language(&self, value: &Spanned<String>) -> Result<Setting<Language>, FileError> {
        let language = Language::from_code(value.get_ref()).ok_or_else(|| {
            self.error(
                value.span(),
                format!("unknown language `{}`", value.get_ref()),
                "known languages: en, fr, es, pt, de, it",
            )
        })?;
        Ok(Setting {
            value: language,
            line: self.line(value),
        })
    }

    /// Globs are relative to the folder: no absolute pattern, no `..`.
    fn globs(&self, globs: &[Spanned<String>]) -> Result<Vec<String>, FileError> {
        Ok(self
            .compiled(globs)?
            .into_iter()
            .map(|(pattern, _)| pattern)
            .collect())
    }

    /// [`Reader::globs`], each with its compiled glob.
    fn compiled(&self, globs: &[Spanned<String>]) -> Result<Vec<(String, Glob)>, FileError> {
        globs
            .iter()
            .map(|glob| {
                let pattern = glob.get_ref();
                let escapes = pattern.starts_with('/')
                    || pattern.contains('\\')
                    || pattern.split('/').any(|part| part == "..");
                if escapes {
                    return Err(self.error(
                        glob.span(),
                        format!("the glob `{pattern}` reaches outside the config file's folder"),
                        "globs are relative to the folder of deckbox.toml: write them without a leading `/` and without `..`",
                    ));
                }
                match walk::glob(pattern) {
                    Ok(compiled) => Ok((pattern.clone(), compiled)),
                    Err(error) => Err(self.error(
                        glob.span(),
                        format!("invalid glob `{pattern}`: {error}"),
                        "globs use `*`, `?`, `**`, `[abc]` and `{a,b}`",
                    )),
                }
            })
            .collect()
    }

    /// The `[[overrides]]` entries and one matcher for all their globs.
    fn overrides(
        &self,
        raw: &[RawOverride],
    ) -> Result<(Vec<Override>, OverrideMatcher), FileError> {
        let mut overrides = Vec::with_capacity(raw.len());
        let mut set = GlobSetBuilder::new();
        let mut entry = Vec::new();
        for (index, raw) in raw.iter().enumerate() {
            let compiled = self.compiled(raw.paths.get_ref())?;
            if entry.len() + compiled.len() > MAX_OVERRIDE_GLOBS {
                return Err(self.error(
                    raw.paths.span(),
                    format!("more than {MAX_OVERRIDE_GLOBS} override globs"),
                    "group files into folders and give each folder one glob (`glc/**`)",
                ));
            }
            let mut paths = Vec::with_capacity(compiled.len());
            for (pattern, glob) in compiled {
                set.add(glob);
                entry.push(index);
                paths.push(pattern);
            }
            if raw.format.is_none() && raw.as_of.is_none() {
                return Err(self.error(
                    raw.paths.span(),
                    "an override gives neither `format` nor `as_of`".to_string(),
                    "give the files matching `paths` a format, a date or both",
                ));
            }
            overrides.push(Override {
                paths,
                format: raw.format.as_ref().map(|f| self.format(f)).transpose()?,
                as_of: raw.as_of.as_ref().map(|d| self.date(d)).transpose()?,
            });
        }
        let globs = set.build().map_err(|error| {
            self.error(
                0..0,
                format!("the override globs cannot be compiled together: {error}"),
                "use fewer or simpler globs",
            )
        })?;
        Ok((overrides, OverrideMatcher { globs, entry }))
    }

    /// `value` as a path under the folder, or an error when it leaves it (`..`, an absolute
    /// path elsewhere, or a symbolic link pointing out).
    fn inside(&self, value: &Spanned<String>) -> Result<PathBuf, FileError> {
        let written = Path::new(value.get_ref());
        let joined = walk::normalize(&self.dir.join(written));
        let lexical = joined.starts_with(self.dir)
            && !written
                .components()
                .any(|part| part == Component::ParentDir);
        let real = match (joined.canonicalize(), self.dir.canonicalize()) {
            (Ok(target), Ok(dir)) => target.starts_with(dir),
            // Not there (yet): opening it fails later with its own message.
            _ => true,
        };
        if lexical && real {
            return Ok(joined);
        }
        Err(self.error(
            value.span(),
            format!(
                "`{}` is outside the config file's folder",
                value.get_ref()
            ),
            "paths in deckbox.toml must stay inside its folder (no `..`, no absolute path elsewhere, no link out); give such a path on the command line instead (`--cards DIR`, `--format FILE`)",
        ))
    }
}

impl Config {
    /// The format `[[overrides]]` give `file` (absolute); the last matching entry that
    /// gives one wins.
    pub fn format_for(&self, file: &Path) -> Option<&Setting<String>> {
        self.matching(file)
            .iter()
            .rev()
            .find_map(|entry| entry.format.as_ref())
    }

    /// The date `[[overrides]]` give `file` (absolute); the last matching entry that gives
    /// one wins.
    pub fn as_of_for(&self, file: &Path) -> Option<&Setting<Date>> {
        self.matching(file)
            .iter()
            .rev()
            .find_map(|entry| entry.as_of.as_ref())
    }

    /// The `[[overrides]]` entries matching `file` (absolute), in file order.
    fn matching(&self, file: &Path) -> Vec<&Override> {
        let Ok(relative) = file.strip_prefix(&self.dir) else {
            return Vec::new();
        };
        let matcher = &self.override_matcher;
        let mut entries: Vec<usize> = matcher
            .globs
            .matches(relative)
            .into_iter()
            .filter_map(|glob| matcher.entry.get(glob).copied())
            .collect();
        entries.sort_unstable();
        entries.dedup();
        entries
            .into_iter()
            .filter_map(|index| self.overrides.get(index))
            .collect()
    }

    /// The walk's file selection: `[files]` globs relative to this file's folder.
    pub fn selection(&self) -> Result<walk::Selection, globset::Error> {
        let defaults: Vec<String> = walk::DEFAULT_INCLUDE
            .iter()
            .map(|s| s.to_string())
            .collect();
        let include = self.include.as_ref().unwrap_or(&defaults);
        walk::Selection::new(include, &self.exclude, Some(self.dir.clone()))
    }
}

/// Where a resolved value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Origin {
    /// Built into deckbox.
    Default,
    /// A command-line flag (`--format`).
    Flag { flag: &'static str },
    /// An environment variable (`DECKBOX_CARDS`).
    Env { var: &'static str },
    /// A line of a config file.
    File { path: PathBuf, line: usize },
}

/// A resolved value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

/// Everything [`resolve`] layers, highest precedence first within each value.
#[derive(Debug, Default, Clone, Copy)]
pub struct Layers<'a> {
    pub format_flag: Option<&'a str>,
    pub cards_flag: Option<&'a Path>,
    /// `DECKBOX_FORMAT`, `DECKBOX_CARDS` (empty values count as unset).
    pub format_env: Option<&'a str>,
    pub cards_env: Option<&'a Path>,
    /// `--as-of` and `DECKBOX_AS_OF`.
    pub as_of_flag: Option<Date>,
    pub as_of_env: Option<Date>,
    pub file: Option<&'a Config>,
}

/// The settings every deck command starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolved {
    pub format: Sourced<String>,
    /// `None`: the embedded card index.
    pub cards: Sourced<Option<PathBuf>>,
    /// Default language of lists deckbox writes; `None`: keep the list's own.
    pub language: Sourced<Option<Language>>,
    /// The date decks are judged at; `None`: the format file's `as_of`, else today.
    pub as_of: Sourced<Option<Date>>,
}

/// Applies flags > environment > config file > defaults.
pub fn resolve(layers: &Layers) -> Resolved {
    let file = layers.file;
    let from_file = |line: usize| Origin::File {
        path: file.map(|config| config.path.clone()).unwrap_or_default(),
        line,
    };
    let format = pick(
        layers.format_flag.map(str::to_string),
        "--format",
        layers.format_env.map(str::to_string),
        "DECKBOX_FORMAT",
        file.and_then(|config| config.format.clone())
            .map(|setting| (setting.value, from_file(setting.line))),
    )
    .unwrap_or_else(|| Sourced {
        value: DEFAULT_FORMAT.to_string(),
        origin: Origin::Default,
    });
    let cards = pick(
        layers.cards_flag.map(Path::to_path_buf),
        "--cards",
        layers.cards_env.map(Path::to_path_buf),
        "DECKBOX_CARDS",
        file.and_then(|config| config.cards.clone())
            .map(|setting| (setting.value, from_file(setting.line))),
    );
    let cards = optional(cards);
    let language = match file.and_then(|config| config.language.clone()) {
        Some(setting) => Sourced {
            value: Some(setting.value),
            origin: from_file(setting.line),
        },
        None => Sourced {
            value: None,
            origin: Origin::Default,
        },
    };
    let as_of = pick(
        layers.as_of_flag,
        "--as-of",
        layers.as_of_env,
        "DECKBOX_AS_OF",
        file.and_then(|config| config.as_of.clone())
            .map(|setting| (setting.value, from_file(setting.line))),
    );
    let as_of = optional(as_of);
    Resolved {
        format,
        cards,
        language,
        as_of,
    }
}

/// A value that may be unset: `None` from the default when no layer gave one.
fn optional<T>(picked: Option<Sourced<T>>) -> Sourced<Option<T>> {
    match picked {
        Some(Sourced { value, origin }) => Sourced {
            value: Some(value),
            origin,
        },
        None => Sourced {
            value: None,
            origin: Origin::Default,
        },
    }
}

fn pick<T>(
    flag: Option<T>,
    flag_name: &'static str,
    env: Option<T>,
    env_name: &'static str,
    file: Option<(T, Origin)>,
) -> Option<Sourced<T>> {
    let flag = flag.map(|value| Sourced {
        value,
        origin: Origin::Flag { flag: flag_name },
    });
    let env = env.map(|value| Sourced {
        value,
        origin: Origin::Env { var: env_name },
    });
    let file = file.map(|(value, origin)| Sourced { value, origin });
    flag.or(env).or(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_in(dir: &Path, text: &str) -> Result<Config, FileError> {
        parse(&dir.join(FILE_NAME), text)
    }

    #[test]
    fn card_data_is_embedded_or_a_newest_set() {
        let dir = Path::new("/repo");
        let embedded = parse_in(dir, "card_data = \"embedded\"\n").unwrap();
        let setting = embedded.card_data.unwrap();
        assert_eq!((setting.value, setting.line), (CardData::Embedded, 1));
        let newest = parse_in(
            dir,
            "format = \"glc\"\ncard_data = { newest_set = \"me99\" }\n",
        );
        let setting = newest.unwrap().card_data.unwrap();
        assert_eq!(setting.value, CardData::NewestSet("me99".into()));
        assert_eq!(setting.line, 2);
        for bad in [
            "card_data = \"latest\"\n",
            "card_data = { newest_set = \" \" }\n",
            "card_data = { newest = \"PBL\" }\n",
            "card_data = 3\n",
        ] {
            assert!(parse_in(dir, bad).is_err(), "{bad}");
        }
    }

    fn invalid_message(error: FileError) -> (String, String, Option<String>) {
        let FileError::Invalid(invalid) = error else {
            panic!("expected an invalid-file error");
        };
        let span = invalid.span.unwrap();
        let text = invalid.source_code.inner().clone();
        let at = text[span.offset()..span.offset() + span.len()].to_string();
        (invalid.message, at, invalid.help)
    }

    #[test]
    fn reads_every_key() {
        let text = "format = \"standard\"\ncards = \"cards\"\nlanguage = \"fr\"\n[files]\ninclude = [\"*.txt\"]\nexclude = [\"drafts/**\"]\n[[overrides]]\npaths = [\"glc/**\"]\nformat = \"glc\"\n";
        let config = parse_in(Path::new("/repo"), text).unwrap();
        assert_eq!(config.format.as_ref().unwrap().value, "standard");
        assert_eq!(config.format.as_ref().unwrap().line, 1);
        assert_eq!(
            config.cards.clone().unwrap().value,
            PathBuf::from("/repo/cards")
        );
        assert_eq!(config.language.clone().unwrap().value, Language::Fr);
        assert_eq!(config.include.clone().unwrap(), vec!["*.txt".to_string()]);
        assert_eq!(config.exclude, vec!["drafts/**".to_string()]);
        let glc = config.format_for(Path::new("/repo/glc/a/b.txt")).unwrap();
        assert_eq!((glc.value.as_str(), glc.line), ("glc", 9));
        assert!(config.format_for(Path::new("/repo/x.txt")).is_none());
        assert!(
            config
                .format_for(Path::new("/elsewhere/glc/x.txt"))
                .is_none()
        );
    }

    #[test]
    fn unknown_key_names_the_nearest() {
        let error =
            parse_in(Path::new("/repo"), "format = \"glc\"\nlangauge = \"fr\"\n").unwrap_err();
        let (message, at, help) = invalid_message(error);
        assert!(message.contains("langauge"), "{message}");
        assert_eq!(at, "langauge");
        assert!(help.unwrap().contains("did you mean `language`?"));
        let error = parse_in(Path::new("/repo"), "[files]\nincludes = []\n").unwrap_err();
        let (_, at, help) = invalid_message(error);
        assert_eq!(at, "includes");
        assert!(help.unwrap().contains("`include`"));
    }

    #[test]
    fn paths_may_not_leave_the_folder() {
        for text in [
            "cards = \"../cards\"\n",
            "cards = \"/etc\"\n",
            "cards = \"a/../../b\"\n",
            "format = \"../f.toml\"\n",
            "[files]\ninclude = [\"../*.txt\"]\n",
            "[files]\nexclude = [\"/abs/**\"]\n",
            "[[overrides]]\npaths = [\"x/../../y\"]\nformat = \"glc\"\n",
        ] {
            let error = parse_in(Path::new("/repo"), text).unwrap_err();
            let (message, _, _) = invalid_message(error);
            assert!(
                message.contains("outside") || message.contains("reaches"),
                "{text}: {message}"
            );
        }
        let inside = parse_in(Path::new("/repo"), "cards = \"/repo/data\"\n").unwrap();
        assert_eq!(inside.cards.unwrap().value, PathBuf::from("/repo/data"));
    }

    #[test]
    fn format_files_are_relative_to_the_folder() {
        let config = parse_in(Path::new("/repo"), "format = \"formats/league.toml\"\n").unwrap();
        assert_eq!(config.format.unwrap().value, "/repo/formats/league.toml");
    }

    #[test]
    fn bad_values_point_at_the_value() {
        let (message, at, _) =
            invalid_message(parse_in(Path::new("/r"), "language = \"xx\"\n").unwrap_err());
        assert!(message.contains("unknown language"));
        assert_eq!(at, "\"xx\"");
        let (message, _, _) =
            invalid_message(parse_in(Path::new("/r"), "format = 3\n").unwrap_err());
        assert!(message.contains("expected text in quotes"), "{message}");
        let (message, _, _) = invalid_message(
            parse_in(Path::new("/r"), "[files]\ninclude = [\"a[\"]\n").unwrap_err(),
        );
        assert!(message.contains("invalid glob"), "{message}");
        let (message, at, help) =
            invalid_message(parse_in(Path::new("/r"), "format = \"standrd\"\n").unwrap_err());
        assert!(message.contains("unknown format"), "{message}");
        assert_eq!(at, "\"standrd\"");
        assert!(help.unwrap().contains("standard"));
    }

    #[test]
    fn precedence_flag_env_file_default() {
        let config = parse_in(Path::new("/r"), "format = \"glc\"\ncards = \"c\"\n").unwrap();
        let mut layers = Layers {
            format_flag: Some("standard"),
            format_env: Some("expanded"),
            file: Some(&config),
            ..Layers::default()
        };
        let origin = |layers: &Layers| {
            let resolved = resolve(layers);
            (resolved.format.value, resolved.format.origin)
        };
        assert_eq!(
            origin(&layers),
            ("standard".into(), Origin::Flag { flag: "--format" })
        );
        layers.format_flag = None;
        assert_eq!(
            origin(&layers),
            (
                "expanded".into(),
                Origin::Env {
                    var: "DECKBOX_FORMAT"
                }
            )
        );
        layers.format_env = None;
        let file = Origin::File {
            path: PathBuf::from("/r/deckbox.toml"),
            line: 1,
        };
        assert_eq!(origin(&layers), ("glc".into(), file));
        layers.file = None;
        assert_eq!(origin(&layers), ("standard".into(), Origin::Default));
        let cards = resolve(&Layers {
            cards_env: Some(Path::new("/env")),
            file: Some(&config),
            ..Layers::default()
        })
        .cards;
        assert_eq!(cards.value, Some(PathBuf::from("/env")));
    }

    #[test]
    fn discovery_walks_up() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "").unwrap();
        let found = discover(&deep).unwrap();
        assert_eq!(found, walk::absolute(&dir.path().join(FILE_NAME)));
    }
}
