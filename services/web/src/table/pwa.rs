//! The table page as an installable offline web app: the manifest, the service worker that
//! keeps the page and its assets on the tablet (`assets/sw.js`), the catalogues the page's
//! script formats with, and the language switch every page carries.

use crate::i18n::{self, Lang, PageLang, COOKIE_LANG};
use crate::layout::{asset_names, asset_version};
use axum::extract::{Path, Query};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use ledger_house::error::Error;
use serde::Deserialize;

/// `/sw.js`: served from the root so that it may control `/table/…`; never cached by the
/// browser's HTTP cache, so a new ledgerd's worker is seen at the next visit.
pub(crate) async fn service_worker() -> Response {
    let assets: Vec<String> = asset_names().map(|name| format!("/assets/{name}")).collect();
    let body = include_str!("../assets/sw.js")
        .replace("__VERSION__", asset_version())
        .replace("__ASSETS__", &serde_json::to_string(&assets).expect("names serialise"));
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

/// `/table.webmanifest`: a tablet adds the table page to its home screen and it opens full screen.
pub(crate) async fn manifest(PageLang(lang): PageLang) -> Response {
    let body = serde_json::json!({
        "name": format!("{} · {}", lang.t("site-name"), lang.t("manifest-table")),
        "short_name": lang.t("manifest-table"),
        "lang": lang.code(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f8fa",
        "theme_color": "#1f4e9c",
        "icons": [{"src": "/assets/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    });
    ([(header::CONTENT_TYPE, "application/manifest+json")], body.to_string()).into_response()
}

/// `/assets/i18n/<lang>/<file>.ftl`: the catalogues, for the page's script.
pub(crate) async fn catalogue(Path((lang, file)): Path<(String, String)>) -> Response {
    match i18n::catalogue(&lang, &file) {
        Some(text) => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], text)
                .into_response()
        }
        None => crate::plain(Error::NotFound("no such catalogue".into())),
    }
}

#[derive(Deserialize)]
pub(crate) struct Switch {
    to: String,
    next: Option<String>,
}

/// `/lang?to=es&next=/board/wm26`: remembers the language for a year and goes back.
pub(crate) async fn switch(Query(query): Query<Switch>, headers: axum::http::HeaderMap) -> Response {
    let Some(lang) = Lang::from_code(&query.to) else {
        let refused = crate::PageError::from(Error::NotFound("no such language".into()));
        return refused.saying(crate::i18n::Say::new("error-no-language")).into_response();
    };
    // Back where the switch was pressed: the `next` given, else the page it was on.
    let referer = headers
        .get(header::REFERER)
        .and_then(|r| r.to_str().ok())
        .and_then(|r| r.split_once("://"))
        .and_then(|(_, rest)| rest.find('/').map(|at| rest[at..].to_owned()));
    let next = crate::auth::local_path(query.next.as_deref().or(referer.as_deref()));
    let cookie = format!("{COOKIE_LANG}={}; Path=/; Max-Age=31536000; SameSite=Lax", lang.code());
    ([(header::SET_COOKIE, cookie)], Redirect::to(&next)).into_response()
}
