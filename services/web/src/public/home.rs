//! The front page (`/`): the season on this ledger, as the facade's `Projections::season` gives
//! it (the same list as `ledgerctl tournament list`) — every tournament with its board, ruleset,
//! year, players, where it stands and, for those who may print, its paper; and for those who may
//! see them, the Andes matches with their players and games — newest first; then the forms
//! that open any page by id, and the analysts' page.
//!
//! Games are not listed one by one (a season of 50 tournaments has 800): a game is reached
//! from its tournament's board and paper, or by id through the forms (docs/DECISIONS.md).
//! On a phone the tables stack, a card per row, each cell labelled (`table.season`).

use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang};
use crate::layout::{esc, shell};
use crate::{blocking, PageError, WebState};
use axum::extract::State;
use axum::response::Html;
use ledger_house::auth::Access;
use ledger_house::facade::season::{AndesLine, Season, TournamentLine};
use replay::season::Phase;

/// A tournament's state in `lang`.
fn state_text(lang: Lang, state: Phase) -> String {
    match state {
        Phase::Round { round } => lang.t_args("season-state-round", &[("round", round.into())]),
        other => lang.t(&format!("season-state-{}", other.as_str())),
    }
}

/// A cell with its column's label, which a narrow screen shows beside it.
fn cell(label: &str, class: &str, html: &str) -> String {
    format!("<td class=\"{class}\" data-label=\"{}\">{html}</td>", esc(label))
}

/// A table of `rows` under `heads`, or a line saying there are none; the columns numbered in
/// `numbers` are numbers (aligned right on a laptop).
fn season_table(lang: Lang, id: &str, heads: &[String], numbers: &[usize], rows: Vec<String>) -> String {
    if rows.is_empty() {
        return format!("<p class=\"muted\" id=\"{id}\">{}</p>", esc(&lang.t("index-none")));
    }
    let heads: String = heads
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let class = if numbers.contains(&i) { " class=\"num\"" } else { "" };
            format!("<th scope=\"col\"{class}>{}</th>", esc(h))
        })
        .collect();
    format!(
        "<table class=\"season\" id=\"{id}\"><thead><tr>{heads}</tr></thead><tbody>{}</tbody></table>",
        rows.concat()
    )
}

fn tournaments(lang: Lang, lines: &[TournamentLine], may_print: bool, may_organise: bool) -> String {
    let mut heads: Vec<String> = ["tournament", "ruleset", "year", "players", "state"]
        .iter()
        .map(|c| lang.t(&format!("season-col-{c}")))
        .collect();
    if may_print {
        heads.push(lang.t("season-col-paper"));
    }
    let rows = lines
        .iter()
        .map(|line| {
            let id = esc(line.tournament.id());
            let name = format!(
                "<a href=\"/board/{id}\" title=\"{}\">{}</a> <span class=\"muted mono\">{id}</span>",
                esc(&lang.t("index-board")),
                esc(&line.name)
            );
            let players = match line.withdrawn {
                0 => lang.decimal(&line.players.to_string()),
                n => {
                    lang.t_args("season-players-withdrawn", &[("count", line.players.into()), ("withdrawn", n.into())])
                }
            };
            let year = line.year.map_or_else(|| "–".to_owned(), |y| y.to_string());
            let mut cells = vec![
                cell(&heads[0], "name", &name),
                cell(&heads[1], "", &esc(&lang.t(&format!("ruleset-{}", line.ruleset)))),
                cell(&heads[2], "num", &esc(&year)),
                cell(&heads[3], "num", &esc(&players)),
                cell(&heads[4], &format!("state {}", line.state.as_str()), &esc(&state_text(lang, line.state))),
            ];
            if may_print {
                let mut paper = format!("<a href=\"/paper/{id}\">{}</a>", esc(&lang.t("paper-index-link")));
                if may_organise {
                    paper
                        .push_str(&format!(" · <a href=\"/organise/{id}\">{}</a>", esc(&lang.t("index-organise-one"))));
                }
                cells.push(cell(&heads[5], "", &paper));
            }
            format!("<tr data-tournament=\"{id}\" data-state=\"{}\">{}</tr>", line.state, cells.concat())
        })
        .collect();
    season_table(lang, "season-tournaments", &heads, &[2, 3], rows)
}

fn andes(lang: Lang, lines: &[AndesLine]) -> String {
    let heads: Vec<String> = ["match", "players", "games", "won", "state"]
        .iter()
        .map(|c| lang.t(&format!("season-col-andes-{c}")))
        .collect();
    let rows = lines
        .iter()
        .map(|line| {
            let m = &line.summary;
            let id = esc(m.match_id.id());
            let links = format!(
                "<a href=\"/andes/{id}\" title=\"{}\">{id}</a> <span class=\"links\"><a href=\"/andes/{id}?side=luna\">{}</a> · \
                 <a href=\"/andes/{id}/record\">{}</a></span>",
                esc(&lang.t("index-andes-board")),
                esc(&lang.t("index-andes-luna")),
                esc(&lang.t("index-andes-record"))
            );
            let players = format!("{} – {}", esc(&m.first_sol), esc(&m.first_luna));
            let won: Vec<String> = m.wins.iter().map(|(player, n)| format!("{} {n}", esc(player))).collect();
            let state = match (&m.winner, m.status) {
                (Some(winner), _) => lang.t_args("season-andes-won", &[("winner", winner.as_str().into())]),
                (None, "complete") => lang.t("season-andes-tied"),
                (None, _) => lang.t("season-andes-playing"),
            };
            let ended = if m.status == "complete" { "ended" } else { "playing" };
            let cells = [
                cell(&heads[0], "name", &links),
                cell(&heads[1], "", &players),
                cell(&heads[2], "num", &lang.decimal(&m.games_ended.to_string())),
                cell(&heads[3], "", &won.join(" · ")),
                cell(&heads[4], &format!("state {ended}"), &esc(&state)),
            ];
            format!("<tr data-match=\"{id}\" data-state=\"{ended}\">{}</tr>", cells.concat())
        })
        .collect();
    season_table(lang, "season-andes", &heads, &[2], rows)
}

/// The season's tables.
fn season(lang: Lang, season: &Season, may_print: bool, may_organise: bool) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let listed = tournaments(lang, &season.tournaments, may_print, may_organise);
    let mut body = format!("<h2>{}</h2>{listed}", t("index-tournaments"));
    if may_organise {
        body.push_str(&format!("<p><a href=\"/organise\" id=\"index-organise\">{}</a></p>", t("index-organise")));
    }
    if let Some(lines) = &season.andes {
        body.push_str(&format!("<h2>{}</h2>{}", t("index-andes"), andes(lang, lines)));
    }
    body
}

pub(crate) async fn index(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
) -> Result<Html<String>, PageError> {
    let scope = state.auth.season_scope(&viewer.metadata)?;
    let may_print = state.auth.authorize(&viewer.metadata, Access::Paper).is_ok();
    let may_organise = state.auth.authorize(&viewer.metadata, Access::Organise).is_ok();
    let jury_desk = match state.auth.authorize(&viewer.metadata, Access::ReplayViewer) {
        Ok(_) => format!("<p><a href=\"/jury\" id=\"index-jury\">{}</a></p>", esc(&lang.t("index-jury"))),
        Err(_) => String::new(),
    };
    let facade = state.facade.clone();
    let listed = blocking(move || Ok(facade.season(scope)?.value)).await?;
    let t = |id: &str| esc(&lang.t(id));
    let mut body = format!(
        "<h1>{}</h1><p class=\"muted\">{}</p>{jury_desk}{}",
        t("site-name"),
        t("season-lead"),
        season(lang, &listed, may_print, may_organise)
    );
    body.push_str(&format!("<h2>{}</h2><p class=\"hint\">{}</p>", t("index-open"), t("season-games-hint")));
    for (page, label) in
        [("board", "open-board"), ("table", "open-table"), ("jury", "open-jury"), ("andes", "open-andes")]
    {
        body.push_str(&format!(
            "<form class=\"goto\" action=\"/open\"><input type=\"hidden\" name=\"page\" value=\"{page}\">\
             <label>{} <input name=\"id\" id=\"open-{page}\" required></label><button>{}</button></form>",
            t(label),
            t("open-button")
        ));
    }
    body.push_str(&format!("<p><a href=\"/analyst\" id=\"index-analyst\">{}</a></p>", t("index-analyst")));
    Ok(Html(shell(lang, &lang.t("index-title"), Some(&viewer), &body, &[])))
}
