//! `/hall/trust`: the sheet that makes a tablet trust a hall without internet (ledgerd with
//! `--tls-local-ca`, issue 34). The tablets' browsers give the table's offline app its service
//! worker only over HTTPS, and the hall's certificate is signed by ledgerd's own root, which no
//! tablet knows until it installs it. The printed sheet carries a QR code of the root's download
//! over plain HTTP (a tablet cannot open HTTPS before it trusts the root), the root's SHA-256
//! fingerprint to compare with what the tablet shows, and the steps on an iPad and on an Android
//! tablet, in the reader's language.
//!
//! `/hall/root.crt` is the root itself, DER, as `application/x-x509-ca-cert`: the type with which
//! Safari on an iPad offers a certificate as a profile to install, and the form every tablet's
//! certificate installer reads. Both are served on the pages' HTTPS port and on the plain-HTTP
//! port ([`plain_router`]); the certificate is public, only its key is secret (it never leaves
//! ledgerd's data directory).

use crate::i18n::{Lang, PageLang};
use crate::layout::{self, esc};
use crate::WebState;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

/// What the trust sheet shows and serves: ledgerd's hall root and where it is reached.
#[derive(Debug, Clone)]
pub struct HallTrust {
    /// The root certificate, DER.
    pub root_der: Vec<u8>,
    /// Its name, as the tablet lists it among its profiles and trusted certificates.
    pub root_name: String,
    /// The hosts of the pages' certificate as a browser names them (the first is the sheet's
    /// unless the sheet was asked for under another of them).
    pub hosts: Vec<String>,
    /// The plain-HTTP port, where a tablet downloads the root.
    pub plain_port: u16,
    /// The pages' HTTPS port.
    pub https_port: u16,
    /// The DNS names the root may vouch for beside private addresses (its name constraints,
    /// issue 42); `None` for a root made before roots were limited, which vouches for any site.
    pub limited_to: Option<Vec<String>>,
}

/// Where the root is downloaded, on both ports.
pub const ROOT_PATH: &str = "/hall/root.crt";

/// The SHA-256 fingerprint of a certificate as iPads and Android tablets show it: upper-case
/// hex pairs separated by colons.
pub fn fingerprint(der: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(der).iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":")
}

impl HallTrust {
    /// The host the sheet names: the one the request came to if it is one of the certificate's
    /// (the tablets reach the laptop as the organiser did), else the first.
    fn host(&self, headers: &HeaderMap) -> &str {
        let asked = headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(|h| {
            let h = h.to_ascii_lowercase();
            match h.strip_prefix('[') {
                Some(rest) => format!("[{}]", rest.split(']').next().unwrap_or_default()),
                None => h.split(':').next().unwrap_or_default().to_owned(),
            }
        });
        let ours = asked.and_then(|asked| self.hosts.iter().find(|h| **h == asked));
        ours.or(self.hosts.first()).map_or("", String::as_str)
    }

    /// `http://host[:port]/hall/root.crt`.
    fn download_url(&self, host: &str) -> String {
        let port = if self.plain_port == 80 { String::new() } else { format!(":{}", self.plain_port) };
        format!("http://{host}{port}{ROOT_PATH}")
    }

    /// `https://host[:port]/`.
    fn pages_url(&self, host: &str) -> String {
        let port = if self.https_port == 443 { String::new() } else { format!(":{}", self.https_port) };
        format!("https://{host}{port}/")
    }
}

/// The routes of the plain-HTTP port that are not a redirect: the sheet, the root, and what the
/// sheet uses, its stylesheet and its language switch (a page over plain HTTP cannot reach them
/// over HTTPS before trust).
pub fn plain_router(trust: HallTrust) -> axum::Router {
    let trust = Arc::new(trust);
    let sheet = Arc::clone(&trust);
    axum::Router::new()
        .route(
            "/hall/trust",
            axum::routing::get(move |PageLang(lang): PageLang, headers: HeaderMap| async move {
                sheet_of(&sheet, lang, &headers)
            }),
        )
        .route(ROOT_PATH, axum::routing::get(move || async move { root_of(&trust) }))
        .route("/assets/{file}", axum::routing::get(layout::asset))
        .route("/lang", axum::routing::get(crate::table::pwa::switch))
        .layer(axum::middleware::map_response(plain_headers))
}

/// The pages' headers that fit plain HTTP too (no HSTS): no script, no framing, no sniffing.
async fn plain_headers(mut response: Response) -> Response {
    crate::page_policy(
        response.headers_mut(),
        "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'",
    );
    response
}

/// `/hall/trust` on the pages' port.
pub(crate) async fn page(State(state): State<WebState>, PageLang(lang): PageLang, headers: HeaderMap) -> Response {
    match &state.trust {
        Some(trust) => sheet_of(trust, lang, &headers),
        None => no_local_ca(lang),
    }
}

/// `/hall/root.crt` on the pages' port.
pub(crate) async fn root(State(state): State<WebState>, PageLang(lang): PageLang) -> Response {
    match &state.trust {
        Some(trust) => root_of(trust),
        None => no_local_ca(lang),
    }
}

/// Without `--tls-local-ca` there is no root to trust: the pages' certificate is a public one.
fn no_local_ca(lang: Lang) -> Response {
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], lang.t("hall-trust-none"))
        .into_response()
}

fn root_of(trust: &HallTrust) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/x-x509-ca-cert"),
            (header::CONTENT_DISPOSITION, "inline; filename=\"tournament-ledger-hall-root.crt\""),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        trust.root_der.clone(),
    )
        .into_response()
}

fn sheet_of(trust: &HallTrust, lang: Lang, headers: &HeaderMap) -> Response {
    let host = trust.host(headers);
    let download = trust.download_url(host);
    let pages = trust.pages_url(host);
    let qr = match ledger_house::paper::qr::svg(&download, &lang.t("hall-trust-qr-label")) {
        Ok(svg) => svg,
        Err(error) => esc(&error.to_string()),
    };
    let t = |id: &str| esc(&lang.t(id));
    let ta = |id: &str, args: &[(&str, &str)]| {
        let args: Vec<(&str, fluent_bundle::FluentValue<'_>)> =
            args.iter().map(|(name, value)| (*name, (*value).to_owned().into())).collect();
        esc(&lang.t_args(id, &args))
    };
    let root = trust.root_name.as_str();
    let steps =
        |ids: &[&str]| -> String { ids.iter().map(|id| format!("<li>{}</li>", ta(id, &[("root", root)]))).collect() };
    let fingerprint = fingerprint(&trust.root_der);
    // Four lines of eight pairs: read and compared a line at a time.
    let pairs: Vec<&str> = fingerprint.split(':').collect();
    let lines: String = pairs.chunks(8).map(|line| format!("<span class=\"line\">{}</span>", line.join(":"))).collect();
    let body = format!(
        "<section class=\"trust\" id=\"hall-trust\" data-fingerprint=\"{fingerprint}\" data-download=\"{download_attr}\">\
         <h1>{title}</h1><p class=\"intro\">{intro}</p>\
         <div class=\"trust-code\"><figure>{qr}<figcaption><code id=\"download\">{download_text}</code></figcaption></figure>\
         <div><h2>{fingerprint_title}</h2><p>{fingerprint_intro}</p>\
         <p class=\"fingerprint\" id=\"fingerprint\">{lines}</p>\
         <p class=\"root-name\">{root_label} <strong id=\"root-name\">{root_text}</strong></p></div></div>\
         <div class=\"trust-steps\"><section id=\"steps-ipad\"><h2>{ipad}</h2><ol>{ipad_steps}</ol></section>\
         <section id=\"steps-android\"><h2>{android}</h2><ol>{android_steps}</ol></section></div>\
         <p class=\"then\" id=\"then\">{then}</p><p class=\"limits\" id=\"limits\">{limits}</p><p class=\"after\">{after}</p></section>",
        download_attr = esc(&download),
        title = t("hall-trust-title"),
        intro = t("hall-trust-intro"),
        download_text = esc(&download),
        fingerprint_title = t("hall-trust-fingerprint-title"),
        fingerprint_intro = t("hall-trust-fingerprint-intro"),
        root_label = t("hall-trust-root-name"),
        root_text = esc(root),
        ipad = t("hall-trust-ipad"),
        ipad_steps = steps(&["hall-trust-ipad-1", "hall-trust-ipad-2", "hall-trust-ipad-3", "hall-trust-ipad-4"]),
        android = t("hall-trust-android"),
        android_steps = steps(&["hall-trust-android-1", "hall-trust-android-2", "hall-trust-android-3"]),
        then = ta("hall-trust-then", &[("pages", &pages)]),
        limits = match &trust.limited_to {
            Some(names) if names.is_empty() => t("hall-trust-limited-addresses"),
            Some(names) => ta("hall-trust-limited", &[("names", &names.join(", "))]),
            None => t("hall-trust-unlimited"),
        },
        after = t("hall-trust-after"),
    );
    let page = layout::shell(lang, &lang.t("hall-trust-title"), None, &format!("{STYLE}{body}"), &[]);
    ([(header::CACHE_CONTROL, "no-cache")], Html(page)).into_response()
}

/// The sheet's own layout (it is served on the plain port too, and printed on one A4 page).
const STYLE: &str = "<style>\
.trust h1 { margin-bottom: .3em; } .trust .intro { max-width: 60em; }\
.trust-code { display: flex; gap: 2em; align-items: flex-start; flex-wrap: wrap; margin: 1em 0; }\
.trust-code > div { flex: 1 1 20em; min-width: 0; } .trust-code h2 { margin-top: 0; }\
.trust-code figure { margin: 0; text-align: center; } .trust-code svg.qr { width: 55mm; height: 55mm; display: block; }\
.trust-code code { font-size: .95em; word-break: break-all; }\
.trust .fingerprint { font-family: ui-monospace, monospace; font-size: 1.05em; line-height: 1.5; }\
.trust .fingerprint .line { display: block; }\
.trust-steps { display: grid; grid-template-columns: 1fr 1fr; gap: 2em; }\
.trust-steps h2 { margin-bottom: .2em; } .trust-steps ol { padding-left: 1.3em; margin-top: .3em; }\
.trust-steps li { margin: .3em 0; }\
.trust .then { font-weight: 600; } .trust .after, .trust .limits { font-size: .9em; color: #444; }\
@media screen and (max-width: 700px) { .trust-steps { grid-template-columns: 1fr; } }\
@media print { main { padding: 0; margin: 0; } .trust { font-size: 9.5pt; } .trust h1 { font-size: 16pt; margin: 0 0 .2em; }\
.trust h2 { font-size: 12pt; } .trust-code { margin: .5em 0; gap: 1.5em; } .trust-code svg.qr { width: 45mm; height: 45mm; } }\
</style>";

#[cfg(test)]
mod tests {
    use super::*;

    fn trust() -> HallTrust {
        HallTrust {
            root_der: b"not a certificate, only bytes".to_vec(),
            root_name: "Tournament Ledger hall root — hall.example".into(),
            hosts: vec!["hall.example".into(), "192.168.1.10".into(), "[fe80::1]".into()],
            plain_port: 80,
            https_port: 8443,
            limited_to: Some(vec!["hall.example".into()]),
        }
    }

    fn asked(host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn the_sheet_names_the_host_it_was_asked_for_if_it_is_ours() {
        let trust = trust();
        assert_eq!(trust.host(&asked("192.168.1.10:8443")), "192.168.1.10");
        assert_eq!(trust.host(&asked("HALL.example")), "hall.example");
        assert_eq!(trust.host(&asked("[FE80::1]:80")), "[fe80::1]");
        assert_eq!(trust.host(&asked("localhost:8080")), "hall.example");
        assert_eq!(trust.host(&HeaderMap::new()), "hall.example");
        assert_eq!(trust.download_url("192.168.1.10"), "http://192.168.1.10/hall/root.crt");
        assert_eq!(trust.pages_url("192.168.1.10"), "https://192.168.1.10:8443/");
    }

    #[test]
    fn the_fingerprint_reads_as_a_tablet_shows_it() {
        let shown = fingerprint(b"abc");
        assert_eq!(shown.len(), 32 * 3 - 1);
        assert!(shown.starts_with("BA:78:16:BF:8F:01:CF:EA"), "{shown}");
    }

    #[test]
    fn the_sheet_is_in_either_language() {
        let trust = trust();
        for (lang, words) in [(Lang::En, "Install a certificate"), (Lang::Es, "Instalar un certificado")] {
            let response = sheet_of(&trust, lang, &asked("hall.example:8443"));
            let body = futures_body(response);
            assert!(body.contains(words), "{body}");
            assert!(body.contains(&fingerprint(&trust.root_der)[..23]), "{body}");
            assert!(body.contains("http://hall.example/hall/root.crt"), "{body}");
            assert!(body.contains("https://hall.example:8443/"), "{body}");
        }
        for (lang, limited) in [(Lang::En, "vouches only for this hall"), (Lang::Es, "solo responde de esta sala")] {
            let body = futures_body(sheet_of(&trust, lang, &asked("hall.example")));
            assert!(
                body.contains(limited) && body.contains("red privada y hall.example") == (lang == Lang::Es),
                "{body}"
            );
        }
        let unlimited = HallTrust { limited_to: None, ..trust };
        let body = futures_body(sheet_of(&unlimited, Lang::En, &asked("hall.example")));
        assert!(body.contains("any site"), "{body}");
    }

    fn futures_body(response: Response) -> String {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let bytes = runtime.block_on(axum::body::to_bytes(response.into_body(), usize::MAX)).unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }
}
