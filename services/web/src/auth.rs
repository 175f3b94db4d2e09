//! Who is looking at a page: the browser's cookie turned into the same gRPC metadata a
//! `ledgerctl` call carries, so that `Auth::authorize` and `Auth::recorder` decide exactly as
//! they do for gRPC.
//!
//! With an auth file, the sign-in form (`signin.rs`) takes a bearer token, checks it with
//! `Auth::identify` and keeps it in an `HttpOnly; SameSite=Strict` cookie (hex-encoded), so page
//! scripts cannot read it and other sites cannot send it. On an open ledgerd the form is a
//! clearance chooser (actor and role), sent as the `x-ledger-actor` / `x-ledger-clearance`
//! headers would be; no cookie means what no header means there: `anonymous`, `table`. Without a
//! cookie on a ledgerd with an auth file, the browser is the public.

use crate::i18n::Say;
use crate::{PageError, WebState};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use ledger_house::auth::{Auth, Identity, Role, ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_house::error::Error;
use ledger_house::shares::{claim_of, Carrier, Class};
use tonic::metadata::{MetadataMap, MetadataValue};

/// The cookie holding the bearer token (hex of its bytes).
pub const COOKIE_TOKEN: &str = "ledger_token";
/// Open mode: the chosen actor (hex of its bytes).
pub const COOKIE_ACTOR: &str = "ledger_actor";
/// Open mode: the chosen role.
pub const COOKIE_CLEARANCE: &str = "ledger_clearance";

/// The browser behind a request, as metadata for the gRPC code paths.
pub(crate) struct Viewer {
    pub metadata: MetadataMap,
    /// Who the metadata says it is; `None` when the cookie holds a token ledgerd does not know.
    pub identity: Option<Identity>,
    pub open: bool,
    /// The connection the request came on, as ledgerd's gate lends it (none in tests that
    /// serve the router alone): the peer's address and its live streams.
    pub carrier: Option<Carrier>,
}

impl Viewer {
    /// The role, if the cookie is good.
    pub fn role(&self) -> Option<Role> {
        self.identity.as_ref().map(|who| who.role)
    }

    /// Whose share a live page of this viewer takes (issue 42): the class of its role (a cookie
    /// ledgerd does not know counts as the public) and the client within it — its token's
    /// device, an open ledgerd's actor, or the public's address.
    pub fn share_key(&self) -> (Class, String) {
        let peer = self.carrier.as_ref().and_then(|c| c.peer);
        claim_of(self.open, &self.metadata, self.identity.as_ref(), peer)
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

/// A sign-in cookie's name: over HTTPS with the `__Host-` prefix, which a browser accepts only
/// from this host over HTTPS (`Secure`, `Path=/`, no `Domain`), so that nothing on another port
/// or over plain HTTP can plant or overwrite it; over HTTPS only that name is read.
pub(crate) fn cookie_name(name: &str, https: bool) -> String {
    if https {
        format!("__Host-{name}")
    } else {
        name.to_owned()
    }
}

fn unhex(text: &str) -> Option<String> {
    hex::decode(text).ok().and_then(|bytes| String::from_utf8(bytes).ok())
}

/// The metadata a browser's cookies stand for (named as [`cookie_name`] says).
pub(crate) fn metadata_of(auth: &Auth, headers: &HeaderMap, https: bool) -> MetadataMap {
    let mut metadata = MetadataMap::new();
    let cookie = |headers: &HeaderMap, name: &str| cookie(headers, &cookie_name(name, https));
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
        let metadata = metadata_of(&state.auth, &parts.headers, state.https);
        let identity = state.auth.identify(&metadata).ok();
        let carrier = parts.extensions.get::<Carrier>().cloned();
        Ok(Viewer { metadata, identity, open: matches!(*state.auth, Auth::Open), carrier })
    }
}

/// A form posted from anywhere but this origin is refused. The cookie is `SameSite=Strict`,
/// but a site is a host without its port: a page on another port of the same host is
/// "same-site". So a browser's `Sec-Fetch-Site` must say `same-origin` (or `none`, typed by
/// the user), and its `Origin` must name this host and port; `Origin: null` (a sandboxed frame,
/// a redirect from elsewhere) is refused. A client that sends neither (`curl`, an old browser) is
/// let through: it carries no one's cookie by accident.
pub(crate) fn same_origin(headers: &HeaderMap) -> Result<(), PageError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let fetch_site = headers.get("sec-fetch-site").map(|v| v.to_str().unwrap_or("?"));
    let site_ok = matches!(fetch_site, None | Some("same-origin" | "none"));
    let origin_ok = match headers.get(header::ORIGIN).map(|o| o.to_str().unwrap_or("null")) {
        None => true,
        Some(origin) => origin.split_once("://").is_some_and(|(_, rest)| rest == host),
    };
    if !site_ok || !origin_ok {
        let refused = Error::PermissionDenied("a form from another site".into());
        return Err(PageError::from(refused).saying(Say::new("error-cross-site")));
    }
    Ok(())
}

/// The scheme half of [`same_origin`] (issue 42): `same_origin` compares an `Origin`'s host
/// and port with the request's `Host`, which names no scheme, so `http://host:443` passed on
/// the HTTPS origin. A form's `Origin` must also name the scheme these pages are served over.
pub(crate) fn same_scheme(headers: &HeaderMap, https: bool) -> bool {
    let ours = if https { "https" } else { "http" };
    match headers.get(header::ORIGIN) {
        None => true,
        Some(origin) => {
            let scheme = origin.to_str().ok().and_then(|o| o.split_once("://")).map(|(scheme, _)| scheme);
            scheme.is_some_and(|scheme| scheme.eq_ignore_ascii_case(ours))
        }
    }
}

/// Every request that may change something (any method but `GET`, `HEAD` and `OPTIONS`) from
/// an `Origin` of the other scheme is refused before its handler runs ([`same_scheme`]); the
/// handlers' own [`same_origin`] checks the rest.
pub(crate) async fn scheme_of_forms(
    axum::extract::State(state): axum::extract::State<WebState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::Method;
    use axum::response::IntoResponse;
    let reads = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !reads && !same_scheme(request.headers(), state.https) {
        let refused = Error::PermissionDenied("a form from another origin: not this site's scheme".into());
        return PageError::from(refused).saying(Say::new("error-cross-site")).into_response();
    }
    next.run(request).await
}

/// Only a path on this site: never `//host` or `https://…`. Browsers drop tabs and line breaks
/// from a URL and read `\` as `/`, so `/<TAB>/evil.example` leaves the site: a path is taken
/// only when it is printable ASCII without spaces or backslashes (anything else was encoded by
/// whoever made the link), starts with one `/` and not two.
pub(crate) fn local_path(next: Option<&str>) -> String {
    let plain = |path: &str| path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    match next {
        Some(path) if plain(path) && path.starts_with('/') && !path.starts_with("//") => path.to_owned(),
        _ => "/".to_owned(),
    }
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
        // What browsers would read as another host once they drop tabs and line breaks, or
        // read a backslash as a slash.
        for hostile in ["/\t/evil.example/x", "/\n/evil.example", "/\r\n/evil", "/\\evil.example", "\\/evil", "/ /x"] {
            assert_eq!(local_path(Some(hostile)), "/", "{hostile:?}");
        }
        assert_eq!(local_path(Some("/board/wm26?x=%2F%2Fe#top")), "/board/wm26?x=%2F%2Fe#top");
    }

    #[test]
    fn cookies_become_the_metadata_grpc_callers_send() {
        let mut headers = HeaderMap::new();
        let cookie = format!("{COOKIE_ACTOR}={}; {COOKIE_CLEARANCE}=jury", hex::encode("anna"));
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        let who = Auth::Open.identify(&metadata_of(&Auth::Open, &headers, false)).unwrap();
        assert_eq!((who.actor.as_str(), who.role), ("anna", Role::Jury));
        // No cookie on an open ledgerd: what no header means over gRPC.
        let who = Auth::Open.identify(&metadata_of(&Auth::Open, &HeaderMap::new(), false)).unwrap();
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
        // Another port of the same host is the same site, not the same origin.
        headers.insert(header::ORIGIN, "http://127.0.0.1:9999".parse().unwrap());
        assert!(same_origin(&headers).is_err());
        headers.insert(header::ORIGIN, "null".parse().unwrap());
        assert!(same_origin(&headers).is_err());
        headers.remove(header::ORIGIN);
        for (site, ok) in [("same-origin", true), ("none", true), ("same-site", false), ("cross-site", false)] {
            headers.insert("sec-fetch-site", site.parse().unwrap());
            assert_eq!(same_origin(&headers).is_ok(), ok, "{site}");
        }
        headers.remove("sec-fetch-site");
        assert!(same_origin(&headers).is_ok(), "a client that sends neither");
    }

    #[test]
    fn a_forms_origin_names_this_sites_scheme() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, "hall.local:443".parse().unwrap());
        assert!(same_scheme(&headers, true), "no Origin: nothing to compare");
        headers.insert(header::ORIGIN, "https://hall.local:443".parse().unwrap());
        assert!(same_scheme(&headers, true) && same_origin(&headers).is_ok());
        // Host and port match; the scheme does not.
        headers.insert(header::ORIGIN, "http://hall.local:443".parse().unwrap());
        assert!(same_origin(&headers).is_ok() && !same_scheme(&headers, true));
        assert!(same_scheme(&headers, false));
        headers.insert(header::ORIGIN, "null".parse().unwrap());
        assert!(!same_scheme(&headers, true) && !same_scheme(&headers, false));
    }
}
