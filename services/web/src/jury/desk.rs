//! The jury at a desk (issue 36): `/jury` lists every call for the jury not yet ruled on, across
//! the season's games, and follows them live (rendered once per change for all the jury); on a game's
//! viewer the jury rules — a ruling, and with it an event voided and the event that should have
//! been recorded instead — previewed with the game's score sheet before and after, then recorded
//! in one append at the version the preview was planned on (`ledger_house::commands::jury`, the
//! layer `ledgerctl rule` calls too). Jury only.

use crate::auth::{same_origin, Viewer};
use crate::game::game_id;
use crate::i18n::{Lang, PageLang, Say};
use crate::jury::jury_only;
use crate::layout::{esc, shell};
use crate::live::shared::{self, Key, LivePage, Rendered, Rendering};
use crate::live::sse::{status_line, Live};
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use ledger::{Event, Recorded, RejectionKind, StreamId, StreamKind};
use ledger_house::commands::jury::{self, Game, Ruling};
use ledger_house::error::Error;
use ledger_store::{AppendError, AppendRequest};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The most open calls, and games without their fate horizon, the desk lists (the oldest calls
/// first): a desk the jury can work down; the lead counts them all.
const MAX_LISTED: usize = 10;

/// `/jury`: every open call of the season's games, oldest first, and the ended games still
/// without their fate horizon; live, shared by every jury member reading it in that language.
pub(crate) async fn desk(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
) -> Result<Html<String>, PageError> {
    jury_only(&state, &viewer)?;
    let position = state.log.last_position()?;
    let content = render_desk(&state, lang).await?;
    let body = format!(
        "<h1>{}</h1><section id=\"desk\" data-live=\"/jury/desk/live?from={}\" data-event=\"desk\">{content}</section>{}",
        esc(&lang.t("desk-title")),
        position + 1,
        status_line(lang, &lang.t("live-now")),
    );
    Ok(Html(shell(lang, &lang.t("desk-title"), Some(&viewer), &body, &["live.js"])))
}

/// `/jury/desk/live`: the desk's content whenever a call, a ruling, a void, a game's end or a
/// fate horizon changes it ([`LiveDesk`]).
pub(crate) async fn live(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Query(query): Query<LiveQuery>,
) -> Result<Live, PageError> {
    jury_only(&state, &viewer)?;
    let viewing = shared::watch(&state, LiveDesk, lang);
    let asking = state.clone();
    let claim = crate::live::sse::Claim::of(&viewer);
    let still_jury = move || jury_only(&asking, &viewer);
    crate::live::sse::shared(&state, &claim, query.from.unwrap_or(1), viewing, lang, still_jury)
}

/// The desk as a live page: one for the whole season.
struct LiveDesk;

impl LivePage for LiveDesk {
    fn key(&self) -> Key {
        Key { event: "desk", of: None }
    }

    fn view(&self) -> &'static str {
        ""
    }

    /// A game's call, ruling, void, end or fate horizon.
    fn changes(&self, _: &BTreeSet<String>, record: &Recorded) -> bool {
        record.envelope.stream.kind() == StreamKind::Game
            && matches!(
                record.event,
                Event::JuryCalled { .. }
                    | Event::JuryRuling { .. }
                    | Event::EventVoided { .. }
                    | Event::GameEnded { .. }
                    | Event::FateHorizonRecorded { .. }
            )
    }

    fn render<'a>(&'a self, state: &'a WebState, lang: Lang) -> Rendering<'a> {
        Box::pin(async move { Ok(Rendered { html: render_desk(state, lang).await?, follows: None }) })
    }
}

#[derive(serde::Deserialize)]
pub(crate) struct LiveQuery {
    from: Option<u64>,
}

/// The desk's content in `lang`: the open calls and the games without a fate horizon, from the
/// facade's desk (the read models ledgerd keeps as events commit, so a view costs the same
/// however long the season; issue 43, item 5). Rendered once per change for all the jury
/// ([`LiveDesk`]), never per viewer.
async fn render_desk(state: &WebState, lang: Lang) -> Result<String, PageError> {
    let facade = state.facade.clone();
    let desk = blocking(move || Ok(facade.desk(MAX_LISTED)?.value)).await?;
    let calls = desk.calls;
    let horizons: Vec<(StreamId, u32, u64)> = desk.horizons.into_iter().map(|h| (h.game, h.turn, h.version)).collect();
    let waiting = desk.calls_waiting;
    let rows: String = calls
        .iter()
        .map(|c| {
            let id = esc(c.game.id());
            format!(
                "<tr data-game=\"{id}\"><td data-label=\"{game}\"><a href=\"/jury/{id}#rule\">{id}</a></td>\
                 <td data-label=\"{event}\">{seq}</td><td data-label=\"{when}\">{time} UTC</td>\
                 <td data-label=\"{reason}\">{text}</td></tr>",
                seq = c.seq,
                time = replay::audit::iso_utc(c.recorded_at_ms),
                text = esc(&c.reason),
                game = esc(&lang.t("desk-col-game")),
                event = esc(&lang.t("desk-col-event")),
                when = esc(&lang.t("desk-col-when")),
                reason = esc(&lang.t("desk-col-reason")),
            )
        })
        .collect();
    let list = if rows.is_empty() {
        format!("<p class=\"ok\" id=\"desk-none\">{}</p>", esc(&lang.t("desk-none")))
    } else {
        format!(
            "<table class=\"season\" id=\"desk-calls\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\
             <tbody>{rows}</tbody></table>",
            esc(&lang.t("desk-col-game")),
            esc(&lang.t("desk-col-event")),
            esc(&lang.t("desk-col-when")),
            esc(&lang.t("desk-col-reason")),
        )
    };
    Ok(format!(
        "<p class=\"muted\" id=\"desk-lead\">{}</p>{list}{}",
        esc(&lang.t_args("desk-lead", &[("count", waiting.into())])),
        horizons_html(lang, &horizons, desk.horizons_waiting),
    ))
}

/// The ended CAFE 2023 games still without their fate horizon, each with a form to record it
/// (the turn prefilled with the game's last).
fn horizons_html(lang: Lang, games: &[(StreamId, u32, u64)], waiting: usize) -> String {
    if games.is_empty() {
        return String::new();
    }
    let rows: String = games
        .iter()
        .map(|(game, turn, version)| {
            let id = esc(game.id());
            format!(
                "<tr data-game=\"{id}\"><td><a href=\"/jury/{id}\">{id}</a></td><td>\
                 <form method=\"post\" action=\"/jury/{id}/horizon\" class=\"console-form\">\
                 <input type=\"hidden\" name=\"version\" value=\"{version}\">\
                 <label>{label} <input type=\"number\" name=\"turn\" min=\"1\" max=\"23\" value=\"{turn}\" required></label>\
                 <button type=\"submit\">{record}</button></form></td></tr>",
                label = esc(&lang.t("desk-horizon-turn")),
                record = esc(&lang.t("organise-record")),
            )
        })
        .collect();
    let more = if waiting > games.len() {
        let said = lang.t_args("desk-horizons-more", &[("shown", games.len().into()), ("count", waiting.into())]);
        format!("<p class=\"muted\" id=\"desk-horizons-more\" data-waiting=\"{waiting}\">{}</p>", esc(&said))
    } else {
        String::new()
    };
    format!(
        "<h2>{}</h2><p class=\"hint\">{}</p><table class=\"season\" id=\"desk-horizons\"><tbody>{rows}</tbody></table>{more}",
        esc(&lang.t("desk-horizons-title")),
        esc(&lang.t("desk-horizons-hint")),
    )
}

/// The fate horizon as posted from the desk: the turn, at the game's version the desk showed.
#[derive(serde::Deserialize)]
pub(crate) struct HorizonForm {
    turn: u32,
    version: u64,
}

/// `POST /jury/<game>/horizon`: the fate horizon recorded at the version the desk showed; back
/// to the desk.
pub(crate) async fn horizon(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(game): Path<String>,
    Form(form): Form<HorizonForm>,
) -> Result<Response, PageError> {
    let (id, recorder, loaded) = jury_recording(&state, &headers, &viewer, &game).await?;
    let events = jury::fate_horizon(&Game::read(&id, &loaded.records, loaded.ruleset), form.turn)
        .map_err(crate::refusal::by_the_rules)?;
    let request = AppendRequest {
        stream: id.clone(),
        events: ledger_house::commands::proposed("jury", &id, form.version, &events),
        expected_version: Some(form.version),
        actor: recorder.actor.clone(),
        clearance: recorder.clearance,
    };
    match state.log.append(request).await {
        Ok(_) => Ok(Redirect::to("/jury").into_response()),
        Err(AppendError::Rejected(r)) => Err(crate::refusal::by_the_rules(Error::Refused(r))),
        Err(AppendError::Storage(e)) => Err(PageError::from(e)),
    }
}

/// A jury's POST about `game`: from this site, by the jury, who may record there; the game as
/// the log holds it.
async fn jury_recording(
    state: &WebState,
    headers: &HeaderMap,
    viewer: &Viewer,
    game: &str,
) -> Result<(StreamId, ledger_house::auth::Recorder, crate::game::Game), PageError> {
    same_origin(headers)?;
    jury_only(state, viewer)?;
    let id = game_id(game)?;
    let recorder = state.auth.recorder(&viewer.metadata)?;
    recorder.may_write(&id, &*state.log)?;
    let (log, read) = (Arc::clone(&state.log), id.clone());
    let loaded = blocking(move || crate::game::Game::load(&log, read)).await?;
    Ok((id, recorder, loaded))
}

/// The ruling form of a game's viewer: the ruling; the event to correct (choosing it fills in
/// what [`jury::correction`] proposes: the events to void — it, and the game's end after it —
/// and what to record instead, every field of each, one JSON line an event, to edit); the voids
/// and the records as the jury leaves them. Without script, the event chosen alone is corrected
/// as proposed.
pub(crate) fn form(lang: Lang, game: &StreamId, records: &[Recorded], values: &RuleForm) -> String {
    let voided = jury::voided_seqs(records);
    let mut options = format!("<option value=\"\">{}</option>", esc(&lang.t("desk-void-none")));
    for r in records.iter().filter(|r| !is_jury(&r.event) && !voided.contains(&r.envelope.seq)) {
        let seq = r.envelope.seq;
        let Ok(proposed) = jury::correction(records, seq) else { continue };
        let selected = if values.correct.as_deref() == Some(&seq.to_string()) { " selected" } else { "" };
        options.push_str(&format!(
            "<option value=\"{seq}\" data-voids=\"{voids}\" data-json=\"{json}\"{selected}>{seq} · {line}</option>",
            voids = esc(&voids_text(&proposed.voids)),
            json = esc(&records_text(&proposed.records)),
            line = esc(&ledger_house::words::events::sentence(lang, &r.event)),
        ));
    }
    format!(
        "<section class=\"console\" id=\"rule\"><h2>{title}</h2>\
         <form method=\"post\" action=\"/jury/{id}/rule\" class=\"console-form\" id=\"form-rule\">\
         <label>{ruling_label} * <textarea name=\"ruling\" rows=\"3\" required maxlength=\"2000\">{ruling}</textarea></label>\
         <label>{void_label} <select name=\"correct\" id=\"rule-void\">{options}</select></label>\
         <label>{voids_label} <input name=\"void\" id=\"rule-voids\" inputmode=\"numeric\" pattern=\"[0-9 ,]*\" value=\"{voids}\"></label>\
         <label>{corrected_label} <textarea name=\"corrected\" id=\"rule-corrected\" rows=\"4\" class=\"mono\" spellcheck=\"false\">{corrected}</textarea></label>\
         <p class=\"hint\">{hint}</p><button type=\"submit\">{preview}</button></form></section>",
        title = esc(&lang.t("desk-rule-title")),
        id = esc(game.id()),
        ruling_label = esc(&lang.t("desk-field-ruling")),
        ruling = esc(values.ruling.as_deref().unwrap_or_default()),
        void_label = esc(&lang.t("desk-field-void")),
        voids_label = esc(&lang.t("desk-field-voids")),
        voids = esc(values.void.as_deref().unwrap_or_default()),
        corrected_label = esc(&lang.t("desk-field-corrected")),
        corrected = esc(values.corrected.as_deref().unwrap_or_default()),
        hint = esc(&lang.t("desk-rule-hint")),
        preview = esc(&lang.t("organise-preview")),
    )
}

/// Seqs as the form writes them: `76 122`.
fn voids_text(voids: &[u64]) -> String {
    voids.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// Events as the form writes them: one canonical JSON line each.
fn records_text(records: &[Event]) -> String {
    records.iter().map(ledger::event::canonical_json_text).collect::<Vec<_>>().join("\n")
}

/// The jury's own events: not themselves voided or corrected from the form.
fn is_jury(event: &Event) -> bool {
    matches!(event, Event::JuryCalled { .. } | Event::JuryRuling { .. } | Event::EventVoided { .. })
}

/// The ruling form as posted.
#[derive(serde::Deserialize, Default)]
pub(crate) struct RuleForm {
    ruling: Option<String>,
    /// The event chosen to correct: what the form proposes for it fills the voids and records
    /// the jury left empty.
    correct: Option<String>,
    /// The seqs to void, separated by spaces or commas.
    void: Option<String>,
    /// The events to record, one JSON line each.
    corrected: Option<String>,
    version: Option<u64>,
    confirm: Option<String>,
}

impl RuleForm {
    /// The form with what the jury's desk proposes to correct event `seq` (the viewer's
    /// `?correct=N`).
    pub(crate) fn correcting(records: &[Recorded], seq: u64) -> RuleForm {
        let proposed = jury::correction(records, seq).unwrap_or_default();
        RuleForm {
            correct: Some(seq.to_string()),
            void: Some(voids_text(&proposed.voids)),
            corrected: Some(records_text(&proposed.records)),
            ..RuleForm::default()
        }
    }

    fn ruling(&self, records: &[Recorded], lang_say: fn(&'static str) -> Say) -> Result<Ruling, PageError> {
        let invalid =
            |message: String, say: &'static str| PageError::from(Error::InvalidArgument(message)).saying(lang_say(say));
        let given = |text: &Option<String>| text.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
        let proposed = match given(&self.correct) {
            Some(seq) => {
                let seq = seq
                    .parse::<u64>()
                    .map_err(|_| invalid(format!("event {seq} is not an event number"), "desk-error-void"))?;
                jury::correction(records, seq).map_err(|e| PageError::from(e).saying(lang_say("desk-error-void")))?
            }
            None => Ruling::default(),
        };
        let voids = match given(&self.void) {
            Some(list) => list
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|v| !v.is_empty())
                .map(|v| {
                    v.parse::<u64>().map_err(|_| invalid(format!("void {v} is not an event number"), "desk-error-void"))
                })
                .collect::<Result<Vec<u64>, PageError>>()?,
            None => proposed.voids,
        };
        let corrected = match given(&self.corrected) {
            // One JSON value after another: a line each as the form writes them (whitespace
            // between values is all JSON asks, so a browser's folding of lines loses nothing).
            Some(text) => serde_json::Deserializer::from_str(&text)
                .into_iter::<serde_json::Value>()
                .map(|json| {
                    let json = json
                        .map_err(|e| invalid(format!("a corrected event is not JSON: {e}"), "desk-error-corrected"))?;
                    ledger::event::from_canonical_json(&json)
                        .map_err(|e| invalid(format!("a corrected event: {e}"), "desk-error-corrected"))
                })
                .collect::<Result<Vec<Event>, PageError>>()?,
            None => proposed.records,
        };
        Ok(Ruling { text: self.ruling.clone().unwrap_or_default(), voids, records: corrected })
    }
}

/// `POST /jury/<game>/rule`: the ruling previewed with the sheet before and after, or, with
/// `confirm`, recorded at the previewed version.
pub(crate) async fn rule(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(game): Path<String>,
    Form(form): Form<RuleForm>,
) -> Result<Response, PageError> {
    let (id, recorder, loaded) = jury_recording(&state, &headers, &viewer, &game).await?;
    let game = Game::read(&id, &loaded.records, loaded.ruleset);
    let planned = form
        .ruling(&loaded.records, Say::new)
        .and_then(|ruling| Ok((jury::plan(&game, ruling.clone()).map_err(crate::refusal::by_the_rules)?, ruling)));
    let (events, ruling) = match planned {
        Ok(planned) => planned,
        Err(error) => {
            let body = format!(
                "<h1>{}</h1>{}<p class=\"muted\">{}</p>{}",
                esc(&lang.t("organise-refused-title")),
                crate::refusal::refusal_box(lang, &error),
                esc(&lang.t("organise-nothing-recorded")),
                self::form(lang, &id, &loaded.records, &form)
            );
            return Ok((
                error.status(),
                Html(shell(lang, &lang.t("organise-refused-title"), Some(&viewer), &body, &["jury.js"])),
            )
                .into_response());
        }
    };
    if let (Some(version), Some(_)) = (form.version, &form.confirm) {
        let request = AppendRequest {
            stream: id.clone(),
            events: ledger_house::commands::proposed("jury", &id, version, &events),
            expected_version: Some(version),
            actor: recorder.actor.clone(),
            clearance: recorder.clearance,
        };
        return match state.log.append(request).await {
            Ok(_) => Ok(Redirect::to(&format!("/jury/{}?ruled=1", id.id())).into_response()),
            Err(AppendError::Rejected(r)) if r.kind == RejectionKind::StaleVersion => {
                let html =
                    preview(lang, &viewer, &loaded, &game, &events, &form, &ruling, Some(Say::new("organise-changed")));
                Ok((StatusCode::CONFLICT, Html(html)).into_response())
            }
            Err(AppendError::Rejected(r)) => Err(crate::refusal::by_the_rules(Error::Refused(r))),
            Err(AppendError::Storage(e)) => Err(PageError::from(e)),
        };
    }
    Ok(Html(preview(lang, &viewer, &loaded, &game, &events, &form, &ruling, None)).into_response())
}

/// The game's score sheet after `extra` events are added to its records, in `lang` (a game
/// that cannot be scored says why); `html_id` names its table.
fn sheet_after(lang: Lang, loaded: &crate::game::Game, extra: &[Event], html_id: &str) -> String {
    let mut events: Vec<(u64, Event)> = loaded.records.iter().map(|r| (r.envelope.seq, r.event.clone())).collect();
    let next = events.len() as u64;
    events.extend(extra.iter().cloned().enumerate().map(|(i, e)| (next + 1 + i as u64, e)));
    match replay::score_game(loaded.ruleset, &events) {
        Ok(sheet) => ledger_house::words::sheet::sheet_html(lang, &sheet, html_id),
        Err(why) => format!("<p id=\"{html_id}\">{}</p>", esc(&ledger_house::words::sheet::score_error(lang, &why))),
    }
}

/// The whole ruling as it would be recorded, the score sheet before and after it, and the
/// confirmation carrying the ruling as planned (its voids and records written out).
#[allow(clippy::too_many_arguments)]
fn preview(
    lang: Lang,
    viewer: &Viewer,
    loaded: &crate::game::Game,
    game: &Game,
    events: &[Event],
    form: &RuleForm,
    ruling: &Ruling,
    notice: Option<Say>,
) -> String {
    let id = esc(game.id.id());
    let notice =
        notice.map(|s| format!("<p class=\"notice\" id=\"changed\">{}</p>", esc(&s.text(lang)))).unwrap_or_default();
    let lines: String =
        events.iter().map(|e| format!("<li>{}</li>", esc(&ledger_house::words::events::sentence(lang, e)))).collect();
    let hidden = |name: &str, value: &str| format!("<input type=\"hidden\" name=\"{name}\" value=\"{}\">", esc(value));
    let body = format!(
        "<h1>{title}</h1>{notice}<p>{lead}</p><ol id=\"rule-events\">{lines}</ol>\
         <div class=\"jury-columns\"><div><h2>{before}</h2>{sheet_before}</div>\
         <div><h2>{after}</h2>{sheet_after}</div></div>\
         <form method=\"post\" action=\"/jury/{id}/rule\" id=\"confirm\">{h_ruling}{h_void}{h_corrected}{h_version}{h_confirm}\
         <button type=\"submit\" class=\"primary\" id=\"record\">{record}</button></form>\
         <p><a href=\"/jury/{id}#rule\" id=\"back\">{back}</a></p>",
        title = esc(&lang.t("desk-preview-title")),
        lead = esc(&lang.t_args("desk-preview-lead", &[("game", game.id.id().into())])),
        before = esc(&lang.t("desk-sheet-before")),
        after = esc(&lang.t("desk-sheet-after")),
        sheet_before = sheet_after(lang, loaded, &[], "sheet-before"),
        sheet_after = sheet_after(lang, loaded, events, "sheet-after"),
        h_ruling = hidden("ruling", form.ruling.as_deref().unwrap_or_default()),
        h_void = hidden("void", &voids_text(&ruling.voids)),
        h_corrected = hidden("corrected", &records_text(&ruling.records)),
        h_version = hidden("version", &game.version.to_string()),
        h_confirm = hidden("confirm", "1"),
        record = esc(&lang.t("organise-record")),
        back = esc(&lang.t("desk-back")),
    );
    shell(lang, &lang.t("desk-preview-title"), Some(viewer), &body, &[])
}
