//! The jury's typed values as tables in the reader's language: a game's score sheet
//! (`replay::ScoreSheet`), why a game cannot be scored (`ScoreError`), and the game at an
//! audited point (`replay::audit::AuditPoint`: where it stands, its nations, its clocks and its
//! sheet). `replay` keeps the numbers and their plain-text face for `ledgerctl` and the report;
//! the pages show these, with names from the catalogue (`words.ftl`, `rules.ftl`) and decimals
//! as the language writes them.

use super::{events, name};
use crate::html::esc;
use crate::i18n::Lang;
use ledger::{ClockSide, Nation, Role};
use replay::audit::{AuditPoint, OffensiveStatus};
use replay::sheet::{Coefficient, FixedBy, GameStatus, NoStcc, ScoreError, ScoreSheet};
use replay::Rational;

/// Decimals the coefficients (TCC, sTCC) show.
const COEFFICIENT_PLACES: u32 = 3;

/// `sheet` as a table with the status above it; `html_id` names the table.
pub fn sheet_html(lang: Lang, sheet: &ScoreSheet, html_id: &str) -> String {
    let places = sheet.places();
    let show =
        |value: Option<Rational>| value.map_or_else(|| lang.t("sheet-pending"), |v| lang.decimal(&v.to_fixed(places)));
    let ruleset = name(lang, "ruleset", sheet.ruleset.as_str());
    let status = match &sheet.status {
        GameStatus::InProgress => {
            lang.t_args("sheet-in-progress", &[("ruleset", ruleset.into()), ("turn", sheet.turns.into())])
        }
        GameStatus::Ended { outcome, winners } => lang.t_args(
            "sheet-ended",
            &[
                ("ruleset", ruleset.into()),
                ("turns", sheet.turns.into()),
                ("outcome", name(lang, "outcome", outcome.as_str()).into()),
                ("winners", nations(lang, winners).into()),
            ],
        ),
    };
    let mut rows = String::new();
    for (&role, line) in &sheet.roles {
        let held: Vec<String> = sheet
            .nations
            .iter()
            .filter(|(_, n)| n.controller == role)
            .map(|(nation, n)| {
                let mut text = format!("{} {}", name(lang, "nation", nation.as_str()), show(n.score));
                if let Some((turn, FixedBy::DroppedOut)) = n.fixed {
                    text.push_str(&format!(" ({})", lang.t_args("sheet-out-in", &[("turn", turn.into())])));
                }
                if n.won {
                    text.push_str(&format!(" · {}", lang.t("sheet-won")));
                }
                text
            })
            .collect();
        let used = line.used.as_deref().map_or_else(String::new, |entry| entry_name(lang, entry));
        rows.push_str(&format!(
            "<tr data-role=\"{role}\"><th scope=\"row\">{}</th><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            esc(&name(lang, "role", role.as_str())),
            esc(&show(line.score)),
            esc(&held.join(" · ")),
            esc(&used),
            role = role.as_str(),
        ));
    }
    let coefficient = |v: Rational| lang.decimal(&v.to_fixed(COEFFICIENT_PLACES));
    let mut notes = vec![match sheet.tcc {
        Some(tcc) => lang.t_args("sheet-tcc", &[("value", coefficient(tcc).into())]),
        None => lang.t("sheet-tcc-none"),
    }];
    match &sheet.stcc {
        Coefficient::Available(v) => notes.push(lang.t_args("sheet-stcc", &[("value", coefficient(*v).into())])),
        Coefficient::Unavailable(why) if sheet.ruleset == ledger::Ruleset::Cafe2023 => {
            notes.push(lang.t_args("sheet-stcc-none", &[("why", no_stcc(lang, *why).into())]));
        }
        Coefficient::Unavailable(_) => {}
    }
    if let Some(turn) = sheet.fate_horizon {
        notes.push(lang.t_args("sheet-horizon", &[("turn", turn.into())]));
    }
    format!(
        "<p class=\"sheet-status\">{}</p><table class=\"season sheet\" id=\"{}\"><thead><tr><th>{}</th><th>{}</th>\
         <th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table><p class=\"muted\">{}</p>",
        esc(&status),
        esc(html_id),
        esc(&lang.t("sheet-col-role")),
        esc(&lang.t("sheet-col-score")),
        esc(&lang.t("sheet-col-nations")),
        esc(&lang.t("sheet-col-used")),
        esc(&notes.join(" · ")),
    )
}

/// Why a game cannot be scored, in `lang`.
pub fn score_error(lang: Lang, error: &ScoreError) -> String {
    match error {
        ScoreError::NotStarted(_) => lang.t("sheet-error-not-started"),
        ScoreError::NoRuleset => lang.t("sheet-error-no-ruleset"),
        ScoreError::NotAGameEvent(_) | ScoreError::AndesEvent(_) => lang.t("sheet-error-not-a-game"),
        ScoreError::Inconsistent(_) => lang.t("sheet-error-inconsistent"),
    }
}

/// Why a CAFE 2023 game has no sTCC, in `lang`.
pub fn no_stcc(lang: Lang, why: NoStcc) -> String {
    match why {
        NoStcc::NotInRuleset(ruleset) => {
            lang.t_args("sheet-stcc-not-in-ruleset", &[("ruleset", name(lang, "ruleset", ruleset.as_str()).into())])
        }
        NoStcc::NotEnded => lang.t("sheet-stcc-not-ended"),
        NoStcc::NoTcc => lang.t("sheet-stcc-no-tcc"),
        NoStcc::NoFateHorizon => lang.t("sheet-stcc-no-horizon"),
    }
}

/// The game at an audited point: the event it is after, the voids known, where it stands, its
/// nations, its clock and its score sheet.
pub fn point_html(lang: Lang, point: &AuditPoint) -> String {
    let mut out = String::new();
    let time = point.table_time_ms.map_or_else(|| lang.t("point-no-time"), events::hms);
    out.push_str(&format!(
        "<p id=\"point-event\">{}</p>",
        esc(&lang.t_args(
            "point-after",
            &[("seq", point.seq.into()), ("time", time.into()), ("event", events::sentence(lang, &point.event).into())],
        ))
    ));
    if !point.voids.is_empty() {
        let items: String = point
            .voids
            .iter()
            .map(|v| {
                format!(
                    "<li><s>{}</s> {}</li>",
                    esc(&format!("{} · {}", v.seq, events::sentence(lang, &v.event))),
                    esc(&lang
                        .t_args("point-voided-by", &[("seq", v.void_seq.into()), ("reason", v.reason.clone().into())]))
                )
            })
            .collect();
        out.push_str(&format!("<p>{}</p><ul id=\"point-voids\">{items}</ul>", esc(&lang.t("point-voids"))));
    }
    let state = &point.state;
    let ruleset = state.ruleset.map_or_else(|| lang.t("point-no-ruleset"), |r| name(lang, "ruleset", r.as_str()));
    let standing = match (state.started, state.ended) {
        (false, _) => lang.t("point-not-started"),
        (true, Some(ended)) => lang.t_args(
            "point-ended",
            &[("turn", ended.turn.into()), ("outcome", name(lang, "outcome", ended.outcome.as_str()).into())],
        ),
        (true, None) if state.turn == 0 => lang.t("point-no-turn"),
        (true, None) => lang.t_args("point-turn", &[("turn", state.turn.into())]),
    };
    let offensive = match state.offensive.status {
        OffensiveStatus::NotLaunched => lang.t("point-offensive-none"),
        OffensiveStatus::Active { since_turn } => lang.t_args("point-offensive-active", &[("turn", since_turn.into())]),
        OffensiveStatus::CalledOff { launched_in, called_off_in } => lang.t_args(
            "point-offensive-called-off",
            &[("launched", launched_in.into()), ("called_off", called_off_in.into())],
        ),
    };
    let mut facts = vec![
        lang.t_args("point-game", &[("ruleset", ruleset.into()), ("standing", standing.into())]),
        lang.t_args("point-imperial-army", &[("role", name(lang, "role", state.imperial_army.as_str()).into())]),
        offensive,
    ];
    if state.offensive.austria_claimed {
        facts.push(lang.t("point-austria-claimed"));
    }
    if state.offensive.set_aside_picked_up {
        facts.push(lang.t("point-set-aside-picked-up"));
    }
    facts.push(match state.action_stage {
        Some(nation) => lang.t_args("point-stage", &[("nation", name(lang, "nation", nation.as_str()).into())]),
        None => lang.t("point-stage-none"),
    });
    if state.retreat_open {
        facts.push(lang.t("point-retreat"));
    }
    if let Some(clock) = &point.clock {
        let side = |s: ClockSide| name(lang, "side", s.as_str());
        let running = match (clock.running, clock.stopped_for) {
            (Some(s), _) => lang.t_args("point-clock-running", &[("side", side(s).into())]),
            (None, Some(reason)) => {
                lang.t_args("point-clock-stopped", &[("reason", name(lang, "stop", reason.as_str()).into())])
            }
            (None, None) => lang.t("point-clock-idle"),
        };
        facts.push(lang.t_args(
            "point-clock",
            &[
                ("running", running.into()),
                ("prussia", events::hms(clock.prussia.remaining_ms).into()),
                ("attackers", events::hms(clock.attackers.remaining_ms).into()),
            ],
        ));
    }
    let facts: String = facts.iter().map(|f| format!("<li>{}</li>", esc(f))).collect();
    out.push_str(&format!("<ul id=\"point-state\">{facts}</ul>"));
    let rows: String = state
        .nations
        .iter()
        .map(|(nation, view)| {
            let status = match view.out_in_turn {
                Some(turn) => lang.t_args("sheet-out-in", &[("turn", turn.into())]),
                None => lang.t("point-in-game"),
            };
            let tc = point.tc_dealt.get(nation).copied().unwrap_or(0);
            format!(
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td class=\"num\">{tc}</td></tr>",
                esc(&name(lang, "nation", nation.as_str())),
                esc(&status),
                esc(&name(lang, "role", view.controller.as_str())),
            )
        })
        .collect();
    out.push_str(&format!(
        "<table class=\"season\" id=\"point-nations\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\
         <tbody>{rows}</tbody></table>",
        esc(&lang.t("point-col-nation")),
        esc(&lang.t("point-col-status")),
        esc(&lang.t("point-col-controller")),
        esc(&lang.t("point-col-tc")),
    ));
    match &point.sheet {
        Some(sheet) => out.push_str(&sheet_html(lang, sheet, "point-sheet")),
        None => out.push_str(&format!("<p>{}</p>", esc(&lang.t("sheet-error-not-started")))),
    }
    out
}

/// A role's entry as the sheet names it: a nation, or Maria Theresa's Imperial Army at the
/// switch.
fn entry_name(lang: Lang, entry: &str) -> String {
    match entry {
        "imperial_army_at_switch" => lang.t("sheet-entry-at-switch"),
        nation => name(lang, "nation", nation),
    }
}

fn nations(lang: Lang, list: &[Nation]) -> String {
    list.iter().map(|n| name(lang, "nation", n.as_str())).collect::<Vec<_>>().join(", ")
}

/// A role's name in `lang` (for callers that name a role beside a sheet).
pub fn role(lang: Lang, role: Role) -> String {
    name(lang, "role", role.as_str())
}
