//! The table page of one game: an offline web app that runs on the table's tablet. The page
//! itself is a shell (kept by the service worker, [`super::pwa`]); its script (`table.js`)
//! draws the chess clock, the stops, the stopwatch and the entry forms from the game's
//! [`TableView`], decides every tap with the rules mirrored in `table-rules.js`, keeps it in the
//! tablet's IndexedDB and sends the queue here.
//!
//! Three routes serve it: `view` (the game as JSON, from the projections facade), `events`
//! (the tablet's queue, in order) and `live` (the game's new version whenever it changes).
//! A table token (or, on an open ledgerd, the table clearance) records; anyone who may read
//! the game sees it.

use super::auth::{same_origin, Viewer};
use super::game::{game_id, table_now_ms, Game};
use super::i18n::Lang;
use super::layout::{esc, shell_in, Head};
use super::sse::{follow, html_event, Live};
use super::{blocking, wall_ms, PageError, WebState};
use crate::auth::Access;
use crate::projections::table::{table_view, TableView};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use ledger::{RejectionKind, StreamKind};
use ledger_store::{AppendError, AppendRequest, ProposedEvent};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The most events one request of the tablet's queue carries (the script sends at most this).
pub(crate) const MAX_EVENTS_PER_SEND: usize = 256;

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    lang: Lang,
    Path(game): Path<String>,
) -> Result<Response, PageError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let may_record = state.auth.recorder(&viewer.metadata).is_ok();
    let body = format!(
        "<section class=\"table-page\" id=\"table\" data-game=\"{id}\" data-may-record=\"{may_record}\">\
         <h1 id=\"title\">{title}</h1>\
         <p class=\"sync\" id=\"sync\" role=\"status\" aria-live=\"polite\">{loading}</p>\
         <p class=\"notice\" id=\"notice\" role=\"alert\" hidden></p>\
         <div class=\"refused\" id=\"refused\" hidden></div>\
         {watch}\
         <div id=\"clock-area\"></div><div class=\"entries\" id=\"entries\"></div>\
         <h2 id=\"sheet-title\" hidden></h2><pre class=\"sheet\" id=\"sheet\" hidden></pre>\
         <h2 id=\"waiting-title\" hidden></h2><ol class=\"events waiting\" id=\"waiting\" hidden></ol>\
         <h2 id=\"events-title\" hidden></h2><ol class=\"events\" id=\"events\"></ol>\
         <noscript><p class=\"refusal\">{noscript}</p></noscript></section>",
        id = esc(id.id()),
        title = esc(&lang.t_args("table-title", &[("game", id.id().to_owned().into())])),
        loading = esc(&lang.t("table-loading")),
        watch = if may_record {
            String::new()
        } else {
            format!("<p class=\"hint\" id=\"watch-only\">{}</p>", esc(&lang.t("table-watch-only")))
        },
        noscript = esc(&lang.t("table-noscript")),
    );
    let head = Head { manifest: true, scripts: &["fluent-bundle.js", "table-rules.js", "table-queue.js", "table.js"] };
    Ok(Html(shell_in(lang, &lang.t_args("table-title", &[("game", id.id().to_owned().into())]), Some(&viewer), &body, &head))
        .into_response())
}

/// What the tablet gets: the game, and whether this browser may record.
#[derive(Serialize)]
pub(crate) struct TablePayload {
    #[serde(flatten)]
    view: TableView,
    may_record: bool,
    /// Who records, as the ledger will write it in each event's envelope.
    actor: Option<String>,
}

/// The game as the tablet runs it (`GET /table/<game>/view`).
pub(crate) async fn view(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Json<TablePayload>, JsonError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let recorder = state.auth.recorder(&viewer.metadata).ok();
    let log = Arc::clone(&state.log);
    let view = blocking(move || {
        // The position first: the live feed then misses nothing appended while reading.
        let position = log.last_position()?;
        let game = Game::load(&log, id)?;
        let now_ms = table_now_ms(&game.records, game.rules().and_then(|r| r.last_at_ms), wall_ms());
        Ok(table_view(&game.id, &game.records, &game.streams, game.rules(), position, now_ms))
    })
    .await?;
    Ok(Json(TablePayload { view, may_record: recorder.is_some(), actor: recorder.map(|(actor, _)| actor) }))
}

/// The tablet's queue, oldest first: each event made on the tablet with its own id and the
/// stream version it was decided at.
#[derive(Deserialize)]
pub(crate) struct Queue {
    events: Vec<QueuedEvent>,
}

#[derive(Deserialize)]
pub(crate) struct QueuedEvent {
    event_id: String,
    expected_version: u64,
    /// The event's canonical JSON (docs/EVENTS.md).
    event: serde_json::Value,
}

/// What became of one queued event. Events after a refused one are not tried and not listed:
/// they were decided on top of it, and stay queued.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    event_id: String,
    /// `stored`, `duplicate` (it was stored before: an acknowledgement that got lost) or `refused`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
    /// The rule's kind (`RejectionKind::as_str`), for refusals.
    #[serde(skip_serializing_if = "Option::is_none")]
    refusal: Option<&'static str>,
    /// The ledger's sentence, for refusals (the tablet words it in its language).
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct Sent {
    results: Vec<Outcome>,
}

impl Outcome {
    fn stored(event_id: &str, seq: u64, duplicate: bool) -> Outcome {
        let status = if duplicate { "duplicate" } else { "stored" };
        Outcome { event_id: event_id.to_owned(), status, seq: Some(seq), refusal: None, message: None }
    }

    fn refused(event_id: &str, kind: RejectionKind, message: String) -> Outcome {
        Outcome { event_id: event_id.to_owned(), status: "refused", seq: None, refusal: Some(kind.as_str()), message: Some(message) }
    }
}

/// Appends the tablet's queue (`POST /table/<game>/events`), in order, as one atomic append
/// (one sync for the lot) after the events the game already holds under their ids: a resend
/// whose acknowledgement was lost is answered `duplicate`, hours later too. A refusal names
/// the event it is about; the events before it are appended, the ones after it are not tried.
pub(crate) async fn events(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(game): Path<String>,
    Json(queue): Json<Queue>,
) -> Result<Json<Sent>, JsonError> {
    same_origin(&headers)?;
    let stream = game_id(&game)?;
    let (actor, clearance) = state.auth.recorder(&viewer.metadata)?;
    if queue.events.len() > MAX_EVENTS_PER_SEND {
        return Err(PageError::bad_request(format!(
            "at most {MAX_EVENTS_PER_SEND} events are sent at once, got {}",
            queue.events.len()
        ))
        .into());
    }
    let log = Arc::clone(&state.log);
    let read = stream.clone();
    let stored: HashMap<String, (u64, ledger::Event)> = blocking(move || {
        Ok(log.read_stream(&read, 1, usize::MAX)?.into_iter().map(|r| (r.envelope.event_id, (r.envelope.seq, r.event))).collect())
    })
    .await?;
    let mut results = Vec::new();
    let mut batch: Vec<ProposedEvent> = Vec::new();
    let mut expected = None;
    for queued in &queue.events {
        let event = match ledger::event::from_canonical_json(&queued.event) {
            Ok(event) => event,
            Err(error) => {
                results.push(Outcome::refused(&queued.event_id, RejectionKind::Malformed, error.to_string()));
                break;
            }
        };
        match stored.get(&queued.event_id) {
            Some((seq, same)) if batch.is_empty() && *same == event => {
                results.push(Outcome::stored(&queued.event_id, *seq, true));
                continue;
            }
            _ => {}
        }
        // The queue was decided event after event: each expects the version the one before
        // leaves. One that does not is sent on its own later.
        let wanted = queued.expected_version;
        match expected {
            None => expected = Some(wanted),
            Some(first) if wanted != first + batch.len() as u64 => break,
            Some(_) => {}
        }
        batch.push(ProposedEvent { event_id: queued.event_id.clone(), event });
    }
    let Some(expected) = expected else { return Ok(Json(Sent { results })) };
    let request = |events: Vec<ProposedEvent>| AppendRequest {
        stream: stream.clone(),
        events,
        expected_version: Some(expected),
        actor: actor.clone(),
        clearance,
    };
    match state.log.append(request(batch.clone())).await {
        Ok(appended) => {
            for (idx, proposed) in batch.iter().enumerate() {
                results.push(Outcome::stored(&proposed.event_id, appended.first_seq + idx as u64, appended.duplicate));
            }
        }
        Err(AppendError::Rejected(rejection)) => {
            // The append is atomic: nothing of it is stored. The events before the refused one
            // were accepted by the rules, so they go in on their own.
            let refused = rejection.event.map_or(0, |n| (n as usize).saturating_sub(1)).min(batch.len() - 1);
            if refused > 0 {
                let before: Vec<ProposedEvent> = batch[..refused].to_vec();
                let appended = state.log.append(request(before.clone())).await.map_err(|e| PageError::from(crate::status::from_append(e)))?;
                for (idx, proposed) in before.iter().enumerate() {
                    results.push(Outcome::stored(&proposed.event_id, appended.first_seq + idx as u64, appended.duplicate));
                }
            }
            let message = strip_event_prefix(&rejection.message, rejection.event);
            results.push(Outcome::refused(&batch[refused].event_id, rejection.kind, message));
        }
        Err(AppendError::Storage(error)) => return Err(PageError::from(error).into()),
    }
    Ok(Json(Sent { results }))
}

/// The ledger's sentence without the `event 2 of 5: ` it puts in front inside a batch: the
/// tablet shows it beside the one action it is about.
fn strip_event_prefix(message: &str, event: Option<u32>) -> String {
    match event {
        Some(_) => message.split_once(": ").filter(|(head, _)| head.starts_with("event ")).map_or(message, |(_, rest)| rest).to_owned(),
        None => message.to_owned(),
    }
}

/// A JSON route's failure: `{"error": "…", "code": "PERMISSION_DENIED"}` with the HTTP status.
#[derive(Debug)]
pub(crate) struct JsonError(PageError);

impl From<PageError> for JsonError {
    fn from(error: PageError) -> Self {
        JsonError(error)
    }
}

impl From<tonic::Status> for JsonError {
    fn from(status: tonic::Status) -> Self {
        JsonError(PageError::from(status))
    }
}

impl IntoResponse for JsonError {
    fn into_response(self) -> Response {
        let status = self.0.status;
        let body = serde_json::json!({"error": self.0.message, "status": status.as_u16()});
        (status, Json(body)).into_response()
    }
}

#[derive(Deserialize)]
pub(crate) struct LiveQuery {
    from: Option<u64>,
}

/// The game's new version whenever it changes: the tablet then fetches the view again.
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
    fn a_refusal_inside_a_batch_reads_as_about_its_one_event() {
        assert_eq!(strip_event_prefix("event 2 of 5: no clock is running to press", Some(2)), "no clock is running to press");
        assert_eq!(strip_event_prefix("no clock is running to press", None), "no clock is running to press");
    }
}
