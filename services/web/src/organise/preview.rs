//! What an action will record, shown before it is recorded, and what was refused and why.
//! The preview ends with the button that records it (the same fields again, with the version
//! it was planned on) and the form to change it.

use super::fields::Fields;
use super::forms;
use super::view::{name, role_name, section_of};
use crate::auth::Viewer;
use crate::i18n::{Lang, Say};
use crate::layout::{esc, shell};
use crate::refusal::refusal_box;
use crate::PageError;
use ledger::draw::QualifyingDraw;
use ledger::rules::TournamentState;
use ledger::{Event, Role};
use ledger_house::commands::{self, roster, Command, Plan, Registration, Shows, Tournament};

/// A registration of a list the rules refuse, and why.
pub(super) struct RefusedLine {
    registration: Registration,
    refused: ledger::Rejection,
}

/// Every registration of `command` the rules refuse (a list's), each after the ones before it.
pub(super) fn refused_lines(tournament: &Tournament, command: &Command) -> Vec<RefusedLine> {
    let (Command::Register(registrations), Ok(state)) = (command, tournament.state()) else { return Vec::new() };
    let registrations = roster::with_ids(state, registrations.clone());
    let events: Vec<Event> = registrations.iter().map(Registration::to_event).collect();
    match commands::check(tournament, &events) {
        Ok(()) => Vec::new(),
        Err(refused) => refused
            .into_iter()
            .map(|r| RefusedLine { registration: registrations[r.index].clone(), refused: r.rejection })
            .collect(),
    }
}

/// The page of a refused action: why, the refused lines of a list, and the form again.
pub(super) fn refused(
    lang: Lang,
    viewer: &Viewer,
    tournament: &Tournament,
    action: &str,
    fields: &Fields,
    error: &PageError,
    lines: &[RefusedLine],
) -> String {
    let t = tournament.id.id();
    let lines = if lines.is_empty() {
        String::new()
    } else {
        let rows: String = lines
            .iter()
            .map(|l| {
                format!(
                    "<tr><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td>{}</td></tr>",
                    esc(&l.registration.name),
                    esc(l.registration.pseudonym.as_deref().unwrap_or_default()),
                    esc(l.registration.player.as_deref().unwrap_or_default()),
                    esc(&ledger_house::words::refusal(lang, &l.refused))
                )
            })
            .collect();
        format!(
            "<p>{}</p><table class=\"season\" id=\"refused-lines\"><tbody>{rows}</tbody></table>",
            esc(&lang.t_args("organise-refused-lines", &[("count", lines.len().into())]))
        )
    };
    let body = format!(
        "<h1>{title}</h1>{refusal}{lines}<p class=\"muted\">{nothing}</p>{form}{back}",
        title = esc(&lang.t("organise-refused-title")),
        refusal = refusal_box(lang, error),
        nothing = esc(&lang.t("organise-nothing-recorded")),
        form = forms::again(lang, t, action, fields, tournament.state().ok()),
        back = back(lang, t, action),
    );
    shell(lang, &lang.t("organise-refused-title"), Some(viewer), &body, &[])
}

fn back(lang: Lang, t: &str, action: &str) -> String {
    format!(
        "<p><a href=\"/organise/{t}#{}\" id=\"back\">{}</a></p>",
        section_of(action),
        esc(&lang.t("organise-back")),
        t = esc(t)
    )
}

/// The preview: what `plan` records, the button that records it, and the form to change it.
pub(super) fn page(
    lang: Lang,
    viewer: &Viewer,
    tournament: &Tournament,
    action: &str,
    fields: &Fields,
    plan: &Plan,
    notice: Option<Say>,
) -> String {
    let t = tournament.id.id();
    let state = tournament.state().ok();
    let notice = notice
        .map(|say| format!("<p class=\"notice\" id=\"changed\" role=\"alert\">{}</p>", esc(&say.text(lang))))
        .unwrap_or_default();
    let hidden: String = fields
        .pairs(&["confirm", "version"])
        .map(|(k, v)| format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", esc(k), esc(v)))
        .collect();
    let confirm = format!(
        "<form method=\"post\" action=\"/organise/{t}/{action}\" id=\"confirm\">{hidden}\
         <input type=\"hidden\" name=\"version\" value=\"{version}\"><input type=\"hidden\" name=\"confirm\" value=\"1\">\
         <button type=\"submit\" class=\"primary\" id=\"record\">{record}</button></form>",
        t = esc(t),
        action = esc(action),
        version = tournament.version,
        record = esc(&lang.t("organise-record")),
    );
    let change = forms::again(lang, t, action, fields, state);
    let change = if change.is_empty() {
        String::new()
    } else {
        format!("<details class=\"change\"><summary>{}</summary>{change}</details>", esc(&lang.t("organise-change")))
    };
    let body = format!(
        "<h1>{title}</h1>{notice}<div id=\"preview\">{what}</div>{confirm}{change}{back}",
        title = esc(&lang.t("organise-preview-title")),
        what = describe(lang, state, plan),
        back = back(lang, t, action),
    );
    shell(lang, &lang.t("organise-preview-title"), Some(viewer), &body, &[])
}

/// What the plan records, in words and tables.
fn describe(lang: Lang, state: Option<&TournamentState>, plan: &Plan) -> String {
    let who = |id: &str| state.map_or_else(|| id.to_owned(), |s| name(s, id));
    match &plan.shows {
        Shows::Registrations(registrations) => registrations_table(lang, registrations),
        Shows::Draw(draw) => draw_tables(lang, draw, &who),
        Shows::Lot(order) => {
            let items: String = order.iter().map(|p| format!("<li>{}</li>", esc(&who(p)))).collect();
            format!("<p>{}</p><ol id=\"lot-order\">{items}</ol>", esc(&lang.t("organise-will-lot")))
        }
        Shows::Withdrawal { stand_in, games } => {
            let Some(Event::PlayerWithdrew { player, from_round, .. }) = plan.events.first() else {
                return String::new();
            };
            let mut text = lang
                .t_args("organise-will-withdraw", &[("player", who(player).into()), ("round", (*from_round).into())]);
            if let (Some(stand_in), false) = (stand_in, games.is_empty()) {
                text.push(' ');
                text.push_str(&lang.t_args(
                    "organise-will-stand-in",
                    &[("stand_in", who(stand_in).into()), ("games", games.len().into())],
                ));
            }
            format!("<p>{}</p>", esc(&text))
        }
        Shows::Events => {
            plan.events.iter().map(|e| format!("<p>{}</p>", esc(&event_sentence(lang, e, &who)))).collect()
        }
    }
}

fn event_sentence(lang: Lang, event: &Event, who: &dyn Fn(&str) -> String) -> String {
    match event {
        Event::TournamentCreated { name, ruleset, clock_ms_per_side } => lang.t_args(
            "organise-will-create",
            &[
                ("name", name.clone().into()),
                ("ruleset", lang.t(&format!("ruleset-{}", ruleset.as_str())).into()),
                ("minutes", clock_ms_per_side.map_or(130, |ms| ms / 60_000).into()),
            ],
        ),
        Event::PlayerUnregistered { player } => {
            lang.t_args("organise-will-unregister", &[("player", who(player).into()), ("id", player.clone().into())])
        }
        Event::PlayerRegistered { player, name, pseudonym } => lang.t_args(
            "organise-will-register",
            &[
                ("name", name.clone().into()),
                ("id", player.clone().into()),
                ("pseudonym", pseudonym.clone().unwrap_or_default().into()),
            ],
        ),
        Event::FinalRoleChosen { player, role } => lang
            .t_args("organise-will-choose", &[("player", who(player).into()), ("role", role_name(lang, *role).into())]),
        Event::GameScheduled { game, table, seats, .. } => {
            let seated: Vec<String> =
                Role::ALL.iter().map(|r| format!("{}: {}", role_name(lang, *r), who(seats.player(*r)))).collect();
            lang.t_args(
                "organise-will-schedule",
                &[("game", game.clone().into()), ("table", (*table).into()), ("seats", seated.join(" · ").into())],
            )
        }
        other => other.type_name().to_owned(),
    }
}

fn registrations_table(lang: Lang, registrations: &[Registration]) -> String {
    let rows: String = registrations
        .iter()
        .map(|r| {
            let kind = if r.stand_in { lang.t("organise-stand-in") } else { r.pseudonym.clone().unwrap_or_default() };
            format!(
                "<tr><td>{}</td><td>{}</td><td class=\"mono\">{}</td></tr>",
                esc(&r.name),
                esc(&kind),
                esc(r.player.as_deref().unwrap_or_default())
            )
        })
        .collect();
    format!(
        "<p>{}</p><table class=\"season\" id=\"will-register\"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table>",
        esc(&lang.t_args("organise-will-register-count", &[("count", registrations.len().into())])),
        esc(&lang.t("organise-field-name")),
        esc(&lang.t("organise-field-pseudonym")),
        esc(&lang.t("organise-field-player")),
    )
}

/// The draw's tables, round by round, with the roles' seats.
fn draw_tables(lang: Lang, draw: &QualifyingDraw, who: &dyn Fn(&str) -> String) -> String {
    let mut html =
        format!("<p>{}</p>", esc(&lang.t_args("organise-will-draw", &[("seed", draw.seed.to_string().into())])));
    if !draw.stand_ins.is_empty() {
        let names: Vec<String> = draw.stand_ins.iter().map(|s| who(s)).collect();
        html.push_str(&format!(
            "<p>{}</p>",
            esc(&lang.t_args("organise-draw-stand-ins", &[("stand_ins", names.join(", ").into())]))
        ));
    }
    let heads: String = Role::ALL.iter().map(|r| format!("<th>{}</th>", esc(&role_name(lang, *r)))).collect();
    let mut round = 0;
    for game in &draw.games {
        if game.round != round {
            if round != 0 {
                html.push_str("</tbody></table>");
            }
            round = game.round;
            html.push_str(&format!(
                "<h3>{}</h3><table class=\"season draw\" data-round=\"{round}\"><thead><tr><th>{}</th>{heads}</tr></thead><tbody>",
                esc(&lang.t_args("organise-round", &[("round", round.into())])),
                esc(&lang.t("organise-table")),
            ));
        }
        let cells: String =
            Role::ALL.iter().map(|r| format!("<td>{}</td>", esc(&who(game.seats.player(*r))))).collect();
        html.push_str(&format!("<tr><td>{}</td>{cells}</tr>", game.table));
    }
    if round != 0 {
        html.push_str("</tbody></table>");
    }
    if !draw.repeats.is_empty() {
        html.push_str(&format!(
            "<p class=\"muted\">{}</p>",
            esc(&lang.t_args("organise-draw-repeats", &[("pairs", draw.repeats.len().into())]))
        ));
    }
    html
}
