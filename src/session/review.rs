//! `deckbox review` and `deckbox log`: the deck lists of a git repository compared across
//! revisions. [`review`] takes every file added, changed, renamed or removed between two
//! revisions (the work tree by default) that `deckbox check DIR` would pick as a deck list
//! (the `[files]` selection of deckbox.toml), and says per deck what `deckbox diff` says of
//! its cards, its verdict before and after (new and fixed findings) in its format at its
//! date, P(mulligan) and the opening odds of the cards whose count changed, and which of its
//! cards leave the format at the next rotation the format file knows of. [`log`] follows one
//! list through its commits. git is read by [`super::git`]; the report is plain data
//! ([`crate::render::review`]) for the caller to render.
//!
//! Each side is read as `check` reads a file (the deck reader's bounds) and judged as
//! `check` judges it: the format deckbox.toml's `[[overrides]]` give its path, unless the
//! list declares its own (`# deckbox: format=..., as-of=...`), at the run's date; [`log`]
//! judges each commit at its committer date instead, unless a date was set (`--as-of`,
//! `DECKBOX_AS_OF`, the list's own line, deckbox.toml's `as_of` or an `[[overrides]]` entry's).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::git::{FileChange, Repo};
use crate::cards::CardDb;
use crate::check::diagnostic::Severity;
use crate::check::rules::Rule;
use crate::check::{self, CheckedDeck};
use crate::deck::DeckInput;
use crate::deck::input::{from_read, read_deck};
use crate::edit::diff::{self, Change};
use crate::error::Error;
use crate::formats::{Format, Going};
use crate::render::review::{
    CardOdds, DeckReview, Finding, Log, LogEntry, Review, Rotation, Status, Verdict, summary,
};
use crate::settings::walk::{DeckFile, Selection, absolute, normalize};
use crate::settings::{FormatPlan, Settings};
use crate::stats::deck::RequestError;
use crate::stats::{StatsDeck, exact};

/// Most deck lists one review compares: past it, the rest are named as not reviewed and the
/// run fails (exit 2). Each costs two reads from git and a few checks (milliseconds).
pub const MAX_REVIEW_FILES: usize = 1_000;

/// Most commits `deckbox log` reads of one list's history (the newest); each costs two reads
/// from git and a check.
pub const MAX_LOG_COMMITS: usize = 200;

/// What `deckbox review` compares: the revisions, from a folder of the work tree.
#[derive(Debug, Clone, Copy)]
pub struct ReviewRequest<'a> {
    /// A folder inside the repository (the current one).
    pub dir: &'a Path,
    pub base: &'a str,
    /// `None`: the work tree, files git does not track yet included.
    pub head: Option<&'a str>,
}

/// One side of a deck: its text, the format it is judged in, and the checked deck.
struct Judged {
    input: DeckInput,
    format: Format,
    checked: CheckedDeck,
}

/// Whether `path` (relative to the work tree's root) is a deck list as `check DIR` would
/// walk it: selected by the globs, and in no hidden folder.
fn is_deck(selection: &Selection, root: &Path, path: &str) -> bool {
    let hidden = path.split('/').any(|part| part.starts_with('.'));
    !hidden && selection.selects(&normalize(&root.join(path)), root)
}

/// What a change of files is to the deck lists among them: its status and paths, if a
/// deck is involved.
fn deck_change(
    change: FileChange,
    is_deck: impl Fn(&str) -> bool,
) -> Option<(Status, Option<String>, Option<String>)> {
    match change {
        FileChange::Added(path) => is_deck(&path).then_some((Status::Added, None, Some(path))),
        FileChange::Removed(path) => is_deck(&path).then_some((Status::Removed, Some(path), None)),
        FileChange::Modified(path) => {
            is_deck(&path).then(|| (Status::Changed, Some(path.clone()), Some(path)))
        }
        FileChange::Renamed { from, to } => match (is_deck(&from), is_deck(&to)) {
            (true, true) => Some((Status::Renamed, Some(from), Some(to))),
            (true, false) => Some((Status::Removed, Some(from), None)),
            (false, true) => Some((Status::Added, None, Some(to))),
            (false, false) => None,
        },
    }
}

/// Every deck list changed from `request.base` to `request.head`.
pub fn review(settings: &Settings, request: &ReviewRequest<'_>) -> Result<Review, Error> {
    let repo = Repo::discover(request.dir)?;
    let base = repo.commit(request.base)?;
    let head = request.head.map(|rev| repo.commit(rev)).transpose()?;
    let selection = settings.selection()?;
    let root = absolute(repo.root());
    let mut review = Review {
        base: request.base.to_string(),
        head: request.head.unwrap_or("work tree").to_string(),
        decks: Vec::new(),
        failures: Vec::new(),
    };
    let changes = repo.changes(&base, head.as_deref())?;
    let decks = changes
        .into_iter()
        .filter_map(|change| deck_change(change, |path| is_deck(&selection, &root, path)));
    for (at, (status, old, new)) in decks.enumerate() {
        if at == MAX_REVIEW_FILES {
            review.failures.push(format!(
                "more than {MAX_REVIEW_FILES} deck lists changed; the others were not reviewed"
            ));
            break;
        }
        let sides = [(Some(base.as_str()), &old), (head.as_deref(), &new)];
        let read = sides.map(|(rev, path)| {
            (path.as_deref())
                .map(|path| judge(settings, &repo, rev, path, None))
                .transpose()
        });
        match read {
            [Ok(before), Ok(after)] => {
                let deck = compare(settings, status, [old, new], [before, after]);
                review.decks.push(deck?);
            }
            [Err(error), _] | [_, Err(error)] => review.failures.push(error.to_string()),
        }
    }
    Ok(review)
}

/// `path` at `rev` (`None`: in the work tree), read and judged as `check` does; at `day`
/// when no date was set for it (neither `--as-of`, its variable, deckbox.toml nor the list).
fn judge(
    settings: &Settings,
    repo: &Repo,
    rev: Option<&str>,
    path: &str,
    day: Option<jiff::civil::Date>,
) -> Result<Judged, Error> {
    let root = absolute(repo.root());
    let input = match rev {
        Some(rev) => {
            let bytes = repo.blob(rev, path)?;
            from_read(Path::new(path), &bytes)?
        }
        None => {
            let mut input = read_deck(&root.join(path), &mut std::io::empty(), &mut true)?;
            input.path = path.to_string();
            input
        }
    };
    let file = DeckFile {
        path: PathBuf::from(path),
        absolute: normalize(&root.join(path)),
    };
    let mut planned = FormatPlan::empty(settings).format(&file)?.into_owned();
    if let Some(day) = day
        && settings.resolved.as_of.value.is_none()
        && !settings.override_for(&file.absolute).dated()
    {
        planned = planned.at(day)?;
    }
    let format = settings
        .declared_format(&planned, &input)?
        .unwrap_or(planned);
    let checked = check::check(&input, &settings.db, &format);
    Ok(Judged {
        input,
        format,
        checked,
    })
}

fn verdict(judged: &Judged) -> Verdict {
    let deck = &judged.checked;
    Verdict {
        format: judged.format.id.clone(),
        date: judged.format.date.to_string(),
        valid: deck.valid(),
        cards: deck.card_count(),
        errors: deck.count(Severity::Error),
        warnings: deck.count(Severity::Warning),
    }
}

/// The card changes from one side to the other; a missing side is an empty list.
fn card_changes(settings: &Settings, sides: &[Option<Judged>; 2]) -> Vec<Change> {
    let empty = || {
        let format = (sides.iter().flatten().next()).map_or(&settings.format, |j| &j.format);
        check::check(&DeckInput::default(), &settings.db, format)
    };
    let [old, new] = sides.each_ref().map(|side| match side {
        Some(judged) => std::borrow::Cow::Borrowed(&judged.checked),
        None => std::borrow::Cow::Owned(empty()),
    });
    diff::diff(&old, &new, &settings.db).changes
}

fn compare(
    settings: &Settings,
    status: Status,
    [old_path, new_path]: [Option<String>; 2],
    sides: [Option<Judged>; 2],
) -> Result<DeckReview, Error> {
    let changes = card_changes(settings, &sides);
    let findings = sides.each_ref().map(|side| {
        side.as_ref()
            .map(|j| findings(&j.checked))
            .unwrap_or_default()
    });
    let odds = sides.each_ref().map(|side| {
        (side.as_ref()).map(|judged| Odds::of(settings, judged).map_err(|why| (judged, why)))
    });
    let no_odds = odds.each_ref().map(|side| match side {
        Some(Err((judged, why))) => Some(why_no_odds(&judged.checked, &settings.db, why)),
        _ => None,
    });
    let odds = odds.map(|side| side.and_then(Result::ok));
    let rotation = match &sides[1] {
        Some(judged) => rotation(settings, judged)?,
        None => None,
    };
    Ok(DeckReview {
        status,
        old_path,
        new_path,
        before: sides[0].as_ref().map(verdict),
        after: sides[1].as_ref().map(verdict),
        new_findings: minus(&findings[1], &findings[0]),
        fixed_findings: minus(&findings[0], &findings[1]),
        mulligan: odds
            .each_ref()
            .map(|odds| odds.as_ref().and_then(|o| o.mulligan)),
        no_odds,
        // A list added or removed changed every card: its P(mulligan) says enough.
        odds: (changes.iter())
            .filter(|change| change.old != change.new && sides.iter().all(Option::is_some))
            .map(|change| CardOdds {
                name: change.name.clone(),
                copies: [change.old, change.new],
                opening_hand: odds
                    .each_ref()
                    .map(|odds| odds.as_ref().and_then(|o| o.opening(&change.name))),
            })
            .collect(),
        changes,
        rotation,
    })
}

fn findings(deck: &CheckedDeck) -> Vec<Finding> {
    (deck.diagnostics.iter())
        .map(|found| Finding {
            rule: found.rule.id(),
            severity: found.severity,
            message: found.message.clone(),
        })
        .collect()
}

/// The findings of `these` that `those` has not (as many times), in order.
fn minus(these: &[Finding], those: &[Finding]) -> Vec<Finding> {
    let mut left: HashMap<(&str, &str), usize> = HashMap::new();
    for finding in those {
        *left.entry((finding.rule, &finding.message)).or_default() += 1;
    }
    (these.iter())
        .filter(
            |finding| match left.get_mut(&(finding.rule, &finding.message)) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            },
        )
        .cloned()
        .collect()
}

/// One side's statistics: P(mulligan), and what the opening odds of a card need.
struct Odds<'db> {
    stats: StatsDeck<'db>,
    shape: crate::stats::DeckShape,
    setup: crate::formats::Setup,
    mulligan: Option<f64>,
}

impl<'db> Odds<'db> {
    /// Why not when the deck has no statistics (a line not read or not identified, too
    /// many cards).
    fn of(settings: &'db Settings, judged: &Judged) -> Result<Odds<'db>, RequestError> {
        let stats = StatsDeck::from_checked(&judged.checked, &settings.db)?;
        let setup = judged.format.setup.clone();
        let mulligan = stats.mulligan(&setup).ok().map(|m| m.probability);
        Ok(Odds {
            shape: stats.shape(),
            stats,
            setup,
            mulligan,
        })
    }

    /// P(at least one copy of `name` in the opening hand), kept hands, going first, as
    /// `deckbox stats` prints it; 0 without a copy.
    fn opening(&self, name: &str) -> Option<f64> {
        let Some(index) = (self.stats.kinds().iter()).position(|kind| kind.name == name) else {
            return Some(0.0);
        };
        exact::kind_odds(&self.shape, index, &self.setup, 1, Going::First)
            .ok()
            .map(|odds| odds.opening_hand.to_f64())
    }
}

/// Most line numbers [`why_no_odds`] names of each kind before `and N more`.
const NO_ODDS_LINES: usize = 5;

/// Why statistics refused a side, in one line: the lines they could not count (`line 12 is
/// not read`, `lines 3, 8 are not identified`), else the error itself.
fn why_no_odds(deck: &CheckedDeck, db: &CardDb, error: &RequestError) -> String {
    if !matches!(error, RequestError::Unidentified(_)) {
        return error.to_string();
    }
    let not_read: Vec<usize> = deck.list.issues.iter().map(|issue| issue.line).collect();
    let not_identified: Vec<usize> = (deck.cards.iter())
        .filter(|card| card.printing.and_then(|id| db.get(id)).is_none())
        .map(|card| card.line.line)
        .collect();
    let said = |lines: &[usize], what: &str| {
        let mut numbers: Vec<String> = (lines.iter().take(NO_ODDS_LINES))
            .map(usize::to_string)
            .collect();
        if lines.len() > NO_ODDS_LINES {
            numbers.push(format!("and {} more", lines.len() - NO_ODDS_LINES));
        }
        match lines {
            [] => None,
            [_] => Some(format!("line {} is {what}", numbers.join(", "))),
            _ => Some(format!("lines {} are {what}", numbers.join(", "))),
        }
    };
    let parts: Vec<String> = [
        said(&not_read, "not read"),
        said(&not_identified, "not identified"),
    ]
    .into_iter()
    .flatten()
    .collect();
    match parts.is_empty() {
        true => error.to_string(),
        false => parts.join("; "),
    }
}

/// The cards `judged` names that its format does not allow from its next season on, when
/// its file has one after the date judged.
fn rotation(settings: &Settings, judged: &Judged) -> Result<Option<Rotation>, Error> {
    let Some(next) = judged.format.next_season() else {
        return Ok(None);
    };
    let later = judged.format.at(next.from)?;
    let then = check::check(&judged.input, &settings.db, &later);
    let now: HashSet<&String> = not_legal(&judged.checked).collect();
    let mut cards: Vec<String> = Vec::new();
    for card in not_legal(&then).filter(|card| !now.contains(card)) {
        if !cards.contains(card) {
            cards.push(card.clone());
        }
    }
    Ok(Some(Rotation {
        season: next.name.clone(),
        from: next.from.to_string(),
        cards,
    }))
}

/// The cards a deck's `not-legal` findings name.
fn not_legal(deck: &CheckedDeck) -> impl Iterator<Item = &String> {
    (deck.diagnostics.iter())
        .filter(|found| found.rule == Rule::NotLegal)
        .flat_map(|found| found.cards.iter())
}

/// The history of the list at `path` (relative to `dir`, or absolute), newest commit first:
/// what each commit changed and the verdict at it.
pub fn log(settings: &Settings, dir: &Path, path: &Path) -> Result<Log, Error> {
    let repo = Repo::discover(dir)?;
    let head = repo.commit("HEAD")?;
    let commits = repo.history(dir, path, &head, MAX_LOG_COMMITS)?;
    let mut log = Log {
        path: crate::util::escape::path(path),
        commits: Vec::new(),
        failures: Vec::new(),
    };
    for commit in commits {
        let (status, old, new) = match commit.change {
            FileChange::Added(path) => (Status::Added, None, Some(path)),
            FileChange::Removed(path) => (Status::Removed, Some(path), None),
            FileChange::Modified(path) => (Status::Changed, Some(path.clone()), Some(path)),
            FileChange::Renamed { from, to } => (Status::Renamed, Some(from), Some(to)),
        };
        let parent = format!("{}^", commit.hash);
        // Both sides at the commit's date: what the change did to the verdict then.
        let day = crate::util::date::parse(&commit.committed);
        let sides = [(parent.as_str(), &old), (commit.hash.as_str(), &new)].map(|(rev, path)| {
            (path.as_deref())
                .map(|path| judge(settings, &repo, Some(rev), path, day))
                .transpose()
        });
        let sides = match sides {
            [Ok(before), Ok(after)] => [before, after],
            [Err(error), _] | [_, Err(error)] => {
                log.failures
                    .push(format!("{}: {error}", commit.hash.get(..10).unwrap_or("")));
                continue;
            }
        };
        let changes = card_changes(settings, &sides);
        let after = sides[1].as_ref().map(verdict);
        log.commits.push(LogEntry {
            summary: summary(status, &changes, after.as_ref().map(|v| v.cards)),
            commit: commit.hash,
            date: commit.date,
            subject: commit.subject,
            path: new.or(old).unwrap_or_default(),
            status,
            changes,
            verdict: after,
        });
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(message: &str) -> Finding {
        Finding {
            rule: "deck-size",
            severity: Severity::Error,
            message: message.to_string(),
        }
    }

    #[test]
    fn minus_counts_repeated_findings() {
        let (a, b) = (finding("a"), finding("b"));
        let these = [a.clone(), a.clone(), b.clone()];
        assert_eq!(minus(&these, &[a.clone(), b]), vec![a]);
    }

    #[test]
    fn hidden_folders_are_no_deck_lists() {
        let root = Path::new("/repo");
        let selection = Selection::defaults();
        assert!(is_deck(&selection, root, "decks/a.txt"));
        assert!(!is_deck(&selection, root, ".github/a.txt"));
        assert!(!is_deck(&selection, root, "decks/a.md"));
    }
}
