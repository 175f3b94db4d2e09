//! Where the links ledgerd prints and shows point (issue 41, items 1 and 2): a player's card and
//! the players' CSV, a report sheet's QR code, the tables' and people's sign-in sheets. A link is
//! made from what ledgerd itself serves — the scheme of the pages' port (HTTPS when it holds a
//! certificate) and the host and port the organiser's browser reached it by (its `Host`, checked
//! to be a host and a port, nothing else) — never from `X-Forwarded-Proto`, a header only a proxy
//! sends (a hall has none, and anyone can send it). Behind a proxy, `--public-origin` names the
//! origin people use, and every link starts with it.
//!
//! In a hall with ledgerd's own root (`--tls-local-ca`), the pages that only read what is public
//! — a player's page, the public pairings, the board — are served on the plain-HTTP port too
//! ([`crate::reading_router`]), and their printed links name that port: a phone that never installed
//! the root opens them without a certificate warning. Pages that record (a table, the jury, the
//! console) and the sign-in stay on HTTPS, and the plain port sends them there. The plain port
//! reads no cookie (every request there is the public's) and the HTTPS port sends no HSTS in
//! such a hall (a browser that trusts the root would otherwise turn the printed plain links into
//! HTTPS ones on the plain port). The threat is in docs/RELIABILITY.md ("Plain links in a hall").

use axum::http::{header, HeaderMap};
use ledger_house::error::Error;

/// What a link leads to: a page that records (HTTPS only) or one that only reads public things
/// (also on the plain port in a hall with its own root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leads {
    /// A table, a sign-in, the jury's or the organiser's pages.
    ToRecording,
    /// A player's page, the public pairings, the board.
    ToReading,
}

/// Where the pages are reached, as ledgerd knows it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Origins {
    /// `--public-origin`: the origin people use behind a proxy; every link starts with it.
    pub public: Option<String>,
    /// The pages' port speaks HTTPS.
    pub https: bool,
    /// A hall with its own root: the plain-HTTP port that serves the reading pages too.
    pub plain_reading: Option<u16>,
}

impl Origins {
    /// `scheme://host[:port]` for a link of this kind, made from the request's `Host` (the
    /// address the organiser's browser used) and what ledgerd serves.
    pub(crate) fn site(&self, headers: &HeaderMap, leads: Leads) -> Result<String, Error> {
        if let Some(public) = &self.public {
            return Ok(public.clone());
        }
        let asked = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
        let Some((host, port)) = authority(asked) else {
            return Err(Error::InvalidArgument(format!("the request's Host {asked:?} is not a host and a port")));
        };
        match (leads, self.plain_reading) {
            (Leads::ToReading, Some(plain)) => Ok(with_port("http", &host, Some(plain), 80)),
            _ if self.https => Ok(with_port("https", &host, port, 443)),
            _ => Ok(with_port("http", &host, port, 80)),
        }
    }
}

fn with_port(scheme: &str, host: &str, port: Option<u16>, default: u16) -> String {
    match port.filter(|p| *p != default) {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    }
}

/// A `Host` header split into its host (lower case; a DNS name, an IPv4 address or a bracketed
/// IPv6 address) and its port; `None` for anything else (a path, a user, a space...).
pub fn authority(header: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = if let Some(rest) = header.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        inside.parse::<std::net::Ipv6Addr>().ok()?;
        (format!("[{}]", inside.to_ascii_lowercase()), after)
    } else {
        let (host, port) = header.find(':').map_or((header, ""), |at| header.split_at(at));
        let host = host.to_ascii_lowercase();
        let name_like = host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
        if host.is_empty() || host.len() > 253 || !name_like {
            return None;
        }
        (host, port)
    };
    let port = match port {
        "" => None,
        colon => {
            let digits = colon.strip_prefix(':')?;
            if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(digits.parse().ok()?)
        }
    };
    Some((host, port))
}

/// `--public-origin`: `http(s)://host[:port]`, nothing after it.
pub fn public_origin(text: &str) -> Result<String, String> {
    let trimmed = text.trim_end_matches('/');
    let (scheme, rest) = trimmed
        .split_once("://")
        .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
        .ok_or_else(|| format!("--public-origin {text:?} must start with https:// or http://"))?;
    let (host, port) = authority(rest)
        .ok_or_else(|| format!("--public-origin {text:?} must be an origin only, like https://hall.example:8443"))?;
    Ok(with_port(scheme, &host, port, if scheme == "https" { 443 } else { 80 }))
}

/// A request on the plain port is the public's: of its cookies only the language is read (the
/// sign-in's are `Secure` and never sent there; any other was not set by these pages).
pub(crate) async fn only_the_language(mut request: axum::extract::Request) -> axum::extract::Request {
    let kept = language_cookie(request.headers());
    let headers = request.headers_mut();
    headers.remove(header::COOKIE);
    if let Some(kept) = kept.and_then(|c| axum::http::HeaderValue::from_str(&c).ok()) {
        headers.insert(header::COOKIE, kept);
    }
    request
}

/// `ledger_lang=<code>` of the request's cookies, if it holds one.
fn language_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .find(|pair| pair.split_once('=').is_some_and(|(name, _)| name == crate::i18n::COOKIE_LANG))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, value.parse().unwrap());
        headers
    }

    #[test]
    fn a_link_names_the_scheme_and_port_ledgerd_serves_not_a_proxys_header() {
        let https = Origins { https: true, ..Origins::default() };
        let mut headers = host("Hall.Example:8443");
        headers.insert("x-forwarded-proto", "http".parse().unwrap());
        assert_eq!(https.site(&headers, Leads::ToReading).unwrap(), "https://hall.example:8443");
        assert_eq!(https.site(&host("hall.example:443"), Leads::ToRecording).unwrap(), "https://hall.example");
        let plain = Origins::default();
        let mut headers = host("hall.example:8080");
        headers.insert("x-forwarded-proto", "https".parse().unwrap());
        assert_eq!(plain.site(&headers, Leads::ToRecording).unwrap(), "http://hall.example:8080");
        for bad in ["", "evil.example/x", "a@b", "a b", "hall:80x", "[::1", "hall:", "hall:123456", "-a.b"] {
            assert!(https.site(&host(bad), Leads::ToReading).is_err(), "{bad}");
        }
        assert_eq!(https.site(&host("[::1]:8443"), Leads::ToReading).unwrap(), "https://[::1]:8443");
    }

    #[test]
    fn a_hall_with_its_own_root_prints_plain_links_to_the_reading_pages_only() {
        let hall = Origins { https: true, plain_reading: Some(8080), ..Origins::default() };
        assert_eq!(hall.site(&host("hall.example:8443"), Leads::ToReading).unwrap(), "http://hall.example:8080");
        assert_eq!(hall.site(&host("hall.example:8443"), Leads::ToRecording).unwrap(), "https://hall.example:8443");
        let port_80 = Origins { plain_reading: Some(80), ..hall };
        assert_eq!(port_80.site(&host("10.0.0.2"), Leads::ToReading).unwrap(), "http://10.0.0.2");
    }

    #[test]
    fn the_plain_port_reads_the_language_and_no_sign_in() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, "ledger_token=ab; ledger_lang=es; x=1".parse().unwrap());
        assert_eq!(language_cookie(&headers).as_deref(), Some("ledger_lang=es"));
        headers.insert(header::COOKIE, "ledger_token=ab".parse().unwrap());
        assert_eq!(language_cookie(&headers), None);
    }

    #[test]
    fn behind_a_proxy_the_public_origin_names_every_link() {
        let origin = public_origin("https://Hall.Example:443/").unwrap();
        assert_eq!(origin, "https://hall.example");
        let behind = Origins { public: Some(origin), https: false, plain_reading: None };
        assert_eq!(behind.site(&host("127.0.0.1:8080"), Leads::ToReading).unwrap(), "https://hall.example");
        assert_eq!(public_origin("https://hall.example:8443").unwrap(), "https://hall.example:8443");
        for bad in ["hall.example", "ftp://hall", "https://hall/x", "https://a@hall", "https://"] {
            assert!(public_origin(bad).is_err(), "{bad}");
        }
    }
}
