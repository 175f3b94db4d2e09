//! The board of an Andes match (`andes/<match>`, docs/ANDES.md): the current (or last) game's
//! position as a 7 × 7 board from Sol's side or Luna's (`?side=luna`), with the continent, the
//! centre and the border as the laws define them, the move list in the laws' notation, the
//! clocks, each side's points and the match lines, as of any event (`?at=SEQ`). Everything shown
//! is the projections facade's board and match views (what `ledgerctl andes board|match` prints),
//! for a viewer who may see them (`Access::AndesProjection`); it follows the log like the
//! standings board.

use crate::auth::Viewer;
use crate::blocking;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, hms, shell, short_id};
use crate::live::shared::{self, Key, LivePage, Rendered, Rendering};
use crate::live::sse::{status_line, Live};
use crate::{PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::response::Html;
use ledger::andes::notation::{parse_position, reading_order};
use ledger::andes::{Colour, Side, Square};
use ledger::{Recorded, StreamId};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::projections::andes::{BoardView, WhichBoard};
use replay::andes::render::PieceJson;
use replay::andes::MatchJson;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::Arc;
use tonic::metadata::MetadataMap;

#[derive(Deserialize)]
pub(crate) struct AndesQuery {
    side: Option<String>,
    at: Option<u64>,
    from: Option<u64>,
}

fn match_id(text: &str) -> Result<StreamId, PageError> {
    Ok(StreamId::parse(&format!("andes/{}", short_id(text))).map_err(Error::from)?)
}

fn side_of(query: &AndesQuery) -> Result<Side, PageError> {
    ledger_house::projections::andes::parse_side(query.side.as_deref()).map_err(|message| {
        let side = ledger::rejection::quote(query.side.as_deref().unwrap_or_default());
        PageError::from(Error::InvalidArgument(message)).saying(Say::new("andes-error-side").arg("side", side))
    })
}

/// The board section as `metadata`'s viewer may see it: the board projection and the match
/// projection, as of `at`.
async fn render(
    state: &WebState,
    metadata: &MetadataMap,
    id: &StreamId,
    side: Side,
    at: Option<u64>,
    lang: Lang,
) -> Result<String, PageError> {
    state.auth.authorize(metadata, Access::AndesProjection)?;
    board_at(state, id, side, at, lang).await
}

/// The board section now, as every viewer of `lang` and `side` is sent it live
/// ([`LiveAndes`]; each viewer's clearance is asked apart).
async fn render_board(state: &WebState, id: &StreamId, side: Side, lang: Lang) -> Result<String, PageError> {
    board_at(state, id, side, None, lang).await
}

/// The board section as of `at`, whoever asks.
async fn board_at(
    state: &WebState,
    id: &StreamId,
    side: Side,
    at: Option<u64>,
    lang: Lang,
) -> Result<String, PageError> {
    let no_match = || Say::new("error-no-match").arg("id", id.id());
    let facade = state.facade.clone();
    let which = WhichBoard { game: None, side };
    let match_id = id.clone();
    let (board, sheet) = blocking(move || {
        let board = facade.andes_board(&match_id, at, which)?.value;
        Ok((board, facade.andes_match(&match_id, at)?.value.sheet))
    })
    .await
    .map_err(|error| error.when_not_found(no_match()))?;
    Ok(board_html(lang, id, &board, &sheet, side))
}

/// A side's name in `lang` (`Sol`, `Luna`).
fn side_name(lang: Lang, side: &str) -> String {
    lang.t(&format!("andes-side-{side}"))
}

/// The board in `lang`: the position, the moves, the points, the match and the levels from the
/// sheet's typed values.
fn board_html(lang: Lang, id: &StreamId, board: &BoardView, sheet: &MatchJson, side: Side) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let number = u64::from(board.game);
    let game = sheet.games.iter().find(|g| g.game == board.game);
    let pieces = parse_position(&board.position.sol_view, Side::Sol).unwrap_or_default();
    let mut out = format!(
        "<h1>{heading} <span class=\"sol\">{sol}</span> ({sol_side}) – <span class=\"luna\">{luna}</span> ({luna_side})</h1>",
        heading = esc(&lang.t_args("andes-game", &[("match", id.id().into()), ("number", number.into())])),
        sol = esc(&board.sol),
        luna = esc(&board.luna),
        sol_side = t("andes-side-sol"),
        luna_side = t("andes-side-luna"),
    );
    let view = lang.t_args(
        "andes-view",
        &[
            ("side", side_name(lang, side.as_str()).into()),
            ("moves", board.moves.to_string().into()),
            ("to_move", side_name(lang, board.position.to_move.as_str()).into()),
        ],
    );
    out.push_str(&format!(
        "<p class=\"muted\" id=\"andes-view\">{} · <code id=\"andes-position\">{}</code></p>",
        esc(&view),
        esc(match side {
            Side::Sol => &board.position.sol_view,
            Side::Luna => &board.position.luna_view,
        }),
    ));
    // The board, rows and columns named from the viewer's side.
    let rows = reading_order(side);
    let label = |square: Square, at: usize| square.name_for(side).chars().nth(at).unwrap_or(' ');
    let header: String =
        rows.first().map(|row| row.iter().map(|&s| format!("<th>{}</th>", label(s, 1))).collect()).unwrap_or_default();
    out.push_str(&format!(
        "<table class=\"andes-board\" id=\"andes-board\" data-side=\"{}\"><thead><tr><th></th>{header}<th></th></tr></thead><tbody>",
        side.as_str()
    ));
    for row in &rows {
        let marca = row.first().map_or(' ', |&s| label(s, 0));
        out.push_str(&format!("<tr><th>{marca}</th>"));
        for &square in row {
            let mut classes = vec![match square.colour() {
                Colour::Light => "light",
                Colour::Dark => "dark",
            }];
            if square == Square::CENTRE {
                classes.push("centre");
            } else if square.is_continent() {
                classes.push("continent");
            }
            if square.is_border() {
                classes.push("border");
            }
            let piece = pieces.iter().find(|(s, _)| *s == square).map(|(_, p)| *p);
            let content = piece.map_or_else(String::new, |p| {
                let title = lang.t_args(
                    "andes-piece",
                    &[
                        ("owner", side_name(lang, p.side.as_str()).into()),
                        ("kind", lang.t(&format!("andes-kind-{}", p.kind.as_str())).into()),
                    ],
                );
                format!(
                    "<span class=\"piece {owner}\" data-owner=\"{owner}\" data-kind=\"{kind}\" title=\"{title}\">{letter}</span>",
                    owner = p.side.as_str(),
                    kind = p.kind.as_str(),
                    title = esc(&title),
                    letter = p.letter(),
                )
            });
            out.push_str(&format!(
                "<td class=\"{}\" data-square=\"{}\" title=\"{}\">{content}</td>",
                classes.join(" "),
                square.sol_name(),
                esc(&square.name_for(side)),
            ));
        }
        out.push_str(&format!("<th>{marca}</th></tr>"));
    }
    out.push_str("</tbody></table>");
    out.push_str(&format!("<p class=\"muted legend\">{}</p>", t("andes-legend")));
    // The clocks and reserves.
    let running = game.is_some_and(|g| g.status == "in_progress");
    let reserve = |s: &Side| board.position.reserve.get(s).map_or_else(String::new, ToString::to_string);
    let clocks: String = Side::BOTH
        .iter()
        .map(|s| {
            let ms = game.and_then(|g| g.position.clock_ms.get(s).copied()).unwrap_or(0);
            let on = running && board.position.to_move == *s;
            format!(
                "<span class=\"side {s}{r}\">{name} <span class=\"clock\" data-side=\"{s}\" data-ms=\"{ms}\">{shown}</span> · {res}</span> ",
                s = s.as_str(),
                r = if on { " running" } else { "" },
                name = esc(&side_name(lang, s.as_str())),
                shown = hms(ms),
                res = esc(&lang.t_args("andes-reserve", &[("count", reserve(s).into())])),
            )
        })
        .collect();
    out.push_str(&format!("<p class=\"clocks\" id=\"andes-clocks\">{clocks}</p>"));
    // The moves.
    out.push_str(&format!("<h2>{}</h2><ol class=\"andes-moves\" id=\"andes-moves\">", t("andes-moves")));
    let square = |id: &str, at: &PieceJson| lang.t_args(id, &[("square", at.square.sol_name().into())]);
    for ply in game.into_iter().flat_map(|g| &g.moves) {
        let taken: Vec<String> = ply
            .attacked
            .iter()
            .map(|a| square("andes-attacks", a))
            .chain(ply.captured.iter().map(|c| square("andes-captures", c)))
            .collect();
        out.push_str(&format!(
            "<li class=\"{}\">{}{}</li>",
            esc(ply.side.as_str()),
            esc(&ply.notation),
            if taken.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"muted\">{}</span>", esc(&taken.join(", ")))
            }
        ));
    }
    out.push_str("</ol>");
    // The points, the match and the levels in the reader's words (each sum's explanation,
    // `replay::andes`'s own lines, is `ledgerctl andes match`'s).
    out.push_str(&format!("<h2>{}</h2>", t("andes-points")));
    out.push_str(&summary(lang, sheet));
    out
}

/// Each game's points and winner, the match's totals and winner, each player's level (9.5), in
/// `lang`, from the sheet's typed values.
fn summary(lang: Lang, sheet: &MatchJson) -> String {
    let number = |n: &serde_json::Number| lang.decimal(&n.to_string());
    let mut out = String::from("<ul class=\"andes-summary\" id=\"andes-summary\">");
    for game in &sheet.games {
        let sides: Vec<String> = [(Side::Sol, &game.sol), (Side::Luna, &game.luna)]
            .into_iter()
            .filter_map(|(side, player)| {
                let p = game.points.get(&side)?;
                Some(lang.t_args(
                    "andes-game-points",
                    &[
                        ("player", player.clone().into()),
                        ("side", side_name(lang, side.as_str()).into()),
                        ("points", p.points.into()),
                        ("on_board", p.on_board.into()),
                        ("attacked", p.attacked.into()),
                        ("reserve", p.reserve.into()),
                    ],
                ))
            })
            .collect();
        let result = match (game.winner, &game.bonus) {
            (Some(side), bonus) => {
                let winner = if side == Side::Sol { &game.sol } else { &game.luna };
                let how = lang.t(&format!("andes-decided-{}", game.decided_by.unwrap_or("points")));
                let bonus = bonus.as_ref().map(number).unwrap_or_default();
                lang.t_args(
                    "andes-game-won",
                    &[("player", winner.clone().into()), ("how", how.into()), ("bonus", bonus.into())],
                )
            }
            (None, _) => lang.t("andes-game-running"),
        };
        out.push_str(&format!(
            "<li data-game=\"{n}\"><strong>{title}</strong> {sides}. {result}</li>",
            n = game.game,
            title = esc(&lang.t_args("andes-summary-game", &[("number", u64::from(game.game).into())])),
            sides = esc(&sides.join("; ")),
            result = esc(&result),
        ));
    }
    let totals: Vec<String> = sheet
        .players
        .iter()
        .map(|p| lang.t_args("andes-total", &[("player", p.player.clone().into()), ("total", number(&p.total).into())]))
        .collect();
    let winner = match &sheet.winner {
        Some(winner) => lang.t_args("andes-match-won", &[("player", winner.clone().into())]),
        None if sheet.status == "complete" => lang.t("andes-match-drawn"),
        None => lang.t("andes-match-running"),
    };
    out.push_str(&format!("<li id=\"andes-match\">{}. {}</li>", esc(&totals.join(" · ")), esc(&winner)));
    for player in &sheet.players {
        let level = match &player.level {
            Some(level) => lang.t_args(
                "andes-level",
                &[
                    ("player", player.player.clone().into()),
                    ("value", number(&level.value).into()),
                    ("band", lang.t(&format!("andes-band-{}", level.band)).into()),
                ],
            ),
            None => lang.t_args("andes-no-level", &[("player", player.player.clone().into())]),
        };
        out.push_str(&format!("<li class=\"level\">{}</li>", esc(&level)));
    }
    out.push_str("</ul>");
    out
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(name): Path<String>,
    Query(query): Query<AndesQuery>,
) -> Result<Html<String>, PageError> {
    let id = match_id(&name)?;
    let side = side_of(&query)?;
    let position = state.log.last_position()?;
    let content = render(&state, &viewer.metadata, &id, side, query.at, lang).await?;
    let m = esc(id.id());
    let other = side.other().as_str();
    let at = query.at.map(|a| format!("&at={a}")).unwrap_or_default();
    // A point in the past does not move; the present follows the log.
    let live = if query.at.is_none() {
        format!(" data-live=\"/andes/{m}/live?from={}&amp;side={}\" data-event=\"andes\"", position + 1, side.as_str())
    } else {
        String::new()
    };
    let body = format!(
        "<p><a id=\"andes-flip\" href=\"/andes/{m}?side={other}{at}\">{flip}</a>{now}</p>\
         <section class=\"andes\" id=\"andes\"{live}>{content}</section>{status}",
        flip = esc(&lang.t_args("andes-flip", &[("side", side_name(lang, other).into())])),
        now = if query.at.is_some() {
            format!(" · <a href=\"/andes/{m}?side={}\">{}</a>", side.as_str(), esc(&lang.t("andes-now")))
        } else {
            String::new()
        },
        status = status_line(
            lang,
            &match query.at {
                Some(at) => lang.t_args("andes-as-after", &[("seq", at.into())]),
                None => lang.t("live-now"),
            }
        ),
    );
    let title = lang.t_args("andes-title", &[("match", id.id().into())]);
    Ok(Html(shell(lang, &title, Some(&viewer), &body, &["live.js"])))
}

pub(crate) async fn live(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(name): Path<String>,
    Query(query): Query<AndesQuery>,
) -> Result<Live, PageError> {
    let id = match_id(&name)?;
    let side = side_of(&query)?;
    // Refused now rather than on the first commit.
    let may_see = {
        let (state, metadata) = (state.clone(), viewer.metadata.clone());
        move || state.auth.authorize(&metadata, Access::AndesProjection).map(drop).map_err(PageError::from)
    };
    may_see()?;
    let (log, stream) = (Arc::clone(&state.log), id.clone());
    if blocking(move || Ok(log.read_stream(&stream, 1, 1)?)).await?.is_empty() {
        let error = PageError::from(Error::NotFound(format!("there is no match {id}")));
        return Err(error.saying(Say::new("error-no-match").arg("id", id.id())));
    }
    let viewing = shared::watch(&state, LiveAndes { id, side }, lang);
    crate::live::sse::shared(
        &state,
        &crate::live::sse::Claim::of(&viewer),
        query.from.unwrap_or(1),
        viewing,
        lang,
        may_see,
    )
}

/// The Andes board as a live page: one match's, seen from one side.
struct LiveAndes {
    id: StreamId,
    side: Side,
}

impl LivePage for LiveAndes {
    fn key(&self) -> Key {
        Key { event: "andes", of: Some(self.id.clone()) }
    }

    fn view(&self) -> &'static str {
        self.side.as_str()
    }

    /// The match's own stream.
    fn changes(&self, _: &BTreeSet<String>, record: &Recorded) -> bool {
        record.envelope.stream == self.id
    }

    fn render<'a>(&'a self, state: &'a WebState, lang: Lang) -> Rendering<'a> {
        Box::pin(async move {
            let html = render_board(state, &self.id, self.side, lang).await?;
            Ok(Rendered { html, follows: None })
        })
    }
}
