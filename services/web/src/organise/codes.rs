//! `/organise/<tournament>/codes`: the organiser's codes page (issue 33), the tokens ledgerd
//! keeps itself (`ledger_house::auth::kept`) issued and revoked without a terminal. Each table of
//! the tournament's schedule with how many codes it holds; the tablets' sheet printed (a fresh
//! code per table, revoking none, so a re-print logs no tablet out); one table's code re-issued
//! (that table's codes revoked, one new) or revoked; a jury member's or an organiser's code
//! issued, shown once as a sign-in link and a QR code, and revoked.
//!
//! Only the organiser's clearance ([`Access::Organise`]); an organiser whose code is limited to a
//! tournament manages that tournament's codes only, and every code they issue is limited to it
//! too. Table codes are scoped to their tournament and table exactly as `ledgerctl tournament
//! tables` scopes them, and named as it names them ([`table_actor`]). The sign-in links are made
//! for the address the organiser's browser used (its `Host` and whether the pages are HTTPS).
//! A page that shows a code is never cached.

use crate::auth::{same_origin, Viewer};
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{clearance_name, esc, shell, short_id};
use crate::table::tables::tournament_facts;
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use ledger::StreamId;
use ledger_house::auth::{check_actor, Access, Identity, KeptToken, Role, Scope};
use ledger_house::error::Error;
use ledger_house::paper::qr;
use ledger_house::paper::tables::{person_signin_link, reissued_sheet, sheet, signin_link, table_actor, TableSignin};
use serde::Deserialize;
use std::collections::BTreeSet;

/// The label a code printed on the tablets' sheet is kept under.
const LABEL_SHEET: &str = "tablets' sheet";
/// The label of a table's code issued again.
const LABEL_REISSUED: &str = "re-issued";
/// The label of a person's code issued here.
const LABEL_CONSOLE: &str = "codes page";

/// A tournament whose codes the viewer may manage: its id and the organiser asking.
struct Managed {
    id: StreamId,
    organiser: Identity,
}

/// The tournament's id, if the viewer is an organiser who may manage its codes.
fn managed(state: &WebState, viewer: &Viewer, tournament: &str) -> Result<Managed, PageError> {
    let organiser = state
        .auth
        .authorize(&viewer.metadata, Access::Organise)
        .map_err(|error| PageError::from(error).saying(Say::new("codes-refused")))?;
    let id = StreamId::tournament(short_id(tournament)).map_err(Error::from)?;
    if organiser.scope.tournament.as_deref().is_some_and(|mine| mine != id.id()) {
        let refused = Error::PermissionDenied(format!("{}'s code manages another tournament", organiser.actor));
        return Err(PageError::from(refused).saying(Say::new("codes-refused")));
    }
    Ok(Managed { id, organiser })
}

/// The tables of the tournament's schedule.
async fn tables_of(state: &WebState, id: &StreamId) -> Result<(String, BTreeSet<u32>), PageError> {
    let (facade, read) = (state.facade.clone(), id.clone());
    let facts = blocking(move || tournament_facts(&facade, &read)).await?;
    Ok((facts.name.clone(), facts.games.iter().map(|g| g.slot.table).collect()))
}

/// Where table `table`'s code records: the games the tournament put on that table.
fn table_scope(tournament: &str, table: u32) -> Scope {
    Scope { tournament: Some(tournament.to_owned()), table: Some(table), streams: Vec::new() }
}

/// A kept code of a person (jury, organiser) that this tournament's page lists: limited to the
/// tournament, or, for an organiser who is not, everywhere.
fn listed_here(token: &KeptToken, tournament: &str, organiser: &Identity) -> bool {
    let person = matches!(token.role, Role::Jury | Role::Organiser);
    let scope_here = token.scope.tournament.as_deref() == Some(tournament) && token.scope.table.is_none();
    person && (scope_here || (organiser.scope.tournament.is_none() && token.scope.is_everywhere()))
}

/// `http(s)://<host>`: where the sign-in links lead (a sign-in is HTTPS wherever the pages
/// have it), as [`crate::links`] makes every printed link.
fn site(state: &WebState, headers: &HeaderMap) -> Result<String, PageError> {
    state.site(headers, crate::links::Leads::ToRecording)
}

/// An answer holding a code in clear: never kept by a cache or the browser's history store.
fn secret(html: String) -> Response {
    ([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

/// Runs a change of the kept codes (a durable write) off the async workers.
async fn kept_change<T: Send + 'static>(
    state: &WebState,
    change: impl FnOnce(&ledger_house::auth::Auth) -> Result<T, Error> + Send + 'static,
) -> Result<T, PageError> {
    let auth = std::sync::Arc::clone(&state.auth);
    blocking(move || {
        change(&auth).map_err(|error| {
            let say = match error.code() {
                ledger_house::error::Code::FailedPrecondition => Say::new("codes-cannot"),
                ledger_house::error::Code::ResourceExhausted => Say::new("codes-full"),
                _ => Say::of_error(&error),
            };
            PageError::from(error).saying(say)
        })
    })
    .await
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
) -> Result<Html<String>, PageError> {
    let Managed { id, organiser } = managed(&state, &viewer, &tournament)?;
    let (name, tables) = tables_of(&state, &id).await?;
    // Codes, not the browsers signed in with them; those are the tables' devices.
    let (devices, kept): (Vec<KeptToken>, Vec<KeptToken>) = state.auth.kept().into_iter().partition(|k| k.is_session());
    let t = |key: &str| esc(&lang.t(key));
    let base = format!("/organise/{}/codes", id.id());
    let mut rows = String::new();
    for table in &tables {
        let actor = table_actor(id.id(), *table);
        let held = kept.iter().filter(|k| k.actor == actor).count();
        let spent = state.auth.has_spent_code(&actor);
        let theirs: Vec<&KeptToken> = devices.iter().filter(|k| k.actor == actor).collect();
        let devices_html = devices_cell(lang, &base, *table, &theirs, spent);
        rows.push_str(&format!(
            "<tr data-table=\"{table}\"><td>{title}</td><td class=\"held\">{held_text}</td>{devices_html}<td class=\"actions\">\
             <form method=\"post\" action=\"{base}/table/{table}/reissue\"><button type=\"submit\" class=\"reissue\">{reissue}</button></form> \
             <form method=\"post\" action=\"{base}/table/{table}/revoke\"><button type=\"submit\" class=\"revoke\">{revoke}</button></form>\
             </td></tr>",
            title = esc(&lang.t_args("paper-table", &[("table", (*table).into())])),
            held_text = esc(&lang.t_args("codes-held", &[("count", held.into())])),
            reissue = t("codes-reissue"),
            revoke = t("codes-revoke"),
        ));
    }
    let tables_part = if tables.is_empty() {
        format!("<p class=\"muted\" id=\"no-tables\">{}</p>", t("codes-no-tables"))
    } else {
        format!(
            "<form method=\"post\" action=\"{base}/sheet\"><button type=\"submit\" id=\"print-sheet\">{print}</button></form>\
             <p class=\"hint\">{print_hint}</p>\
             <table class=\"codes\" id=\"table-codes\"><thead><tr><th>{col_table}</th><th>{col_codes}</th><th>{col_devices}</th><th></th></tr></thead>\
             <tbody>{rows}</tbody></table>",
            print = t("codes-print-sheet"),
            print_hint = t("codes-print-hint"),
            col_table = t("paper-col-table"),
            col_codes = t("codes-col-codes"),
            col_devices = t("codes-col-devices"),
        )
    };
    let mut people = String::new();
    let mut seen = BTreeSet::new();
    for token in kept.iter().filter(|k| listed_here(k, id.id(), &organiser)) {
        if !seen.insert(token.actor.clone()) {
            continue;
        }
        let held = kept.iter().filter(|k| k.actor == token.actor).count();
        let where_ = if token.scope.is_everywhere() { t("codes-everywhere") } else { t("codes-this-tournament") };
        people.push_str(&format!(
            "<tr data-actor=\"{actor}\"><td>{actor}</td><td>{role} · {where_} · {held_text}</td><td>\
             <form method=\"post\" action=\"{base}/person/revoke\"><input type=\"hidden\" name=\"actor\" value=\"{actor}\">\
             <button type=\"submit\" class=\"revoke\">{revoke}</button></form></td></tr>",
            actor = esc(&token.actor),
            role = esc(&clearance_name(lang, token.role)),
            held_text = esc(&lang.t_args("codes-held", &[("count", held.into())])),
            revoke = t("codes-revoke"),
        ));
    }
    let people_part = if people.is_empty() {
        format!("<p class=\"muted\">{}</p>", t("codes-no-people"))
    } else {
        format!("<table class=\"codes\" id=\"people-codes\"><tbody>{people}</tbody></table>")
    };
    let only_here = match organiser.scope.tournament {
        Some(_) => format!(
            "<input type=\"hidden\" name=\"here\" value=\"on\"><p class=\"hint\">{}</p>",
            t("codes-scoped-only")
        ),
        None => format!(
            "<label><input type=\"checkbox\" name=\"here\" id=\"here\" checked> {}</label>",
            t("codes-limit-here")
        ),
    };
    let title = lang.t_args("codes-title", &[("tournament", name.into())]);
    let body = format!(
        "<h1>{title}</h1><p class=\"lead\">{lead}</p><h2>{tables_title}</h2>{tables_part}\
         <h2>{people_title}</h2>{people_part}\
         <form method=\"post\" action=\"{base}/person\" id=\"new-person\">\
         <label>{name_label} <input name=\"name\" id=\"person-name\" maxlength=\"64\" required></label>\
         <label>{role_label} <select name=\"role\" id=\"person-role\">\
         <option value=\"jury\">{jury}</option><option value=\"organiser\">{organiser_role}</option></select></label>\
         {only_here}<button type=\"submit\" id=\"issue-person\">{issue}</button></form>\
         <p><a href=\"{console}\" id=\"codes-back\">{back}</a></p>",
        console = base.trim_end_matches("/codes"),
        back = t("organise-back"),
        title = esc(&title),
        lead = t("codes-lead"),
        tables_title = t("codes-tables"),
        people_title = t("codes-people"),
        name_label = t("codes-name"),
        role_label = t("signin-clearance"),
        jury = esc(&clearance_name(lang, Role::Jury)),
        organiser_role = esc(&clearance_name(lang, Role::Organiser)),
        issue = t("codes-issue"),
    );
    Ok(Html(shell(lang, &title, Some(&viewer), &body, &[])))
}

/// The tablets' sheet: a fresh code for every table, revoking none.
pub(crate) async fn print_sheet(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, .. } = managed(&state, &viewer, &tournament)?;
    let (name, tables) = tables_of(&state, &id).await?;
    let base = site(&state, &headers)?;
    let tournament = id.id().to_owned();
    let signins = kept_change(&state, move |auth| {
        let mut signins = Vec::new();
        for table in tables {
            let actor = table_actor(&tournament, table);
            let token = auth.issue(&actor, Role::Table, table_scope(&tournament, table), LABEL_SHEET)?;
            signins.push(TableSignin { table, link: signin_link(&base, &tournament, table, &token), actor });
        }
        Ok(signins)
    })
    .await?;
    let html = sheet(lang, id.id(), &name, &signins).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(secret(html))
}

#[derive(Deserialize)]
pub(crate) struct ReissueForm {
    confirm: Option<String>,
}

/// One table's code again. Asked first (a form without `confirm`): a page that names what it
/// cancels — the codes the table holds now, whose tablets are signed out at once — and a button
/// that confirms; then that table's codes revoked, one new, on a sheet of its own that says so.
pub(crate) async fn reissue(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, table)): Path<(String, u32)>,
    Form(form): Form<ReissueForm>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, .. } = managed(&state, &viewer, &tournament)?;
    let (name, tables) = tables_of(&state, &id).await?;
    let table = scheduled(&tables, table)?;
    if form.confirm.as_deref() != Some("yes") {
        return Ok(Html(reissue_question(&state, lang, &viewer, id.id(), table)).into_response());
    }
    let base = site(&state, &headers)?;
    let tournament = id.id().to_owned();
    let (signin, cancelled) = kept_change(&state, move |auth| {
        let actor = table_actor(&tournament, table);
        let cancelled = auth.kept().iter().filter(|k| k.actor == actor && !k.is_session()).count();
        auth.revoke(&actor)?;
        let token = auth.issue(&actor, Role::Table, table_scope(&tournament, table), LABEL_REISSUED)?;
        Ok((TableSignin { table, link: signin_link(&base, &tournament, table, &token), actor }, cancelled))
    })
    .await?;
    let html = reissued_sheet(lang, id.id(), &name, &signin, cancelled).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(secret(html))
}

/// The question before a re-issue: what it cancels (the table's codes and the browsers signed in
/// with them, counted now) and the button that does it.
fn reissue_question(state: &WebState, lang: Lang, viewer: &Viewer, t: &str, table: u32) -> String {
    let actor = table_actor(t, table);
    let kept = state.auth.kept();
    let codes = kept.iter().filter(|k| k.actor == actor && !k.is_session()).count();
    let signed_in = kept.iter().filter(|k| k.actor == actor && k.is_session()).count();
    let title = lang.t_args("codes-reissue-title", &[("table", table.into())]);
    let body = format!(
        "<h1>{title}</h1><p class=\"notice\" id=\"reissue-cancels\">{cancels}</p>\
         <form method=\"post\" action=\"/organise/{t}/codes/table/{table}/reissue\">\
         <input type=\"hidden\" name=\"confirm\" value=\"yes\">\
         <button type=\"submit\" id=\"reissue-confirm\">{confirm}</button></form>\
         <p><a href=\"/organise/{t}/codes\" id=\"reissue-back\">{back}</a></p>",
        title = esc(&title),
        cancels = esc(&lang.t_args(
            "codes-reissue-cancels",
            &[
                ("table", table.into()),
                ("actor", actor.into()),
                ("codes", codes.into()),
                ("signed_in", signed_in.into())
            ]
        )),
        confirm = esc(&lang.t("codes-reissue-confirm")),
        t = esc(t),
        back = esc(&lang.t("codes-back")),
    );
    shell(lang, &title, Some(viewer), &body, &[])
}

/// One table's codes revoked: its tablets are signed out at once.
pub(crate) async fn revoke_table(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path((tournament, table)): Path<(String, u32)>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, .. } = managed(&state, &viewer, &tournament)?;
    let (_, tables) = tables_of(&state, &id).await?;
    let actor = table_actor(id.id(), scheduled(&tables, table)?);
    kept_change(&state, move |auth| auth.revoke(&actor)).await?;
    Ok(Redirect::to(&format!("/organise/{}/codes", id.id())).into_response())
}

/// A table's signed-in devices (issue 42), each with when it signed in and a button that ends
/// it; and, once a code of the table is spent by its first sign-in, the button that lets one
/// more device sign in with it.
fn devices_cell(lang: crate::i18n::Lang, base: &str, table: u32, devices: &[&KeptToken], spent: bool) -> String {
    let mut html = String::from("<td class=\"devices\"><ul>");
    for device in devices {
        let since = esc(&lang.t_args("codes-device-since", &[("time", clock_time(device.issued_at_ms).into())]));
        html.push_str(&format!(
            "<li data-device=\"{id}\">{since} <form method=\"post\" action=\"{base}/table/{table}/device/{id}/end\">\
             <button type=\"submit\" class=\"end-device\">{end}</button></form></li>",
            id = esc(&device.device),
            end = esc(&lang.t("codes-device-end")),
        ));
    }
    html.push_str("</ul>");
    if devices.is_empty() {
        html.push_str(&format!("<p class=\"muted\">{}</p>", esc(&lang.t("codes-no-devices"))));
    }
    if spent {
        html.push_str(&format!(
            "<form method=\"post\" action=\"{base}/table/{table}/admit\"><button type=\"submit\" class=\"admit-device\">{}</button></form>",
            esc(&lang.t("codes-device-admit"))
        ));
    }
    html.push_str("</td>");
    html
}

/// `HH:MM` UTC of a time in milliseconds since the Unix epoch: when a device signed in.
fn clock_time(ms: u64) -> String {
    let minutes = ms / 60_000;
    format!("{:02}:{:02} UTC", (minutes / 60) % 24, minutes % 60)
}

/// One device of a table signed out by the organiser (issue 42).
pub(crate) async fn end_device(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path((tournament, table, device)): Path<(String, u32, String)>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, .. } = managed(&state, &viewer, &tournament)?;
    let (_, tables) = tables_of(&state, &id).await?;
    let actor = table_actor(id.id(), scheduled(&tables, table)?);
    kept_change(&state, move |auth| auth.end_device(&actor, &device)).await?;
    Ok(Redirect::to(&format!("/organise/{}/codes", id.id())).into_response())
}

/// One more device may sign in with the table's codes, spent by their first sign-in (issue 42).
pub(crate) async fn admit_device(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path((tournament, table)): Path<(String, u32)>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, .. } = managed(&state, &viewer, &tournament)?;
    let (_, tables) = tables_of(&state, &id).await?;
    let actor = table_actor(id.id(), scheduled(&tables, table)?);
    kept_change(&state, move |auth| auth.admit_device(&actor)).await?;
    Ok(Redirect::to(&format!("/organise/{}/codes", id.id())).into_response())
}

/// `table`, if the tournament schedules games on it.
fn scheduled(tables: &BTreeSet<u32>, table: u32) -> Result<u32, PageError> {
    if tables.contains(&table) {
        return Ok(table);
    }
    let missing = Error::NotFound(format!("no game of this tournament is on table {table}"));
    Err(PageError::from(missing).saying(Say::new("codes-no-such-table").arg("table", table.to_string())))
}

#[derive(Deserialize)]
pub(crate) struct PersonForm {
    name: String,
    role: String,
    here: Option<String>,
}

/// A jury member's or an organiser's code, shown once.
pub(crate) async fn issue_person(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
    Form(form): Form<PersonForm>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, organiser } = managed(&state, &viewer, &tournament)?;
    let name = form.name.trim().to_owned();
    let invalid =
        |reason: String| PageError::from(Error::InvalidArgument(reason)).saying(Say::new("codes-name-invalid"));
    check_actor(&name).map_err(|e| invalid(e.message()))?;
    if looks_like_a_table(&name) {
        return Err(invalid(format!("{name} is how a table's code is named")));
    }
    let role = match form.role.as_str() {
        "jury" => Role::Jury,
        "organiser" => Role::Organiser,
        _ => return Err(invalid("a code here is a jury member's or an organiser's".into())),
    };
    // An organiser limited to a tournament gives no code wider than their own.
    let here = form.here.is_some() || organiser.scope.tournament.is_some();
    let scope = Scope { tournament: here.then(|| id.id().to_owned()), table: None, streams: Vec::new() };
    let base = site(&state, &headers)?;
    let actor = name.clone();
    let token = kept_change(&state, move |auth| auth.issue(&actor, role, scope, LABEL_CONSOLE)).await?;
    let link = person_signin_link(&base, None, &token);
    let title = lang.t_args("codes-person-title", &[("name", name.into())]);
    let body = format!(
        "<h1>{title}</h1><p class=\"secret\">{once}</p>{qr}<p class=\"link\" id=\"person-link\">{link}</p>\
         <p><a href=\"/organise/{t}/codes\">{back}</a></p>",
        title = esc(&title),
        once = esc(&lang.t("codes-shown-once")),
        qr = qr::svg(&link, &title).map_err(|e| Error::Internal(e.to_string()))?,
        link = esc(&link),
        t = esc(id.id()),
        back = esc(&lang.t("codes-back")),
    );
    Ok(secret(shell(lang, &title, Some(&viewer), &body, &[])))
}

/// `<x>-table-<n>`: the names of tables' codes, which a person's code must not take (re-issuing
/// that table would revoke it).
fn looks_like_a_table(name: &str) -> bool {
    name.rsplit_once("-table-").is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Deserialize)]
pub(crate) struct RevokeForm {
    actor: String,
}

/// A person's codes revoked: only one this page lists.
pub(crate) async fn revoke_person(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    Path(tournament): Path<String>,
    Form(form): Form<RevokeForm>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let Managed { id, organiser } = managed(&state, &viewer, &tournament)?;
    let kept = state.auth.kept();
    let theirs: Vec<&KeptToken> = kept.iter().filter(|k| k.actor == form.actor).collect();
    // Every code of theirs must be one this organiser may manage here.
    if theirs.is_empty() || !theirs.iter().all(|k| listed_here(k, id.id(), &organiser)) {
        let refused = Error::NotFound(format!("no code of {} is managed here", form.actor));
        return Err(PageError::from(refused).saying(Say::new("codes-no-such-person")));
    }
    let actor = form.actor;
    kept_change(&state, move |auth| auth.revoke(&actor)).await?;
    Ok(Redirect::to(&format!("/organise/{}/codes", id.id())).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_cannot_take_a_table_s_name() {
        assert!(looks_like_a_table("open26-table-3"));
        assert!(!looks_like_a_table("open26-table-"));
        assert!(!looks_like_a_table("olga"));
        assert!(!looks_like_a_table("table-three"));
    }

    #[test]
    fn the_page_lists_the_people_of_this_tournament_and_for_an_organiser_of_all_of_them_everyone() {
        let token = |role, tournament: Option<&str>| KeptToken {
            actor: "x".into(),
            role,
            scope: Scope { tournament: tournament.map(str::to_owned), table: None, streams: Vec::new() },
            label: String::new(),
            issued_at_ms: 0,
            expires_at_ms: None,
            device: String::new(),
            spent: false,
        };
        let head = Identity::new("olga", Role::Organiser);
        let mut scoped = Identity::new("omar", Role::Organiser);
        scoped.scope.tournament = Some("open26".into());
        assert!(listed_here(&token(Role::Jury, Some("open26")), "open26", &scoped));
        assert!(!listed_here(&token(Role::Jury, None), "open26", &scoped), "a wider code is not theirs");
        assert!(listed_here(&token(Role::Organiser, None), "open26", &head));
        assert!(!listed_here(&token(Role::Jury, Some("cafe")), "open26", &head));
        assert!(!listed_here(&token(Role::Table, Some("open26")), "open26", &head));
    }
}
