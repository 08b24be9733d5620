//! Text views of formats for `deckbox formats` and `deckbox formats show`.

use std::fmt::Write;

use crate::formats::Format;

/// One line per format: id, name, season or date, description.
pub fn list(formats: &[Format]) -> String {
    let mut out = String::new();
    for format in formats {
        let season = format
            .season_in_effect()
            .map(|season| season.name.clone())
            .or_else(|| format.season.clone());
        let when = match season {
            Some(season) => format!("{season}, as of {}", format.date),
            None => format!("as of {}", format.date),
        };
        let _ = writeln!(out, "{:<10} {:<28} {}", format.id, format.name, when);
        if !format.description.is_empty() {
            let _ = writeln!(out, "{:<10} {}", "", format.description);
        }
    }
    out
}

fn yes(value: bool, yes: &str, no: &str) -> String {
    if value { yes } else { no }.to_string()
}

fn row(out: &mut String, label: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "  {label:<20} {value}");
}

/// Everything a format allows, its ban list, setup rules and errata.
pub fn show(format: &Format) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", format.name, format.id);
    if !format.description.is_empty() {
        let _ = writeln!(out, "{}", format.description);
    }
    row(&mut out, "as of", format.date);
    match format.season_in_effect() {
        Some(season) => {
            row(
                &mut out,
                "season",
                format!("{}, from {}", season.name, season.from),
            );
            row(&mut out, "season source", &season.source);
        }
        None => {
            if let Some(season) = &format.season {
                row(&mut out, "season", season);
            }
        }
    }
    if let Some(next) = format.next_season() {
        let announced = next
            .announced
            .map(|day| format!(", announced {day}"))
            .unwrap_or_default();
        row(
            &mut out,
            "next rotation",
            format!("{} from {}{announced}", next.name, next.from),
        );
    }
    if !format.seasons.is_empty() {
        row(
            &mut out,
            "seasons",
            format!(
                "{} from {} (`--as-of DATE` judges at another date)",
                format.seasons.len(),
                format
                    .seasons
                    .first()
                    .map(|s| s.from.to_string())
                    .unwrap_or_default()
            ),
        );
    }
    if let Some(parent) = &format.extends {
        row(&mut out, "extends", parent);
    }
    for source in &format.sources {
        row(&mut out, "source", source);
    }
    construction(&mut out, format);
    pool(&mut out, format);
    bans(&mut out, format);
    setup(&mut out, format);
    if !format.errata.is_empty() {
        let _ = writeln!(out, "\nErrata ({})", format.errata.len());
        for erratum in &format.errata {
            let _ = writeln!(out, "  {}: {}", erratum.card, erratum.text);
        }
    }
    out
}

fn construction(out: &mut String, format: &Format) {
    let c = &format.construction;
    let _ = writeln!(out, "\nDeck construction");
    row(out, "deck size", c.deck_size);
    let overrides = if c.printed_copy_overrides {
        "; cards that say you may have as many as you like are exempt"
    } else {
        ""
    };
    row(
        out,
        "copies per name",
        format!("{} (basic Energy exempt{overrides})", c.copy_limit),
    );
    if !c.copy_limit_exempt.is_empty() {
        row(out, "any number of", c.copy_limit_exempt.join(", "));
    }
    // A limit the format's rules do not have is not stated (the Game Boy format's).
    if let Some(limit) = c.ace_spec_limit {
        row(out, "ACE SPEC", format!("{limit} in total"));
    }
    if let Some(limit) = c.prism_star_copies {
        row(out, "Prism Star", format!("{limit} per name"));
    }
    if let Some(limit) = c.radiant_limit {
        row(out, "Radiant Pokémon", format!("{limit} in total"));
    }
    if let Some(limit) = c.pokemon_star_limit {
        row(out, "Pokémon Star", format!("{limit} in total"));
    }
    row(
        out,
        "Basic Pokémon",
        format!("at least {}", c.min_basic_pokemon),
    );
    row(
        out,
        "Pokémon types",
        yes(c.single_type, "all share one type", "any"),
    );
    row(
        out,
        "Rule Box cards",
        yes(c.rule_box_allowed, "allowed", "not allowed"),
    );
    for group in &c.exclusive {
        row(
            out,
            "one of",
            format!("{} ({})", group.names.join(" or "), group.source),
        );
    }
}

fn pool(out: &mut String, format: &Format) {
    let p = &format.pool;
    let _ = writeln!(out, "\nCard pool");
    let any = p.regulation_marks.is_none()
        && p.series.is_none()
        && p.sets.is_none()
        && p.released_from.is_none()
        && p.released_until.is_none();
    if any {
        row(out, "printings", "every card ever printed");
    }
    if let Some(marks) = &p.regulation_marks {
        row(out, "regulation marks", marks.join(", "));
    }
    if let Some(series) = &p.series {
        row(out, "series", series.join(", "));
    }
    if let Some(sets) = &p.sets {
        row(out, "sets", sets.join(", "));
    }
    if let Some(from) = &p.released_from {
        row(out, "released from", from);
    }
    if let Some(until) = &p.released_until {
        row(out, "released until", until);
    }
    if !p.include.is_empty() {
        row(out, "also", p.include.join(", "));
    }
    if !p.exclude.is_empty() {
        row(out, "except", p.exclude.join(", "));
    }
    if p.basic_energy_always {
        row(out, "basic Energy", "always legal");
    }
    if p.reprint_rule {
        row(
            out,
            "reprint rule",
            "older printings with the same name and text as a legal one are legal",
        );
    }
    if !p.note.is_empty() {
        row(out, "note", &p.note);
    }
    for rule in &format.tournament_legal.rules {
        let which = if rule.sets.is_empty() {
            match rule.released_from {
                Some(from) => format!("sets released from {from}"),
                None => "sets".to_string(),
            }
        } else {
            rule.sets.join(", ")
        };
        row(out, "new sets", format!("{which}: {}", rule.rule.as_str()));
    }
    if !format.tournament_legal.dates.is_empty() {
        let dates: Vec<String> = format
            .tournament_legal
            .dates
            .iter()
            .map(|(set, date)| format!("{set} {date}"))
            .collect();
        row(out, "legal from", dates.join(", "));
    }
}

fn bans(out: &mut String, format: &Format) {
    let _ = writeln!(out, "\nBan list ({})", format.bans.len());
    if format.bans.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for ban in &format.bans {
        let printing = match (&ban.set, &ban.number) {
            (Some(set), Some(number)) => format!("{set} {number}"),
            _ => "every printing".to_string(),
        };
        let _ = writeln!(
            out,
            "  {} ({printing}), since {}: {}",
            ban.name, ban.date, ban.source
        );
    }
}

fn setup(out: &mut String, format: &Format) {
    let s = &format.setup;
    let _ = writeln!(out, "\nSetup");
    row(out, "opening hand", format!("{} cards", s.hand_size));
    let prizes = match s.sudden_death_prizes {
        Some(sudden) => format!("{} ({sudden} in Sudden Death)", s.prizes),
        // The format's rules have no Sudden Death: say nothing of it.
        None => s.prizes.to_string(),
    };
    row(out, "prize cards", prizes);
    let mulligan = match (s.mulligan_extra_draw, s.mutual_mulligans_cancel) {
        (false, _) => "the opponent draws no extra card".to_string(),
        (true, true) => "the opponent may draw 1 card per extra mulligan (mulligans both players took cancel out)".to_string(),
        (true, false) => "the opponent may draw 1 card per mulligan".to_string(),
    };
    row(out, "mulligans", mulligan);
    let mut first = vec![yes(s.first_player_draws, "draws a card", "does not draw")];
    first.push(yes(s.first_turn_attack, "may attack", "may not attack"));
    match s.first_turn_supporter {
        Some(true) => first.push("may play a Supporter".to_string()),
        Some(false) => first.push("may not play a Supporter".to_string()),
        // Say nothing the format's rules do not say.
        None => {}
    }
    row(out, "first player, turn 1", first.join(", "));
    if !s.source.is_empty() {
        row(out, "source", &s.source);
    }
    if let Some(rulebook) = &s.supporter_rulebook {
        row(out, "Supporter rule", rulebook);
    }
    supporter_eras(out, format);
    if !s.earlier.is_empty() {
        row(out, "earlier rulebooks", &s.earlier);
    }
}

/// The first-turn Supporter rule of each era, with the day it took effect, and a note when
/// the date judged is older than every era the format knows.
fn supporter_eras(out: &mut String, format: &Format) {
    let rules = &format.setup.supporter_rules;
    if rules.is_empty() {
        return;
    }
    let eras: Vec<String> = rules
        .iter()
        .map(|rule| {
            let may = if rule.allowed { "may" } else { "may not" };
            format!("from {}, the first player {may} play one", rule.from)
        })
        .collect();
    row(out, "Supporter by date", eras.join("; "));
    if format.setup.first_turn_supporter.is_none() {
        row(
            out,
            "Supporter rule",
            format!(
                "none stated: {} is older than the rulebooks deckbox quotes",
                format.date
            ),
        );
    }
}
