//! The day's paper, printed from the browser (A4, `ledger_house::paper::PRINT_CSS`): each round's
//! pairings, each table's game report sheet prefilled from the draw, and the final standings
//! with every tie-breaker. Served by ledgerd so that every page is the ledger as it stands
//! when it is printed; behind the organiser's (or the jury's) clearance, since the pages name
//! the players ([`Access::Paper`]). Stand-ins are labelled wherever a page names a player and
//! are listed apart from the standings (never ranked); a withdrawn player's row is kept, marked
//! with the last round it played; a round printed after a withdrawal seats its stand-in.
//!
//! The report sheet is the one the CAFE rules give Pompadour (section F): the players' names,
//! then blanks for the start time and the first Card of Fate, and for the scores the jury notes
//! when the game ends (each nation's as it leaves the game, each player's), with a QR code that
//! opens the game's table page. Why a tie-breaker is unavailable is worded in [`unavailable`].

mod unavailable;

use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, shell_in, short_id, Head};
use crate::standings::{final_decider_name, shown_number, tie_breaker_value};
use crate::table::tables::tournament_facts;
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Html;
use ledger::event::Seats;
use ledger::{Nation, Role, Stage, StreamId};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::paper::{qr, PRINT_CSS};
use replay::standings::{Decider, ScheduledGame, StandingRow, TournamentFacts};
use replay::Standings;
use std::collections::BTreeMap;

/// The tournament's schedule, for a viewer who may print it.
async fn load(state: &WebState, viewer: &Viewer, tournament: &str) -> Result<(StreamId, TournamentFacts), PageError> {
    if let Err(status) = state.auth.authorize(&viewer.metadata, Access::Paper) {
        // The same code (a sign-in would help the public, not a table), said in the page's language.
        return Err(PageError::from(status).saying(Say::new("paper-refused")));
    }
    let id = StreamId::tournament(short_id(tournament)).map_err(Error::from)?;
    let (facade, read) = (state.facade.clone(), id.clone());
    let facts = blocking(move || tournament_facts(&facade, &read)).await?;
    Ok((id, facts))
}

/// The rounds and their games, by round (a round's games by table).
fn rounds(facts: &TournamentFacts) -> BTreeMap<u32, Vec<&ScheduledGame>> {
    let mut rounds: BTreeMap<u32, Vec<&ScheduledGame>> = BTreeMap::new();
    for game in &facts.games {
        rounds.entry(game.slot.round).or_default().push(game);
    }
    for games in rounds.values_mut() {
        games.sort_by_key(|g| g.slot.table);
    }
    rounds
}

fn round_label(lang: Lang, round: u32, games: &[&ScheduledGame]) -> String {
    round_name(lang, round, games.iter().all(|g| g.slot.stage == Stage::Final))
}

/// A round's name in `lang`: `Round 2`, or `Final`.
pub(crate) fn round_name(lang: Lang, round: u32, is_final: bool) -> String {
    if is_final {
        lang.t("paper-final")
    } else {
        lang.t_args("paper-round", &[("round", round.into())])
    }
}

/// The games of `round`, or the page saying there are none.
fn round_games(facts: &TournamentFacts, round: u32) -> Result<Vec<&ScheduledGame>, PageError> {
    rounds(facts).remove(&round).ok_or_else(|| {
        let missing = Error::NotFound(format!("round {round} has no games in this tournament"));
        PageError::from(missing).saying(Say::new("paper-no-round").arg("round", round.to_string()))
    })
}

fn seat(seats: &Seats, role: Role) -> &str {
    match role {
        Role::Frederick => &seats.frederick,
        Role::Elisabeth => &seats.elisabeth,
        Role::MariaTheresa => &seats.maria_theresa,
        Role::Pompadour => &seats.pompadour,
    }
}

/// A player's full name (the id for a player the tournament did not register).
fn name_of(facts: &TournamentFacts, id: &str) -> String {
    facts.players.iter().find(|(p, _)| p == id).map_or_else(|| id.to_owned(), |(_, name)| name.clone())
}

/// A player as the paper names them: by full name, never the id (made from the name as first
/// typed, it would print a corrected typo again); a stand-in (never ranked) also says so,
/// numbered in registration order: `Richard (stand-in 1)`.
fn player(lang: Lang, facts: &TournamentFacts, id: &str) -> String {
    if let Some(n) = facts.stand_ins.iter().position(|(p, _)| p == id) {
        let label = lang.t_args("paper-stand-in", &[("n", (n + 1).into())]);
        let name = esc(&facts.stand_ins[n].1);
        return format!("{name} <span class=\"stand-in\">({})</span>", esc(&label));
    }
    esc(&name_of(facts, id))
}

/// A full name, a stand-in's too (the id only for someone the tournament did not register).
fn anyone_named(facts: &TournamentFacts, id: &str) -> String {
    match facts.stand_ins.iter().find(|(p, _)| p == id) {
        Some((_, name)) => name.clone(),
        None => name_of(facts, id),
    }
}

/// The opponents' quality as the paper shows it: `12.5 (id, id, id)` with the opponents' names.
fn opponents_named(facts: &TournamentFacts, shown: &str) -> String {
    let Some((value, list)) = shown.split_once(" (") else { return shown.to_owned() };
    let Some(list) = list.strip_suffix(')') else { return shown.to_owned() };
    let names: Vec<String> = list.split(", ").map(|id| anyone_named(facts, id)).collect();
    format!("{value} ({})", names.join(", "))
}

/// The reasons the printed standings give once, in a note under the table, each numbered in
/// the order it first appears, with every game it holds for; a cell says only the number.
#[derive(Default)]
struct Notes(Vec<(String, Vec<String>)>);

impl Notes {
    /// The number of the note saying `reason` (1-based), added if new, `game` added to it.
    fn of(&mut self, reason: String, game: Option<String>) -> usize {
        let at = match self.0.iter().position(|(r, _)| *r == reason) {
            Some(at) => at,
            None => {
                self.0.push((reason, Vec::new()));
                self.0.len() - 1
            }
        };
        let games = &mut self.0[at].1;
        if let Some(game) = game.filter(|g| !games.contains(g)) {
            games.push(game);
        }
        at + 1
    }

    fn html(&self, lang: Lang) -> String {
        if self.0.is_empty() {
            return String::new();
        }
        let items: String = self
            .0
            .iter()
            .enumerate()
            .map(|(n, (reason, games))| {
                let said = if games.is_empty() {
                    reason.clone()
                } else {
                    let args = [
                        ("reason", reason.clone().into()),
                        ("count", games.len().into()),
                        ("games", games.join(", ").into()),
                    ];
                    lang.t_args("paper-note-games", &args)
                };
                format!("<li id=\"note-{}\">{}</li>", n + 1, esc(&said))
            })
            .collect();
        format!("<ol class=\"notes\" id=\"standings-notes\">{items}</ol>")
    }
}

/// The mark of a player who withdrew from round `from_round` on: the last round played.
fn withdrawn(lang: Lang, from_round: u32) -> String {
    lang.t_args("paper-withdrawn", &[("after", from_round.saturating_sub(1).into())])
}

/// A printable page: the print stylesheet around `content`.
pub(crate) fn page(lang: Lang, viewer: &Viewer, title: &str, content: &str) -> Html<String> {
    let body = format!("<style>{PRINT_CSS}</style><div class=\"paper\">{content}</div>");
    Html(shell_in(lang, title, Some(viewer), &body, &Head { manifest: false, scripts: &[] }))
}

/// `/paper/<tournament>`: what there is to print.
pub(crate) async fn index(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
) -> Result<Html<String>, PageError> {
    let (id, facts) = load(&state, &viewer, &tournament).await?;
    let t = esc(id.id());
    let title = lang.t_args("paper-index-title", &[("tournament", facts.name.clone().into())]);
    let mut items = String::new();
    for (round, games) in rounds(&facts) {
        items.push_str(&format!(
            "<li>{label}: <a href=\"/paper/{t}/pairings/{round}\">{pairings}</a> · \
             <a href=\"/paper/{t}/sheets/{round}\">{sheets}</a></li>",
            label = esc(&round_label(lang, round, &games)),
            pairings = esc(&lang.t("paper-pairings")),
            sheets = esc(&lang.t("paper-sheets")),
        ));
    }
    if items.is_empty() {
        items = format!("<li>{}</li>", esc(&lang.t("paper-no-games")));
    }
    let content = format!(
        "<h1>{title}</h1><p class=\"lead\">{lead}</p><ul id=\"paper-index\">{items}\
         <li><a href=\"/paper/{t}/standings\">{standings}</a></li></ul>",
        title = esc(&title),
        lead = esc(&lang.t("paper-index-lead")),
        standings = esc(&lang.t("paper-standings")),
    );
    Ok(page(lang, &viewer, &title, &content))
}

/// `/paper/<tournament>/pairings/<round>`: every table of the round, its game and players.
pub(crate) async fn pairings(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path((tournament, round)): Path<(String, u32)>,
) -> Result<Html<String>, PageError> {
    let (id, facts) = load(&state, &viewer, &tournament).await?;
    let games = round_games(&facts, round)?;
    let roles: String = Role::ALL.iter().map(|r| format!("<th>{}</th>", esc(&lang.t(&format!("role-{r}"))))).collect();
    let rows: String = games
        .iter()
        .map(|g| {
            let players: String = Role::ALL
                .iter()
                .map(|r| format!("<td>{}</td>", player(lang, &facts, seat(&g.slot.seats, *r))))
                .collect();
            format!(
                "<tr data-table=\"{n}\" data-game=\"{game}\"><td class=\"num\">{n}</td><td>{game}</td>{players}</tr>",
                n = g.slot.table,
                game = esc(&g.game),
            )
        })
        .collect();
    let title = format!("{} · {}", lang.t_args("paper-pairings-title", &[("round", round.into())]), facts.name);
    let heading = if games.iter().all(|g| g.slot.stage == Stage::Final) {
        format!("{} · {}", lang.t("paper-final"), facts.name)
    } else {
        title.clone()
    };
    let content = format!(
        "<section class=\"round\"><h1>{heading}</h1><table class=\"print\" id=\"pairings\"><thead><tr>\
         <th class=\"num\">{table}</th><th>{game}</th>{roles}</tr></thead><tbody>{rows}</tbody></table>\
         <p class=\"noprint\" id=\"player-links\"><a href=\"/paper/{t}/players\">{links}</a> · \
         <a href=\"/pairings/{t}/{round}\">{public}</a></p></section>",
        heading = esc(&heading),
        table = esc(&lang.t("paper-col-table")),
        game = esc(&lang.t("paper-col-game")),
        t = esc(id.id()),
        links = esc(&lang.t("paper-player-links")),
        public = esc(&lang.t("paper-public-pairings")),
    );
    Ok(page(lang, &viewer, &title, &content))
}

/// The nations a role starts with, in action-stage order.
fn nations_of(role: Role) -> Vec<Nation> {
    Nation::ALL.iter().copied().filter(|n| n.starting_role() == role).collect()
}

/// `/paper/<tournament>/sheets/<round>`: one game report sheet a page, one per table.
pub(crate) async fn sheets(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    headers: HeaderMap,
    Path((tournament, round)): Path<(String, u32)>,
) -> Result<Html<String>, PageError> {
    let (_, facts) = load(&state, &viewer, &tournament).await?;
    let games = round_games(&facts, round)?;
    let title = format!("{} · {}", lang.t("paper-sheets"), round_label(lang, round, &games));
    // The QR code opens the table's recording page: HTTPS wherever the pages have it.
    let site = state.site(&headers, crate::links::Leads::ToRecording)?;
    let mut content = String::new();
    for game in games {
        content.push_str(&sheet(lang, &facts, game, &site)?);
    }
    Ok(page(lang, &viewer, &title, &content))
}

/// One game report sheet.
fn sheet(lang: Lang, facts: &TournamentFacts, game: &ScheduledGame, site: &str) -> Result<String, PageError> {
    let t = |id: &str| esc(&lang.t(id));
    let link = format!("{site}/table/{}", game.game);
    let qr = qr::svg(&link, &lang.t("paper-sheet-qr")).map_err(|e| PageError::from(Error::Internal(e.to_string())))?;
    let players: String = Role::ALL
        .iter()
        .map(|role| {
            let nations: Vec<String> = nations_of(*role).iter().map(|n| lang.t(&format!("nation-{n}"))).collect();
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"write\"></td></tr>",
                esc(&lang.t(&format!("role-{role}"))),
                player(lang, facts, seat(&game.slot.seats, *role)),
                esc(&nations.join(", ")),
            )
        })
        .collect();
    let nations: String = Nation::ALL
        .iter()
        .map(|n| {
            format!(
                "<tr><td>{}</td><td class=\"write\"></td><td class=\"write\"></td></tr>",
                esc(&lang.t(&format!("nation-{n}")))
            )
        })
        .collect();
    let blank = "<span class=\"blank\"></span>";
    Ok(format!(
        "<section class=\"sheet\" data-game=\"{game}\" data-table=\"{table}\">\
         <div class=\"sheet-head\"><div><h1>{title}</h1><p class=\"lead\">{where_}</p></div>\
         <figure>{qr}<figcaption class=\"note\">{qr_caption}</figcaption></figure></div>\
         <p class=\"note\">{rule}</p>\
         <h2>{pompadour}</h2>\
         <p>{start}: {blank} &nbsp; {first_fate}: {blank} {fate_turn} <span class=\"blank\" style=\"min-width:12mm\"></span></p>\
         <h2>{jury}</h2><p class=\"note\">{players_note}</p>\
         <table class=\"print players\"><thead><tr><th>{role}</th><th>{player}</th><th>{nations_h}</th><th>{final_score}</th></tr></thead>\
         <tbody>{players}</tbody></table>\
         <p class=\"note\">{nations_note}</p>\
         <table class=\"print nations\"><thead><tr><th>{nation}</th><th>{left}</th><th>{score}</th></tr></thead>\
         <tbody>{nations}</tbody></table>\
         <p>{signature}: {blank}{blank}</p><p>{digest}: {blank}{blank}</p></section>",
        game = esc(&game.game),
        table = game.slot.table,
        title = esc(&lang.t_args("paper-sheet-title", &[("game", game.game.clone().into())])),
        where_ = esc(&lang.t_args(
            "paper-sheet-where",
            &[
                ("tournament", facts.name.clone().into()),
                ("round", game.slot.round.into()),
                ("table", game.slot.table.into())
            ]
        )),
        qr_caption = t("paper-sheet-qr"),
        rule = t("paper-sheet-rule"),
        pompadour = t("paper-sheet-pompadour"),
        start = t("paper-sheet-start"),
        first_fate = t("paper-sheet-first-fate"),
        fate_turn = t("paper-sheet-fate-turn"),
        jury = t("paper-sheet-jury"),
        players_note = t("paper-sheet-players"),
        role = t("paper-col-role"),
        player = t("paper-col-player"),
        nations_h = t("paper-col-nations"),
        final_score = t("paper-col-final-score"),
        nations_note = t("paper-sheet-nations"),
        nation = t("paper-col-nation"),
        left = t("paper-col-left-turn"),
        score = t("paper-col-score"),
        signature = t("paper-sheet-signature"),
        digest = t("paper-sheet-digest"),
    ))
}

/// What put a row below the one above (`replay`'s [`Decider`]), in the page's language.
fn decided(lang: Lang, decider: Option<Decider>) -> String {
    match decider {
        Some(Decider::Total) => lang.t("paper-decided-total"),
        Some(Decider::Unresolved) => lang.t("paper-decided-unresolved"),
        Some(Decider::TieBreaker { tie_breaker, .. }) => lang.t(&format!("paper-tb-{}", tie_breaker.as_str())),
        None => String::new(),
    }
}

/// The rows in the order the final standings print them: the final's four first (its
/// champion first, then the others by their qualifying rank), then everyone else by rank.
/// Before the final is scheduled, the finalists so far lead; a finalist who is not ranked (a
/// stand-in seated in the final) has no row to move.
fn printed_order(standings: &Standings) -> (Vec<&StandingRow>, Vec<&StandingRow>) {
    let mut four: Vec<&str> = match &standings.final_result {
        Some(final_game) => Role::ALL.iter().map(|role| final_game.seats.player(*role).as_str()).collect(),
        None => standings.finalists.iter().map(String::as_str).collect(),
    };
    let rank_of = |player: &str| standings.rows.iter().position(|row| row.player == player).unwrap_or(usize::MAX);
    four.sort_by_key(|player| rank_of(player));
    if let Some(champion) = standings.final_result.as_ref().and_then(|f| f.winner.as_deref()) {
        four.retain(|player| *player != champion);
        four.insert(0, champion);
    }
    let first: Vec<&StandingRow> =
        four.iter().filter_map(|player| standings.rows.iter().find(|row| row.player == *player)).collect();
    let rest = standings.rows.iter().filter(|row| !four.contains(&row.player.as_str())).collect();
    (first, rest)
}

/// `/paper/<tournament>/standings`: the standings the board shows (the same projection), with
/// names, every tie-breaker's value and what decided each place, and the final; the final's
/// four first ([`printed_order`]), on A4 portrait (small type, long values wrapped in their
/// column).
pub(crate) async fn standings(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(tournament): Path<String>,
) -> Result<Html<String>, PageError> {
    let (id, facts) = load(&state, &viewer, &tournament).await?;
    state.auth.authorize(&viewer.metadata, Access::Standings { public: false })?;
    let facade = state.facade.clone();
    let standings = blocking(move || Ok(facade.standings(&id, None, false)?.value)).await?;
    let ruleset = standings.ruleset;
    let th = |class: &str, label: String| format!("<th class=\"{class}\">{}</th>", esc(&label));
    let tie_breakers = standings.rows.first().map(|row| row.tie_breakers.as_slice()).unwrap_or_default();
    // The columns in the board's order: role scores, games, total, every tie-breaker, the decider.
    let roles_head: String = Role::ALL.iter().map(|r| th("num role", lang.t(&format!("role-{r}")))).collect();
    // A tie-breaker no row has a value for (each row's cell a dash and a note) takes a narrow
    // column, leaving the room to the ones with values.
    let empty = |i: usize| standings.rows.iter().all(|r| r.tie_breakers.get(i).is_none_or(|tb| tb.value.is_none()));
    let tbs_head: String = tie_breakers
        .iter()
        .enumerate()
        .map(|(i, tb)| {
            let class = if empty(i) { "num tb tb-empty" } else { "num tb" };
            th(class, lang.t(&format!("paper-tb-{}", tb.tie_breaker.as_str())))
        })
        .collect();
    let champion = standings.final_result.as_ref().and_then(|f| f.winner.clone());
    let mut notes = Notes::default();
    let mut row_html = |row: &StandingRow| {
        let score = |r: &Role| row.scores.get(r).map(|v| lang.decimal(&shown_number(ruleset, *v))).unwrap_or_default();
        let scores: String = Role::ALL.iter().map(|r| format!("<td class=\"num\">{}</td>", score(r))).collect();
        let tbs: String = row
            .tie_breakers
            .iter()
            .map(|tb| match unavailable::reason_and_game(lang, &tb.display) {
                // Said once under the table; the cell gives the note's number.
                Some((reason, game)) => {
                    let named = lang.t(&format!("paper-tb-{}", tb.tie_breaker.as_str()));
                    let n = notes.of(format!("{named}: {reason}"), game);
                    format!(
                        "<td class=\"num tb missing\" data-note=\"{n}\">–<sup><a href=\"#note-{n}\">{n}</a></sup></td>"
                    )
                }
                None => {
                    let shown = tie_breaker_value(lang, &tb.display);
                    let shown = match tb.tie_breaker {
                        replay::standings::TieBreaker::OpponentsQuality => opponents_named(&facts, &shown),
                        _ => shown,
                    };
                    format!("<td class=\"num tb\">{}</td>", esc(&shown))
                }
            })
            .collect();
        // A withdrawn player keeps its place, marked; the finalists are counted without it.
        let (class, left) = match row.withdrawn {
            Some(from_round) => {
                (" class=\"withdrawn\"", format!(" <em class=\"withdrawn\">{}</em>", esc(&withdrawn(lang, from_round))))
            }
            None if champion.as_ref() == Some(&row.player) => (
                " class=\"champion\"",
                format!(" <strong class=\"champion-mark\">{}</strong>", esc(&lang.t("paper-champion-mark"))),
            ),
            None => ("", String::new()),
        };
        format!(
                "<tr data-player=\"{p}\"{class}><td class=\"num\">{rank}</td><td>{name}{left}</td>{scores}<td class=\"num\">{games}</td>\
                 <td class=\"num\">{total}</td>{tbs}<td class=\"tb\">{by}</td></tr>",
                p = esc(&row.player),
                rank = row.rank,
                name = player(lang, &facts, &row.player),
                games = row.games_counted,
                total = lang.decimal(&shown_number(ruleset, row.total)),
                by = esc(&decided(lang, row.decided_by)),
            )
    };
    let (four, rest) = printed_order(&standings);
    let four: String = four.into_iter().map(&mut row_html).collect();
    let rest: String = rest.into_iter().map(&mut row_html).collect();
    let notes = notes.html(lang);
    let title = lang.t_args("paper-standings-title", &[("tournament", facts.name.clone().into())]);
    let provisional = if standings.pending_games.is_empty() {
        String::new()
    } else {
        let count = standings.pending_games.len();
        let games = standings.pending_games.join(", ");
        let text = lang.t_args("paper-standings-provisional", &[("count", count.into()), ("games", games.into())]);
        format!("<p class=\"secret\" id=\"provisional\">{}</p>", esc(&text))
    };
    let finalists: Vec<String> = standings.finalists.iter().map(|p| player(lang, &facts, p)).collect();
    let stand_ins = if facts.stand_ins.is_empty() {
        String::new()
    } else {
        let named: Vec<String> = facts.stand_ins.iter().map(|(id, _)| player(lang, &facts, id)).collect();
        format!("<p id=\"stand-ins\"><strong>{}</strong>: {}</p>", esc(&lang.t("paper-stand-ins")), named.join(", "))
    };
    let final_part = standings.final_result.map_or_else(String::new, |final_game| {
        let result = match &final_game.winner {
            Some(winner) => {
                let how = lang.t(&format!("paper-final-by-{}", final_decider_name(final_game.decided_by)));
                format!(
                    "<p id=\"winner\"><strong>{}</strong> ({})</p>",
                    esc(&lang.t_args("paper-winner", &[("player", name_of(&facts, winner).into())])),
                    esc(&lang.t_args("paper-decided-final", &[("how", how.into())]))
                )
            }
            None => format!("<p>{}</p>", esc(&lang.t("paper-final-pending"))),
        };
        format!("<h2>{} · {}</h2>{result}", esc(&lang.t("paper-final")), esc(&final_game.game))
    });
    let content = format!(
        "<h1>{title_h}</h1><p class=\"lead\">{ruleset}</p>{provisional}\
         <table class=\"print standings\" id=\"standings\"><thead><tr>{rank}{player_h}{roles_head}{games}{total}{tbs_head}{decided_h}</tr></thead>\
         <tbody class=\"final-four\">{four}</tbody><tbody>{rest}</tbody></table>{notes}<p><strong>{finalists_h}</strong>: {finalists}</p>{stand_ins}{final_part}",
        title_h = esc(&title),
        ruleset = esc(&lang.t(&format!("ruleset-{}", ruleset.as_str()))),
        rank = th("num rank", lang.t("paper-col-rank")),
        player_h = th("player", lang.t("paper-col-player")),
        games = th("num games", lang.t("paper-col-games")),
        total = th("num total", lang.t("paper-col-total")),
        decided_h = th("decided-by", lang.t("paper-col-decided")),
        finalists_h = esc(&lang.t("paper-finalists")),
        finalists = finalists.join(", "),
    );
    Ok(page(lang, &viewer, &title, &content))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_starts_with_its_nations() {
        let all: Vec<Nation> = Role::ALL.iter().flat_map(|r| nations_of(*r)).collect();
        assert_eq!(all.len(), Nation::ALL.len());
        assert_eq!(nations_of(Role::Frederick), [Nation::Prussia, Nation::Hanover]);
        assert_eq!(nations_of(Role::Pompadour), [Nation::France]);
    }

    #[test]
    fn the_final_s_four_print_first_the_champion_first_then_by_rank() {
        use replay::standings::{FinalDecider, FinalResult};
        let row = |rank: u32, player: &str| StandingRow {
            rank,
            player: player.into(),
            name: player.into(),
            total: replay::Rational::ZERO,
            games_counted: 4,
            scores: BTreeMap::new(),
            tie_breakers: Vec::new(),
            decided_by: None,
            withdrawn: (player == "p3").then_some(3),
        };
        let mut standings = Standings {
            tournament: "t".into(),
            ruleset: ledger::Ruleset::Cafe2023,
            rows: ["p1", "p2", "p3", "p4", "p5", "p6"].iter().zip(1..).map(|(p, rank)| row(rank, p)).collect(),
            finalists: ["p1", "p2", "p4", "p5"].map(String::from).to_vec(),
            finalists_settled: true,
            pending_games: Vec::new(),
            final_result: None,
        };
        let order = |standings: &Standings| {
            let (four, rest) = printed_order(standings);
            four.iter().chain(&rest).map(|row| row.player.clone()).collect::<Vec<_>>()
        };
        // Before the final: the finalists (a withdrawn player is not one), then the rest.
        assert_eq!(order(&standings), ["p1", "p2", "p4", "p5", "p3", "p6"]);
        let seats = Seats {
            frederick: "p2".into(),
            elisabeth: "p5".into(),
            maria_theresa: "p1".into(),
            pompadour: "p4".into(),
        };
        let mut final_game = FinalResult {
            game: "t-final".into(),
            seats,
            contenders: Vec::new(),
            winner: None,
            decided_by: FinalDecider::NotEnded,
        };
        standings.final_result = Some(final_game.clone());
        assert_eq!(order(&standings), ["p1", "p2", "p4", "p5", "p3", "p6"]);
        final_game.winner = Some("p5".into());
        final_game.decided_by = FinalDecider::OnlyWinner;
        standings.final_result = Some(final_game);
        assert_eq!(order(&standings), ["p5", "p1", "p2", "p4", "p3", "p6"]);
    }

    #[test]
    fn decisions_read_in_both_languages() {
        let by_tb = Decider::TieBreaker { index: 2, tie_breaker: replay::standings::TieBreaker::ScaledTcc };
        assert_eq!(decided(Lang::En, Some(by_tb)), "sTCC");
        assert_eq!(decided(Lang::Es, Some(Decider::Total)), "total");
        assert!(decided(Lang::Es, Some(Decider::Unresolved)).starts_with("sin resolver"));
    }
}
