//! *My tournament*: a player's own page, `/me/<tournament>/<code>`, opened from the personal
//! link or QR code the organiser hands out ([`ledger_house::player_links`]): the game running or
//! next (round, table, role, the other three), the games after it, the player's scores per role
//! and rank (the public standings, the board's numbers), the final if the player is in it. It
//! names everyone by pseudonym, the player too: the link is the only key, and it reveals nothing.
//!
//! The page follows the log by asking for its fragment (`/me/…/view?at=<position>`) every few
//! seconds (`assets/me.js`; without script the page reloads itself every half minute). Each ask
//! is a cut of the tournament's day, built at most once a second for all its players
//! ([`crate::players::days`]); nothing changed since `at` is answered `204` with no body.

use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, shell, short_id};
use crate::live::sse::status_line;
use crate::players::days;
use crate::{PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use ledger::{Role, Stage, StreamId};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade::At;
use ledger_house::player_links::CODE_LEN;
use ledger_house::projections::player::{PlayerView, PublicDay, Seat, Shown};
use std::sync::Arc;

/// How often the page asks for its fragment, in milliseconds (said to `me.js` in the page).
pub(crate) const POLL_MS: u64 = 3000;

/// The tournament's day and the public name of the player `code` names in it.
async fn find(
    state: &WebState,
    viewer: &Viewer,
    tournament: &str,
    code: &str,
) -> Result<(Arc<At<PublicDay>>, String), PageError> {
    state.auth.authorize(&viewer.metadata, Access::Standings { public: true })?;
    let id = StreamId::tournament(short_id(tournament)).map_err(Error::from)?;
    let unknown = || {
        let missing = Error::NotFound(format!("no player of tournament {} has this link", id.id()));
        PageError::from(missing).saying(Say::new("me-unknown-link").arg("tournament", id.id()))
    };
    // Any other text is no code: refused before the tournament is read.
    if code.len() != CODE_LEN || !code.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(unknown());
    }
    let day = days::day(state, &id).await?;
    let alias = state
        .player_links
        .find(id.id(), code, day.value.ids())
        .and_then(|player| day.value.alias(player))
        .map(str::to_owned)
        .ok_or_else(unknown)?;
    Ok((day, alias))
}

/// `/me/<tournament>/<code>`: the player's page.
pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, code)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let (day, alias) = find(&state, &viewer, &tournament, &code).await?;
    let view = day.value.player(&alias);
    let title = format!("{} · {}", shown(lang, &view.who), view.name);
    let body = format!(
        "<noscript><meta http-equiv=\"refresh\" content=\"30\"></noscript>\
         <section class=\"me\" id=\"me\" data-view=\"/me/{t}/{code}/view\" data-at=\"{at}\" data-every=\"{POLL_MS}\">{content}</section>{status}",
        t = esc(day.value.tournament.as_str()),
        code = esc(&code),
        at = day.as_of_position,
        content = content(lang, &view),
        status = status_line(lang, &lang.t("live-now")),
    );
    // Never cached: the link is personal, and the page changes during the day.
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(shell(lang, &title, Some(&viewer), &body, &["me.js"])))
        .into_response())
}

#[derive(serde::Deserialize)]
pub(crate) struct Since {
    at: Option<u64>,
}

/// `/me/<tournament>/<code>/view?at=<position>`: the page's live part, or `204` when the day the
/// page shows (built at `at`) is still the latest. The position it reflects is in `x-ledger-at`.
pub(crate) async fn view(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, code)): Path<(String, String)>,
    Query(since): Query<Since>,
) -> Result<Response, PageError> {
    let (day, alias) = find(&state, &viewer, &tournament, &code).await?;
    let at = day.as_of_position.to_string();
    let headers =
        [(header::CACHE_CONTROL, "no-store".to_owned()), (header::HeaderName::from_static("x-ledger-at"), at)];
    if since.at == Some(day.as_of_position) {
        return Ok((StatusCode::NO_CONTENT, headers).into_response());
    }
    Ok((headers, Html(content(lang, &day.value.player(&alias)))).into_response())
}

/// Someone as the page names them: a stand-in by its number in `lang`.
pub(crate) fn shown(lang: Lang, who: &Shown) -> String {
    match who {
        Shown::Player(alias) => alias.clone(),
        Shown::StandIn(n) => lang.t_args("board-stand-in", &[("n", (*n).into())]),
    }
}

/// A role's name in `lang`.
pub(crate) fn role_name(lang: Lang, role: Role) -> String {
    lang.t(&format!("role-{role}"))
}

/// `Round 2 · Table 3`, or `Final · Table 1`.
pub(crate) fn where_(lang: Lang, stage: Stage, round: u32, table: u32) -> String {
    let round = match stage {
        Stage::Final => lang.t("paper-final"),
        _ => lang.t_args("paper-round", &[("round", round.into())]),
    };
    format!("{round} · {}", lang.t_args("me-table", &[("table", table.into())]))
}

/// The page's live part.
fn content(lang: Lang, view: &PlayerView) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let mut out = format!(
        "<h1 id=\"me-who\">{who}</h1><p class=\"lead\">{name}</p>",
        who = esc(&shown(lang, &view.who)),
        name = esc(&view.name),
    );
    if let Some(from_round) = view.withdrawn {
        let after = lang.t_args("board-withdrawn", &[("after", from_round.saturating_sub(1).into())]);
        out.push_str(&format!("<p class=\"withdrawn-note\" id=\"me-withdrawn\">{}</p>", esc(&after)));
    }
    out.push_str(&format!("<h2>{}</h2>", t("me-now")));
    match &view.now {
        Some(seat) => out.push_str(&seat_html(lang, view, seat, "me-now")),
        None => {
            let none = if view.seated == 0 {
                t("me-not-drawn")
            } else if view.final_ended {
                t("me-tournament-over")
            } else if view.finalist {
                // Chosen for the final, not yet seated at it: the final is the game left.
                t("me-final-next")
            } else {
                t("me-nothing-left")
            };
            out.push_str(&format!("<p class=\"muted\" id=\"me-now\">{none}</p>"));
        }
    }
    if !view.next.is_empty() {
        out.push_str(&format!("<h2>{}</h2><div id=\"me-next\">", t("me-next")));
        for seat in &view.next {
            out.push_str(&seat_html(lang, view, seat, ""));
        }
        out.push_str("</div>");
    }
    out.push_str(&scores_html(lang, view));
    out.push_str(&final_html(lang, view));
    out.push_str(&format!(
        "<p class=\"me-links\"><a href=\"/board/{id}\">{board}</a> · <a href=\"/pairings/{id}\">{pairings}</a></p>",
        id = esc(&view.tournament),
        board = t("me-board"),
        pairings = t("pairings-all"),
    ));
    out
}

/// The final: the player's part in it (to play, or played), and once it has ended, its
/// champion — for everyone, the final's four or not.
fn final_html(lang: Lang, view: &PlayerView) -> String {
    let mut lines = Vec::new();
    if view.finalist {
        let line = match (view.final_role, view.final_ended) {
            (Some(role), false) => lang.t_args("me-final-role", &[("role", role_name(lang, role).into())]),
            (Some(role), true) => lang.t_args("me-final-played", &[("role", role_name(lang, role).into())]),
            (None, _) => lang.t("me-finalist"),
        };
        lines.push(format!("<p class=\"finalist\" id=\"me-final\">{}</p>", esc(&line)));
    }
    if view.final_ended {
        let line = match &view.champion {
            Some(champion) if *champion == view.who => lang.t("me-champion-you"),
            Some(champion) => lang.t_args("me-champion", &[("champion", shown(lang, champion).into())]),
            None => lang.t("me-champion-undecided"),
        };
        lines.push(format!("<p class=\"champion\" id=\"me-champion\">{}</p>", esc(&line)));
    }
    if lines.is_empty() {
        return String::new();
    }
    format!("<h2>{}</h2>{}", esc(&lang.t("paper-final")), lines.concat())
}

/// One game of the player's: where, as which role, against whom, and whether it is on.
fn seat_html(lang: Lang, view: &PlayerView, seat: &Seat, id: &str) -> String {
    let t = |key: &str| esc(&lang.t(key));
    let state = match (seat.progress.started, seat.progress.ended) {
        (_, true) => t("me-ended"),
        (true, false) => t("me-playing"),
        (false, false) => t("me-not-started"),
    };
    let others: String = seat
        .others
        .iter()
        .map(|(role, who)| {
            format!("<li>{}: <strong>{}</strong></li>", esc(&role_name(lang, *role)), esc(&shown(lang, who)))
        })
        .collect();
    // A game being played can be followed on the board, which shows the games running.
    let follow = if seat.progress.started && !seat.progress.ended {
        format!(" <a href=\"/board/{}#running\">{}</a>", esc(&view.tournament), t("me-follow"))
    } else {
        String::new()
    };
    let id = if id.is_empty() { String::new() } else { format!(" id=\"{id}\"") };
    format!(
        "<div class=\"seat\"{id} data-game=\"{game}\" data-round=\"{round}\" data-table=\"{table}\" data-role=\"{role_id}\" \
         data-started=\"{started}\"><p class=\"where\">{where_}</p><p class=\"role\">{as_role} <span class=\"muted\">{state}</span>{follow}</p>\
         <p class=\"muted\">{against}</p><ul class=\"others\">{others}</ul></div>",
        game = esc(&seat.game),
        round = seat.round,
        table = seat.table,
        role_id = seat.role,
        started = seat.progress.started,
        where_ = esc(&where_(lang, seat.stage, seat.round, seat.table)),
        as_role = esc(&lang.t_args("me-as", &[("role", role_name(lang, seat.role).into())])),
        against = t("me-against"),
    )
}

/// The player's line of the standings: a score per role, games, total and rank.
fn scores_html(lang: Lang, view: &PlayerView) -> String {
    let t = |key: &str| esc(&lang.t(key));
    let Some(row) = &view.row else {
        // A stand-in is never ranked.
        return match view.who {
            Shown::StandIn(_) => format!("<p class=\"muted\" id=\"me-scores\">{}</p>", t("me-stand-in-unranked")),
            Shown::Player(_) => String::new(),
        };
    };
    let number = |value| esc(&lang.decimal(&crate::standings::shown_number(view.ruleset, value)));
    let scores: String = Role::ALL
        .iter()
        .map(|role| {
            let score = row.scores.get(role).map(|v| number(*v)).unwrap_or_else(|| "–".to_owned());
            format!(
                "<tr data-role=\"{role}\"><th>{}</th><td class=\"num\">{score}</td></tr>",
                esc(&role_name(lang, *role))
            )
        })
        .collect();
    format!(
        "<h2>{title}</h2><p class=\"rank\" id=\"me-rank\" data-rank=\"{rank}\">{rank_line}</p>\
         <table class=\"standings me-scores\" id=\"me-scores\"><tbody>{scores}\
         <tr><th>{games_h}</th><td class=\"num\">{games}</td></tr>\
         <tr class=\"total\"><th>{total_h}</th><td class=\"num\" id=\"me-total\">{total}</td></tr></tbody></table>",
        title = t("me-scores"),
        rank = row.rank,
        rank_line = esc(&lang.t_args("me-rank", &[("rank", row.rank.into()), ("of", view.ranked.into())])),
        games_h = t("board-games"),
        games = row.games_counted,
        total_h = t("board-total"),
        total = number(row.total),
    )
}
