//! The shell every page shares (head, navigation, who is signed in), HTML escaping, the assets
//! compiled into the binary, and the index's forms that open a page by id (the index itself,
//! the season, is [`crate::public::home`]).

use crate::auth::Viewer;
use crate::i18n::{Lang, Say, CATALOGUES};
use crate::PageError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use ledger_house::auth::Role;
use ledger_house::error::Error;

/// The stylesheet, scripts and icon, served from `/assets/…` (no CDN, nothing to build).
/// `fluent-bundle.js` is Project Fluent's own `@fluent/bundle` 0.19.1 (Apache-2.0), as its
/// npm package ships it: the table formats its labels with the catalogues ledgerd uses.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("assets/style.css")),
    ("live.js", "text/javascript; charset=utf-8", include_str!("assets/live.js")),
    ("board-projector.js", "text/javascript; charset=utf-8", include_str!("assets/board-projector.js")),
    ("jury.js", "text/javascript; charset=utf-8", include_str!("assets/jury.js")),
    ("me.js", "text/javascript; charset=utf-8", include_str!("assets/me.js")),
    ("fluent-bundle.js", "text/javascript; charset=utf-8", include_str!("assets/fluent-bundle.js")),
    ("table-rules.js", "text/javascript; charset=utf-8", include_str!("assets/table-rules.js")),
    ("table-queue.js", "text/javascript; charset=utf-8", include_str!("assets/table-queue.js")),
    ("table.js", "text/javascript; charset=utf-8", include_str!("assets/table.js")),
    ("signin.js", "text/javascript; charset=utf-8", include_str!("assets/signin.js")),
    ("table-sync.js", "text/javascript; charset=utf-8", include_str!("assets/table-sync.js")),
    ("andes-rules.js", "text/javascript; charset=utf-8", include_str!("assets/andes-rules.js")),
    ("andes-table.js", "text/javascript; charset=utf-8", include_str!("assets/andes-table.js")),
    ("icon.svg", "image/svg+xml", include_str!("assets/icon.svg")),
];

pub(crate) async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, kind, body)) => {
            ([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => crate::plain(Error::NotFound("no such asset".into())),
    }
}

/// Every asset the table page needs offline, as `/assets/<name>` takes it (catalogues included).
pub(crate) fn asset_names() -> impl Iterator<Item = String> {
    let catalogues = CATALOGUES.iter().map(|(lang, file, _)| format!("i18n/{}/{file}", lang.code()));
    ASSETS.iter().map(|(name, _, _)| (*name).to_owned()).chain(catalogues)
}

/// A digest of every asset and catalogue: the service worker's cache is named by it, so a
/// ledgerd with other assets replaces what the tablets keep.
pub(crate) fn asset_version() -> &'static str {
    static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        use sha2::{Digest, Sha256};
        let mut digest = Sha256::new();
        for body in ASSETS.iter().map(|(_, _, body)| body).chain(CATALOGUES.iter().map(|(_, _, text)| text)) {
            digest.update((body.len() as u64).to_le_bytes());
            digest.update(body.as_bytes());
        }
        hex::encode(&digest.finalize()[..8])
    });
    &VERSION
}

/// Text for HTML, attributes included (the paper `ledgerctl` writes escapes with it too).
pub(crate) use ledger_house::html::esc;

/// A whole page in `lang`: `body` is HTML already escaped; `scripts` are asset names.
pub(crate) fn shell(lang: Lang, title: &str, viewer: Option<&Viewer>, body: &str, scripts: &[&str]) -> String {
    shell_in(lang, title, viewer, body, &Head { manifest: false, scripts })
}

/// What a page adds to its `<head>`.
pub(crate) struct Head<'a> {
    /// The web app manifest: the page can be installed and opens offline (the table).
    pub manifest: bool,
    /// Asset names, run in this order once the page is parsed.
    pub scripts: &'a [&'a str],
}

/// A whole page in `lang`, with the switch to the other language in its header.
pub(crate) fn shell_in(lang: Lang, title: &str, viewer: Option<&Viewer>, body: &str, head: &Head<'_>) -> String {
    let who = viewer.map(|v| {
        // Each word carries its message id (`data-t`): the table's script, which changes
        // language without reloading its page, words the header again.
        let word = |id: &str| format!("<span data-t=\"{id}\">{}</span>", esc(&lang.t(id)));
        let mode = if v.open { format!(" · {}", word("who-open")) } else { String::new() };
        let who =
            match (&v.identity, v.role()) {
                (_, Some(Role::Public)) => word("who-public"),
                (None, _) => word("who-unknown"),
                (Some(who), _) => match table_actor(&who.actor) {
                    // A table's code: the table, named as people name it.
                    Some((tournament, table)) if who.role == Role::Table => esc(&lang
                        .t_args("who-table", &[("table", table.into()), ("tournament", tournament.to_owned().into())])),
                    _ => format!("{} ({})", esc(&who.actor), word(&format!("clearance-{}", who.role.as_str()))),
                },
            };
        // Signed in: who, and the way out (a plain form: signing out posts); else the way in.
        let signed_in = v.identity.is_some() && !matches!(v.role(), Some(Role::Public)) && !v.open;
        let action = if signed_in {
            format!(
                "<form method=\"post\" action=\"/signout\" class=\"signout\"><button type=\"submit\" \
                 id=\"header-signout\" data-t=\"nav-signout\">{}</button></form>",
                esc(&lang.t("nav-signout"))
            )
        } else {
            format!("<a href=\"/signin\" id=\"header-signin\" data-t=\"nav-signin\">{}</a>", esc(&lang.t("nav-signin")))
        };
        format!("<span class=\"who\" id=\"who\">{who}{mode}</span> {action}")
    });
    let other = Lang::ALL.into_iter().find(|l| *l != lang).unwrap_or(Lang::En);
    let switch = format!(
        "<a class=\"lang\" id=\"lang-switch\" hreflang=\"{code}\" data-lang=\"{code}\" href=\"/lang?to={code}\">{label}</a>",
        code = other.code(),
        label = esc(&lang.t("lang-other")),
    );
    let scripts: String = head.scripts.iter().map(|s| format!("<script src=\"/assets/{s}\" defer></script>")).collect();
    let manifest = if head.manifest {
        "<link rel=\"manifest\" href=\"/table.webmanifest\"><meta name=\"theme-color\" content=\"#1f4e9c\">"
    } else {
        ""
    };
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · {site}</title><link rel=\"stylesheet\" href=\"/assets/style.css\">{manifest}{scripts}</head>\
         <body><header class=\"top\"><a href=\"/\" class=\"home\">{site}</a>{who}{switch}</header>\
         <main>{body}</main></body></html>",
        lang = lang.code(),
        title = esc(title),
        site = esc(&lang.t("site-name")),
        who = who.unwrap_or_default(),
    )
}

/// `<id>` as given, or the id part of `<kind>/<id>`.
pub(crate) fn short_id(name: &str) -> &str {
    name.split_once('/').map_or(name, |(_, id)| id)
}

/// A table's actor as `ledgerctl tournament tables` names it (`omad26-table-1`): its
/// tournament and table number.
fn table_actor(actor: &str) -> Option<(&str, u32)> {
    let (tournament, n) = actor.rsplit_once("-table-")?;
    Some((tournament, n.parse().ok()?))
}

/// A clearance's name in `lang` (`jury`, `jurado`).
pub(crate) fn clearance_name(lang: Lang, role: Role) -> String {
    lang.t(&format!("clearance-{}", role.as_str()))
}

#[derive(serde::Deserialize)]
pub(crate) struct OpenQuery {
    page: String,
    id: String,
}

/// The index's forms: `/open?page=board&id=wm26` → `/board/wm26`.
pub(crate) async fn open(axum::extract::Query(query): axum::extract::Query<OpenQuery>) -> Response {
    let page = match query.page.as_str() {
        "board" | "table" | "jury" | "andes" => query.page.as_str(),
        other => {
            let refused = PageError::from(Error::NotFound(format!("there is no page {other}")));
            return refused.saying(Say::new("error-no-page")).into_response();
        }
    };
    let id: String = query.id.trim().chars().filter(|c| c.is_ascii_alphanumeric() || "._-/".contains(*c)).collect();
    axum::response::Redirect::to(&format!("/{page}/{}", short_id(&id))).into_response()
}

/// Milliseconds as `h:mm:ss` (a clock) — the same the page scripts show while ticking.
pub(crate) fn hms(ms: u64) -> String {
    let seconds = ms / 1000;
    format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_html_would_read() {
        assert_eq!(esc("<b>\"Fox\" & 'Raven'</b>"), "&lt;b&gt;&quot;Fox&quot; &amp; &#39;Raven&#39;&lt;/b&gt;");
        assert_eq!(hms(7_800_000), "2:10:00");
        assert_eq!(hms(61_999), "0:01:01");
    }
}
