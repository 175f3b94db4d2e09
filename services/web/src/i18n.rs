//! The language of a request: the `ledger_lang` cookie (set by the switch on every page), else
//! the best match of the browser's `Accept-Language`, else English. The words themselves are
//! the house's (`ledger_house::i18n`).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use ledger_house::i18n::negotiate;
pub use ledger_house::i18n::{catalogue, Lang, CATALOGUES};
use std::convert::Infallible;

/// The cookie remembering the chosen language (readable by the page's script: not a secret).
pub const COOKIE_LANG: &str = "ledger_lang";

/// The language a page is written in, as a handler takes it (the house's [`Lang`] is not
/// axum's to extract).
pub struct PageLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for PageLang {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(PageLang(of_request(&parts.headers)))
    }
}

/// The cookie's choice, else the browser's best match, else English.
pub fn of_request(headers: &HeaderMap) -> Lang {
    let chosen = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_LANG)
        .and_then(|(_, code)| Lang::from_code(code));
    chosen.unwrap_or_else(|| {
        let accepted = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        negotiate(accepted)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_chooses_unless_the_cookie_did() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_LANGUAGE, "es".parse().unwrap());
        assert_eq!(of_request(&headers), Lang::Es);
        headers.insert(header::COOKIE, "ledger_token=ab; ledger_lang=en".parse().unwrap());
        assert_eq!(of_request(&headers), Lang::En);
    }
}
