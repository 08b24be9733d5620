//! Which files are deck lists: the operands of `deckbox check`, with directories walked.
//!
//! Directories are walked with the `ignore` crate (ripgrep's walker): hidden files and
//! folders are skipped and symbolic links are not followed (so a link loop cannot hang the
//! walk). `.gitignore`, `.ignore` and git's exclude file are honoured even outside a git
//! repository, in the walked folders and in the folders above up to the repository's root,
//! with git's precedence; this module reads them itself, through the bounded reader
//! ([`crate::util::bounded`]): the crate would open a named pipe called `.gitignore` and wait
//! forever, or read a link to `/dev/zero` without end. An ignore file that cannot be read is
//! a warning naming it, and the walk goes on without its patterns. A walked file counts when it matches an include glob and no exclude glob; a file
//! named on the command line always counts. Globs follow `.gitignore` conventions: a pattern
//! without `/` matches a file name at any depth (`*.txt`), one with `/` is anchored to the
//! base folder (`glc/**`), and `*` never crosses a `/`. This module reads directory entries
//! and ignore files only: it never opens a deck file and knows nothing of deck lists or
//! formats.

use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// Files a walk picks up when no config file says otherwise: plain text lists (`.txt`,
/// what Pokémon TCG Live and Limitless export), `.deck`, and the `.ptcgl`/`.ptcgo`
/// extensions some deck builders save.
pub const DEFAULT_INCLUDE: [&str; 4] = ["*.txt", "*.deck", "*.ptcgl", "*.ptcgo"];

/// Compiles globs with the `.gitignore` conventions described above.
pub fn glob_set(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut set = GlobSetBuilder::new();
    for pattern in patterns {
        set.add(glob(pattern)?);
    }
    set.build()
}

/// One pattern of [`glob_set`].
pub fn glob(pattern: &str) -> Result<Glob, globset::Error> {
    let anchored = pattern.trim_start_matches("./");
    let full = if anchored.contains('/') {
        anchored.to_string()
    } else {
        format!("**/{anchored}")
    };
    GlobBuilder::new(&full).literal_separator(true).build()
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
        let relative = self.relative(file, root);
        self.include.is_match(relative) && !self.exclude.is_match(relative)
    }

    /// Whether an exclude glob leaves `file` out (relative as in [`Selection::selects`]): the
    /// user chose not to check it, so a walk does not call it skipped.
    pub fn excludes(&self, file: &Path, root: &Path) -> bool {
        self.exclude.is_match(self.relative(file, root))
    }

    /// `file` relative to the base folder, else to `root`, as the globs match it.
    fn relative<'p>(&self, file: &'p Path, root: &Path) -> &'p Path {
        self.base
            .as_deref()
            .and_then(|base| file.strip_prefix(base).ok())
            .or_else(|| file.strip_prefix(root).ok())
            .unwrap_or(file)
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
    /// One message per ignore file that could not be read (the walk went on without it).
    pub warnings: Vec<String>,
    /// Walked files that the include globs left out although their name says they may hold
    /// a list (Markdown, JSON, CSV and the like): the first [`MAX_SKIPPED_NAMED`], to name
    /// them.
    pub skipped: Vec<PathBuf>,
    /// How many such files there were in all.
    pub skipped_count: usize,
}

/// Most skipped files a walk names (the rest are counted).
pub const MAX_SKIPPED_NAMED: usize = 20;

/// Extensions of files that people keep deck lists in besides the ones walked by default:
/// Markdown posts, JSON records, spreadsheet exports, plain text by another name, and no
/// extension at all.
const LIST_LIKE: [&str; 8] = [
    "md", "markdown", "json", "csv", "tsv", "text", "list", "dek",
];

/// Whether a file the include globs left out may still hold a deck list, by its name: one of
/// [`LIST_LIKE`] or no extension, and not a project's own file (`README`, `LICENSE`,
/// `CHANGELOG`, `CONTRIBUTING`, ...), so a deck repository's usual files are not named.
fn may_hold_a_list(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return false;
    };
    let stem = name.split('.').next().unwrap_or(name).to_ascii_uppercase();
    let project_file = [
        "README",
        "LICENSE",
        "LICENCE",
        "CHANGELOG",
        "CONTRIBUTING",
        "COPYING",
        "NOTICE",
        "AUTHORS",
        "SECURITY",
        "CODE_OF_CONDUCT",
        "MAKEFILE",
        "DOCKERFILE",
        "PACKAGE",
        "PACKAGE-LOCK",
        "TSCONFIG",
    ]
    .contains(&stem.as_str());
    let listed = match path.extension().and_then(|ext| ext.to_str()) {
        None => true,
        Some(ext) => LIST_LIKE
            .iter()
            .any(|known| known.eq_ignore_ascii_case(ext)),
    };
    listed && !project_file
}

/// The deck files named by `operands`, in operand order; each directory's files sorted by
/// path. A file reached twice is listed once, where first reached. (What [`stream`] gives,
/// kept in a list: for callers that need every file at once.)
pub fn deck_files(operands: &[PathBuf], selection: &Selection) -> Walked {
    let mut files = Vec::new();
    let mut walked = stream(operands, selection, |file| {
        files.push(file);
        true
    });
    walked.files = files;
    walked
}

/// [`deck_files`] one file at a time: each file goes to `sink` as soon as the walk reaches
/// it, in the same order, so a walk of many files keeps none of them (a directory's entries
/// are read and sorted one directory at a time). `sink` returns `false` to stop the walk.
/// The [`Walked`] returned has the errors and warnings, and no files.
pub fn stream(
    operands: &[PathBuf],
    selection: &Selection,
    mut sink: impl FnMut(DeckFile) -> bool,
) -> Walked {
    let mut walked = Walked::default();
    // One walk lists a file once: only several operands can name a file twice, and only
    // then are the absolute paths kept, to find them.
    let mut seen = (operands.len() > 1).then(std::collections::HashSet::new);
    let mut give = |file: DeckFile| {
        let again = file.path.as_os_str() != "-"
            && seen
                .as_mut()
                .is_some_and(|seen| !seen.insert(file.absolute.clone()));
        again || sink(file)
    };
    // Files named on the command line are checked whatever their name: a walk that meets
    // one does not call it skipped.
    let named: std::collections::HashSet<PathBuf> = operands
        .iter()
        .filter(|operand| operand.as_os_str() != "-" && !operand.is_dir())
        .map(|operand| absolute(operand))
        .collect();
    for operand in operands {
        let going = if operand.as_os_str() != "-" && operand.is_dir() {
            walk_dir(operand, selection, &named, &mut walked, &mut give)
        } else {
            // Named files always count; a missing one fails when it is read.
            give(DeckFile {
                path: operand.clone(),
                absolute: absolute(operand),
            })
        };
        if !going {
            break;
        }
    }
    walked
}

/// Walks `dir`, giving each selected file to `give` in path order (entries sorted by name,
/// folder by folder, depth first: the order of sorting the whole paths, since paths compare
/// component by component). `false` when `give` stopped the walk.
fn walk_dir(
    dir: &Path,
    selection: &Selection,
    named: &std::collections::HashSet<PathBuf>,
    walked: &mut Walked,
    give: &mut impl FnMut(DeckFile) -> bool,
) -> bool {
    let root = absolute(dir);
    let ignores = std::sync::Arc::new(Ignores::default());
    let filter = {
        let (ignores, root, dir) = (ignores.clone(), root.clone(), dir.to_path_buf());
        move |entry: &ignore::DirEntry| {
            let under = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
            let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
            entry.depth() == 0 || !ignores.ignored(&root.join(under), is_dir, &root)
        }
    };
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .git_ignore(false)
        .git_exclude(false)
        .ignore(false)
        .parents(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(filter)
        .build();
    let mut going = true;
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
        if !selection.selects(&full, &root) {
            if may_hold_a_list(path) && !named.contains(&full) && !selection.excludes(&full, &root)
            {
                walked.skipped_count += 1;
                if walked.skipped.len() < MAX_SKIPPED_NAMED {
                    walked.skipped.push(path.to_path_buf());
                }
            }
            continue;
        }
        if !give(DeckFile {
            path: path.to_path_buf(),
            absolute: full,
        }) {
            going = false;
            break;
        }
    }
    walked.warnings.extend(ignores.take_warnings());
    going
}

/// Largest ignore file read: real ones are a few kilobytes (GitHub's largest template,
/// for Visual Studio, is about 7 KB).
pub const MAX_IGNORE_BYTES: u64 = 256 << 10;

/// Most patterns one ignore file may give: each becomes a compiled glob of up to about
/// 5 KB, so the pattern count, not the bytes, is what reading an ignore file costs.
pub const MAX_IGNORE_PATTERNS: usize = 2_000;

/// Most patterns all the ignore files of one walk may give together (they are kept for
/// the whole walk; this many cost about 30 MB): an ignore file that would pass it is a
/// warning and is left out.
pub const MAX_WALK_IGNORE_PATTERNS: usize = 6_000;

/// The ignore files of one folder, read once.
#[derive(Default)]
struct Layer {
    /// `.ignore`, `.gitignore` and, in a repository's root, `.git/info/exclude`: in git's
    /// order of precedence.
    matchers: [Option<ignore::gitignore::Gitignore>; 3],
    /// The folder holds `.git`: folders above a walk stop here.
    repository_root: bool,
}

/// The ignore files met by one walk, folder by folder, and the warnings for those that could
/// not be read.
#[derive(Default)]
struct Ignores {
    layers: std::sync::Mutex<std::collections::HashMap<PathBuf, std::sync::Arc<Layer>>>,
    warnings: std::sync::Mutex<Vec<String>>,
    /// Patterns read so far, all files together ([`MAX_WALK_IGNORE_PATTERNS`]).
    patterns: std::sync::atomic::AtomicUsize,
}

impl Ignores {
    /// Whether `path` (absolute, under the walk's `root`) is ignored: the first ignore file
    /// with a say, looking at `.ignore` files from the nearest folder up, then `.gitignore`
    /// files, then git's exclude file. Folders above `root` count up to a repository's root.
    fn ignored(&self, path: &Path, is_dir: bool, root: &Path) -> bool {
        let mut folders = Vec::new();
        for folder in path.ancestors().skip(1) {
            let layer = self.layer(folder);
            let top = layer.repository_root && !folder.starts_with(root);
            folders.push(layer);
            if top {
                break;
            }
        }
        for kind in 0..3 {
            for layer in &folders {
                let Some(matcher) = layer.matchers.get(kind).and_then(Option::as_ref) else {
                    continue;
                };
                match matcher.matched(path, is_dir) {
                    ignore::Match::Ignore(_) => return true,
                    ignore::Match::Whitelist(_) => return false,
                    ignore::Match::None => {}
                }
            }
        }
        false
    }

    fn layer(&self, folder: &Path) -> std::sync::Arc<Layer> {
        let mut layers = self
            .layers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(layer) = layers.get(folder) {
            return layer.clone();
        }
        let layer = std::sync::Arc::new(Layer {
            matchers: [
                self.read(folder, &folder.join(".ignore")),
                self.read(folder, &folder.join(".gitignore")),
                self.read(folder, &folder.join(".git").join("info").join("exclude")),
            ],
            repository_root: folder.join(".git").exists(),
        });
        layers.insert(folder.to_path_buf(), layer.clone());
        layer
    }

    /// One ignore file's patterns; `None` when it does not exist or cannot be read (then a
    /// warning).
    fn read(&self, folder: &Path, file: &Path) -> Option<ignore::gitignore::Gitignore> {
        let text = match crate::util::bounded::read(file, MAX_IGNORE_BYTES)
            .and_then(|bytes| self.budget(String::from_utf8_lossy(&bytes).into_owned()))
        {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            // `.git` is a file in a worktree: no exclude file under it.
            Err(_) if file.ends_with("info/exclude") && !folder.join(".git").is_dir() => {
                return None;
            }
            Err(error) => {
                let shown = crate::util::escape::path_line(file);
                self.warnings
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(format!(
                        "cannot read {shown}: {error}; the walk goes on without its patterns"
                    ));
                return None;
            }
        };
        let mut builder = ignore::gitignore::GitignoreBuilder::new(folder);
        for line in text.lines() {
            // A pattern git cannot read is skipped, as git does.
            let _ = builder.add_line(Some(file.to_path_buf()), line);
        }
        builder.build().ok()
    }

    /// `text` when its patterns fit [`MAX_IGNORE_PATTERNS`] and, with those read before,
    /// [`MAX_WALK_IGNORE_PATTERNS`] (then they are counted); else why not. Counted before
    /// any glob is compiled.
    fn budget(&self, text: String) -> std::io::Result<String> {
        use std::sync::atomic::Ordering;
        let patterns = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .count();
        let refuse = |what: String| Err(std::io::Error::new(std::io::ErrorKind::InvalidData, what));
        if patterns > MAX_IGNORE_PATTERNS {
            return refuse(format!(
                "it has {patterns} patterns; an ignore file may have at most {MAX_IGNORE_PATTERNS}"
            ));
        }
        let before = self.patterns.fetch_add(patterns, Ordering::Relaxed);
        if before + patterns > MAX_WALK_IGNORE_PATTERNS {
            self.patterns.fetch_sub(patterns, Ordering::Relaxed);
            return refuse(format!(
                "the ignore files of this walk have more than {MAX_WALK_IGNORE_PATTERNS} \
                 patterns together"
            ));
        }
        Ok(text)
    }

    /// The warnings, sorted (the walk's order of discovery is not the files' order).
    fn take_warnings(&self) -> Vec<String> {
        let mut warnings = std::mem::take(
            &mut *self
                .warnings
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        warnings.sort();
        warnings
    }
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

#[cfg(test)]
mod stream_tests {
    use super::*;

    /// Names whose order as names and as paths differ (`a` < `a-b` < `a.txt` as names, and
    /// everything under `a/` before `a-b`): a walk streams files in the order of their whole
    /// paths sorted, as the list built before streaming was.
    #[test]
    fn a_walk_gives_files_in_sorted_path_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for file in [
            "a.txt",
            "a-b.txt",
            "a/z.txt",
            "a/b/c.txt",
            "a b/x.txt",
            "B.txt",
            "deck 10.txt",
            "deck 9.txt",
            "a/notes.md",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "4 Pikachu\n").unwrap();
        }
        let operands = [root.to_path_buf()];
        let mut streamed = Vec::new();
        let walked = stream(&operands, &Selection::defaults(), |file| {
            streamed.push(file.path);
            true
        });
        assert!(walked.errors.is_empty() && walked.files.is_empty());
        let mut sorted = streamed.clone();
        sorted.sort();
        assert_eq!(streamed, sorted);
        assert_eq!(streamed.len(), 8, "{streamed:?}");
        // Stopping the walk stops it at once.
        let mut taken = 0;
        stream(&operands, &Selection::defaults(), |_| {
            taken += 1;
            taken < 3
        });
        assert_eq!(taken, 3);
    }

    /// Two operands naming the same files: each file once, where first reached.
    #[test]
    fn overlapping_operands_give_each_file_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("d")).unwrap();
        std::fs::write(root.join("d/x.txt"), "4 Pikachu\n").unwrap();
        std::fs::write(root.join("y.txt"), "4 Pikachu\n").unwrap();
        let operands = [root.join("d/x.txt"), root.to_path_buf()];
        let walked = deck_files(&operands, &Selection::defaults());
        let paths: Vec<PathBuf> = walked.files.into_iter().map(|file| file.path).collect();
        assert_eq!(paths, [root.join("d/x.txt"), root.join("y.txt")]);
    }
}
