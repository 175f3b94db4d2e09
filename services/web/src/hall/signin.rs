//! Signing in and out: the form that takes a bearer token (checked with `Auth::identify`) or,
//! on an open ledgerd, an actor and a clearance, and the cookies it sets for `auth.rs` to read
//! back on every request. With tokens, the cookie holds a sign-in of the browser's own
//! (`Auth::open_session`: the same actor, role and scope as the code, kept by ledgerd for a
//! day), and signing out revokes it (`Auth::end_session`); the code itself, a table's printed
//! one say, keeps working for the next sign-in.

use crate::auth::{local_path, same_origin, Viewer, COOKIE_ACTOR, COOKIE_CLEARANCE, COOKIE_TOKEN};
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{clearance_name, esc, shell};
use crate::{PageError, WebState};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use ledger_house::auth::{check_actor, Auth, Role};
use ledger_house::error::Error;
use serde::Deserialize;
use tonic::metadata::{MetadataMap, MetadataValue};

/// How long a sign-in lasts: a tournament day.
const COOKIE_MAX_AGE_SECS: u32 = 12 * 3600;

#[derive(Deserialize)]
pub(crate) struct SigninQuery {
    next: Option<String>,
}

pub(crate) async fn signin_page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    axum::extract::Query(query): axum::extract::Query<SigninQuery>,
) -> Html<String> {
    Html(signin_html(&state, &viewer, lang, &local_path(query.next.as_deref()), None))
}

/// The sign-in form; `error` is a refusal's machine code and what a person reads of it.
fn signin_html(state: &WebState, viewer: &Viewer, lang: Lang, next: &str, error: Option<(&str, Say)>) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let error = error
        .map(|(code, say)| {
            format!("<p class=\"refusal\" id=\"error\" data-code=\"{code}\">{}</p>", esc(&say.text(lang)))
        })
        .unwrap_or_default();
    let form = match *state.auth {
        Auth::Tokens(_) => format!(
            "<form method=\"post\" action=\"/signin\" class=\"signin\">\
             <input type=\"hidden\" name=\"next\" value=\"{next}\">\
             <label>{token} <input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"off\" required></label>\
             <button type=\"submit\" id=\"signin\">{button}</button></form>\
             <p class=\"hint\">{hint}</p>",
            next = esc(next),
            token = t("signin-token"),
            button = t("signin-button"),
            hint = t("signin-token-hint"),
        ),
        Auth::Open => {
            let current = viewer.role().unwrap_or(Role::Table);
            let options: String = Role::ALL[1..]
                .iter()
                .map(|role| {
                    let selected = if *role == current { " selected" } else { "" };
                    format!(
                        "<option value=\"{}\"{selected}>{}</option>",
                        role.as_str(),
                        esc(&clearance_name(lang, *role))
                    )
                })
                .collect();
            let actor = viewer.identity.as_ref().map_or("anonymous", |who| who.actor.as_str());
            format!(
                "<p class=\"hint\">{hint}</p>\
                 <form method=\"post\" action=\"/signin\" class=\"signin\">\
                 <input type=\"hidden\" name=\"next\" value=\"{next}\">\
                 <label>{actor_label} <input name=\"actor\" id=\"actor\" value=\"{actor}\" maxlength=\"64\" required></label>\
                 <label>{clearance} <select name=\"clearance\" id=\"clearance\">{options}</select></label>\
                 <button type=\"submit\" id=\"signin\">{button}</button></form>",
                hint = t("signin-open-hint"),
                next = esc(next),
                actor_label = t("signin-actor"),
                actor = esc(actor),
                clearance = t("signin-clearance"),
                button = t("signin-use"),
            )
        }
    };
    let signout = format!(
        "<form method=\"post\" action=\"/signout\"><button type=\"submit\" id=\"signout\">{}</button></form>",
        t("signout")
    );
    let title = lang.t("signin-title");
    shell(lang, &title, Some(viewer), &format!("<h1>{}</h1>{error}{form}{signout}", esc(&title)), &["signin.js"])
}

#[derive(Deserialize)]
pub(crate) struct SigninForm {
    next: Option<String>,
    token: Option<String>,
    actor: Option<String>,
    clearance: Option<String>,
}

/// A sign-in cookie; over HTTPS `Secure` and named with the `__Host-` prefix
/// ([`crate::auth::cookie_name`]).
fn set_cookie(name: &str, value: &str, max_age: u32, https: bool) -> (header::HeaderName, HeaderValue) {
    let (name, secure) = (crate::auth::cookie_name(name, https), if https { "; Secure" } else { "" });
    let text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}");
    (header::SET_COOKIE, HeaderValue::from_str(&text).expect("hex and role names are valid header text"))
}

pub(crate) async fn signin(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Form(form): Form<SigninForm>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let next = local_path(form.next.as_deref());
    // The form again, with the refusal in the reader's language (its code in `data-code`).
    let refuse = |error: Error, say: Say| {
        let html = signin_html(&state, &viewer, lang, &next, Some((error.code().name(), say)));
        (crate::http_status(error.code()), Html(html)).into_response()
    };
    let cookies = match *state.auth {
        Auth::Tokens(_) => {
            let token = form.token.unwrap_or_default();
            let token = token.trim();
            let mut metadata = MetadataMap::new();
            let Ok(value) = MetadataValue::try_from(format!("Bearer {token}").as_str()) else {
                let unknown = Error::Unauthenticated("unknown token".into());
                return Ok(refuse(unknown, Say::new("error-unknown-token")));
            };
            metadata.insert("authorization", value);
            // A table's code photographed after its tablet signed in signs no one in (issue 42).
            if let Err(error) = state.auth.unspent(token) {
                return Ok(refuse(error, Say::new("signin-code-spent")));
            }
            if let Err(error) = state.auth.identify(&metadata) {
                let say = Say::of_error(&error);
                return Ok(refuse(error, say));
            }
            // The cookie holds a sign-in of this browser's own, which signing out revokes; the
            // code stays good for the next sign-in.
            let (auth, presented) = (std::sync::Arc::clone(&state.auth), token.to_owned());
            let session = crate::blocking(move || auth.open_session(&presented).map_err(PageError::from)).await?;
            let kept = session.unwrap_or_else(|| token.to_owned());
            vec![set_cookie(COOKIE_TOKEN, &hex::encode(kept), COOKIE_MAX_AGE_SECS, state.https)]
        }
        Auth::Open => {
            let actor = form.actor.unwrap_or_default();
            let role = form.clearance.as_deref().and_then(Role::parse).unwrap_or(Role::Table);
            if let Err(error) = check_actor(&actor) {
                return Ok(refuse(error, Say::new("signin-actor-invalid")));
            }
            vec![
                set_cookie(COOKIE_ACTOR, &hex::encode(&actor), COOKIE_MAX_AGE_SECS, state.https),
                set_cookie(COOKIE_CLEARANCE, role.as_str(), COOKIE_MAX_AGE_SECS, state.https),
            ]
        }
    };
    let mut response = Redirect::to(&next).into_response();
    for (name, value) in cookies {
        response.headers_mut().append(name, value);
    }
    Ok(response)
}

/// Signing out ends this browser's sign-in on the ledger too (issue 35, row 6), then forgets
/// the cookies.
pub(crate) async fn signout(State(state): State<WebState>, headers: HeaderMap) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let metadata = crate::auth::metadata_of(&state.auth, &headers, state.https);
    let bearer = metadata.get("authorization").and_then(|v| v.to_str().ok());
    if let Some(token) = bearer.and_then(|b| b.strip_prefix("Bearer ")).map(str::to_owned) {
        let auth = std::sync::Arc::clone(&state.auth);
        crate::blocking(move || auth.end_session(&token).map_err(PageError::from)).await?;
    }
    let mut response = Redirect::to("/").into_response();
    for name in [COOKIE_TOKEN, COOKIE_ACTOR, COOKIE_CLEARANCE] {
        let (key, value) = set_cookie(name, "", 0, state.https);
        response.headers_mut().append(key, value);
    }
    Ok(response)
}
