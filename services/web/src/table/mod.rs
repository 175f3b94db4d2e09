//! The table page of one game: an offline web app that runs on the table's tablet. The page
//! itself is a shell (kept by the service worker, [`pwa`]); its script (`table.js`)
//! draws the chess clock, the stops, the stopwatch and the entry forms from the game's
//! [`TableView`], decides every tap with the rules mirrored in `table-rules.js`, keeps it in the
//! tablet's IndexedDB and sends the queue here.
//!
//! Three routes serve it: `view` (the game as JSON, from the projections facade's
//! `Projections::table`), `events` (the tablet's queue, in order, through [`queue`]) and `live`
//! (the game's new version whenever it changes).
//! A table token (or, on an open ledgerd, the table clearance) records; anyone who may read
//! the game sees it.
//!
//! Beside it, the rest of what a table's tablet uses: where it finds the game it plays now
//! ([`tables`]), the Andes recording page ([`andes_record`]), the app's manifest, service worker
//! and catalogues ([`pwa`]), the queue both recording pages send ([`queue`]) and how a refused
//! body of theirs is said ([`body`]).

pub(crate) mod andes_record;
mod body;
pub(crate) mod pwa;
pub(crate) mod queue;
pub(crate) mod tables;

use crate::auth::Viewer;
use crate::game::game_id;
use crate::i18n::PageLang;
use crate::layout::{esc, shell_in, Head};
use crate::live::sse::Live;
use crate::refusal::JsonError;
use crate::{blocking, wall_ms, PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use ledger::StreamKind;
use ledger_house::auth::Access;
use ledger_house::projections::table::TableView;
use queue::{Queue, Sent};
use serde::{Deserialize, Serialize};

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(game): Path<String>,
) -> Result<Response, PageError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let may_record = state.recorder_of(&viewer.metadata, &id).is_some();
    // Two columns on a tablet: what the table taps (the clock, this turn, the entry open) on
    // the left, what it reads (where it stands, the waiting taps, the last events, the
    // score sheet) on the right, so that a turn never needs scrolling at 1280x800.
    let body = format!(
        "<section class=\"table-page\" id=\"table\" data-game=\"{id}\" data-may-record=\"{may_record}\" data-start-failed=\"{start_failed}\">\
         <header class=\"table-head\"><h1 id=\"title\">{title}</h1><p class=\"seating\" id=\"seating\" hidden></p></header>\
         <div class=\"table-main\">\
         <p class=\"notice\" id=\"notice\" role=\"alert\" hidden></p>\
         <div class=\"refused\" id=\"refused\" hidden></div>\
         {watch}\
         <div class=\"clock-area\" id=\"clock-area\"></div><div class=\"entries\" id=\"entries\"></div></div>\
         <aside class=\"table-side\">\
         <p class=\"sync\" id=\"sync\" role=\"status\" aria-live=\"polite\">{loading}</p>\
         <h2 id=\"waiting-title\" hidden></h2><ol class=\"events waiting\" id=\"waiting\" hidden></ol>\
         <h2 id=\"events-title\" hidden></h2><ol class=\"events\" id=\"events\"></ol>\
         <h2 id=\"sheet-title\" hidden></h2><div class=\"sheet\" id=\"sheet\" hidden></div></aside>\
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
        start_failed = esc(&lang.t("table-start-failed")),
    );
    let head = Head {
        manifest: true,
        scripts: &["fluent-bundle.js", "table-rules.js", "table-queue.js", "table-sync.js", "table.js"],
    };
    Ok(Html(shell_in(
        lang,
        &lang.t_args("table-title", &[("game", id.id().to_owned().into())]),
        Some(&viewer),
        &body,
        &head,
    ))
    .into_response())
}

/// What a tablet gets: its stream's view (a game's [`TableView`], an Andes match's), and
/// whether this browser may record.
#[derive(Serialize)]
pub(crate) struct TablePayload<V> {
    #[serde(flatten)]
    view: V,
    may_record: bool,
    /// Who records, as the ledger will write it in each event's envelope.
    actor: Option<String>,
}

impl<V> TablePayload<V> {
    /// `view` for a browser whose recorder (actor and clearance) is `recorder`, if it may record.
    pub(crate) fn new(view: V, recorder: Option<ledger_house::auth::Recorder>) -> Self {
        TablePayload { view, may_record: recorder.is_some(), actor: recorder.map(|r| r.actor) }
    }
}

/// The game as the tablet runs it (`GET /table/<game>/view`).
pub(crate) async fn view(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Json<TablePayload<TableView>>, JsonError> {
    let id = game_id(&game)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let recorder = state.recorder_of(&viewer.metadata, &id);
    let facade = state.facade.clone();
    // Read at the log's newest position: the live feed from it misses nothing appended meanwhile.
    let view = blocking(move || Ok(facade.table(&id, wall_ms())?.value)).await?;
    Ok(Json(TablePayload::new(view, recorder)))
}

/// Appends the tablet's queue (`POST /table/<game>/events`): see [`queue::append`].
pub(crate) async fn events(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(game): Path<String>,
    crate::table::body::JsonBody(queue): crate::table::body::JsonBody<Queue>,
) -> Result<Json<Sent>, JsonError> {
    let stream = game_id(&game)?;
    queue::append(&state, &headers, &viewer, stream, queue).await
}

#[derive(Deserialize)]
pub(crate) struct LiveQuery {
    pub(crate) from: Option<u64>,
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
    queue::follow_version(&state, &crate::live::sse::Claim::of(&viewer), id, query.from.unwrap_or(1))
}
