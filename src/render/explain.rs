//! `deckbox explain` as text: the list of every rule, or one rule's documentation (what it
//! checks, why, an example and the fix). It looks nothing up: the rules' docs are
//! [`crate::check::diagnostic`]'s.

use crate::check::rules::Rule;

/// One line per rule: id, severity and summary.
pub fn rule_list() -> String {
    let mut out = String::new();
    for rule in Rule::ALL {
        let doc = rule.def();
        out.push_str(&format!(
            "{:<18} {:<8} {}\n",
            doc.id,
            rule.severity().as_str(),
            doc.summary
        ));
    }
    out
}

/// One rule's page: summary, why, example and fix.
pub fn rule_page(rule: Rule) -> String {
    let doc = rule.def();
    format!(
        "{id} ({severity})\n\n{summary}\n\nWhy\n  {why}\n\nExample\n{example}\nFix\n  {fix}\n",
        id = doc.id,
        severity = rule.severity().as_str(),
        summary = doc.summary,
        why = doc.why,
        example = indent(doc.example),
        fix = doc.fix,
    )
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}
