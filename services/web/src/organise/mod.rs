//! The organiser's console (`/organise`, `/organise/<tournament>`): the day run from a browser.
//! Every action is a plain HTML form that posts to `/organise/<tournament>/<action>`; the answer
//! is first a preview — what will be recorded, in words and tables — with a button that posts
//! the same fields again to record it. Both steps plan the action with the command layer
//! `ledgerctl` calls too (`ledger_house::commands`), and the record is an append like any other:
//! decided by the writer on the same rules, under the organiser's token.
//!
//! The preview carries the tournament's version it was planned on, and the append expects it:
//! if anything was recorded in between (a second organiser, a tablet's registration), nothing
//! is recorded and the preview is shown again as it now stands. Its event ids are made from
//! that version and the events, so a double click or a resent form records once.

pub(crate) mod codes;
mod fields;
mod forms;
mod preview;
mod view;

use crate::auth::{same_origin, Viewer};
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::short_id;
use crate::refusal::by_the_rules;
use crate::{blocking, PageError, WebState};
use axum::extract::{Multipart, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use fields::Fields;
use ledger::{RejectionKind, StreamId};
use ledger_house::auth::{Access, Recorder};
use ledger_house::commands::{self, Plan, Tournament};
use ledger_house::error::Error;
use ledger_store::{AppendError, AppendRequest};
use serde::Deserialize;

/// The largest list file the console reads: some thousands of lines.
const MAX_UPLOAD_BYTES: usize = 256 * 1024;

/// Only the organiser runs the console.
fn organiser(state: &WebState, viewer: &Viewer) -> Result<Recorder, PageError> {
    state
        .auth
        .authorize(&viewer.metadata, Access::Organise)
        .map_err(|e| PageError::from(e).saying(Say::new("organise-refused")))?;
    Ok(state.auth.recorder(&viewer.metadata)?)
}

/// The tournament as the log holds it now.
async fn read(state: &WebState, id: &StreamId) -> Result<Tournament, PageError> {
    let (log, read) = (std::sync::Arc::clone(&state.log), id.clone());
    blocking(move || {
        let records = log.read_stream(&read, 1, usize::MAX)?;
        Ok(Tournament::read(&read, &records))
    })
    .await
}

fn tournament_id(text: &str) -> Result<StreamId, PageError> {
    Ok(StreamId::tournament(short_id(text)).map_err(Error::from)?)
}

#[derive(Deserialize)]
pub(crate) struct Done {
    done: Option<String>,
}

/// `/organise`: the season's tournaments, each to run, and a new one.
pub(crate) async fn season(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
) -> Result<Html<String>, PageError> {
    organiser(&state, &viewer)?;
    let facade = state.facade.clone();
    let season =
        blocking(move || Ok(facade.season(ledger_house::facade::season::SeasonScope { andes: false })?)).await?;
    Ok(Html(view::season(lang, &viewer, &season.value, &Fields::default(), None)))
}

/// `/organise/<tournament>`: the console.
pub(crate) async fn console(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
    Query(done): Query<Done>,
) -> Result<Html<String>, PageError> {
    organiser(&state, &viewer)?;
    let id = tournament_id(&tournament)?;
    let read = read(&state, &id).await?;
    let page = view::Console::load(&state, &read).await?;
    Ok(Html(page.render(lang, &viewer, done.done.as_deref())))
}

/// `POST /organise`: a new tournament (its id is a field).
pub(crate) async fn create(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Form(posted): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let recorder = organiser(&state, &viewer)?;
    let fields = Fields::new(posted)?;
    let id = match fields.get("id").map(tournament_id) {
        Some(Ok(id)) => id,
        _ => {
            let refused = refused_or_missing(fields.get("id"));
            let season = {
                let facade = state.facade.clone();
                blocking(move || Ok(facade.season(ledger_house::facade::season::SeasonScope { andes: false })?)).await?
            };
            let html = view::season(lang, &viewer, &season.value, &fields, Some(&refused));
            return Ok((refused.status(), Html(html)).into_response());
        }
    };
    act_on(&state, &viewer, &recorder, lang, &id, "create", fields).await
}

fn refused_or_missing(id: Option<&str>) -> PageError {
    let message = match id {
        Some(id) => format!("`{id}` is not a tournament id: letters, digits, `.`, `_` or `-`, up to 64"),
        None => "the tournament's id is required".to_owned(),
    };
    PageError::from(Error::InvalidArgument(message)).saying(Say::new("organise-error-id"))
}

/// `POST /organise/<tournament>/<action>`: a preview, or with `confirm` the record.
pub(crate) async fn act(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, action)): Path<(String, String)>,
    Form(posted): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let recorder = organiser(&state, &viewer)?;
    let id = tournament_id(&tournament)?;
    act_on(&state, &viewer, &recorder, lang, &id, &action, Fields::new(posted)?).await
}

/// `POST /organise/<tournament>/upload`: a list file, previewed as a pasted list would be.
pub(crate) async fn upload(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
    mut multipart: Multipart,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let recorder = organiser(&state, &viewer)?;
    let id = tournament_id(&tournament)?;
    let unreadable = |why: String| PageError::from(Error::InvalidArgument(why)).saying(Say::new("organise-error-file"));
    let mut fields = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(|e| unreadable(e.to_string()))? {
        let name = field.name().unwrap_or_default().to_owned();
        let bytes = field.bytes().await.map_err(|e| unreadable(e.to_string()))?;
        if bytes.len() > MAX_UPLOAD_BYTES {
            return Err(unreadable(format!("the file is over {MAX_UPLOAD_BYTES} bytes")));
        }
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| unreadable("the file is not UTF-8 text".into()))?;
        match name.as_str() {
            "file" => fields.push(("list".to_owned(), text)),
            "stand_in" => fields.push((name, text)),
            _ => {}
        }
    }
    act_on(&state, &viewer, &recorder, lang, &id, "list", Fields::new(fields)?).await
}

/// Plans `action` on the tournament as it stands; shows the plan, or records it when the form
/// confirms the preview it came from.
async fn act_on(
    state: &WebState,
    viewer: &Viewer,
    recorder: &Recorder,
    lang: Lang,
    id: &StreamId,
    action: &str,
    fields: Fields,
) -> Result<Response, PageError> {
    let tournament = read(state, id).await?;
    let t = id.id();
    let refused = |error: PageError, fields: &Fields, lines: Vec<preview::RefusedLine>| {
        let html = preview::refused(lang, viewer, &tournament, action, fields, &error, &lines);
        Ok((error.status(), Html(html)).into_response())
    };
    let command = match fields::command(action, &fields) {
        Ok(command) => command,
        Err(error) => return refused(error, &fields, Vec::new()),
    };
    let plan = match commands::plan(&tournament, command.clone()) {
        Ok(plan) => plan,
        Err(error) => {
            let lines = preview::refused_lines(&tournament, &command);
            return refused(by_the_rules(error), &fields, lines);
        }
    };
    // A finalist's role: the writer checks the rank order across the games; the preview refuses
    // what it would refuse, rather than offer to record it.
    if let commands::Command::ChooseRole { player, .. } = &command {
        if let Err(rejection) = final_order(state, &tournament, player).await? {
            return refused(by_the_rules(Error::Refused(rejection)), &fields, Vec::new());
        }
    }
    let confirmed_at = fields.get("confirm").and(fields.get("version")).and_then(|v| v.parse::<u64>().ok());
    let Some(version) = confirmed_at else {
        return Ok(Html(preview::page(lang, viewer, &tournament, action, &fields, &plan, None)).into_response());
    };
    recorder.may_write(id, &*state.log)?;
    match state.log.append(request(id, version, &plan, recorder)).await {
        Ok(_) => Ok(Redirect::to(&format!("/organise/{t}?done={action}#{}", view::section_of(action))).into_response()),
        Err(AppendError::Rejected(rejection)) if rejection.kind == RejectionKind::StaleVersion => {
            // Something was recorded since the preview: show what the action records now.
            let changed = Say::new("organise-changed");
            let html = preview::page(lang, viewer, &tournament, action, &fields, &plan, Some(changed));
            Ok((StatusCode::CONFLICT, Html(html)).into_response())
        }
        Err(AppendError::Rejected(rejection)) => refused(by_the_rules(Error::Refused(rejection)), &fields, Vec::new()),
        Err(AppendError::Storage(error)) => Err(PageError::from(error)),
    }
}

/// The writer's rule of the final's role choices (`replay::standings::checks::final_choice`) on
/// the tournament's standings as they stand.
async fn final_order(
    state: &WebState,
    tournament: &Tournament,
    player: &str,
) -> Result<Result<(), ledger::Rejection>, PageError> {
    let rules = tournament.state()?.clone();
    let (facade, id, player) = (state.facade.clone(), tournament.id.clone(), player.to_owned());
    blocking(move || {
        let standings = facade.standings(&id, None, false)?.value;
        Ok(replay::standings::checks::final_choice(&rules, &player, &standings))
    })
    .await
}

/// The append of `plan` at the version its preview was planned on, with ids made from it
/// (`commands::proposed`): the same confirmation sent twice is one record.
fn request(id: &StreamId, version: u64, plan: &Plan, recorder: &Recorder) -> AppendRequest {
    AppendRequest {
        stream: id.clone(),
        events: commands::proposed("console", id, version, &plan.events),
        expected_version: Some(version),
        actor: recorder.actor.clone(),
        clearance: recorder.clearance,
    }
}
