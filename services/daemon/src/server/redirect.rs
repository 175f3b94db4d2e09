//! The plain-HTTP port (`--http-redirect-listen`, issue 34): every request is answered with a
//! 308 to the same path on the pages' HTTPS port, and, with ACME, the authority's HTTP-01
//! requests with their key authorization. Served by [`super::http::serve`] behind its own gate,
//! with the pages' limits.
//!
//! The redirect's host is the request's own `Host` (a browser that typed `http://hall.example/`
//! goes to `https://hall.example/`), checked to be a host name or an IP address, and with ACME
//! one of the certificate's names: a crafted `Host` can never send anyone to a host that is not
//! ours (no open redirect), and a request for a name we hold no certificate for gets a sentence
//! rather than a certificate warning.

use crate::acme::Challenges;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Where the redirect sends browsers, and what it may answer for.
#[derive(Debug, Clone)]
pub(super) struct Redirect {
    /// The pages' HTTPS port (left out of the address when 443).
    pub https_port: u16,
    /// With ACME, the only hosts redirected to; empty: any well-formed host.
    pub domains: Vec<String>,
    pub challenges: Challenges,
}

pub(super) fn router(redirect: Redirect) -> axum::Router {
    axum::Router::new()
        .route("/.well-known/acme-challenge/{token}", axum::routing::get(challenge))
        .fallback(to_https)
        .with_state(Arc::new(redirect))
}

async fn challenge(State(redirect): State<Arc<Redirect>>, Path(token): Path<String>) -> Response {
    match redirect.challenges.answer(&token) {
        Some(answer) => ([(header::CONTENT_TYPE, "application/octet-stream")], answer).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn to_https(State(redirect): State<Arc<Redirect>>, headers: HeaderMap, uri: Uri) -> Response {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).and_then(host_of);
    let host = host.filter(|host| redirect.domains.is_empty() || redirect.domains.contains(host));
    let Some(host) = host else {
        let lang = ledger_web::i18n::of_request(&headers);
        let sentence = lang.t("redirect-unknown-host");
        return (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], sentence)
            .into_response();
    };
    let port = if redirect.https_port == 443 { String::new() } else { format!(":{}", redirect.https_port) };
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let location = format!("https://{host}{port}{path}");
    (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, location)]).into_response()
}

/// The host of a `Host` header, lower-cased and without its port: a DNS name, an IPv4 address
/// or a bracketed IPv6 address ([`ledger_web::links::authority`]); anything else is refused.
fn host_of(header: &str) -> Option<String> {
    let (host, _) = ledger_web::links::authority(header)?;
    let ours = host.starts_with('[') || crate::acme::is_dns_name(&host) || host.parse::<std::net::Ipv4Addr>().is_ok();
    ours.then_some(host)
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn only_well_formed_hosts_are_redirected_to() {
        assert_eq!(host_of("Hall.Example.org:80").as_deref(), Some("hall.example.org"));
        assert_eq!(host_of("192.168.1.10").as_deref(), Some("192.168.1.10"));
        assert_eq!(host_of("[::1]:8080").as_deref(), Some("[::1]"));
        for bad in ["", "evil.org/x", "evil.org@ours", "a b", "ours:80x", "[::1", "[nope]", "ours:", "x\\y", ":80"] {
            assert_eq!(host_of(bad), None, "{bad}");
        }
    }
}
