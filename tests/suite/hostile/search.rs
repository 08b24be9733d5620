//! `deckbox search` queries built to hurt (issue 49 item 3, issue 52 item 8): nesting past
//! its bound, queries of a hundred kilobytes, thousands of `or`s, long and regex-looking
//! `text:` patterns, numbers that overflow and dates that do not exist. Each is refused
//! with exit 2 and a caret under the mistake, in a message of bounded size, or answered in
//! bounded time; none panics.

use std::time::{Duration, Instant};

use super::{Run, run};

fn search(query: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), &["search", "--", query], b"")
}

/// Exit 2, `message` said, and the caret line of the drawing: the columns before the
/// carets and their number.
fn refused(query: &str, message: &str) -> (usize, usize) {
    let out = search(query);
    assert_eq!(out.code, 2, "{query:.80}: {}", out.stdout);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert_eq!(out.one_error(), format!("error: {message}"), "{query:.80}");
    // The message, the query as shown (at most 120 characters and the cuts), the carets.
    assert!(out.stderr.len() < 1024, "{} bytes", out.stderr.len());
    let carets = out.stderr.lines().nth(2).unwrap();
    let marks = carets.trim_start().trim_start_matches('^');
    assert!(marks.is_empty(), "{carets:?}");
    let pad = carets.len() - carets.trim_start().len() - 2;
    (pad, carets.trim_start().len())
}

#[test]
fn nesting_and_length_are_bounded_with_a_caret() {
    // 40 `(`: the 33rd is where the bound is reached.
    let deep = format!("{}Dreepy{}", "(".repeat(40), ")".repeat(40));
    assert_eq!(
        refused(&deep, "the query nests deeper than 32 levels"),
        (32, 1)
    );
    let nots = format!("{}Dreepy", "-".repeat(40));
    assert_eq!(refused(&nots, "the query nests deeper than 32 levels").1, 1);
    // A query of 120 KB (about what one argument may hold): refused for its length, shown
    // by its first 120 characters.
    let huge = "(Dreepy or ".repeat(11_000);
    assert_eq!(
        refused(&huge, "the query is longer than 1000 bytes"),
        (0, 1)
    );
    // Thousands of `or`s: over the length bound; within it, over the term bound at the
    // 65th term (the query shown from 40 characters before it, after a `…`).
    let ors = vec!["Dreepy"; 3_000].join(" or ");
    refused(&ors, "the query is longer than 1000 bytes");
    let ors = vec!["x"; 100].join(" or ");
    assert_eq!(refused(&ors, "the query has more than 64 terms"), (41, 1));
}

#[test]
fn numbers_and_dates_out_of_range_are_pointed_at() {
    assert_eq!(
        refused(
            "hp>99999999999999999999",
            "`hp` takes a whole number, not `99999999999999999999`"
        ),
        (3, 20)
    );
    assert_eq!(
        refused("retreat<-1", "`retreat` takes a whole number, not `-1`"),
        (8, 2)
    );
    assert_eq!(
        refused(
            "legal:standard@2026-02-30",
            "`2026-02-30` is not a date (YYYY-MM-DD)"
        ),
        (15, 10)
    );
    assert_eq!(
        refused(
            "legal:expanded@99999-01-01",
            "`99999-01-01` is not a date (YYYY-MM-DD)"
        ),
        (15, 11)
    );
    // Quoted, the date is pointed at inside the quotes (it was one column to the left).
    assert_eq!(
        refused(
            "legal:\"standard@2026-02-30\"",
            "`2026-02-30` is not a date (YYYY-MM-DD)"
        ),
        (16, 10)
    );
    assert_eq!(
        refused(
            "released<2026-13-01",
            "`released` takes a date (YYYY-MM-DD), not `2026-13-01`"
        ),
        (9, 10)
    );
}

/// The query is shown with its hidden characters escaped; the caret counts the escape's
/// columns, so it stands under the mistake after it.
#[test]
fn the_caret_follows_an_escaped_character() {
    let (pad, carets) = refused("name:\u{1b}[2J\u{202E} zzz:1", "unknown key `zzz`");
    // `name:` (5), `\u{1B}` (6), `[2J` (3), `\u{202E}` (8), a space.
    assert_eq!((pad, carets), (23, 3));
    let out = search("name:\u{1b}[2J\u{202E} zzz:1");
    assert!(
        out.stderr.contains("  name:\\u{1B}[2J\\u{202E} zzz:1\n"),
        "{}",
        out.stderr
    );
}

/// `text:` takes its value as plain text, not a pattern: regex-looking and long values match
/// literally, and the most terms a query may have (64, each a pass over the printings)
/// are answered in seconds.
#[test]
fn text_patterns_are_literal_and_bounded() {
    for query in [
        "text:\"(((a+)+)+)$\"",
        "text:\".*.*.*.*.*.*.*.*.*.*.*.*\"",
        &format!("text:{}", "e".repeat(990)),
    ] {
        let out = search(query);
        assert_eq!(out.code, 1, "{query:.80}: {}", out.stderr);
        assert!(out.stderr.starts_with("no card matches"), "{}", out.stderr);
    }
    let many = vec!["text:\"e a\""; 64].join(" or ");
    let started = Instant::now();
    let out = search(&many);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("cards ("), "{}", out.stdout);
    // 63 such terms took 2.4 s (debug build); a hang or a quadratic cost is far past 60 s.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}
