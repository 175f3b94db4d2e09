//! The language of a request: the `ledger_lang` cookie (set by the switch on every page), else
//! the best match of the browser's `Accept-Language`, else English. The words themselves are
//! the house's (`ledger_house::i18n`); a page that does not yet know its reader's language keeps
//! a message with its arguments ([`Say`]).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use fluent_bundle::FluentValue;
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

/// A catalogue message with its arguments, formatted in whichever language reads it.
#[derive(Debug, Clone)]
pub(crate) struct Say {
    id: &'static str,
    args: Vec<(&'static str, String)>,
}

impl Say {
    pub(crate) fn new(id: &'static str) -> Say {
        Say { id, args: Vec::new() }
    }

    pub(crate) fn arg(mut self, name: &'static str, value: impl Into<String>) -> Say {
        self.args.push((name, value.into()));
        self
    }

    pub(crate) fn text(&self, lang: Lang) -> String {
        let args: Vec<(&str, FluentValue<'_>)> =
            // A whole number goes in as one, so that the catalogue can choose its plural.
            self.args
                .iter()
                .map(|(name, value)| match value.parse::<u32>() {
                    Ok(number) => (*name, FluentValue::from(number)),
                    Err(_) => (*name, FluentValue::from(value.as_str())),
                })
                .collect();
        lang.t_args(self.id, &args)
    }
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
