//! The board of an Andes match (`andes/<match>`, docs/ANDES.md): the current (or last) game's
//! position as a 7 × 7 board from Sol's side or Luna's (`?side=luna`), with the continent, the
//! centre and the border as the laws define them, the move list in the laws' notation, the
//! clocks, each side's points and the match lines, as of any event (`?at=SEQ`). Everything shown
//! is the Projections service's own JSON (`ledgerctl andes board|match --json`), read with the
//! viewer's credentials (`Access::AndesProjection`); it follows the log like the standings board.

use super::auth::Viewer;
use super::layout::{esc, hms, shell, short_id};
use super::sse::{follow, html_event, Live};
use super::{PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::response::Html;
use ledger::andes::notation::{parse_position, reading_order};
use ledger::andes::{Colour, Side, Square};
use ledger::StreamId;
use ledger_proto::v1 as pb;
use ledger_proto::v1::projections_server::Projections;
use serde::Deserialize;
use serde_json::Value;
use tonic::metadata::MetadataMap;

#[derive(Deserialize)]
pub(crate) struct AndesQuery {
    side: Option<String>,
    at: Option<u64>,
    from: Option<u64>,
}

fn match_id(text: &str) -> Result<StreamId, PageError> {
    Ok(StreamId::parse(&format!("andes/{}", short_id(text))).map_err(crate::status::from_rejection)?)
}

fn side_of(query: &AndesQuery) -> Result<Side, PageError> {
    crate::projections::andes::parse_side(query.side.as_deref()).map_err(PageError::bad_request)
}

fn parse(json: &str) -> Result<Value, PageError> {
    serde_json::from_str(json).map_err(|e| PageError::internal(format!("Andes JSON: {e}")))
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The board section: the board projection and the match projection, as of `at`.
async fn render(
    state: &WebState,
    metadata: &MetadataMap,
    id: &StreamId,
    side: Side,
    at: Option<u64>,
) -> Result<String, PageError> {
    let mut request = tonic::Request::new(pb::AndesBoardRequest {
        match_id: id.to_string(),
        as_of_seq: at,
        game: None,
        side: side.as_str().to_owned(),
    });
    *request.metadata_mut() = metadata.clone();
    let board = parse(&state.projections.get_andes_board(request).await?.into_inner().json)?;
    let mut request = tonic::Request::new(pb::AndesMatchRequest { match_id: id.to_string(), as_of_seq: at });
    *request.metadata_mut() = metadata.clone();
    let sheet = parse(&state.projections.get_andes_match(request).await?.into_inner().json)?;
    Ok(board_html(id, &board, &sheet, side))
}

fn board_html(id: &StreamId, board: &Value, sheet: &Value, side: Side) -> String {
    let number = board["game"].as_u64().unwrap_or(0);
    let game = sheet["games"].as_array().into_iter().flatten().find(|g| g["game"].as_u64() == Some(number));
    let empty = Value::Null;
    let game = game.unwrap_or(&empty);
    let pieces = parse_position(&text(&board["position"]["sol_view"]), Side::Sol).unwrap_or_default();
    let mut out = format!(
        "<h1>{m}, game {number}: <span class=\"sol\">{sol}</span> (Sol) – <span class=\"luna\">{luna}</span> (Luna)</h1>",
        m = esc(id.id()),
        sol = esc(&text(&board["sol"])),
        luna = esc(&text(&board["luna"])),
    );
    out.push_str(&format!(
        "<p class=\"muted\">{}'s view · after {} moves · {} to move · <code id=\"andes-position\">{}</code></p>",
        side.as_str(),
        text(&board["moves"]),
        esc(&text(&board["position"]["to_move"])),
        esc(&text(&board["position"][format!("{}_view", side.as_str())])),
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
                format!(
                    "<span class=\"piece {owner}\" data-owner=\"{owner}\" data-kind=\"{kind}\" title=\"{owner}'s {kind}\">{letter}</span>",
                    owner = p.side.as_str(),
                    kind = p.kind.as_str(),
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
    out.push_str(
        "<p class=\"muted legend\">a b c d Sol's persona, estatal-left, militar, estatal-right; A B C D Luna's · \
         shaded: the continent, ringed: the centre d3, thick edge: the border</p>",
    );
    // The clocks and reserves.
    let running = game["status"].as_str() == Some("in_progress");
    let to_move = text(&board["position"]["to_move"]);
    let clocks: String = Side::BOTH
        .iter()
        .map(|s| {
            let ms = game["position"]["clock_ms"][s.as_str()].as_u64().unwrap_or(0);
            let on = running && to_move == s.as_str();
            format!(
                "<span class=\"side {s}{r}\">{s} <span class=\"clock\" data-side=\"{s}\" data-ms=\"{ms}\">{shown}</span> · reserve {res}</span> ",
                s = s.as_str(),
                r = if on { " running" } else { "" },
                shown = hms(ms),
                res = text(&board["position"]["reserve"][s.as_str()]),
            )
        })
        .collect();
    out.push_str(&format!("<p class=\"clocks\" id=\"andes-clocks\">{clocks}</p>"));
    // The moves.
    out.push_str("<h2>Moves</h2><ol class=\"andes-moves\" id=\"andes-moves\">");
    for ply in game["moves"].as_array().into_iter().flatten() {
        let taken: Vec<String> = ply["attacked"]
            .as_object()
            .map(|a| format!("attacks {}", text(&a["square"])))
            .into_iter()
            .chain(ply["captured"].as_array().into_iter().flatten().map(|c| format!("captures {}", text(&c["square"]))))
            .collect();
        out.push_str(&format!(
            "<li class=\"{}\">{}{}</li>",
            esc(&text(&ply["side"])),
            esc(&text(&ply["notation"])),
            if taken.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"muted\">{}</span>", esc(&taken.join(", ")))
            }
        ));
    }
    out.push_str("</ol>");
    // The points and the match, each line as `replay::andes` explains it.
    out.push_str("<h2>Points and match</h2><ul class=\"explain\" id=\"andes-explain\">");
    for line in sheet["explain"].as_array().into_iter().flatten() {
        out.push_str(&format!("<li>{}</li>", esc(&text(line))));
    }
    out.push_str("</ul>");
    out
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(query): Query<AndesQuery>,
) -> Result<Html<String>, PageError> {
    let id = match_id(&name)?;
    let side = side_of(&query)?;
    let position = state.log.last_position()?;
    let content = render(&state, &viewer.metadata, &id, side, query.at).await?;
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
        "<p><a id=\"andes-flip\" href=\"/andes/{m}?side={other}{at}\">{other}'s side</a>{now}</p>\
         <section class=\"andes\" id=\"andes\"{live}>{content}</section>\
         <p class=\"live-status muted\" id=\"live-status\">{status}</p>",
        now = if query.at.is_some() {
            format!(" · <a href=\"/andes/{m}?side={}\">now</a>", side.as_str())
        } else {
            String::new()
        },
        status = if query.at.is_some() { format!("as after event {}", query.at.unwrap_or(0)) } else { "live".into() },
    );
    Ok(Html(shell(&format!("Andes {}", id.id()), Some(&viewer), &body, &["live.js"])))
}

pub(crate) async fn live(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(query): Query<AndesQuery>,
) -> Result<Live, PageError> {
    let id = match_id(&name)?;
    let side = side_of(&query)?;
    // Refused now rather than on the first commit.
    render(&state, &viewer.metadata, &id, side, None).await?;
    let watched = id.clone();
    let render_state = state.clone();
    follow(
        &state,
        query.from.unwrap_or(1),
        move |record| record.envelope.stream == watched,
        move |position| {
            let (state, metadata, id) = (render_state.clone(), viewer.metadata.clone(), id.clone());
            async move {
                match render(&state, &metadata, &id, side, None).await {
                    Ok(html) => Some(html_event("andes", position, &html)),
                    Err(error) => Some(html_event("refused", position, &esc(&error.message))),
                }
            }
        },
    )
}
