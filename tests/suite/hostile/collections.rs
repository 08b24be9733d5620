//! Collections and price files given to `deckbox need` and `check --have` (issue 49 item 5,
//! issue 52 items 7 and 8): counts that make no sense, duplicate rows, files past the
//! bounds, other encodings, hostile prices, and cells that look like spreadsheet formulas
//! in the CSV deckbox writes. Each is read and explained, or refused naming the line;
//! nothing is counted wrong without a word.

use super::{Run, run};

const DECK: &str = "4 Ultra Ball MEG 131\n2 Dreepy TWM 128\n";

/// `need deck.txt --have have.csv [--prices prices.csv]` in a folder of those files.
fn need(have: &[u8], prices: Option<&str>) -> Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), DECK).unwrap();
    std::fs::write(dir.path().join("have.csv"), have).unwrap();
    let mut args = vec!["need", "deck.txt", "--have", "have.csv"];
    if let Some(prices) = prices {
        std::fs::write(dir.path().join("prices.csv"), prices).unwrap();
        args.extend(["--prices", "prices.csv"]);
    }
    run(dir.path(), &args, b"")
}

/// The missing count `need` prints for `card` (`4  Ultra Ball MEG 131  ...`).
fn missing(out: &Run, card: &str) -> u64 {
    let count = out.stdout.lines().find_map(|line| {
        let (count, rest) = line.trim_start().split_once("  ")?;
        rest.trim_start()
            .starts_with(card)
            .then(|| count.parse().ok())?
    });
    count.unwrap_or_else(|| panic!("{card}: {}", out.stdout))
}

#[test]
fn counts_that_make_no_sense_are_findings_and_count_nothing() {
    let huge = "9".repeat(100_000);
    let have = format!(
        "quantity,name,set,number\n-4,Ultra Ball,MEG,131\n4.5,Ultra Ball,MEG,131\n+4,Ultra Ball,MEG,131\n99999999999999999999999,Ultra Ball,MEG,131\n10001,Ultra Ball,MEG,131\n{huge},Ultra Ball,MEG,131\n0,Dreepy,TWM,128\n١,Dreepy,TWM,128\n"
    );
    let out = need(have.as_bytes(), None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(missing(&out, "Ultra Ball MEG 131"), 4);
    assert_eq!(missing(&out, "Dreepy TWM 128"), 2);
    for (line, said) in [
        (2, "the quantity '-4' is no whole number"),
        (3, "the quantity '4.5' is no whole number"),
        (4, "the quantity '+4' is no whole number"),
        (
            5,
            "the quantity '99999999999999999999999' is too large (at most 10000 copies a row)",
        ),
        (6, "the quantity '10001' is too large"),
        (7, "the quantity '999999999999999999999999…' is too large"),
        (9, "the quantity '١' is no whole number"),
    ] {
        let finding = format!("have.csv:{line}:1: error parse-error: {said}");
        assert!(out.stderr.contains(&finding), "{finding}\n{}", out.stderr);
    }
    // The row of 100,000 digits is quoted by its first characters.
    assert!(out.stderr.len() < 4_000, "{} bytes", out.stderr.len());
}

/// Two rows of one card add up, and both are named where they count.
#[test]
fn duplicate_rows_add_up_and_are_named() {
    let out = need(
        b"quantity,name,set,number\n3,Ultra Ball,MEG,131\n3,Ultra Ball,MEG,131\n",
        None,
    );
    assert_eq!(missing(&out, "Ultra Ball MEG 131"), 0);
    assert!(
        out.stdout
            .contains("3 Ultra Ball MEG 131 (have.csv:2), 1 Ultra Ball MEG 131 (have.csv:3)"),
        "{}",
        out.stdout
    );
}

/// A quote never closed takes the rows after it into its cell: they are reported as the
/// unknown card they make, with the line, never dropped unsaid.
#[test]
fn an_unclosed_quote_is_reported() {
    let out = need(
        b"quantity,name,set,number\n4,\"Ultra Ball,MEG,131\n1,Dreepy,TWM,128\n",
        None,
    );
    assert_eq!(missing(&out, "Dreepy TWM 128"), 2);
    assert!(
        out.stderr.contains(
            "have.csv:2:3: error unknown-card: unknown card 'Ultra Ball,MEG,131 1,Dreepy,TWM,128'"
        ),
        "{}",
        out.stderr
    );
}

/// 50,000 lines are read (a header and 49,999 rows); one more row is refused, its lines
/// counted as a deck list's are; 16 MiB and one byte are refused before parsing.
#[test]
fn files_past_the_bounds_are_refused() {
    let rows = |n: usize| {
        format!(
            "quantity,name,set,number\n{}",
            "1,Ultra Ball,MEG,131\n".repeat(n)
        )
    };
    let out = need(rows(49_999).as_bytes(), None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(missing(&out, "Ultra Ball MEG 131"), 0);
    let out = need(rows(50_000).as_bytes(), None);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.one_error(),
        "error: have.csv has 50001 lines; a collection file may have at most 50000"
    );
    let out = need(&vec![b'a'; (16 << 20) + 1], None);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.one_error(),
        "error: cannot read have.csv: it is larger than 16 MiB"
    );
}

/// A byte-order mark is read; UTF-16 (either order, with its mark) is read and said.
#[test]
fn byte_order_marks_and_utf16_are_read() {
    let text = "quantity,name,set,number\n4,Ultra Ball,MEG,131\n";
    let out = need(format!("\u{FEFF}{text}").as_bytes(), None);
    assert_eq!(missing(&out, "Ultra Ball MEG 131"), 0, "{}", out.stdout);
    let units: Vec<u16> = std::iter::once(0xFEFF).chain(text.encode_utf16()).collect();
    for (order, bytes) in [
        (
            "UTF-16LE",
            units
                .iter()
                .flat_map(|u| u.to_le_bytes())
                .collect::<Vec<u8>>(),
        ),
        (
            "UTF-16BE",
            units.iter().flat_map(|u| u.to_be_bytes()).collect(),
        ),
    ] {
        let out = need(&bytes, None);
        assert_eq!(missing(&out, "Ultra Ball MEG 131"), 0, "{}", out.stdout);
        assert!(
            out.stderr.contains(&format!(
                "have.csv:1:1: warning encoding: the file is not UTF-8; it was read as {order}"
            )),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn hostile_prices_are_refused_by_line() {
    let have = b"quantity,name,set,number\n";
    for (price, why) in [
        ("NaN", "write 12.50"),
        ("inf", "write 12.50"),
        ("-inf", "write 12.50"),
        ("1e308", "write 12.50"),
        ("-1", "write 12.50"),
        ("=1+1", "write 12.50"),
        ("0x10", "write 12.50"),
        ("1.999", "at most two decimals: 12.50"),
        ("1000000000.01", "a price is at most 1000000000.00"),
    ] {
        let prices = format!("name,set,number,price,currency\nUltra Ball,MEG,131,{price},EUR\n");
        let out = need(have, Some(&prices));
        assert_eq!(out.code, 2, "{price}");
        assert_eq!(
            out.one_error(),
            format!("error: prices.csv:2: `{price}` is not a price ({why})")
        );
    }
    // One printing at two prices: which is meant is not guessed.
    let out = need(
        have,
        Some(
            "name,set,number,price,currency\nUltra Ball,MEG,131,1.00,EUR\nUltra Ball,MEG,131,2.00,EUR\n",
        ),
    );
    assert_eq!(out.code, 2);
    assert_eq!(
        out.one_error(),
        "error: prices.csv:3: the printing MEG 131 is priced on line 2 already, at another price; a printing has one price"
    );
    // The same price twice is the same answer.
    let out = need(
        have,
        Some(
            "name,set,number,price,currency\nUltra Ball,MEG,131,1.00,EUR\nUltra Ball,MEG,131,1,EUR\n",
        ),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains("cost of what is missing: 4.00 EUR"),
        "{}",
        out.stdout
    );
}

/// Every cell of the CSV deckbox writes that a spreadsheet would run as a formula (`=`,
/// `+`, `-`, `@`, a tab or a carriage return first) starts with `'`: a player's name, a
/// title, a file name and a missing card.
#[test]
fn formula_cells_are_neutralised_in_csv_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let decks = d.join("decks");
    std::fs::create_dir(&decks).unwrap();
    let hostile = [
        ("=cmd.txt", "=HYPERLINK(\"http://e.test\",\"x\")"),
        ("+1.txt", "+1+1"),
        ("-2.txt", "-2+3"),
        ("@SUM(1).txt", "@SUM(1)"),
        ("\ttab.txt", "\t=1"),
    ];
    for (file, player) in hostile {
        std::fs::write(
            decks.join(file),
            format!("{player}\n# player: {player}\n4 Ultra Ball MEG 131\n"),
        )
        .unwrap();
    }
    std::fs::write(d.join("have.csv"), "quantity,name,set,number\n").unwrap();
    let out = run(
        d,
        &[
            "check",
            "decks",
            "--output",
            "csv",
            "--have",
            "have.csv",
            "--no-config",
        ],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(out.stdout.as_bytes());
    let mut rows = 0;
    for record in reader.records() {
        let record = record.unwrap();
        rows += 1;
        for cell in &record {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{cell:?} in {record:?}"
            );
        }
        assert!(record[0].starts_with("'decks/") || record[0].starts_with("decks/"));
    }
    assert_eq!(rows, hostile.len(), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("\"'=HYPERLINK(\"\"http://e.test\"\",\"\"x\"\")\""),
        "{}",
        out.stdout
    );
}
