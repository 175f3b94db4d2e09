//! The organiser's list of the players' personal links (`/paper/<tournament>/players`, printable,
//! one card per player with name, pseudonym, link and QR code; `/paper/<tournament>/players.csv`
//! to mail). Behind the paper's clearance (organiser or jury), since it pairs real names with
//! pseudonyms and each player's link. The links are [`ledger_house::player_links`]'s codes, so
//! every printout and every list gives the same link to the same player.

use crate::analysts::analyst::csv_field;
use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, short_id};
use crate::links::Leads;
use crate::players::days;
use crate::table::tables::tournament_facts;
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse, Response};
use ledger::StreamId;
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::paper::qr;

/// One registered person's line: id, real name, public name (`None` for a stand-in, shown by its
/// number), and personal link.
struct Line {
    player: String,
    name: String,
    stand_in: Option<usize>,
    pseudonym: String,
    link: String,
}

/// Everyone registered in `tournament` (players, then stand-ins) with their link on `site`.
async fn lines(
    state: &WebState,
    viewer: &Viewer,
    tournament: &str,
    site: &str,
) -> Result<(String, Vec<Line>), PageError> {
    if let Err(status) = state.auth.authorize(&viewer.metadata, Access::Paper) {
        return Err(PageError::from(status).saying(Say::new("paper-refused")));
    }
    let id = StreamId::tournament(short_id(tournament)).map_err(Error::from)?;
    let (facade, read) = (state.facade.clone(), id.clone());
    let facts = blocking(move || tournament_facts(&facade, &read)).await?;
    let day = days::day(state, &id).await?;
    let players = facts.players.iter().map(|p| (p, None));
    let stand_ins = facts.stand_ins.iter().enumerate().map(|(n, p)| (p, Some(n + 1)));
    let lines = players
        .chain(stand_ins)
        .map(|((player, name), stand_in)| Line {
            player: player.clone(),
            name: name.clone(),
            stand_in,
            pseudonym: day.value.alias(player).unwrap_or_default().to_owned(),
            link: format!("{site}/me/{}/{}", id.id(), state.player_links.code(id.id(), player)),
        })
        .collect();
    Ok((facts.name, lines))
}

/// The public name as the list shows it: a stand-in by its number in `lang`.
fn public_name(lang: Lang, line: &Line) -> String {
    match line.stand_in {
        Some(n) => lang.t_args("board-stand-in", &[("n", n.into())]),
        None => line.pseudonym.clone(),
    }
}

/// `/paper/<tournament>/players`: a card per player to cut out and hand over.
pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    headers: HeaderMap,
    Path(tournament): Path<String>,
) -> Result<Html<String>, PageError> {
    let (name, lines) = lines(&state, &viewer, &tournament, &state.site(&headers, Leads::ToReading)?).await?;
    let caption = lang.t("links-qr");
    let mut cards = String::new();
    for line in &lines {
        let qr = qr::svg(&line.link, &caption).map_err(|e| PageError::from(Error::Internal(e.to_string())))?;
        cards.push_str(&format!(
            "<div class=\"link-card\" data-player=\"{player}\"><div><p class=\"name\"><strong>{name}</strong></p>\
             <p>{public}</p><p class=\"link\"><a href=\"{link}\">{link}</a></p></div><figure>{qr}</figure></div>",
            player = esc(&line.player),
            name = esc(&line.name),
            public = esc(&public_name(lang, line)),
            link = esc(&line.link),
        ));
    }
    let title = lang.t_args("links-title", &[("tournament", name.into())]);
    let content = format!(
        "<h1>{title}</h1><p class=\"lead\">{lead}</p><p class=\"noprint\"><a href=\"{csv}\">{csv_label}</a></p>\
         <div class=\"link-cards\" id=\"links\">{cards}</div>",
        title = esc(&title),
        lead = esc(&lang.t("links-lead")),
        csv = esc(&format!("/paper/{}/players.csv", short_id(&tournament))),
        csv_label = esc(&lang.t("links-csv")),
    );
    Ok(crate::paper::page(lang, &viewer, &title, &content))
}

/// `/paper/<tournament>/players.csv`: `player,name,pseudonym,link`, one line per player, for a
/// mail merge (a stand-in's pseudonym column says `stand-in N` in the reader's language).
pub(crate) async fn csv(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    headers: HeaderMap,
    Path(tournament): Path<String>,
) -> Result<Response, PageError> {
    let (_, lines) = lines(&state, &viewer, &tournament, &state.site(&headers, Leads::ToReading)?).await?;
    let mut out = String::from("player,name,pseudonym,link\n");
    for line in &lines {
        let fields = [line.player.as_str(), &line.name, &public_name(lang, line), &line.link];
        out.push_str(&fields.map(csv_field).join(","));
        out.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], out).into_response())
}
