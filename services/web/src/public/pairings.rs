//! The public pairings, for the wall and for phones: `/pairings/<tournament>` lists the rounds,
//! `/pairings/<tournament>/<round>` says where everyone sits, alphabetically by pseudonym (a
//! stand-in, who has none, as `stand-in N`, after the players): pseudonym → table, role. No
//! real name, so no sign-in; the same day the players' pages cut from ([`crate::players::days`]), and a
//! page that prints on one A4 sheet.

use crate::auth::Viewer;
use crate::i18n::{PageLang, Say};
use crate::layout::{esc, shell, short_id};
use crate::players::days;
use crate::players::player::{role_name, shown};
use crate::{PageError, WebState};
use axum::extract::{Path, State};
use axum::response::Html;
use ledger::{Stage, StreamId};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade::At;
use ledger_house::i18n::collate;
use ledger_house::projections::player::{PublicDay, Shown};
use std::sync::Arc;

/// The tournament's public day, for whoever may see the public standings.
async fn load(state: &WebState, viewer: &Viewer, tournament: &str) -> Result<Arc<At<PublicDay>>, PageError> {
    state.auth.authorize(&viewer.metadata, Access::Standings { public: true })?;
    let id = StreamId::tournament(short_id(tournament)).map_err(Error::from)?;
    days::day(state, &id).await
}

/// `/pairings/<tournament>`: the rounds drawn or scheduled so far.
pub(crate) async fn index(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
) -> Result<Html<String>, PageError> {
    let day = load(&state, &viewer, &tournament).await?;
    let day = &day.value;
    let items: String = day
        .rounds()
        .into_iter()
        .map(|(round, is_final)| {
            format!(
                "<li><a href=\"/pairings/{t}/{round}\">{name}</a></li>",
                t = esc(&day.tournament),
                name = esc(&crate::paper::round_name(lang, round, is_final))
            )
        })
        .collect();
    let items = if items.is_empty() { format!("<li>{}</li>", esc(&lang.t("pairings-none"))) } else { items };
    let title = lang.t_args("pairings-title", &[("tournament", day.name.clone().into())]);
    let body = format!(
        "<h1>{}</h1><ul class=\"rounds\" id=\"rounds\">{items}</ul><p><a href=\"/board/{}\">{}</a></p>",
        esc(&title),
        esc(&day.tournament),
        esc(&lang.t("me-board")),
    );
    Ok(Html(shell(lang, &title, Some(&viewer), &body, &[])))
}

/// `/pairings/<tournament>/<round>`: everyone's table and role in the round, by pseudonym.
pub(crate) async fn round(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, round)): Path<(String, u32)>,
) -> Result<Html<String>, PageError> {
    let day = load(&state, &viewer, &tournament).await?;
    let day = &day.value;
    let Some(mut lines) = day.pairings(round) else {
        let missing = Error::NotFound(format!("round {round} has no games in this tournament"));
        return Err(PageError::from(missing).saying(Say::new("paper-no-round").arg("round", round.to_string())));
    };
    // By pseudonym in the reader's alphabetical order ("Águila" before "Zorro"), stand-ins after.
    lines.sort_by_cached_key(|line| match &line.who {
        Shown::Player(alias) => (0, collate::key(lang, alias), 0),
        Shown::StandIn(n) => (1, collate::key(lang, ""), *n),
    });
    let is_final = day.games.iter().filter(|g| g.round == round).all(|g| g.stage == Stage::Final);
    // The rounds before and after this one, to walk the day from the wall or a phone.
    let rounds = day.rounds();
    let at = rounds.iter().position(|(r, _)| *r == round);
    let step = |to: Option<&(u32, bool)>, id: &str, key: &str| {
        to.map(|(r, fin)| {
            format!(
                "<a href=\"/pairings/{t}/{r}\" id=\"{id}\" rel=\"{id}\">{label}</a> · ",
                t = esc(&day.tournament),
                label = esc(&lang.t_args(key, &[("round", crate::paper::round_name(lang, *r, *fin).into())])),
            )
        })
        .unwrap_or_default()
    };
    let previous = step(at.and_then(|i| i.checked_sub(1)).and_then(|i| rounds.get(i)), "prev", "pairings-previous");
    let next = step(at.and_then(|i| rounds.get(i + 1)), "next", "pairings-next");
    let rows: String = lines
        .iter()
        .map(|line| {
            let class = if matches!(line.who, Shown::StandIn(_)) { " class=\"stand-in\"" } else { "" };
            format!(
                "<tr{class} data-game=\"{game}\" data-role=\"{role_id}\"><td class=\"player\">{who}</td>\
                 <td class=\"num\">{table}</td><td>{role}</td></tr>",
                game = esc(&line.game),
                role_id = line.role,
                who = esc(&shown(lang, &line.who)),
                table = line.table,
                role = esc(&role_name(lang, line.role)),
            )
        })
        .collect();
    let title = format!("{} · {}", crate::paper::round_name(lang, round, is_final), day.name);
    let body = format!(
        "<section class=\"pairings-wall\"><h1>{title}</h1><table class=\"pairings-public\" id=\"pairings\"><thead><tr>\
         <th>{player}</th><th class=\"num\">{table}</th><th>{role}</th></tr></thead><tbody>{rows}</tbody></table>\
         <p class=\"noprint\" id=\"round-links\">{previous}{next}<a href=\"/pairings/{t}\">{all}</a></p></section>",
        title = esc(&title),
        player = esc(&lang.t("pairings-col-player")),
        table = esc(&lang.t("paper-col-table")),
        role = esc(&lang.t("paper-col-role")),
        t = esc(&day.tournament),
        all = esc(&lang.t("pairings-all")),
    );
    Ok(Html(shell(lang, &title, Some(&viewer), &body, &[])))
}
