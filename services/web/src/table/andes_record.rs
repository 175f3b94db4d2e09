//! The recording mode of an Andes match (`/andes/<match>/record`): the tablet of the third
//! party article 9.1 requires, run as the table page is — an offline web app. The page is a
//! shell kept by the service worker; its script (`andes-table.js`) draws the board from Sol's
//! side or Luna's, both 12-minute clocks and the reserves, decides every tap with the Andes laws
//! mirrored in `andes-rules.js` (refusing an illegal move on the tablet, naming its article),
//! keeps it in IndexedDB and sends the queue through [`crate::table::queue`] like the table page.
//!
//! The tablet sends only what the table records (`game_started`, `move_played`, `flag_fell`,
//! `resigned`); the ledger appends what a move derives, which the tablet's mirror predicts.
//! The read-only board viewer stays at `/andes/<match>` ([`crate::public::andes`]).

use crate::auth::Viewer;
use crate::i18n::PageLang;
use crate::layout::{esc, shell_in, short_id, Head};
use crate::live::sse::Live;
use crate::refusal::JsonError;
use crate::table::queue::{self, Queue, Sent};
use crate::table::{LiveQuery, TablePayload};
use crate::{blocking, wall_ms, PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use ledger::{StreamId, StreamKind};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::projections::andes_table::AndesTableView;

/// `<id>` or `andes/<id>` as an Andes stream.
fn match_id(text: &str) -> Result<StreamId, PageError> {
    Ok(StreamId::parse(&format!("andes/{}", short_id(text))).map_err(Error::from)?)
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let id = match_id(&name)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Andes))?;
    let may_record = state.recorder_of(&viewer.metadata, &id).is_some();
    let title = lang.t_args("record-title", &[("match", id.id().to_owned().into())]);
    let body = format!(
        "<section class=\"table-page andes-record\" id=\"andes-record\" data-match=\"{id}\" data-may-record=\"{may_record}\" data-start-failed=\"{start_failed}\">\
         <h1 id=\"title\">{title}</h1>\
         <p class=\"sync\" id=\"sync\" role=\"status\" aria-live=\"polite\">{loading}</p>\
         <p class=\"notice\" id=\"notice\" role=\"alert\" hidden></p>\
         <div class=\"refused\" id=\"refused\" hidden></div>\
         {watch}\
         <div id=\"record-area\"></div>\
         <h2 id=\"waiting-title\" hidden></h2><ol class=\"events waiting\" id=\"waiting\" hidden></ol>\
         <h2 id=\"events-title\" hidden></h2><ol class=\"events\" id=\"events\"></ol>\
         <p><a id=\"viewer-link\" href=\"/andes/{id}\">{viewer_link}</a></p>\
         <noscript><p class=\"refusal\">{noscript}</p></noscript></section>",
        id = esc(id.id()),
        title = esc(&title),
        loading = esc(&lang.t("table-loading")),
        watch = if may_record {
            String::new()
        } else {
            format!("<p class=\"hint\" id=\"watch-only\">{}</p>", esc(&lang.t("record-watch-only")))
        },
        viewer_link = esc(&lang.t("record-viewer-link")),
        noscript = esc(&lang.t("table-noscript")),
        start_failed = esc(&lang.t("table-start-failed")),
    );
    let head = Head {
        manifest: true,
        scripts: &["fluent-bundle.js", "andes-rules.js", "table-queue.js", "table-sync.js", "andes-table.js"],
    };
    Ok(Html(shell_in(lang, &title, Some(&viewer), &body, &head)).into_response())
}

/// The match as the recording tablet runs it (`GET /andes/<match>/record/view`), from the
/// projections facade (`Projections::andes_table`).
pub(crate) async fn view(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> Result<Json<TablePayload<AndesTableView>>, JsonError> {
    let id = match_id(&name)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Andes))?;
    let recorder = state.recorder_of(&viewer.metadata, &id);
    let facade = state.facade.clone();
    // Read at the log's newest position: the live feed from it misses nothing appended meanwhile.
    let view = blocking(move || Ok(facade.andes_table(&id, wall_ms())?.value)).await?;
    Ok(Json(TablePayload::new(view, recorder)))
}

/// The tablet's queue (`POST /andes/<match>/record/events`), through [`queue::append`].
pub(crate) async fn events(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(name): Path<String>,
    crate::table::body::JsonBody(queue): crate::table::body::JsonBody<Queue>,
) -> Result<Json<Sent>, JsonError> {
    let stream = match_id(&name)?;
    queue::append(&state, &headers, &viewer, stream, queue).await
}

/// The match's new version whenever it changes (`GET /andes/<match>/record/live`).
pub(crate) async fn live(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(name): Path<String>,
    Query(query): Query<LiveQuery>,
) -> Result<Live, PageError> {
    let id = match_id(&name)?;
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Andes))?;
    queue::follow_version(&state, &crate::live::sse::Claim::of(&viewer), id, query.from.unwrap_or(1))
}
