//! Who is looking at a page: the browser's cookie turned into the same gRPC metadata a
//! `ledgerctl` call carries, so that `Auth::authorize` and `Auth::recorder` decide exactly as
//! they do for gRPC.
//!
//! With an auth file, the sign-in form takes a bearer token, checks it with `Auth::identify`
//! and keeps it in an `HttpOnly; SameSite=Strict` cookie (hex-encoded), so page scripts cannot
//! read it and other sites cannot send it. On an open ledgerd the form is a clearance chooser
//! (actor and role), sent as the `x-ledger-actor` / `x-ledger-clearance` headers would be; no
//! cookie means what no header means there: `anonymous`, `table`. Without a cookie on a ledgerd
//! with an auth file, the browser is the public.

use super::i18n::Lang;
use super::layout::{clearance_name, esc, shell};
use super::refusal::Say;
use super::{PageError, WebState};
use crate::auth::{Auth, Identity, Role, ACTOR_HEADER, CLEARANCE_HEADER};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;
use tonic::metadata::{MetadataMap, MetadataValue};

/// The cookie holding the bearer token (hex of its bytes).
pub const COOKIE_TOKEN: &str = "ledger_token";
/// Open mode: the chosen actor (hex of its bytes).
pub const COOKIE_ACTOR: &str = "ledger_actor";
/// Open mode: the chosen role.
pub const COOKIE_CLEARANCE: &str = "ledger_clearance";
/// How long a sign-in lasts: a tournament day.
const COOKIE_MAX_AGE_SECS: u32 = 12 * 3600;

/// The browser behind a request, as metadata for the gRPC code paths.
pub(crate) struct Viewer {
    pub metadata: MetadataMap,
    /// Who the metadata says it is; `None` when the cookie holds a token ledgerd does not know.
    pub identity: Option<Identity>,
    pub open: bool,
}

impl Viewer {
    /// The role, if the cookie is good.
    pub fn role(&self) -> Option<Role> {
        self.identity.as_ref().map(|who| who.role)
    }
}

fn cookies(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect()
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    cookies(headers).into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

fn unhex(text: &str) -> Option<String> {
    hex::decode(text).ok().and_then(|bytes| String::from_utf8(bytes).ok())
}

/// The metadata a browser's cookies stand for.
pub(crate) fn metadata_of(auth: &Auth, headers: &HeaderMap) -> MetadataMap {
    let mut metadata = MetadataMap::new();
    match auth {
        Auth::Tokens(_) => {
            let bearer = cookie(headers, COOKIE_TOKEN).and_then(|t| unhex(&t)).map(|t| format!("Bearer {t}"));
            if let Some(value) = bearer.and_then(|b| MetadataValue::try_from(b.as_str()).ok()) {
                metadata.insert("authorization", value);
            }
        }
        Auth::Open => {
            let actor = cookie(headers, COOKIE_ACTOR).and_then(|a| unhex(&a));
            if let Some(value) = actor.and_then(|a| MetadataValue::try_from(a.as_str()).ok()) {
                metadata.insert(ACTOR_HEADER, value);
            }
            let role = cookie(headers, COOKIE_CLEARANCE).filter(|r| Role::parse(r).is_some());
            if let Some(value) = role.and_then(|r| MetadataValue::try_from(r.as_str()).ok()) {
                metadata.insert(CLEARANCE_HEADER, value);
            }
        }
    }
    metadata
}

impl FromRequestParts<WebState> for Viewer {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &WebState) -> Result<Self, Self::Rejection> {
        let metadata = metadata_of(&state.auth, &parts.headers);
        let identity = state.auth.identify(&metadata).ok();
        Ok(Viewer { metadata, identity, open: matches!(*state.auth, Auth::Open) })
    }
}

/// A form posted from another site is refused: the cookie is `SameSite=Strict` already, and
/// the `Origin` a browser sends must name this host.
pub(crate) fn same_origin(headers: &HeaderMap) -> Result<(), PageError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let cross_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) == Some("cross-site");
    let origin_ok = match headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
        None | Some("null") => true,
        Some(origin) => origin.split_once("://").is_some_and(|(_, rest)| rest == host),
    };
    if cross_site || !origin_ok {
        let refused = PageError::new(StatusCode::FORBIDDEN, "PERMISSION_DENIED: a form from another site".into());
        return Err(refused.saying(Say::new("error-cross-site")));
    }
    Ok(())
}

#[derive(Deserialize)]
pub(crate) struct SigninQuery {
    next: Option<String>,
}

/// Only a path on this site: never `//host` or `https://…`.
pub(crate) fn local_path(next: Option<&str>) -> String {
    match next {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => path.to_owned(),
        _ => "/".to_owned(),
    }
}

pub(crate) async fn signin_page(
    State(state): State<WebState>,
    viewer: Viewer,
    lang: Lang,
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

fn set_cookie(name: &str, value: &str, max_age: u32) -> (header::HeaderName, HeaderValue) {
    let text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}");
    (header::SET_COOKIE, HeaderValue::from_str(&text).expect("hex and role names are valid header text"))
}

pub(crate) async fn signin(
    State(state): State<WebState>,
    headers: HeaderMap,
    viewer: Viewer,
    lang: Lang,
    Form(form): Form<SigninForm>,
) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let next = local_path(form.next.as_deref());
    // The form again, with the refusal in the reader's language (its code in `data-code`).
    let refuse = |status: StatusCode, code: &str, say: Say| {
        (status, Html(signin_html(&state, &viewer, lang, &next, Some((code, say))))).into_response()
    };
    let cookies = match *state.auth {
        Auth::Tokens(_) => {
            let token = form.token.unwrap_or_default();
            let token = token.trim();
            let mut metadata = MetadataMap::new();
            let Ok(value) = MetadataValue::try_from(format!("Bearer {token}").as_str()) else {
                return Ok(refuse(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", Say::new("error-unknown-token")));
            };
            metadata.insert("authorization", value);
            if let Err(status) = state.auth.identify(&metadata) {
                let code = crate::status::code_name(status.code());
                return Ok(refuse(StatusCode::UNAUTHORIZED, code, Say::of_status(&status)));
            }
            vec![set_cookie(COOKIE_TOKEN, &hex::encode(token), COOKIE_MAX_AGE_SECS)]
        }
        Auth::Open => {
            let actor = form.actor.unwrap_or_default();
            let role = form.clearance.as_deref().and_then(Role::parse).unwrap_or(Role::Table);
            if actor.is_empty() || actor.len() > 64 || actor.chars().any(char::is_control) {
                return Ok(refuse(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", Say::new("signin-actor-invalid")));
            }
            vec![
                set_cookie(COOKIE_ACTOR, &hex::encode(&actor), COOKIE_MAX_AGE_SECS),
                set_cookie(COOKIE_CLEARANCE, role.as_str(), COOKIE_MAX_AGE_SECS),
            ]
        }
    };
    let mut response = Redirect::to(&next).into_response();
    for (name, value) in cookies {
        response.headers_mut().append(name, value);
    }
    Ok(response)
}

pub(crate) async fn signout(headers: HeaderMap) -> Result<Response, PageError> {
    same_origin(&headers)?;
    let mut response = Redirect::to("/").into_response();
    for name in [COOKIE_TOKEN, COOKIE_ACTOR, COOKIE_CLEARANCE] {
        let (key, value) = set_cookie(name, "", 0);
        response.headers_mut().append(key, value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_followed_after_sign_in() {
        assert_eq!(local_path(Some("/jury/q1")), "/jury/q1");
        assert_eq!(local_path(Some("//evil.example/")), "/");
        assert_eq!(local_path(Some("https://evil.example/")), "/");
        assert_eq!(local_path(None), "/");
    }

    #[test]
    fn cookies_become_the_metadata_grpc_callers_send() {
        let mut headers = HeaderMap::new();
        let cookie = format!("{COOKIE_ACTOR}={}; {COOKIE_CLEARANCE}=jury", hex::encode("anna"));
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        let who = Auth::Open.identify(&metadata_of(&Auth::Open, &headers)).unwrap();
        assert_eq!((who.actor.as_str(), who.role), ("anna", Role::Jury));
        // No cookie on an open ledgerd: what no header means over gRPC.
        let who = Auth::Open.identify(&metadata_of(&Auth::Open, &HeaderMap::new())).unwrap();
        assert_eq!((who.actor.as_str(), who.role), ("anonymous", Role::Table));
    }

    #[test]
    fn forms_from_other_sites_are_refused() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        headers.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&headers).is_ok());
        headers.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(same_origin(&headers).is_err());
    }
}
