//! Price files given to `deckbox need --prices` (issue 52 items 3 and 8): a currency that
//! carries terminal escapes or markup, totals that would overflow, and a price of 100,000
//! digits are refused with a short message naming the line, never drawn raw or wrapped.

use super::{has_raw_hidden, run};

const DECK: &str = "4 Ultra Ball MEG 131\n2 Dreepy TWM 128\n";

/// Runs `need deck.txt --prices prices.csv` (nothing owned) on `prices`, in `output`.
fn need_with_prices(prices: &str, output: &str) -> super::Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), DECK).unwrap();
    std::fs::write(dir.path().join("have.txt"), "").unwrap();
    std::fs::write(dir.path().join("prices.csv"), prices).unwrap();
    run(
        dir.path(),
        &[
            "need",
            "deck.txt",
            "--have",
            "have.txt",
            "--prices",
            "prices.csv",
            "--output",
            output,
        ],
        b"",
    )
}

#[test]
fn a_currency_with_escapes_or_markup_is_refused_by_line() {
    for currency in [
        "EUR\u{1b}]0;pwned\u{7}\u{1b}[2J",
        "[EUR](http://e.test)",
        "<b>EUR</b>",
        "E U R",
        "EUROSDOLLARS",
    ] {
        let prices =
            format!("name,set,number,price,currency\nUltra Ball,MEG,131,0.25,{currency}\n");
        for output in ["table", "json"] {
            let done = need_with_prices(&prices, output);
            assert_eq!(done.code, 2, "{currency:?} {output}: {}", done.stderr);
            assert!(
                done.stderr.contains("prices.csv:2:") && done.stderr.contains("is not a currency"),
                "{currency:?}: {}",
                done.stderr
            );
            assert!(!has_raw_hidden(&done.stderr), "{:?}", done.stderr);
            assert!(!done.stderr.contains('\u{1b}'), "{:?}", done.stderr);
            assert!(done.stdout.is_empty(), "{}", done.stdout);
        }
    }
}

#[test]
fn a_currency_sign_and_a_lowercase_code_are_read() {
    let done = need_with_prices(
        "name,set,number,price,currency\nUltra Ball,MEG,131,0.25,€\n",
        "table",
    );
    assert_eq!(done.code, 1, "{}", done.stderr);
    assert!(done.stdout.contains("1.00 €"), "{}", done.stdout);
    let done = need_with_prices(
        "name,set,number,price,currency\nUltra Ball,MEG,131,0.25,eur\n",
        "table",
    );
    assert!(done.stdout.contains("1.00 EUR"), "{}", done.stdout);
}

/// Two cards at the highest price a row may give add up exactly (the total no longer
/// saturates at 184467440737095516.15); one cent more is refused.
#[test]
fn totals_are_exact_and_prices_are_bounded() {
    let done = need_with_prices(
        "name,set,number,price,currency\n\
         Ultra Ball,MEG,131,1000000000.00,EUR\n\
         Dreepy,TWM,128,1000000000,EUR\n",
        "json",
    );
    assert_eq!(done.code, 1, "{}", done.stderr);
    let json: serde_json::Value = serde_json::from_str(&done.stdout).unwrap();
    assert_eq!(json["cost"]["amount"], "6000000000.00", "{}", done.stdout);
    let done = need_with_prices(
        "name,set,number,price,currency\nUltra Ball,MEG,131,1000000000.01,EUR\n",
        "table",
    );
    assert_eq!(done.code, 2);
    assert!(
        done.stderr.contains("a price is at most 1000000000.00"),
        "{}",
        done.stderr
    );
}

/// A price of 100,000 digits is quoted by its first characters only.
#[test]
fn a_huge_price_is_quoted_short() {
    let digits = "9".repeat(100_000);
    let done = need_with_prices(
        &format!("name,set,number,price,currency\nUltra Ball,MEG,131,{digits},EUR\n"),
        "table",
    );
    assert_eq!(done.code, 2);
    assert!(
        done.stderr.contains("is not a price"),
        "{}",
        &done.stderr[..200.min(done.stderr.len())]
    );
    assert!(done.stderr.len() < 1_000, "{} bytes", done.stderr.len());
}
