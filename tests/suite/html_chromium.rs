//! The stats HTML page rendered by headless Chromium: the page for examples/dragapult.txt is
//! written to a temp file, screenshotted, and the PNG must show a real page (not blank).
//! Skips with a note when no browser is installed, unless `DECKBOX_NO_SKIP=1`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr,
    reason = "tests"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use deckbox::check::check;
use deckbox::deck::DeckInput;
use deckbox::formats::Format;
use deckbox::formats::Going;
use deckbox::stats::{Report, StatsDeck, StatsRequest};
use deckbox::util::progress::Quiet;

/// The dragapult example's report, built as `deckbox stats` builds it (the library's
/// `StatsDeck`: printings merged by rules name, Basic Pokémon from the card data).
fn dragapult_report() -> Report {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dragapult.txt");
    let bytes = std::fs::read(&path).unwrap();
    let (db, _) = deckbox::settings::open_cards(None, false).unwrap();
    let format = Format::load("standard").unwrap();
    let deck = check(
        &DeckInput::from_bytes("dragapult.txt", &bytes),
        &db,
        &format,
    );
    let request = StatsRequest::new(&format.setup, 4, Going::First);
    StatsDeck::from_checked(&deck, &db)
        .unwrap()
        .report(&request, &Quiet)
        .unwrap()
}

/// The browser, or `None` after a note when there is none (a failure when
/// `DECKBOX_NO_SKIP=1`).
fn browser_or_skip() -> Option<PathBuf> {
    let browser = find_browser();
    crate::common::needs(
        browser.is_some(),
        "html_chromium",
        "chromium (or chromium-browser, google-chrome)",
    )
    .then_some(browser)
    .flatten()
}

fn find_browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The browser, headless, with everything that could reach the network turned off.
fn headless(browser: &Path, profile: &Path) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()));
    command
}

/// The document the browser holds once the page's scripts ran (`--dump-dom`), in a window
/// `width` pixels wide; a page may read the pages it frames.
fn dump_dom(browser: &Path, url: &str, profile: &Path, width: u32) -> String {
    let mut child = headless(browser, profile)
        .arg("--allow-file-access-from-files")
        .arg(format!("--window-size={width},2000"))
        .arg("--dump-dom")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    wait(child);
    reader.join().unwrap()
}

/// Screenshots `html` into `png` (1200 × 1600).
fn screenshot(browser: &Path, html: &Path, png: &Path, profile: &Path) {
    let url = format!("file://{}", html.display());
    screenshot_at(browser, &url, png, profile, (1200, 1600));
}

/// Screenshots the page at `url` into `png`, `size` pixels; a page may read the pages it
/// frames.
fn screenshot_at(browser: &Path, url: &str, png: &Path, profile: &Path, size: (u32, u32)) {
    let child = headless(browser, profile)
        .arg("--allow-file-access-from-files")
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait(child);
}

/// Waits for the browser to succeed, killing it after 60 s.
fn wait(mut child: std::process::Child) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium failed: {status}");
            return;
        }
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("chromium took more than 60 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Decodes the PNG and returns (width, height, distinct colours, share of non-white pixels).
fn inspect(png: &[u8]) -> (u32, u32, usize, f64) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let channels = info.color_type.samples();
    let pixels = &buffer[..info.buffer_size()];
    let mut colours = std::collections::HashSet::new();
    let mut ink = 0usize;
    for pixel in pixels.chunks_exact(channels) {
        let rgb = (pixel[0], pixel[1 % channels], pixel[2 % channels]);
        colours.insert(rgb);
        if rgb != (255, 255, 255) {
            ink += 1;
        }
    }
    let total = pixels.len() / channels;
    (
        info.width,
        info.height,
        colours.len(),
        ink as f64 / total as f64,
    )
}

#[test]
fn chromium_renders_the_stats_page() {
    let page = deckbox::render::stats_html::stats_page(&dragapult_report(), "dragapult.txt");
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let (html, png) = (dir.path().join("page.html"), dir.path().join("page.png"));
    std::fs::write(&html, &page).unwrap();
    screenshot(&browser, &html, &png, profile.path());
    let bytes = std::fs::read(&png).expect("no screenshot written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(
        bytes.len() > 10_000,
        "suspiciously small PNG: {} bytes",
        bytes.len()
    );
    let (width, height, colours, ink) = inspect(&bytes);
    assert_eq!((width, height), (1200, 1600));
    // Text, charts in a dozen palette colours and anti-aliasing give thousands of colours;
    // a blank or error page gives a handful.
    assert!(colours > 200, "only {colours} colours");
    assert!(ink > 0.05, "only {:.1}% non-white pixels", ink * 100.0);
    if let Some(keep) = std::env::var_os("DECKBOX_KEEP_SCREENSHOT") {
        std::fs::copy(&png, keep).unwrap();
    }
}

/// Brock's title line (`tests/fixtures/event/brock.txt`) as the browser's DOM holds its cell.
const BROCK_TITLE_CELL: &str =
    "<td>&lt;b&gt;Dragapult&lt;/b&gt; &amp; \"Brock's\" list, 1st place</td>";

/// The event table (`deckbox check DIR --output-format html`) in a real browser: `#sort=-errors` sorts the
/// rows by errors, most first, through the page's own script, the header says so, and the
/// page draws as a table (a screenshot with text, not a blank page).
#[test]
fn chromium_sorts_the_event_table() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let event = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/event");
    let output = crate::common::deckbox_command()
        .args(["check", "--no-config", "--output-format", "html"])
        .arg(&event)
        .arg(event.join("gary.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let html = dir.path().join("event.html");
    std::fs::write(&html, &output.stdout).unwrap();
    let dom = dump_dom(
        &browser,
        &format!("file://{}#sort=-errors", html.display()),
        profile.path(),
        1200,
    );
    assert!(
        dom.contains("aria-sort=\"descending\">errors</th>"),
        "the errors column is not marked sorted:\n{dom}"
    );
    // The errors column (the 8th cell) of each row, in the order the browser shows them.
    let errors: Vec<u32> = dom
        .split("<tr class=")
        .skip(1)
        .filter_map(|row| {
            let cells: Vec<&str> = row.split("<td").skip(1).collect();
            let cell = cells.get(7)?;
            cell.split('>').nth(1)?.split('<').next()?.parse().ok()
        })
        .collect();
    assert_eq!(errors, [14, 8, 2, 0], "{dom}");
    // Brock's title, markup and all, is text in its own cell, never markup of the page.
    assert!(
        dom.contains(BROCK_TITLE_CELL),
        "the title is not one escaped cell:\n{dom}"
    );
    assert!(!dom.contains("<b>Dragapult</b>"), "{dom}");
    let png = dir.path().join("event.png");
    screenshot(&browser, &html, &png, profile.path());
    let (_, _, colours, ink) = inspect(&std::fs::read(&png).unwrap());
    assert!(colours > 50 && ink > 0.02, "{colours} colours, {ink} ink");
    if let Some(keep) = std::env::var_os("DECKBOX_KEEP_EVENT_SCREENSHOT") {
        std::fs::copy(&png, keep).unwrap();
    }
}

/// A test-only page holding `page` in a frame `width` pixels wide (Chromium's window is at
/// least 500 pixels wide, so a phone is a frame). Once the frame has loaded, it writes into
/// `#measured` how wide the framed page's content is, the frame's width, and every table
/// whose second column (the verdict, the answer) ends beyond the frame's right edge (its
/// width less the scroll bar).
fn frame_page(page: &str, width: u32) -> String {
    format!(
        "<!DOCTYPE html><html><head><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head>\
<body><iframe id=\"f\" src=\"{page}\" width=\"{width}\" height=\"2000\"></iframe><pre id=\"measured\"></pre>\
<script>document.getElementById('f').addEventListener('load',function(){{\
var w=this.contentWindow,d=w.document;var hidden=[];\
d.querySelectorAll('table').forEach(function(t,i){{var row=t.tBodies[0]&&t.tBodies[0].rows[0];\
var cell=row&&row.cells[1];if(cell&&cell.getBoundingClientRect().right>d.documentElement.clientWidth+0.5){{hidden.push(i);}}}});\
document.getElementById('measured').textContent='scroll='+d.documentElement.scrollWidth+' inner='+d.documentElement.clientWidth+' hidden='+hidden.join(',');}});</script>\
</body></html>"
    )
}

/// The numbers `frame_page` wrote: the page's content width, the frame's width, and the
/// tables whose second column is out of view.
fn measured(dom: &str) -> (u32, u32, String) {
    let text = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_else(|| panic!("nothing measured:\n{dom}"));
    let field = |name: &str| {
        text.split(' ')
            .find_map(|part| part.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .to_string()
    };
    (
        field("scroll=").parse().unwrap(),
        field("inner=").parse().unwrap(),
        field("hidden="),
    )
}

/// Every HTML page deckbox writes, made by the binary as a user would: the stats page (with
/// a query and `--exactly`), `--compare`, `--vary`, `odds` and the event table.
fn every_page(dir: &Path) -> Vec<(&'static str, Vec<u8>)> {
    let stats = [
        "stats",
        "--no-config",
        "dragapult.txt",
        "--output-format",
        "html",
    ];
    let pages: [(&str, Vec<&str>); 6] = [
        (
            "stats",
            [&stats[..], &["--want", "Dreepy>=1 & Rare Candy>=1"]].concat(),
        ),
        ("exactly", [&stats[..], &["--exactly"]].concat()),
        (
            "compare",
            [
                &stats[..],
                &["--compare", "ptcg-live.txt", "--want", "Dreepy>=1"],
            ]
            .concat(),
        ),
        (
            "vary",
            [
                &stats[..],
                &[
                    "--vary",
                    "Rare Candy=2..4:Psychic Energy",
                    "--want",
                    "Dreepy>=1",
                ],
            ]
            .concat(),
        ),
        (
            "odds",
            vec![
                "odds",
                "--no-config",
                "dragapult.txt",
                "--seen",
                "Dreepy, Drakloak, 2 Rare Candy",
                "--draws",
                "2",
                "--want",
                "Dragapult ex>=1",
                "--output-format",
                "html",
            ],
        ),
        (
            "event",
            vec!["check", "--no-config", "--output-format", "html", "event"],
        ),
    ];
    pages
        .into_iter()
        .map(|(name, args)| {
            let output = crate::common::deckbox_command()
                .args(&args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(
                output.status.code().is_some_and(|code| code < 2),
                "{args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            (name, output.stdout)
        })
        .collect()
}

/// Every page on a phone (390 pixels) and a desktop (1280): the page never scrolls
/// sideways (charts shrink to their box, wide tables scroll in their own), and the second
/// column of every table (the verdict, the answer) is in view. The 390-pixel screenshots
/// are kept in `$DECKBOX_PHONE_SCREENSHOTS` when it names a folder.
#[test]
fn chromium_every_page_fits_a_phone() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = crate::common::workspace(&["examples/dragapult.txt", "examples/ptcg-live.txt"]);
    let event = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/event");
    std::fs::create_dir(dir.path().join("event")).unwrap();
    for entry in std::fs::read_dir(&event).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(
                &path,
                dir.path().join("event").join(path.file_name().unwrap()),
            )
            .unwrap();
        }
    }
    let keep = std::env::var_os("DECKBOX_PHONE_SCREENSHOTS").map(PathBuf::from);
    let profile = tempfile::tempdir().unwrap();
    for (name, page) in every_page(dir.path()) {
        let html = dir.path().join(format!("{name}.html"));
        std::fs::write(&html, &page).unwrap();
        for width in [390, 1280] {
            let frame = dir.path().join(format!("{name}-{width}-frame.html"));
            std::fs::write(&frame, frame_page(&format!("{name}.html"), width)).unwrap();
            let url = format!("file://{}", frame.display());
            let dom = dump_dom(&browser, &url, profile.path(), width);
            let (scroll, inner, hidden) = measured(&dom);
            // The frame's width less its vertical scroll bar.
            assert!(
                inner <= width && inner + 20 >= width,
                "{name}: the frame is {inner} wide"
            );
            assert!(
                scroll <= inner,
                "{name} at {width} px scrolls sideways: {scroll} px of content"
            );
            assert!(
                hidden.is_empty(),
                "{name} at {width} px: tables {hidden} hide their second column"
            );
            let png = dir.path().join(format!("{name}-{width}.png"));
            screenshot_at(&browser, &url, &png, profile.path(), (width, 2000));
            let (shot_width, _, colours, ink) = inspect(&std::fs::read(&png).unwrap());
            assert_eq!(shot_width, width);
            assert!(
                colours > 50 && ink > 0.02,
                "{name}: {colours} colours, {ink} ink"
            );
            if let Some(keep) = &keep {
                std::fs::create_dir_all(keep).unwrap();
                std::fs::copy(&png, keep.join(format!("{name}-{width}.png"))).unwrap();
            }
        }
    }
}
