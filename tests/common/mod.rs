//! Helpers shared by the integration tests.
#![allow(clippy::print_stderr, reason = "a skipped test says so on stderr")]
#![allow(clippy::unwrap_used, reason = "test helpers fail loudly")]
#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::path::PathBuf;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A temporary directory holding copies of `files` (paths relative to the repository), for
/// running the binary where reports name files by their short names.
pub fn workspace(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in files {
        let from = repo().join(file);
        let name = from.file_name().unwrap();
        std::fs::copy(&from, dir.path().join(name)).unwrap();
    }
    dir
}

/// `../shared/data` beside the repository, when present.
///
/// Returns `None` (after printing a note) when the folder is missing, so the suite passes on
/// a machine without it; panics instead when `DECKBOX_REQUIRE_SHARED=1`, as `.ci/run` sets.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if dir.join("SOURCES.md").is_file() {
        return Some(dir);
    }
    if std::env::var("DECKBOX_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("{test}: ../shared/data is missing and DECKBOX_REQUIRE_SHARED=1");
    }
    eprintln!("note: {test} skipped: ../shared/data is missing");
    None
}

/// `../shared/rulebooks` beside the repository, under the same policy as [`shared_data`].
pub fn rulebooks(test: &str) -> Option<PathBuf> {
    shared_data(test).map(|data| data.join("../rulebooks"))
}
