//! Reading the command line without building the whole parser first. clap's derive builds
//! every command's arguments (some 30 commands, hundreds of flags and their help) before it
//! reads the first word: for a short run (`deckbox --version`, a narrow `deckbox search`)
//! that tree was most of the process's fresh heap and stack pages (docs/performance.md,
//! "Fresh pages of every start"). [`args`] first tries a parser that holds only the command
//! named first; whatever that parser does not take as it is (help, a mistake, a command it
//! does not know) is parsed again by the whole parser, so every message and exit is clap's
//! own.

use std::ffi::OsString;

use clap::{Args as _, FromArgMatches as _, Parser as _};

use super::{Args, card, check, config, edit, fmt, info, need, odds, review, search, stats};

/// The arguments of this process, parsed as [`Args::parse`] parses them.
pub fn args() -> Args {
    match quick(std::env::args_os()) {
        Quick::Parsed(args) => args,
        Quick::Version(shown) => shown.exit(),
        Quick::Whole => Args::parse(),
    }
}

/// What the parser of one command made of the arguments.
#[expect(
    clippy::large_enum_variant,
    reason = "one value, made and matched once a process"
)]
enum Quick {
    Parsed(Args),
    /// `deckbox --version`: clap's answer, to print as it prints it.
    Version(clap::Error),
    /// Anything else: for the whole parser.
    Whole,
}

fn quick(argv: impl IntoIterator<Item = OsString>) -> Quick {
    let argv: Vec<OsString> = argv.into_iter().collect();
    let root = clap::Command::new("deckbox").version(env!("CARGO_PKG_VERSION"));
    let first = argv.get(1).and_then(|first| first.to_str());
    let root = match first {
        Some("--version" | "-V") if argv.len() == 2 => root,
        Some(name) => match one_command(name) {
            // As the derive makes the root of a required command.
            Some(command) => root
                .subcommand_required(true)
                .arg_required_else_help(true)
                .subcommand(command),
            None => return Quick::Whole,
        },
        None => return Quick::Whole,
    };
    match root.try_get_matches_from(argv) {
        Ok(mut matches) => {
            Args::from_arg_matches_mut(&mut matches).map_or(Quick::Whole, Quick::Parsed)
        }
        Err(shown) if shown.kind() == clap::error::ErrorKind::DisplayVersion => {
            Quick::Version(shown)
        }
        Err(_) => Quick::Whole,
    }
}

/// How the derive adds a struct's arguments to a command.
type Augment = fn(clap::Command) -> clap::Command;

/// Every command whose arguments are one struct, by name. The test
/// `one_command_is_the_derives` checks each against the whole parser's, and that no such
/// command is left out.
const ONE_STRUCT: &[(&str, Augment)] = &[
    ("check", check::CheckArgs::augment_args),
    ("stats", stats::StatsArgs::augment_args),
    ("odds", odds::OddsArgs::augment_args),
    ("sample", stats::SampleArgs::augment_args),
    ("need", need::NeedArgs::augment_args),
    ("card", card::CardArgs::augment_args),
    #[cfg(feature = "tui")]
    ("build", super::builder::BuildArgs::augment_args),
    ("search", search::SearchArgs::augment_args),
    ("fmt", fmt::FmtArgs::augment_args),
    ("convert", fmt::ConvertArgs::augment_args),
    #[cfg(feature = "pdf")]
    ("sheet", super::sheet::SheetArgs::augment_args),
    ("add", edit::AddArgs::augment_args),
    ("remove", edit::RemoveArgs::augment_args),
    ("diff", edit::DiffArgs::augment_args),
    ("review", review::ReviewArgs::augment_args),
    ("log", review::LogArgs::augment_args),
    ("config", config::ConfigArgs::augment_args),
    ("completions", info::CompletionsArgs::augment_args),
    #[cfg(feature = "mcp")]
    ("mcp", super::mcp::McpArgs::augment_args),
    #[cfg(feature = "lsp")]
    ("lsp", super::lsp::LspArgs::augment_args),
];

/// The command `name` with its arguments, as [`super::Command`]'s derive builds it but for
/// its one-line description (help only, and help goes to the whole parser).
fn one_command(name: &str) -> Option<clap::Command> {
    let (name, augment) = ONE_STRUCT.iter().find(|(known, _)| *known == name)?;
    Some(augment(clap::Command::new(*name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    /// The commands whose arguments are not one struct (`cards update`, `formats show`, a
    /// rule or a page named inline), and clap's own `help`: the whole parser reads them.
    const WHOLE_ONLY: [&str; 5] = ["formats", "cards", "explain", "man", "help"];

    /// Each command [`one_command`] builds is the whole parser's, its description aside, down
    /// to every argument and setting (`Debug` shows them all); every other command is one
    /// [`WHOLE_ONLY`] names.
    #[test]
    fn one_command_is_the_derives() {
        let mut whole = Args::command();
        whole.build();
        let mut seen = 0;
        for command in whole.get_subcommands() {
            let name = command.get_name();
            let Some(one) = one_command(name) else {
                assert!(
                    WHOLE_ONLY.contains(&name),
                    "`{name}` has no parser of its own"
                );
                continue;
            };
            let mut alone = clap::Command::new("deckbox").subcommand(one);
            alone.build();
            let Some(built) = alone.find_subcommand(name) else {
                panic!("`{name}` built alone");
            };
            // Its place in the whole parser's list of commands, for help.
            let mut described = built.clone().display_order(command.get_display_order());
            if let Some(about) = command.get_about() {
                described = described.about(about.clone());
            }
            if let Some(long_about) = command.get_long_about() {
                described = described.long_about(long_about.clone());
            }
            assert_eq!(format!("{described:?}"), format!("{command:?}"), "`{name}`");
            seen += 1;
        }
        assert!(seen >= 18, "{seen} commands");
    }

    fn whole(argv: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(argv)
    }

    /// Arguments the parser of one command takes give the arguments the whole parser gives;
    /// help, mistakes, other commands and nothing at all go to the whole parser; `--version`
    /// prints what the whole parser prints.
    #[test]
    fn quick_parses_as_the_whole_parser() {
        let taken: [&[&str]; 9] = [
            &[
                "deckbox",
                "search",
                "--no-config",
                "--output",
                "json",
                "Dreepy",
            ],
            &["deckbox", "search", "--", "-is:ex", "name:Dragapult"],
            &[
                "deckbox",
                "search",
                "set:TWM",
                "number:128",
                "--sort",
                "set",
                "--lang",
                "de",
            ],
            &[
                "deckbox",
                "check",
                "examples/dragapult.txt",
                "--format",
                "expanded",
            ],
            &["deckbox", "check", ".", "--output-format", "short"],
            &["deckbox", "card", "Pikachu", "--output", "json"],
            &["deckbox", "stats", "deck.txt", "--want", "Dreepy"],
            &["deckbox", "fmt", "--check", "a.txt", "b.txt"],
            &["deckbox", "completions", "bash"],
        ];
        for argv in taken {
            let Quick::Parsed(args) = quick(argv.iter().map(OsString::from)) else {
                panic!("{argv:?} not taken");
            };
            let Ok(expected) = whole(argv) else {
                panic!("{argv:?} is no command line");
            };
            assert_eq!(format!("{args:?}"), format!("{expected:?}"), "{argv:?}");
        }
        let left: [&[&str]; 10] = [
            &["deckbox"],
            &["deckbox", "--help"],
            &["deckbox", "search"],
            &["deckbox", "search", "--help"],
            &["deckbox", "search", "--output", "yaml", "Dreepy"],
            &["deckbox", "serch", "Dreepy"],
            &["deckbox", "help", "search"],
            &["deckbox", "cards", "status"],
            &["deckbox", "--version", "search"],
            &["deckbox", "check", "--version"],
        ];
        for argv in left {
            assert!(
                matches!(quick(argv.iter().map(OsString::from)), Quick::Whole),
                "{argv:?} taken"
            );
        }
        for argv in [["/usr/bin/other-name", "--version"], ["deckbox", "-V"]] {
            let Quick::Version(shown) = quick(argv.iter().map(OsString::from)) else {
                panic!("{argv:?}");
            };
            let Err(expected) = whole(&argv) else {
                panic!("{argv:?} parsed");
            };
            assert_eq!(expected.kind(), clap::error::ErrorKind::DisplayVersion);
            assert_eq!(shown.render().to_string(), expected.render().to_string());
            assert_eq!(shown.exit_code(), expected.exit_code());
        }
    }
}
