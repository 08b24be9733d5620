//! Markdown output read by real renderers (issue 49 item 2): text a user controls (a player's
//! name, a list's title, card names, file names, commit subjects) reaches every Markdown
//! document deckbox writes, and GitHub's renderer (`cmark-gfm` with its extensions) and
//! CommonMark's (`cmark`) turn none of it into markup. Each document is rendered twice, once
//! from hostile text and once from plain text in the same places: the HTML elements must be
//! the same (deckbox's own headings and tables, nothing from the input), and the hostile text
//! must still be there, shown as written.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::review_cli::git;

use super::{common, run, tcgdex_set};

/// Everything a renderer acts on in a line: a heading marker, links, images, autolinks of
/// every kind (`<…>`, bare `https://`, `www.`, an e-mail address), raw HTML, emphasis,
/// strikethrough, code, a table pipe, an entity, a mention, an issue reference, math and a
/// backslash. No `"` or `\`: it is also a card name in a TypeScript string.
const EVIL: &str = "# [x](http://e.test) ![i](http://e.test/i.png) <http://e.test> <b>b</b> <script>alert(1)</script> *em* _u_ **st** ~~del~~ `code` www.e.test https://e.test/p u@e.test @user #12 &amp; $x$ a|b";

/// What a file name may hold of it (no `/`).
const EVIL_FILE: &str =
    "# [x](e.test) <img src=x onerror=y> *em* _u_ ~~d~~ `c` www.e.test u@e.test a|b";

/// Plain text standing where the hostile text stands.
const PLAIN: &str = "Plain Name";
const PLAIN_FILE: &str = "plain";

/// Fragments of [`EVIL`] the rendered page must still show, as HTML text.
const SHOWN: [&str; 6] = [
    "[x](http://e.test)",
    "&lt;b&gt;b&lt;/b&gt;",
    "*em* _u_ **st** ~~del~~",
    "www.e.test https://e.test/p u@e.test",
    "&amp;amp; $x$ a|b",
    "&lt;script&gt;",
];

/// The renderers, each with its command line: GitHub's with the extensions github.com
/// turns on, and the CommonMark reference.
const RENDERERS: [&[&str]; 2] = [
    &[
        "cmark-gfm",
        "-e",
        "table",
        "-e",
        "autolink",
        "-e",
        "strikethrough",
        "-e",
        "tagfilter",
    ],
    &["cmark"],
];

/// `markdown` as HTML by `renderer` (the document in a file beside it).
fn render(renderer: &[&str], markdown: &str) -> String {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), markdown).unwrap();
    let output = Command::new(renderer[0])
        .args(&renderer[1..])
        .arg(file.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{renderer:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// How many times each element (and each `href`/`src` attribute) opens or closes in `html`,
/// comments aside. Text in rendered HTML has its `<` as `&lt;` and its `"` as `&quot;`, so
/// every `<` is markup.
fn elements(html: &str) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    for (at, _) in html.match_indices('<') {
        let name: String = html[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '/' || *c == '!')
            .collect();
        // A comment shows nothing (deckbox writes one to break an e-mail address).
        if !name.starts_with('!') {
            *found.entry(name).or_insert(0) += 1;
        }
    }
    for attribute in [" href=\"", " src=\""] {
        found.insert(attribute.to_string(), html.matches(attribute).count());
    }
    found
}

/// A TCGdex checkout (`cards`) whose Basic Pokémon ONE 1 is named `name`, beside a Basic
/// `Filler` (ONE 2) so a 60-card deck can be dealt.
fn checkout(root: &Path, name: &str) {
    let basic =
        "category: \"Pokemon\",\n\tstage: \"Basic\", types: [\"Lightning\"], regulationMark: \"G\"";
    tcgdex_set(
        &root.join("cards"),
        &[("001", name, basic), ("002", "Filler", basic)],
    );
}

/// A repository whose every user-written text is `text` (`file` in file names): a deck of
/// the checkout's cards naming its player and title, one with an unknown card, a folder of
/// two decks of `Filler` (`pair`), a collection,
/// and (when git is there) two commits, the second with `text` as its subject.
fn repository(text: &str, file: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    checkout(root, text);
    std::fs::create_dir(root.join("decks")).unwrap();
    std::fs::write(
        root.join("decks").join(format!("{file}.txt")),
        format!("{text}\n# player: {text}\n20 {text} ONE 1\n40 Filler ONE 2\n"),
    )
    .unwrap();
    std::fs::write(
        root.join("decks/unknown.txt"),
        format!("# player: {text}\n4 {text}\n56 Filler ONE 2\n"),
    )
    .unwrap();
    // Two decks named `text`, for `need`'s folder view of the cards both would use.
    std::fs::create_dir(root.join("pair")).unwrap();
    for copy in ["", "-2"] {
        let deck = format!("{text}\n60 Filler ONE 2\n");
        std::fs::write(root.join("pair").join(format!("{file}{copy}.txt")), deck).unwrap();
    }
    std::fs::write(
        root.join("have.csv"),
        format!(
            "count,name,set,number\n1,{},ONE,1\n2,Filler,ONE,2\n",
            text.replace(',', " ")
        ),
    )
    .unwrap();
    dir
}

/// Every Markdown document deckbox writes about the repository `repository(text, file)`
/// made, each with the command that wrote it.
fn documents(text: &str, file: &str, with_git: bool) -> Vec<(String, String)> {
    let dir = repository(text, file);
    let d = dir.path();
    let deck = format!("decks/{file}.txt");
    let cards = ["--cards", "cards", "--format", "unlimited"];
    let want = "Filler>=1".to_string();
    let seen = format!("1 {text}");
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["check", &deck, "--output", "markdown"],
        vec!["check", "decks", "--output", "markdown"],
        vec![
            "check", "decks", "--output", "markdown", "--have", "have.csv",
        ],
        vec!["need", "pair", "--have", "have.csv", "--output", "markdown"],
        vec!["stats", &deck, "--output", "markdown", "--want", &want],
        vec!["stats", &deck, "--output", "markdown", "--compare", &deck],
        vec![
            "odds", &deck, "--seen", &seen, "--draws", "2", "--output", "markdown",
        ],
    ];
    for command in &mut commands {
        command.extend(cards);
    }
    if with_git {
        git(d, &["init", "-q"], 1);
        git(d, &["add", "."], 1);
        git(d, &["commit", "-q", "-m", "first"], 1);
        let changed = std::fs::read_to_string(d.join(&deck))
            .unwrap()
            .replace("40 Filler", "39 Filler");
        std::fs::write(d.join(&deck), changed).unwrap();
        git(d, &["commit", "-q", "-a", "-m", text], 2);
        commands.push(vec!["review", "HEAD~1", "HEAD", "--output", "markdown"]);
        commands.push(vec!["log", &deck, "--output", "markdown"]);
    }
    commands
        .iter()
        .map(|args| {
            let out = run(d, args, b"");
            assert!(!out.stdout.is_empty(), "{args:?}: {}", out.stderr);
            // The file names in the documents differ by the folder's name only.
            (args.join(" ").replace(file, "FILE"), out.stdout)
        })
        .collect()
}

#[test]
fn no_user_text_becomes_markup_in_github_or_commonmark() {
    if !common::tool("cmark-gfm", "--version", "markdown renderers")
        || !common::tool("cmark", "--version", "markdown renderers")
    {
        return;
    }
    let with_git = common::tool("git", "--version", "markdown renderers");
    let hostile = documents(EVIL, EVIL_FILE, with_git);
    let plain = documents(PLAIN, PLAIN_FILE, with_git);
    for ((command, evil), (_, benign)) in hostile.iter().zip(&plain) {
        for renderer in RENDERERS {
            let page = render(renderer, evil);
            assert_eq!(
                elements(&page),
                elements(&render(renderer, benign)),
                "{command} through {}: elements from the input\n{evil}\n{page}",
                renderer[0]
            );
            assert!(!page.contains("<script"), "{command}: {page}");
        }
        // The hostile text is shown as written (comments aside): whole wherever the
        // command shows it whole, else its start (a table cuts a long card name).
        let mut page = render(RENDERERS[0], evil);
        while let Some(at) = page.find("<!--") {
            let end = page[at..].find("-->").unwrap() + at + 3;
            page.replace_range(at..end, "");
        }
        assert!(page.contains("[x]("), "{command}: {page}");
        if page.contains("$x$ a|b") {
            for fragment in SHOWN {
                assert!(page.contains(fragment), "{command}: {fragment}\n{page}");
            }
        }
    }
}
