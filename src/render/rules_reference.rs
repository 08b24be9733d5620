//! `docs/rules.md`: the reference of every rule, written from the rule registry
//! ([`crate::check::rules`]) so the documentation cannot drift from the code. `cargo xtask
//! rules` writes the file; a test checks the committed file is current.

use crate::check::rules::Rule;

/// The whole page, as Markdown.
pub fn markdown() -> String {
    let mut page = String::from(
        "# Rules\n\n\
         <!-- Generated from src/check/rules/ by `cargo xtask rules`; do not edit by hand. -->\n\n\
         Every finding names one of these rules. Ids are stable: a rule is never renamed and an \
         id never reused. Errors make a deck invalid (exit 1); warnings do not. \
         `deckbox explain RULE` prints the same text in the terminal.\n\n\
         | id | severity | finds |\n| --- | --- | --- |\n",
    );
    for rule in Rule::ALL {
        let def = rule.def();
        page.push_str(&format!(
            "| [`{id}`](#{id}) | {} | {} |\n",
            def.severity.as_str(),
            cell(def.summary),
            id = def.id,
        ));
    }
    for rule in Rule::ALL {
        let def = rule.def();
        page.push_str(&format!(
            "\n## {id}\n\n{severity}. {summary}\n\n**Why.** {why}\n\n**Example.**\n\n```text\n{example}\n```\n\n**Fix.** {fix}\n",
            id = def.id,
            severity = capitalized(def.severity.as_str()),
            summary = def.summary,
            why = def.why,
            example = def.example.trim_end(),
            fix = def.fix,
        ));
    }
    page
}

/// A table cell: a `|` would end it.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_row_and_a_section() {
        let page = markdown();
        for rule in Rule::ALL {
            assert!(page.contains(&format!("| [`{0}`](#{0}) |", rule.id())));
            assert!(page.contains(&format!("\n## {}\n", rule.id())));
        }
    }
}
