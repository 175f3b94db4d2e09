//! The table page of one game: the chess clock as two large buttons, the stops and stopwatch,
//! the entry forms the rules allow now ([`super::entry`]), the score sheet and the last events.
//! A table token (or, on an open ledgerd, the table clearance) records; anyone who may read the
//! game sees it.
//!
//! Every action is a `store::AppendRequest` decided by the sequencer like a gRPC append. Its
//! event id is derived from what the page showed — `web:<stream>@<version>:<event type>` — and
//! it expects that version, so a double tap, a resent form or a second tablet acting on the same
//! state never appends twice: an identical retry is answered as the first was, anything else
//! is refused and the page shows why.

use super::auth::{same_origin, Viewer};
use super::entry::{clock_controls, entry_forms, event_from_form, is_timed};
use super::game::{game_id, table_now_ms, Game};
use super::layout::{esc, shell};
use super::sse::{follow, html_event, Live};
use super::{blocking, status_text, wall_ms, PageError, WebState};
use crate::auth::Access;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use ledger::StreamKind;
use ledger_proto::v1 as pb;
use ledger_proto::v1::projections_server::Projections;
use ledger_store::{AppendRequest, ProposedEvent};
use replay::clock::ClockView;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;

#[derive(Deserialize)]
pub(crate) struct PageQuery {
    /// A refusal to show (the form fallback without JavaScript).
    error: Option<String>,
}

/// The clock as the Projections service gives it, carried to the table time `now_ms`.
async fn clock_view(state: &WebState, viewer: &Viewer, game: &str, now_ms: u64) -> Option<ClockView> {
    let mut request =
        tonic::Request::new(pb::ClockRequest { game: game.to_owned(), as_of_seq: None, now_at_ms: Some(now_ms) });
    *request.metadata_mut() = viewer.metadata.clone();
    let json = state.projections.get_clock(request).await.ok()?.into_inner().json;
    serde_json::from_str(&json).ok()
}

/// The score sheet's text with its explanations, from the Projections service.
async fn sheet_text(state: &WebState, viewer: &Viewer, game: &str) -> Option<String> {
    let mut request = tonic::Request::new(pb::ScoreSheetRequest { game: game.to_owned(), as_of_seq: None });
    *request.metadata_mut() = viewer.metadata.clone();
    Some(state.projections.get_score_sheet(request).await.ok()?.into_inner().text)
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Response, PageError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let may_record = state.auth.recorder(&viewer.metadata).is_ok();
    let log = Arc::clone(&state.log);
    let position = state.log.last_position()?;
    let game = blocking(move || Game::load(&log, id)).await?;
    let now_ms = table_now_ms(&game.records, game.rules().and_then(|r| r.last_at_ms), wall_ms());
    let clock = if game.ruleset.is_some() && !game.records.is_empty() {
        clock_view(&state, &viewer, game.id.id(), now_ms).await
    } else {
        None
    };
    let sheet = if game.records.is_empty() { None } else { sheet_text(&state, &viewer, game.id.id()).await };
    let rules = game.rules();
    let phase = match rules {
        Some(r) if !r.started => "not started".to_owned(),
        Some(r) => match r.ended {
            Some((outcome, turn)) => format!("ended in turn {turn}: {}", outcome.as_str().replace('_', " ")),
            None => format!("turn {}", r.turn),
        },
        None => String::new(),
    };
    let ruleset = game.ruleset.map_or("no ruleset yet", |r| r.as_str());
    let error = query.error.as_deref().unwrap_or_default();
    let mut body = format!(
        "<section class=\"table-page\" id=\"table\" data-game=\"{id}\" data-version=\"{version}\" data-position=\"{position}\" \
         data-table-ms=\"{now_ms}\"><h1>Game {id} <span class=\"muted\" id=\"phase\">{ruleset} · {phase}</span></h1>\
         <p class=\"refusal\" id=\"error\" role=\"alert\"{hidden}>{error}</p><p class=\"notice\" id=\"notice\" hidden></p>",
        id = esc(game.id.id()),
        version = game.version(),
        phase = esc(&phase),
        hidden = if error.is_empty() { " hidden" } else { "" },
        error = esc(error),
    );
    if !may_record {
        body.push_str("<p class=\"hint\">You may watch this game; to record, <a href=\"/signin\">sign in</a> with a table token.</p>");
    }
    if rules.is_some_and(|r| r.started) {
        body.push_str(&clock_controls(&game, clock.as_ref(), now_ms, may_record));
    }
    if may_record {
        body.push_str(&format!("<div class=\"entries\" id=\"entries\">{}</div>", entry_forms(&game, now_ms)));
    }
    if let Some(sheet) = sheet {
        body.push_str(&format!(
            "<h2>Score sheet</h2><pre class=\"sheet\" id=\"sheet\">{}</pre>",
            esc(sheet.trim_end())
        ));
    }
    body.push_str("<h2>Last events</h2><ol class=\"events\" id=\"events\">");
    for record in game.records.iter().rev().take(12) {
        body.push_str(&format!(
            "<li value=\"{seq}\"><code>{text}</code> <span class=\"muted\">{actor}</span></li>",
            seq = record.envelope.seq,
            text = esc(&replay::audit::event_text(&record.event)),
            actor = esc(&record.envelope.actor),
        ));
    }
    body.push_str("</ol></section>");
    Ok(Html(shell(&format!("Table {}", game.id.id()), Some(&viewer), &body, &["live.js", "table.js"])).into_response())
}

/// `web:<stream>@<version>:<type>`, or its SHA-256 when that would pass the 128 bytes an id may have.
fn event_id(stream: &str, version: u64, action: &str) -> String {
    let id = format!("web:{stream}@{version}:{action}");
    // 128: the longest id the ledger takes (`convert::record::MAX_EVENT_ID_BYTES`).
    if id.len() <= 128 {
        return id;
    }
    format!("web:{}", &hex::encode(Sha256::digest(id.as_bytes()))[..40])
}

/// What the page's script gets back.
fn answer(json: bool, status: StatusCode, game: &str, body: serde_json::Value) -> Response {
    if json {
        return (status, axum::Json(body)).into_response();
    }
    // Without JavaScript: back to the page, with the refusal if there was one.
    let location = match body.get("error").and_then(|e| e.as_str()) {
        Some(error) => format!("/table/{game}?error={}", url_escape(error)),
        None => format!("/table/{game}"),
    };
    Redirect::to(&location).into_response()
}

fn url_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub(crate) async fn act(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(game): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let json =
        headers.get(header::ACCEPT).and_then(|a| a.to_str().ok()).is_some_and(|a| a.contains("application/json"));
    let short = game.clone();
    match record(&state, &headers, &viewer, &game, &fields).await {
        Ok(appended) => {
            let body = serde_json::json!({
                "ok": true,
                "seq": appended.last_seq,
                "position": appended.last_position,
                "duplicate": appended.duplicate,
            });
            answer(json, StatusCode::OK, &short, body)
        }
        Err(error) => answer(json, error.status, &short, serde_json::json!({"ok": false, "error": error.message})),
    }
}

async fn record(
    state: &WebState,
    headers: &HeaderMap,
    viewer: &Viewer,
    game: &str,
    fields: &[(String, String)],
) -> Result<ledger_store::Appended, PageError> {
    same_origin(headers)?;
    let id = game_id(game)?;
    let (actor, clearance) = state.auth.recorder(&viewer.metadata)?;
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let version: u64 = field("version").and_then(|v| v.parse().ok()).ok_or_else(|| {
        PageError::bad_request("INVALID_ARGUMENT: the form lost the version it was drawn at: reload the page")
    })?;
    let action = field("action").unwrap_or_default().to_owned();
    // The page's script fills the table time for every form; only timed events carry it.
    let mut fields: Vec<(String, String)> =
        fields.iter().filter(|(k, _)| k != "e.at_ms" || is_timed(&action)).cloned().collect();
    if is_timed(&action) && field("e.at_ms").is_none_or(str::is_empty) {
        // No script filled the table time: take it now, as the page would have.
        let log = Arc::clone(&state.log);
        let loaded = blocking(move || Game::load(&log, id)).await?;
        let now = table_now_ms(&loaded.records, loaded.rules().and_then(|r| r.last_at_ms), wall_ms());
        let now = if action == "game_started" && loaded.records.is_empty() { 0 } else { now };
        fields.push(("e.at_ms".into(), now.to_string()));
    }
    let event = event_from_form(&action, &fields)?;
    let stream = game_id(game)?;
    let request = AppendRequest {
        events: vec![ProposedEvent { event_id: event_id(&stream.to_string(), version, &action), event }],
        stream,
        expected_version: Some(version),
        actor,
        clearance,
    };
    state.log.append(request).await.map_err(|e| {
        let status = crate::status::from_append(e);
        let mut error = PageError::from(status.clone());
        if matches!(status.code(), tonic::Code::Aborted | tonic::Code::AlreadyExists) {
            error.message = format!(
                "{} — the game moved on since this page was drawn; it shows the new state now, check and try again",
                status_text(&status)
            );
        }
        error
    })
}

#[derive(Deserialize)]
pub(crate) struct LiveQuery {
    from: Option<u64>,
}

/// The game's new version whenever it changes (the page reloads itself if nobody is typing).
pub(crate) async fn live(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
    Query(query): Query<LiveQuery>,
) -> Result<Live, PageError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let watched = id.clone();
    let version = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = Arc::clone(&version);
    follow(
        &state,
        query.from.unwrap_or(1),
        move |record| {
            let mine = record.envelope.stream == watched;
            if mine {
                seen.fetch_max(record.envelope.seq, std::sync::atomic::Ordering::Relaxed);
            }
            mine
        },
        move |position| {
            let version = version.load(std::sync::atomic::Ordering::Relaxed);
            async move { Some(html_event("version", position, &version.to_string())) }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_what_the_page_showed() {
        assert_eq!(event_id("game/q1-t1", 7, "clock_pressed"), "web:game/q1-t1@7:clock_pressed");
        let long = event_id(&format!("game/{}", "x".repeat(64)), u64::MAX, "austria_claimed_objectives");
        assert!(long.starts_with("web:") && long.len() <= 128, "{long}");
    }
}
