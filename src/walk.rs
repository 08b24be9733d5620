//! Which files are deck lists: the operands of `deckbox check`, with directories walked.
//!
//! Directories are walked with the `ignore` crate (ripgrep's walker): `.gitignore`, `.ignore`
//! and git's exclude files are honoured even outside a git repository, hidden files and
//! folders are skipped, and symbolic links are not followed (so a link loop cannot hang the
//! walk). A walked file counts when it matches an include glob and no exclude glob; a file
//! named on the command line always counts. Globs follow `.gitignore` conventions: a pattern
//! without `/` matches a file name at any depth (`*.txt`), one with `/` is anchored to the
//! base folder (`glc/**`), and `*` never crosses a `/`. This module reads directory entries
//! only: it never opens a deck file and knows nothing of deck lists or formats.

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// Files a walk picks up when no config file says otherwise: plain text lists (`.txt`,
/// what Pokémon TCG Live and Limitless export), `.deck`, and the `.ptcgl`/`.ptcgo`
/// extensions some deck builders save.
pub const DEFAULT_INCLUDE: [&str; 4] = ["*.txt", "*.deck", "*.ptcgl", "*.ptcgo"];

/// Compiles globs with the `.gitignore` conventions described above.
pub fn glob_set(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut set = GlobSetBuilder::new();
    for pattern in patterns {
        let anchored = pattern.trim_start_matches("./");
        let full = if anchored.contains('/') {
            anchored.to_string()
        } else {
            format!("**/{anchored}")
        };
        set.add(GlobBuilder::new(&full).literal_separator(true).build()?);
    }
    set.build()
}

/// Which walked files count: include and exclude globs, relative to `base` (the config
/// file's folder) or, without one, to the directory being walked.
#[derive(Debug, Clone)]
pub struct Selection {
    include: GlobSet,
    exclude: GlobSet,
    base: Option<PathBuf>,
}

impl Selection {
    /// `base` must be absolute and normalized (see [`absolute`]).
    pub fn new(
        include: &[String],
        exclude: &[String],
        base: Option<PathBuf>,
    ) -> Result<Selection, globset::Error> {
        Ok(Selection {
            include: glob_set(include)?,
            exclude: glob_set(exclude)?,
            base,
        })
    }

    /// [`DEFAULT_INCLUDE`], nothing excluded, relative to each walked directory.
    pub fn defaults() -> Selection {
        let include: Vec<String> = DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect();
        Selection::new(&include, &[], None).unwrap_or_else(|_| Selection {
            include: GlobSet::empty(),
            exclude: GlobSet::empty(),
            base: None,
        })
    }

    /// Whether the walked file `file` (absolute) under the walked directory `root`
    /// (absolute) counts. A file outside the base folder is matched relative to `root`.
    pub fn selects(&self, file: &Path, root: &Path) -> bool {
        let relative = self
            .base
            .as_deref()
            .and_then(|base| file.strip_prefix(base).ok())
            .or_else(|| file.strip_prefix(root).ok())
            .unwrap_or(file);
        self.include.is_match(relative) && !self.exclude.is_match(relative)
    }
}

/// One file to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckFile {
    /// The path as reports show it: as typed, or the walked directory joined with the
    /// file's place under it. `-` is standard input.
    pub path: PathBuf,
    /// Absolute and normalized, for matching config globs.
    pub absolute: PathBuf,
}

/// What a walk found: the files in order, and what could not be walked.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<DeckFile>,
    /// One message per directory or entry that could not be read.
    pub errors: Vec<String>,
}

/// The deck files named by `operands`, in operand order; each directory's files sorted by
/// path. A file reached twice is listed once, where first reached.
pub fn deck_files(operands: &[PathBuf], selection: &Selection) -> Walked {
    let mut walked = Walked::default();
    for operand in operands {
        if operand.as_os_str() != "-" && operand.is_dir() {
            walk_dir(operand, selection, &mut walked);
        } else {
            // Named files always count; a missing one fails when it is read.
            walked.files.push(DeckFile {
                path: operand.clone(),
                absolute: absolute(operand),
            });
        }
    }
    let mut seen = std::collections::HashSet::new();
    walked
        .files
        .retain(|file| file.path.as_os_str() == "-" || seen.insert(file.absolute.clone()));
    walked
}

fn walk_dir(dir: &Path, selection: &Selection, walked: &mut Walked) {
    let root = absolute(dir);
    let mut files = Vec::new();
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(false)
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                walked.errors.push(error.to_string());
                continue;
            }
        };
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let path = entry.path();
        let under = path.strip_prefix(dir).unwrap_or(path);
        let full = root.join(under);
        if selection.selects(&full, &root) {
            files.push(DeckFile {
                path: path.to_path_buf(),
                absolute: full,
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    walked.files.extend(files);
}

/// `path` made absolute against the current directory and normalized lexically (`.` and
/// `..` removed), without touching the file system beyond reading the current directory.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    normalize(&joined)
}

/// Removes `.` and resolves `..` lexically; `..` above the root stays at the root.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                // Above the root is the root; a relative path keeps its leading `..`.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection(include: &[&str], exclude: &[&str]) -> Selection {
        let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Selection::new(&strings(include), &strings(exclude), None).unwrap()
    }

    #[test]
    fn globs_follow_gitignore_conventions() {
        let root = Path::new("/r");
        let cases = [
            (&["*.txt"][..], &[][..], "/r/a.txt", true),
            (&["*.txt"], &[], "/r/deep/er/a.txt", true),
            (&["*.txt"], &[], "/r/a.md", false),
            (&["glc/*.txt"], &[], "/r/glc/a.txt", true),
            (&["glc/*.txt"], &[], "/r/glc/sub/a.txt", false),
            (&["glc/**"], &[], "/r/glc/sub/a.txt", true),
            (&["glc/**"], &[], "/r/other/glc/a.txt", false),
            (&["*.txt"], &["drafts/**"], "/r/drafts/a.txt", false),
            (&["*.txt"], &["README.txt"], "/r/x/README.txt", false),
            (&["./decks/*.txt"], &[], "/r/decks/a.txt", true),
        ];
        for (include, exclude, file, expected) in cases {
            let got = selection(include, exclude).selects(Path::new(file), root);
            assert_eq!(got, expected, "{include:?} {exclude:?} {file}");
        }
    }

    #[test]
    fn normalize_is_lexical() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(normalize(Path::new("../../a")), PathBuf::from("../../a"));
        assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
    }
}
