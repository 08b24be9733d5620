//! A git repository read through the `git` command (never by reading `.git` itself): which
//! files changed between two revisions, renames found (`git diff --name-status -M -z`),
//! a file's bytes at a revision (`git cat-file blob`), and a file's history
//! (`git log --follow`). Every read is bounded: a listing at [`MAX_GIT_OUTPUT`] bytes, a
//! file at the deck reader's [`MAX_FILE_BYTES`], a history
//! at the count asked for. git's standard error is kept for messages, at most
//! [`MAX_GIT_MESSAGE`] bytes of it.
//!
//! git runs with no pager, no external diff or text conversion, no prompt and no optional
//! lock, and every revision is refused when it starts with `-` (it would be read as an
//! option). This module knows nothing of deck lists.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::deck::input::MAX_FILE_BYTES;
use crate::error::Error;

/// Most bytes of a listing read from git (`diff --name-status`, `log`): about 100,000
/// changed files with their paths, far more than [`super::review::MAX_REVIEW_FILES`] needs.
pub const MAX_GIT_OUTPUT: u64 = 16 << 20;

/// Most bytes of git's standard error kept for a message.
pub const MAX_GIT_MESSAGE: u64 = 4 << 10;

/// A work tree of a git repository.
#[derive(Debug, Clone)]
pub struct Repo {
    root: PathBuf,
}

/// What happened to one file between two revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    Added(String),
    Modified(String),
    Removed(String),
    Renamed { from: String, to: String },
}

/// One commit of a file's history: its hash, author date and committer date
/// (`YYYY-MM-DD`), subject, and what it did to the file, with the file's path then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub hash: String,
    pub date: String,
    /// When the commit entered the history (differs from `date` after a rebase or a cherry-pick).
    pub committed: String,
    pub subject: String,
    pub change: FileChange,
}

fn git_error(reason: impl Into<String>) -> Error {
    Error::Refused {
        name: "git".to_string(),
        reason: reason.into(),
    }
}

/// A revision as given, refused when git would read it as an option.
fn revision(rev: &str) -> Result<&str, Error> {
    if rev.is_empty() || rev.starts_with('-') {
        return Err(git_error(format!(
            "`{}` is not a revision",
            crate::util::escape::visible_line(rev)
        )));
    }
    Ok(rev)
}

impl Repo {
    /// The repository whose work tree holds `dir`.
    pub fn discover(dir: &Path) -> Result<Repo, Error> {
        let found = run(dir, &["rev-parse", "--show-toplevel"], MAX_GIT_MESSAGE)?
            .ok_or_else(|| git_error("the work tree's path is too long"))?;
        let text =
            String::from_utf8(found).map_err(|_| git_error("the work tree's path is not UTF-8"))?;
        Ok(Repo {
            root: PathBuf::from(text.trim_end_matches(['\n', '\r'])),
        })
    }

    /// The work tree's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn git<S: AsRef<OsStr>>(&self, args: &[S], limit: u64) -> Result<Option<Vec<u8>>, Error> {
        run(&self.root, args, limit)
    }

    /// The commit `rev` names, as a full hash.
    pub fn commit(&self, rev: &str) -> Result<String, Error> {
        let spec = format!("{}^{{commit}}", revision(rev)?);
        // `--quiet`: a name that is no commit fails with no message; said below.
        let out = self
            .git(&["rev-parse", "--verify", "--quiet", spec.as_str()], 1024)
            .unwrap_or_default()
            .unwrap_or_default();
        let hash = String::from_utf8_lossy(&out).trim().to_string();
        if hash.is_empty() {
            return Err(git_error(format!(
                "`{}` names no commit",
                crate::util::escape::visible_line(rev)
            )));
        }
        Ok(hash)
    }

    /// The files changed from `base` to `head`, renames found; without `head`, to the work
    /// tree, files git does not track yet (and does not ignore) counted as added.
    pub fn changes(&self, base: &str, head: Option<&str>) -> Result<Vec<FileChange>, Error> {
        let mut args = vec![
            "diff",
            "--no-ext-diff",
            "--no-textconv",
            "--name-status",
            "-M",
            "-z",
            revision(base)?,
        ];
        if let Some(head) = head {
            args.push(revision(head)?);
        }
        args.push("--");
        let listing = self.listing(&args)?;
        let mut changes = parse_changes(&listing)?;
        if head.is_none() {
            let untracked =
                self.listing(&["ls-files", "--others", "--exclude-standard", "-z", "--"])?;
            for path in fields(&untracked) {
                changes.push(FileChange::Added(utf8(path)?));
            }
        }
        Ok(changes)
    }

    fn listing<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Vec<u8>, Error> {
        self.git(args, MAX_GIT_OUTPUT)?.ok_or_else(|| {
            git_error(format!(
                "git's answer is larger than {} MiB",
                MAX_GIT_OUTPUT >> 20
            ))
        })
    }

    /// The bytes of `path` at `rev`; a file larger than [`MAX_FILE_BYTES`] is refused as
    /// the deck reader refuses it.
    pub fn blob(&self, rev: &str, path: &str) -> Result<Vec<u8>, Error> {
        let spec = format!("{}:{path}", revision(rev)?);
        let bytes = self.git(&["cat-file", "blob", spec.as_str()], MAX_FILE_BYTES)?;
        bytes.ok_or_else(|| {
            Error::from(crate::deck::input::ReadError::DeckTooLarge {
                name: crate::util::escape::visible_line(&format!("{rev}:{path}")).into_owned(),
                mib: MAX_FILE_BYTES >> 20,
            })
        })
    }

    /// The last `max` commits that changed `path` (relative to `dir`, a folder of the work
    /// tree, or absolute; followed across renames), newest first, from `head`. The paths of
    /// the commits are relative to the root.
    pub fn history(
        &self,
        dir: &Path,
        path: &Path,
        head: &str,
        max: usize,
    ) -> Result<Vec<Commit>, Error> {
        let count = format!("--max-count={max}");
        let args: [&OsStr; 12] = [
            "log".as_ref(),
            "--follow".as_ref(),
            "--no-ext-diff".as_ref(),
            "--no-textconv".as_ref(),
            "-M".as_ref(),
            "-z".as_ref(),
            "--format=%H%x00%as%x00%cs%x00%s".as_ref(),
            "--name-status".as_ref(),
            count.as_ref(),
            revision(head)?.as_ref(),
            "--".as_ref(),
            path.as_os_str(),
        ];
        let listing = run(dir, &args, MAX_GIT_OUTPUT)?
            .ok_or_else(|| git_error("git log's answer is too large"))?;
        parse_log(&listing)
    }
}

/// NUL-separated fields, the last one's terminator dropped.
fn fields(bytes: &[u8]) -> std::iter::Peekable<impl Iterator<Item = &[u8]>> {
    let trimmed = bytes.strip_suffix(b"\0").unwrap_or(bytes);
    trimmed
        .split(|b| *b == 0)
        .filter(move |_| !trimmed.is_empty())
        .peekable()
}

fn utf8(field: &[u8]) -> Result<String, Error> {
    String::from_utf8(field.to_vec()).map_err(|_| {
        git_error(format!(
            "a file name is not UTF-8: {}",
            String::from_utf8_lossy(field)
        ))
    })
}

/// `STATUS\0path\0` entries (`R100\0from\0to\0` for renames and copies) until a field that is
/// no status.
fn parse_name_status<'a>(
    fields: &mut std::iter::Peekable<impl Iterator<Item = &'a [u8]>>,
) -> Result<Vec<FileChange>, Error> {
    let mut changes = Vec::new();
    while let Some(status) = fields.peek().map(|f| f.strip_prefix(b"\n").unwrap_or(f)) {
        let Some(&kind) = status.first() else { break };
        if !status.iter().skip(1).all(u8::is_ascii_digit) || !b"AMDRCTU".contains(&kind) {
            break;
        }
        fields.next();
        let mut path = || -> Result<String, Error> {
            utf8(
                fields
                    .next()
                    .ok_or_else(|| git_error("a change names no file"))?,
            )
        };
        changes.push(match kind {
            b'A' => FileChange::Added(path()?),
            b'C' => {
                path()?;
                FileChange::Added(path()?)
            }
            b'D' => FileChange::Removed(path()?),
            b'R' => FileChange::Renamed {
                from: path()?,
                to: path()?,
            },
            _ => FileChange::Modified(path()?),
        });
    }
    Ok(changes)
}

/// The changes `git diff --name-status -M -z` lists (its answer as bytes; what is not a
/// change ends the list). Public for the fuzz target `git` (tests/suite/oracles.rs).
pub fn parse_changes(bytes: &[u8]) -> Result<Vec<FileChange>, Error> {
    parse_name_status(&mut fields(bytes))
}

/// `hash\0date\0committed\0subject\0` then the commit's name-status entries, commit after
/// commit: the answer of [`Repo::history`]'s `git log`. Public for the fuzz target `git`.
pub fn parse_log(bytes: &[u8]) -> Result<Vec<Commit>, Error> {
    let mut fields = fields(bytes);
    let mut commits = Vec::new();
    while let Some(hash) = fields.next() {
        let hash = utf8(hash)?;
        if hash.len() < 40 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(git_error("cannot read git log's answer"));
        }
        let date = utf8(fields.next().unwrap_or_default())?;
        let committed = utf8(fields.next().unwrap_or_default())?;
        let subject = String::from_utf8_lossy(fields.next().unwrap_or_default()).into_owned();
        // A merge that kept the file as one parent had it lists no change.
        let Some(change) = parse_name_status(&mut fields)?.into_iter().next() else {
            continue;
        };
        commits.push(Commit {
            hash,
            date,
            committed,
            subject,
            change,
        });
    }
    Ok(commits)
}

/// Runs git in `dir`; its standard output, or `None` when it is longer than `limit` bytes.
/// A git that cannot start or fails is an error with its message.
fn run<S: AsRef<OsStr>>(dir: &Path, args: &[S], limit: u64) -> Result<Option<Vec<u8>>, Error> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["--no-pager", "-c", "core.quotePath=false"])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| git_error(format!("cannot run git: {error}")))?;
    // Standard error is drained on a thread (a full pipe would stop git), keeping its start.
    let stderr = child.stderr.take().map(|stderr| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut stderr = stderr;
            let _ = stderr.by_ref().take(MAX_GIT_MESSAGE).read_to_end(&mut kept);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            kept
        })
    });
    let mut out = Vec::new();
    let read = match child.stdout.take() {
        Some(stdout) => stdout.take(limit + 1).read_to_end(&mut out).map(|_| ()),
        None => Ok(()),
    };
    let over = out.len() as u64 > limit;
    if over {
        let _ = child.kill();
    }
    let status = child
        .wait()
        .map_err(|error| git_error(format!("git did not finish: {error}")))?;
    let message = stderr
        .and_then(|thread| thread.join().ok())
        .unwrap_or_default();
    if over {
        return Ok(None);
    }
    read.map_err(|error| git_error(format!("cannot read git's answer: {error}")))?;
    if !status.success() {
        let message = String::from_utf8_lossy(&message);
        let message = message.trim();
        return Err(git_error(if message.is_empty() {
            format!("git {} failed ({status})", first_arg(args))
        } else {
            message.to_string()
        }));
    }
    Ok(Some(out))
}

fn first_arg<S: AsRef<OsStr>>(args: &[S]) -> String {
    args.first()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_status_reads_renames_copies_and_stops_at_a_hash() {
        let listing = b"M\0a.txt\0R087\0old.txt\0new.txt\0C100\0x.txt\0y.txt\0D\0gone.txt\0";
        let changes = parse_name_status(&mut fields(listing)).unwrap();
        assert_eq!(
            changes,
            vec![
                FileChange::Modified("a.txt".into()),
                FileChange::Renamed {
                    from: "old.txt".into(),
                    to: "new.txt".into()
                },
                FileChange::Added("y.txt".into()),
                FileChange::Removed("gone.txt".into()),
            ]
        );
    }

    #[test]
    fn log_reads_commits_with_their_change() {
        let hash = "a".repeat(40);
        let other = "b".repeat(40);
        let listing = format!(
            "{hash}\x002026-11-28\x002026-11-29\x00rename\x00\nR100\x00a.txt\x00b.txt\x00{other}\x002026-11-27\x002026-11-27\x00add\x00\nA\x00a.txt\x00"
        );
        let commits = parse_log(listing.as_bytes()).unwrap();
        assert_eq!(commits.len(), 2);
        assert_eq!(commits[0].subject, "rename");
        assert_eq!(commits[0].committed, "2026-11-29");
        assert_eq!(commits[1].change, FileChange::Added("a.txt".into()));
    }

    #[test]
    fn a_revision_that_reads_as_an_option_is_refused() {
        assert!(revision("--output=x").is_err());
        assert!(revision("main").is_ok());
    }
}
