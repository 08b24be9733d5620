//! `deckbox cards update | status | reset`: bring a newer card index from TCGdex, say which
//! one is in use, go back to the embedded one. The download lives here, in the binary: the
//! library installs from a file ([`deckbox::cards::storage::update`]) and never touches the network.
//! No other command downloads anything.

#[cfg(feature = "update")]
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Subcommand;

use super::Outcome;
use super::bar::Bar;
use deckbox::cards::storage::update::{self, Installed, Limits, UpdateError};
use deckbox::error::{Error, Exit};
use deckbox::session::index::{self, IndexStatus};
use deckbox::util::progress::Progress;

/// Where `deckbox cards update` downloads from without `--from`: the archive of the TCGdex
/// cards-database repository's default branch (`master`), as GitHub serves it (one top
/// folder, `cards-database-master/`, with `data/` inside).
pub const DEFAULT_SOURCE: &str =
    "https://codeload.github.com/tcgdex/cards-database/tar.gz/refs/heads/master";

#[cfg(feature = "update")]
/// Most redirects followed before a download is refused.
pub const MAX_REDIRECTS: u32 = 5;

/// Default for `--timeout`: the whole download must be done in this time.
pub const DEFAULT_TIMEOUT_SECS: u64 = 300;

/// Largest `--timeout`: a day. A larger one would overflow the clock's arithmetic.
pub const MAX_TIMEOUT_SECS: u64 = 86_400;

#[derive(Debug, Subcommand)]
pub enum CardsAction {
    /// Download the TCGdex cards database (or read an archive) and install a card index
    /// built from it; every command then uses it by default (`--cards` still wins).
    #[command(after_help = "Examples:
  deckbox cards update
  deckbox cards update --from cards-database-master.tar.gz
  deckbox cards update --from https://example.org/cards.tar.gz --sha256 <64 hex digits>

Exit status: 0 installed; 2 nothing changed (download failed, archive refused, or the new \
data is worse than the data in use without --force).")]
    Update(UpdateArgs),
    /// Which card index is in use: embedded, or updated (from where, when, its SHA-256, the
    /// newest set, the number of printings).
    Status,
    /// Go back to the embedded card index (removes the updated one).
    Reset,
}

#[derive(Debug, clap::Args)]
pub struct UpdateArgs {
    /// An `http(s)://` URL or a local `.tar.gz` file. Default: the TCGdex cards-database
    /// archive of its default branch on GitHub.
    #[arg(long, value_name = "URL|FILE")]
    pub from: Option<String>,
    /// Refuse the archive unless its SHA-256 is this (64 hex digits).
    #[arg(long, value_name = "HEX")]
    pub sha256: Option<String>,
    /// Install even when the new index has fewer printings than the one in use, or lacks
    /// one of its printings.
    #[arg(long)]
    pub force: bool,
    /// Give up a download that is not done after this many seconds (1 to 86400).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_SECS))]
    pub timeout: u64,
}

pub(crate) fn run(action: &CardsAction) -> Result<Outcome, Error> {
    let result = update::data_dir().and_then(|dir| match action {
        CardsAction::Update(args) => run_update(args, &dir),
        CardsAction::Status => status(&dir),
        CardsAction::Reset => reset(&dir),
    });
    Ok(result?)
}

/// An update's error as standard error shows it ([`super::render`]): its own help, and that
/// the card index in use was not changed.
pub(crate) fn failed(error: &UpdateError) -> String {
    let shown = deckbox::util::escape::visible(&error.to_string()).into_owned();
    let help = match error {
        UpdateError::Worse(_) => "help: `--force` installs it anyway\n",
        UpdateError::Io {
            action: "download", ..
        } => {
            "help: without network, download the archive elsewhere and install it with `deckbox cards update --from FILE.tar.gz`\n"
        }
        _ => "",
    };
    format!("error: {shown}\n{help}the card index in use was not changed\n")
}

fn run_update(args: &UpdateArgs, dir: &Path) -> Result<Outcome, UpdateError> {
    let sha256 = match &args.sha256 {
        Some(hex) => Some(update::parse_sha256(hex).ok_or_else(|| {
            UpdateError::Refused(format!("--sha256 {hex}: expected 64 hex digits"))
        })?),
        None => None,
    };
    let from = args.from.clone().unwrap_or_else(|| DEFAULT_SOURCE.into());
    let options = update::Options {
        from: from.clone(),
        sha256,
        force: args.force,
        limits: Limits::from_env(),
    };
    let bar = Bar::new();
    let _lock = update::lock(dir)?;
    let installed = if is_url(&from) {
        let timeout = Duration::from_secs(args.timeout);
        download_and_install(dir, &from, &options, timeout, &bar)?
    } else {
        let path = PathBuf::from(&from);
        let options = update::Options {
            from: std::path::absolute(&path)
                .unwrap_or(path.clone())
                .display()
                .to_string(),
            ..options
        };
        update::install(dir, &path, &options, &bar)?
    };
    let mut stdout = String::from("installed the card index built from the archive\n");
    stdout.push_str(&describe(&installed, dir));
    Ok(Outcome {
        stdout,
        stderr: String::new(),
        code: Exit::Clean,
    })
}

fn is_url(from: &str) -> bool {
    let lower = from.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// Downloads the archive at `url` beside the index, then installs it.
#[cfg(feature = "update")]
fn download_and_install(
    dir: &Path,
    url: &str,
    options: &update::Options,
    timeout: Duration,
    progress: &dyn Progress,
) -> Result<Installed, UpdateError> {
    let file = update::download_file(dir)?;
    download(
        url,
        file.path(),
        options.limits.archive_bytes,
        timeout,
        progress,
    )?;
    update::install(dir, file.path(), options, progress)
}

/// Without the `update` feature this deckbox has no network: an archive is installed from
/// a file only.
#[cfg(not(feature = "update"))]
fn download_and_install(
    _dir: &Path,
    url: &str,
    _options: &update::Options,
    _timeout: Duration,
    _progress: &dyn Progress,
) -> Result<Installed, UpdateError> {
    Err(UpdateError::Refused(format!(
        "{url}: this deckbox was built without the `update` feature, so it cannot download; \
         download the archive yourself and give its path to `--from`"
    )))
}

#[cfg(feature = "update")]
/// Downloads `url` into `file`: at most `limit` bytes, done within `timeout`, at most
/// [`MAX_REDIRECTS`] redirects, through the proxy `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY`
/// name unless `NO_PROXY` excludes the host (ureq reads them).
fn download(
    url: &str,
    file: &Path,
    limit: u64,
    timeout: Duration,
    progress: &dyn Progress,
) -> Result<(), UpdateError> {
    let mut response = follow(url, timeout)?;
    let declared = response
        .headers()
        .get("content-length")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit) {
        return Err(UpdateError::TooLarge { limit });
    }
    progress.step(
        "downloading",
        declared,
        deckbox::util::progress::Unit::Bytes,
    );
    let mut body = response
        .body_mut()
        .with_config()
        .limit(limit.saturating_add(1))
        .reader();
    let write_failed = |source| UpdateError::Io {
        action: "write",
        path: file.to_path_buf(),
        source,
    };
    let mut out = std::fs::File::create(file).map_err(write_failed)?;
    let mut buffer = vec![0u8; 64 << 10];
    let mut done = 0u64;
    loop {
        let n = body.read(&mut buffer).map_err(|source| UpdateError::Io {
            action: "download",
            path: PathBuf::from(url),
            source: if timed_out(&source) {
                std::io::Error::other("it timed out (see `--timeout`)")
            } else {
                source
            },
        })?;
        if n == 0 {
            break;
        }
        done += n as u64;
        if done > limit {
            return Err(UpdateError::TooLarge { limit });
        }
        out.write_all(&buffer[..n]).map_err(write_failed)?;
        progress.advance(done);
    }
    if declared.is_some_and(|length| length != done) {
        return Err(UpdateError::Corrupt(format!(
            "the server announced {} bytes and sent {done}",
            declared.unwrap_or_default()
        )));
    }
    out.sync_all().map_err(write_failed)
}

#[cfg(feature = "update")]
/// The response to a GET of `url`, redirects followed by hand (at most [`MAX_REDIRECTS`])
/// so that each hop is judged by [`redirect_allowed`] before it is requested.
fn follow(url: &str, timeout: Duration) -> Result<ureq::http::Response<ureq::Body>, UpdateError> {
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .user_agent(concat!("deckbox/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent();
    let refused = |reason: String| UpdateError::Io {
        action: "download",
        path: PathBuf::from(url),
        source: std::io::Error::other(reason),
    };
    let mut at = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let response = agent
            .get(&at)
            .call()
            .map_err(|error| refused(network_reason(error)))?;
        if !response.status().is_redirection() {
            return Ok(response);
        }
        let location = response
            .headers()
            .get("location")
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| refused(format!("{at} redirects without a location")))?;
        let next = resolve(&at, location);
        redirect_allowed(url, &next).map_err(refused)?;
        at = next;
    }
    Err(refused(format!(
        "more than {MAX_REDIRECTS} redirects (a redirect loop?)"
    )))
}

#[cfg(feature = "update")]
/// `location` (absolute, `//host/...`, `/path` or relative) read against the URL `base`.
fn resolve(base: &str, location: &str) -> String {
    let location = location.trim();
    if is_url(location) {
        return location.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    if let Some(host_and_path) = location.strip_prefix("//") {
        return format!("{scheme}://{host_and_path}");
    }
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let folder = path.rfind('/').map_or("/", |end| &path[..=end]);
    format!("{scheme}://{authority}{folder}{location}")
}

#[cfg(feature = "update")]
/// Whether a download that started at `origin` may follow a redirect to `next`: never from
/// `https` to anything else, and never from one kind of host to another ([`Locality`]), so
/// a server on the internet cannot send deckbox into the user's own network and a local
/// server cannot send it out. The reason, when not.
fn redirect_allowed(origin: &str, next: &str) -> Result<(), String> {
    let scheme = |url: &str| url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    let next_scheme = scheme(next);
    if !matches!(next_scheme.as_deref(), Some("https" | "http")) {
        return Err(format!("a redirect to {next}, which is no http(s) address"));
    }
    if scheme(origin).as_deref() == Some("https") && next_scheme.as_deref() != Some("https") {
        return Err(format!(
            "a redirect from https to {next}, which is not https; refused"
        ));
    }
    let (from, to) = (Locality::of(origin), Locality::of(next));
    if from != to {
        return Err(format!(
            "a redirect from {} to {} ({next}); refused",
            from.words(),
            to.words()
        ));
    }
    Ok(())
}

#[cfg(feature = "update")]
/// Where a URL's host is, as far as its text says (names other than `localhost` are not
/// looked up: they count as the internet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Locality {
    /// `localhost` and loopback addresses: this machine.
    Loopback,
    /// Private, link-local, unique-local and unspecified addresses: the user's network.
    Private,
    /// Anything else.
    Internet,
}

#[cfg(feature = "update")]
impl Locality {
    fn of(url: &str) -> Locality {
        use std::net::IpAddr;
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host_port = authority.rsplit('@').next().unwrap_or("");
        let host = match host_port.strip_prefix('[') {
            Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
            None => host_port.split(':').next().unwrap_or(""),
        };
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        if host == "localhost" || host.ends_with(".localhost") {
            return Locality::Loopback;
        }
        let ip = match host.parse::<IpAddr>() {
            Ok(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
            Ok(ip) => ip,
            Err(_) => return Locality::Internet,
        };
        match ip {
            IpAddr::V4(v4) if v4.is_loopback() => Locality::Loopback,
            IpAddr::V4(v4) if v4.is_private() || v4.is_link_local() || v4.is_unspecified() => {
                Locality::Private
            }
            IpAddr::V6(v6) if v6.is_loopback() => Locality::Loopback,
            IpAddr::V6(v6)
                if v6.is_unspecified()
                    || (v6.segments()[0] & 0xfe00) == 0xfc00
                    || (v6.segments()[0] & 0xffc0) == 0xfe80 =>
            {
                Locality::Private
            }
            _ => Locality::Internet,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Locality::Loopback => "this machine",
            Locality::Private => "a local network address",
            Locality::Internet => "the internet",
        }
    }
}

#[cfg(feature = "update")]
/// Whether reading the body failed for the time limit (ureq passes its own error inside).
fn timed_out(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::TimedOut
        || error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<ureq::Error>())
            .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_)))
}

#[cfg(feature = "update")]
/// A download error as one line a user can act on.
fn network_reason(error: ureq::Error) -> String {
    match error {
        ureq::Error::StatusCode(code) => format!("the server answered HTTP {code}"),
        ureq::Error::Timeout(_) => "it timed out (see `--timeout`)".into(),
        other => other.to_string(),
    }
}

fn status(dir: &Path) -> Result<Outcome, UpdateError> {
    let stdout = match index::status(dir)? {
        IndexStatus::Updated(installed) => {
            format!("card index: updated\n{}", describe(&installed, dir))
        }
        IndexStatus::Embedded {
            newest,
            printings,
            unusable,
        } => {
            let (code, released) = newest.as_ref().map_or(("?", "?"), |(code, released)| {
                (code.as_str(), released.as_str())
            });
            let embedded = format!(
                "card index: embedded (built into deckbox {})\n  newest set: {code}, released {released}\n  printings: {printings}\n  `deckbox cards update` brings newer sets\n",
                env!("CARGO_PKG_VERSION"),
            );
            match unusable {
                None => embedded,
                Some(error) => format!(
                    "card index: embedded (the updated index cannot be used: {})\n{embedded}",
                    deckbox::util::escape::visible(&error),
                ),
            }
        }
    };
    Ok(Outcome {
        stdout,
        stderr: String::new(),
        code: Exit::Clean,
    })
}

fn describe(installed: &Installed, dir: &Path) -> String {
    let set = &installed.newest_set;
    let name = if set.name.is_empty() {
        String::new()
    } else {
        format!("{} ", set.name)
    };
    let text = format!(
        "  from: {}\n  installed: {}\n  sha256: {}\n  newest set: {name}({}, {}), released {}\n  printings: {}\n  file: {}\n",
        installed.from,
        installed.installed,
        installed.sha256,
        set.code,
        set.id,
        set.released,
        installed.printings,
        update::installed_path(dir).display()
    );
    deckbox::util::escape::visible(&text).into_owned()
}

fn reset(dir: &Path) -> Result<Outcome, UpdateError> {
    let stdout = if index::reset(dir)? {
        "removed the updated card index; the embedded one is in use again\n"
    } else {
        "no updated card index; the embedded one is in use\n"
    };
    Ok(Outcome {
        stdout: stdout.into(),
        stderr: String::new(),
        code: Exit::Clean,
    })
}

/// From now on, a spinner on standard error (when it is a terminal) while an index is built
/// from a `--cards` checkout, instead of a few silent seconds.
pub(crate) fn watch_index_builds() {
    static BAR: std::sync::OnceLock<Bar> = std::sync::OnceLock::new();
    deckbox::cards::storage::progress::watch_index_builds(BAR.get_or_init(Bar::new));
}

#[cfg(all(test, feature = "update"))]
mod tests {
    use super::*;

    #[test]
    fn locations_are_read_against_the_url_they_came_from() {
        let base = "https://github.com/tcgdex/cards-database/archive/master.tar.gz?x=1";
        assert_eq!(
            resolve(base, "https://codeload.github.com/a"),
            "https://codeload.github.com/a"
        );
        assert_eq!(
            resolve(base, "//codeload.github.com/a"),
            "https://codeload.github.com/a"
        );
        assert_eq!(resolve(base, "/b/c"), "https://github.com/b/c");
        assert_eq!(
            resolve(base, "main.tar.gz"),
            "https://github.com/tcgdex/cards-database/archive/main.tar.gz"
        );
        assert_eq!(
            resolve("http://127.0.0.1:8080", "/x"),
            "http://127.0.0.1:8080/x"
        );
    }

    #[test]
    fn redirects_keep_https_and_stay_on_their_side_of_the_local_line() {
        let github = "https://github.com/tcgdex/cards-database/archive/master.tar.gz";
        assert!(redirect_allowed(github, "https://codeload.github.com/x.tar.gz").is_ok());
        let downgrade = redirect_allowed(github, "http://codeload.github.com/x").unwrap_err();
        assert!(downgrade.contains("not https"), "{downgrade}");
        for local in [
            "https://127.0.0.1/x",
            "https://localhost:8080/x",
            "https://10.0.0.7/x",
            "https://192.168.1.1/x",
            "https://169.254.169.254/latest",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://0.0.0.0/x",
            "https://user@127.0.0.1:99/x",
        ] {
            let error = redirect_allowed(github, local).unwrap_err();
            assert!(error.contains("from the internet to"), "{local}: {error}");
        }
        let loopback = "http://127.0.0.1:4000/a";
        assert!(redirect_allowed(loopback, "http://127.0.0.1:4001/b").is_ok());
        let out = redirect_allowed(loopback, "http://93.184.216.34/b").unwrap_err();
        assert!(out.contains("from this machine to the internet"), "{out}");
        let lan = redirect_allowed(loopback, "http://10.1.2.3/b").unwrap_err();
        assert!(lan.contains("to a local network address"), "{lan}");
        let other = redirect_allowed(github, "file:///etc/passwd").unwrap_err();
        assert!(other.contains("no http(s) address"), "{other}");
    }
}
