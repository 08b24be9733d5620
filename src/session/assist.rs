//! What a face that is not a terminal needs to do a command's job with the same answer: a
//! list given as text or as a path ([`ListSource`]), paths read only inside the folders the
//! client allows ([`Roots`]), answers cut into pages ([`page`]), and the pages of `explain`
//! and `formats` ([`explain`], [`formats`]). The assistant face (`deckbox mcp`) uses them;
//! nothing here knows a protocol, prints or writes a file.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

use crate::check::rules::Rule;
use crate::error::Error;
use crate::formats::Format;

/// Most items (cards of a search) one page holds.
pub const MAX_PAGE_ITEMS: usize = 100;

/// Items a page holds when the caller does not say.
pub const DEFAULT_PAGE_ITEMS: usize = 20;

/// Most bytes of one answer: a larger one is refused with the reason (narrow the query, or
/// ask for a smaller page).
pub const MAX_ANSWER_BYTES: usize = 1024 * 1024;

/// Most tool calls a session computes at once; a call beyond them waits for one to end.
pub const MAX_CALLS_IN_FLIGHT: usize = 4;

/// A deck list or a collection: its text, or the path of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListSource {
    Text(String),
    Path(PathBuf),
}

impl ListSource {
    /// The operand a command reads it from and what standard input holds: `-` and the
    /// text, or the path and nothing. A command reading `-` bounds the text as it bounds a
    /// file ([`crate::deck::input::read_deck`]), so the answer is the one the command line
    /// gives for the same list on standard input.
    pub fn operand(&self) -> (PathBuf, Vec<u8>) {
        match self {
            ListSource::Text(text) => (PathBuf::from("-"), text.as_bytes().to_vec()),
            ListSource::Path(path) => (path.clone(), Vec::new()),
        }
    }
}

/// The folders files may be read from: the roots a client gives, else the working folder.
/// Every path is resolved (`..`, symbolic links) before it is compared, so neither leads out.
#[derive(Debug, Clone)]
pub struct Roots {
    roots: Vec<PathBuf>,
}

impl Roots {
    /// The roots a client gave (`Some`, resolved; those that do not exist are left out, and
    /// none at all allows no file), else (`None`) the working folder.
    pub fn new(roots: Option<&[PathBuf]>) -> Result<Roots, Error> {
        let Some(roots) = roots else {
            let here = std::env::current_dir().and_then(std::fs::canonicalize);
            let here = here.map_err(|error| Error::Usage {
                message: format!("cannot resolve the working folder: {error}"),
            })?;
            return Ok(Roots { roots: vec![here] });
        };
        let resolved = (roots.iter())
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .collect();
        Ok(Roots { roots: resolved })
    }

    /// No folder: no file may be read.
    pub fn none() -> Roots {
        Roots { roots: Vec::new() }
    }

    /// The folders files may be read from, resolved.
    pub fn folders(&self) -> &[PathBuf] {
        &self.roots
    }

    /// `path` resolved (a relative one from the first root) when it is a regular file
    /// inside a root; else why it may not be read. A path that does not resolve and one
    /// that leads out get the same answer, so no file outside the roots can be probed.
    pub fn confine(&self, path: &Path) -> Result<PathBuf, Error> {
        let shown = crate::util::escape::path(path);
        let refused = |why: String| Error::Usage {
            message: format!("cannot read {shown}: {why}"),
        };
        let joined = match self.roots.first() {
            Some(first) if path.is_relative() => first.join(path),
            _ => path.to_path_buf(),
        };
        let inside = std::fs::canonicalize(&joined)
            .ok()
            .filter(|resolved| self.roots.iter().any(|root| resolved.starts_with(root)));
        let Some(resolved) = inside else {
            return Err(refused(format!(
                "no such file in the folders this session may read ({})",
                self.describe()
            )));
        };
        match std::fs::metadata(&resolved) {
            Ok(metadata) if metadata.is_file() => Ok(resolved),
            Ok(_) => Err(refused("it is not a regular file".to_string())),
            Err(error) => Err(refused(error.to_string())),
        }
    }

    /// The roots, for a message.
    fn describe(&self) -> String {
        if self.roots.is_empty() {
            return "none".to_string();
        }
        let names: Vec<String> = self
            .roots
            .iter()
            .map(|root| crate::util::escape::path(root))
            .collect();
        names.join(", ")
    }
}

/// The path a `file://` URI names (a client's root), its `%XX` escapes decoded; `None` for
/// any other URI or one that is not a path.
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host (empty or `localhost`) is this machine.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    Some(PathBuf::from(String::from_utf8(decoded).ok()?))
}

/// The page of `items` that starts at `cursor` (an offset written as text, as the previous
/// page's next cursor gave it) and holds `limit` items (at most [`MAX_PAGE_ITEMS`]), and
/// the cursor of the next page when there is one.
pub fn page<'a, T>(
    items: &'a [T],
    cursor: Option<&str>,
    limit: Option<usize>,
) -> Result<(&'a [T], Option<String>), Error> {
    let start = match cursor {
        None => 0,
        Some(text) => match text.parse::<usize>() {
            Ok(start) if start <= items.len() => start,
            _ => {
                return Err(Error::Usage {
                    message: format!("the cursor `{text}` is not one a previous page gave"),
                });
            }
        },
    };
    let limit = limit.unwrap_or(DEFAULT_PAGE_ITEMS);
    if limit == 0 || limit > MAX_PAGE_ITEMS {
        return Err(Error::Usage {
            message: format!("limit must be from 1 to {MAX_PAGE_ITEMS}, not {limit}"),
        });
    }
    let end = start.saturating_add(limit).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((&items[start..end], next))
}

/// `deckbox explain`'s page: one rule's (what it checks, why, an example, the fix), or the
/// list of every rule without one.
pub fn explain(rule: Option<&str>) -> Result<String, Error> {
    let Some(id) = rule else {
        return Ok(crate::render::explain::rule_list());
    };
    let Some(rule) = Rule::from_id(id).or_else(|| Rule::from_loose_id(id)) else {
        let known: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
        let did_you_mean = Rule::closest(id)
            .map(|rule| format!("; did you mean '{}'?", rule.id()))
            .unwrap_or_default();
        return Err(Error::UnknownRule {
            id: id.to_string(),
            did_you_mean,
            known: known.join(", "),
        });
    };
    Ok(crate::render::explain::rule_page(rule))
}

/// `deckbox formats`' page: the listed formats, or one (`show`: a built-in id or a format
/// file's path, at a date). A format file may come from a cloned repository: its strings
/// are shown escaped.
pub fn formats(show: Option<(&str, Option<Date>)>) -> Result<String, Error> {
    let shown = match show {
        None => Format::listed_ids()
            .map(Format::load)
            .collect::<Result<Vec<_>, _>>()
            .map(|all| crate::render::formats::list(&all)),
        Some((format, as_of)) => {
            Format::load_at(format, as_of).map(|format| crate::render::formats::show(&format))
        }
    }?;
    Ok(crate::util::escape::visible(&shown).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_their_cursors_to_the_end() {
        let items: Vec<u32> = (0..45).collect();
        let (first, next) = page(&items, None, None).unwrap();
        assert_eq!((first.len(), next.as_deref()), (20, Some("20")));
        let (last, next) = page(&items, Some("40"), Some(20)).unwrap();
        assert_eq!((last, next), (&items[40..], None));
        assert!(page(&items, Some("46"), None).is_err());
        assert!(page(&items, Some("x"), None).is_err());
        assert!(page(&items, None, Some(MAX_PAGE_ITEMS + 1)).is_err());
        assert!(page(&items, None, Some(0)).is_err());
    }

    #[test]
    fn file_uris_are_local_paths() {
        let path = |uri| file_uri_path(uri);
        assert_eq!(
            path("file:///home/a%20b/x"),
            Some(PathBuf::from("/home/a b/x"))
        );
        assert_eq!(path("file://localhost/srv"), Some(PathBuf::from("/srv")));
        assert_eq!(path("file://other/srv"), None);
        assert_eq!(path("https://example.com/"), None);
        assert_eq!(path("file:///bad%zz"), None);
    }

    #[test]
    fn no_roots_allow_no_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("deck.txt"), "4 Dreepy\n").unwrap();
        let roots = Roots::new(Some(&[])).unwrap();
        assert!(roots.confine(&dir.path().join("deck.txt")).is_err());
    }

    #[test]
    fn a_path_out_of_the_roots_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("in");
        std::fs::create_dir(&inside).unwrap();
        std::fs::write(inside.join("deck.txt"), "4 Dreepy\n").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "x\n").unwrap();
        let roots = Roots::new(Some(std::slice::from_ref(&inside))).unwrap();
        assert!(roots.confine(Path::new("deck.txt")).is_ok());
        assert!(roots.confine(&inside.join("deck.txt")).is_ok());
        for escape in ["../secret.txt", "sub/../../secret.txt", "."] {
            assert!(roots.confine(Path::new(escape)).is_err(), "{escape}");
        }
        assert!(roots.confine(&dir.path().join("secret.txt")).is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), inside.join("link.txt"))
                .unwrap();
            assert!(roots.confine(Path::new("link.txt")).is_err());
        }
    }
}
