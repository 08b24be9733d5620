#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! deckbox.toml through the library: what `Settings::resolve` gives the other commands
//! (format, card database, language), the example config under tests/fixtures/repo, and
//! how errors in the file read.

use crate::common;

use deckbox::names::lang::Language;
use deckbox::settings::config::{self, Origin};
use deckbox::settings::{Flags, Settings};

#[test]
fn settings_carry_the_config_file() {
    let path = common::repo().join("tests/fixtures/repo/deckbox.toml");
    let args = Flags {
        config: Some(path.clone()),
        ..Flags::default()
    };
    // Only flags and the file: this test must not depend on the caller's environment.
    if std::env::var_os("DECKBOX_FORMAT").is_some() || std::env::var_os("DECKBOX_CARDS").is_some() {
        return;
    }
    let settings = Settings::resolve(&args).unwrap();
    assert_eq!(settings.format.id, "standard");
    assert_eq!(settings.language, Some(Language::Fr));
    assert!(matches!(
        settings.resolved.format.origin,
        Origin::File { line: 2, .. }
    ));
    let config = settings.config.unwrap();
    let dir = config.dir.clone();
    assert_eq!(
        config.format_for(&dir.join("glc/mine.txt")).unwrap().value,
        "glc"
    );
    let selection = config.selection().unwrap();
    assert!(selection.selects(&dir.join("a/b.deck"), &dir));
    assert!(!selection.selects(&dir.join("drafts/b.txt"), &dir));
    assert!(!selection.selects(&dir.join("b.ptcgl"), &dir));
}

#[test]
fn a_flag_beats_the_file_and_no_config_ignores_it() {
    let path = common::repo().join("tests/fixtures/repo/deckbox.toml");
    let args = Flags {
        format: Some("expanded".to_string()),
        config: Some(path.clone()),
        ..Flags::default()
    };
    let (_, resolved) = deckbox::settings::resolve_layers(&args).unwrap();
    assert_eq!(resolved.format.value, "expanded");
    assert_eq!(resolved.format.origin, Origin::Flag { flag: "--format" });
    assert_eq!(resolved.language.value, Some(Language::Fr));
    let ignored = Flags {
        config: Some(path),
        no_config: true,
        ..Flags::default()
    };
    let (file, resolved) = deckbox::settings::resolve_layers(&ignored).unwrap();
    assert!(file.is_none());
    assert_eq!(resolved.language.value, None);
}

#[test]
fn errors_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(config::FILE_NAME);
    std::fs::write(&path, "format = \"glc\"\n\n[files]\nexclud = [\"x\"]\n").unwrap();
    let args = Flags {
        config: Some(path),
        ..Flags::default()
    };
    let Err(error) = Settings::resolve(&args) else {
        panic!("an unknown key must be an error");
    };
    let message = drawn(&error);
    assert!(message.contains("deckbox.toml:4:1"), "{message}");
    assert!(message.contains("did you mean `exclude`?"), "{message}");
    let missing = Flags {
        config: Some(dir.path().join("nope.toml")),
        ..Flags::default()
    };
    let Err(error) = Settings::resolve(&missing) else {
        panic!("a missing --config file must be an error");
    };
    let message = drawn(&error);
    assert!(message.contains("cannot read config file"), "{message}");
}

/// An error as miette draws it for the binary, without colour.
fn drawn(error: &deckbox::error::Error) -> String {
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, error)
        .unwrap();
    out
}
