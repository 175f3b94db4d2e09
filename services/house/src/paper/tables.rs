//! The tablets' sign-in sheet: one block per table with its number, a QR code and the same link
//! in text. The link signs a tablet in with the table's own token and opens the game the table
//! plays now: `<url>/signin?next=/tables/<tournament>/<n>#token=<token>`. The token rides in
//! the fragment, which browsers never send, so it reaches no access log; the sign-in page's
//! script reads it, clears it from the address bar and history, and posts the sign-in form.

use super::qr::{self, QrError};
use super::{table_path, PRINT_CSS};
use crate::html::esc;
use crate::i18n::Lang;

/// One table's block on the sheet.
#[derive(Debug, Clone)]
pub struct TableSignin {
    pub table: u32,
    /// The actor the token records as.
    pub actor: String,
    pub link: String,
}

/// The sign-in link of `table` at the site `base` (`https://host:port`, no trailing slash).
pub fn signin_link(base: &str, tournament: &str, table: u32, token: &str) -> String {
    format!("{base}/signin?next={}#token={token}", table_path(tournament, table))
}

/// The sign-in link of a code that opens no table (an organiser's, a jury member's): signed in,
/// the browser goes to `next` (a path of the site), or to the front page.
pub fn person_signin_link(base: &str, next: Option<&str>, token: &str) -> String {
    match next {
        Some(next) => format!("{base}/signin?next={next}#token={token}"),
        None => format!("{base}/signin#token={token}"),
    }
}

/// `http(s)://host[:port]`, without a path: the base of the sign-in links (the links add their
/// own paths), its trailing slashes dropped.
///
/// # Errors
/// A sentence saying what a site looks like.
pub fn site_url(text: &str) -> Result<String, String> {
    let url = text.trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{text} must start with https:// or http://"))?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ', '@']) || rest.chars().any(|c| c.is_control()) {
        return Err(format!("{text} must be a site only, like https://ledger.local:8443"));
    }
    Ok(url.to_owned())
}

/// The actor a table's token records as: `<tournament>-table-<n>`.
pub fn table_actor(tournament: &str, table: u32) -> String {
    format!("{tournament}-table-{table}")
}

/// The whole sheet, a page that stands alone (its style inline).
///
/// # Errors
/// A link too long for a QR code.
pub fn sheet(lang: Lang, tournament: &str, name: &str, tables: &[TableSignin]) -> Result<String, QrError> {
    sheet_saying(lang, tournament, name, tables, &lang.t("paper-tables-secret"))
}

/// The sheet of one table whose earlier codes were just revoked (`cancelled` of them): it says
/// so, instead of the whole sheet's "revokes none".
///
/// # Errors
/// A link too long for a QR code.
pub fn reissued_sheet(
    lang: Lang,
    tournament: &str,
    name: &str,
    table: &TableSignin,
    cancelled: usize,
) -> Result<String, QrError> {
    let said = lang.t_args("paper-tables-reissued", &[("table", table.table.into()), ("count", cancelled.into())]);
    sheet_saying(lang, tournament, name, std::slice::from_ref(table), &said)
}

fn sheet_saying(
    lang: Lang,
    tournament: &str,
    name: &str,
    tables: &[TableSignin],
    secret: &str,
) -> Result<String, QrError> {
    let mut cards = String::new();
    for table in tables {
        let title = lang.t_args("paper-table", &[("table", table.table.into())]);
        cards.push_str(&format!(
            "<section class=\"table-card\" data-table=\"{n}\"><h2>{title}</h2>{qr}\
             <p class=\"note\">{actor}</p><p class=\"link\">{link}</p></section>",
            n = table.table,
            title = esc(&title),
            qr = qr::svg(&table.link, &title)?,
            actor = esc(&lang.t_args("paper-table-actor", &[("actor", table.actor.clone().into())])),
            link = esc(&table.link),
        ));
    }
    let title = lang.t_args("paper-tables-title", &[("tournament", name.to_owned().into())]);
    Ok(format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\"><title>{title_text}</title>\
         <style>{PRINT_CSS}</style></head><body class=\"paper\" data-tournament=\"{t}\"><h1>{title_text}</h1>\
         <p class=\"lead\">{intro}</p><p class=\"secret\">{secret}</p><div class=\"tables\">{cards}</div></body></html>",
        code = lang.code(),
        title_text = esc(&title),
        t = esc(tournament),
        intro = esc(&lang.t("paper-tables-intro")),
        secret = esc(secret),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_a_scheme_and_a_host() {
        assert_eq!(site_url("https://ledger.local:8443/").unwrap(), "https://ledger.local:8443");
        assert_eq!(site_url("http://10.0.0.2:8080").unwrap(), "http://10.0.0.2:8080");
        assert!(site_url("ledger.local").is_err());
        assert!(site_url("https://ledger.local/tables").is_err());
        assert!(site_url("https://").is_err());
    }
    use crate::paper::qr::tests::{decode, read_svg};

    #[test]
    fn every_table_gets_a_block_whose_code_reads_as_its_link() {
        let tables: Vec<TableSignin> = (1..=3)
            .map(|n| TableSignin {
                table: n,
                actor: table_actor("open26", n),
                link: signin_link("https://hall.example:8443", "open26", n, &format!("{n:048}")),
            })
            .collect();
        assert_eq!(tables[2].link, format!("https://hall.example:8443/signin?next=/tables/open26/3#token={:048}", 3));
        for lang in Lang::ALL {
            let html = sheet(lang, "open26", "Friedrich Open 2026", &tables).unwrap();
            assert_eq!(html.matches("<section class=\"table-card\"").count(), 3);
            for table in &tables {
                let block = html.split(&format!("data-table=\"{}\"", table.table)).nth(1).unwrap();
                let svg = &block[block.find("<svg").unwrap()..block.find("</svg>").unwrap() + 6];
                assert_eq!(decode(&read_svg(svg), 4), table.link);
                assert!(block.contains(&table.link), "the link is printed in text too");
            }
        }
        let spanish = sheet(Lang::Es, "open26", "Friedrich Open 2026", &tables).unwrap();
        assert!(spanish.contains("Mesa 3") && spanish.contains("lang=\"es\""), "{spanish}");
    }
}
