//! The public standings board of a tournament: pseudonyms only (the Projections service's
//! public standings, the same JSON as `ledgerctl standings --public --json`), each player's
//! role scores as they are fixed, totals, every tie-breaker, the games still running with their
//! turn, players and chess clocks, and the final. A withdrawn player's row stays, marked; stand-ins
//! are not ranked and are labelled as stand-ins wherever a game names its players. It follows the
//! log: every commit to the tournament or one of its games re-renders the board once for all
//! its viewers of a language and clearance ([`LiveBoard`], a [`LivePage`]), pushed as a server-sent event
//! within the second.

use crate::auth::Viewer;
use crate::game::table_now_ms;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, hms, shell, short_id};
use crate::live::shared::{self, Key, LivePage, Rendered, Rendering};
use crate::live::sse::{status_line, Live};
use crate::public::board_sections;
use crate::standings::{
    shown_number, shown_player, stand_in_label, tie_breaker_name, tie_breaker_value, withdrawn_note,
};
use crate::{blocking, wall_ms, PageError, WebState};
use ledger::{Event, Recorded, Role, StreamId, StreamKind};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade::Projections;
use ledger_store::Log;
use replay::clock::ClockView;
use replay::standings::{Decider, TournamentFacts};
use replay::Standings;
use std::collections::BTreeSet;
use std::sync::Arc;
use tonic::metadata::MetadataMap;

fn tournament_id(text: &str) -> Result<StreamId, PageError> {
    let id = StreamId::tournament(short_id(text)).map_err(Error::from)?;
    Ok(id)
}

/// A running game as the board shows it.
struct Running {
    game: String,
    turn: u32,
    clock: Option<ClockView>,
    /// The players by role (pseudonyms), as seated now: a withdrawal's stand-in included.
    seats: Option<ledger::event::Seats>,
}

/// The turn of a game (voided `turn_started` left out) and its table time now.
fn turn_and_now(records: &[Recorded]) -> (u32, u64) {
    let events: Vec<(u64, Event)> = records.iter().map(|r| (r.envelope.seq, r.event.clone())).collect();
    let voided = replay::sheet::voided_seqs(&events);
    let live = || events.iter().filter(|(seq, _)| !voided.contains(seq));
    let turn =
        live().filter_map(|(_, e)| if let Event::TurnStarted { turn, .. } = e { Some(*turn) } else { None }).max();
    let last_at = live().filter_map(|(_, e)| e.at_ms()).max();
    (turn.unwrap_or(0), table_now_ms(records, last_at, wall_ms()))
}

/// The board's content in `lang` as the viewer of `metadata` may see it, and the games it
/// follows (every game of the tournament).
async fn render(
    state: &WebState,
    metadata: &MetadataMap,
    tournament: &StreamId,
    lang: Lang,
) -> Result<(String, BTreeSet<String>), PageError> {
    let clocks = may_see(state, metadata)?;
    render_variant(state, tournament, lang, clocks).await
}

/// Whether the viewer of `metadata` may see the board, and with the clocks: the public may see
/// them; a viewer who may not sees the board without them.
fn may_see(state: &WebState, metadata: &MetadataMap) -> Result<bool, PageError> {
    state.auth.authorize(metadata, Access::Standings { public: true })?;
    Ok(state.auth.authorize(metadata, Access::Clock).is_ok())
}

/// The board's content in `lang`, with the running games' clocks or without, and the games it
/// follows: what every viewer of that language and clearance is sent ([`LiveBoard`]).
pub(super) async fn render_variant(
    state: &WebState,
    tournament: &StreamId,
    lang: Lang,
    clocks: bool,
) -> Result<(String, BTreeSet<String>), PageError> {
    let (facade, id) = (state.facade.clone(), tournament.clone());
    let standings = blocking(move || Ok(facade.standings(&id, None, true)?.value))
        .await
        .map_err(|error| error.when_not_found(Say::new("error-no-tournament").arg("id", tournament.id())))?;
    let (mut games, facts) = scheduled_games(state, tournament).await?;
    games.extend(standings.pending_games.iter().cloned());
    if let Some(final_game) = &standings.final_result {
        games.insert(final_game.game.clone());
    }
    // The turn of a running game is read here and shown alone.
    let mut running = Vec::new();
    // The scheduled games nobody has started yet: the next round's tables.
    let mut unstarted = BTreeSet::new();
    for game in &standings.pending_games {
        let id = match StreamId::game(game) {
            Ok(id) => id,
            Err(rejection) => {
                tracing::warn!(game, %rejection, "the standings name a game the board cannot read");
                continue;
            }
        };
        let (log, facade) = (Arc::clone(&state.log), state.facade.clone());
        let found = blocking(move || {
            let records = log.read_stream(&id, 1, usize::MAX)?;
            if records.is_empty() {
                return Ok(None);
            }
            let (turn, now_ms) = turn_and_now(&records);
            let clock = match clocks {
                true => clock_of(&facade, &id, now_ms)?,
                false => None,
            };
            Ok(Some((turn, clock)))
        })
        .await?;
        let Some((turn, clock)) = found else {
            unstarted.insert(game.clone());
            continue;
        };
        let seats = facts.games.iter().find(|g| g.game == *game).map(|g| g.slot.seats.clone());
        running.push(Running { game: game.clone(), turn, clock, seats });
    }
    Ok((board_html(lang, &standings, &facts, &Day { running, unstarted }), games))
}

/// A running game's clock at the table time `now_ms`; none for a game the clock cannot be
/// projected for (no ruleset yet: said in the log once, here).
fn clock_of(facade: &Projections<Arc<Log>>, game: &StreamId, now_ms: u64) -> Result<Option<ClockView>, Error> {
    match facade.clock(game, None, Some(now_ms)) {
        Ok(at) => Ok(Some(at.value)),
        Err(error @ (Error::NotFound(_) | Error::FailedPrecondition(_))) => {
            tracing::debug!(%game, %error, "the board shows a game without its clock");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Every game the tournament schedules (drawn, scheduled one by one, the final), whether it has
/// started, runs or has ended: the board follows them all, since a game starts without its
/// tournament changing, and the jury may void or correct the end of a game that has ended. With
/// them, the tournament under pseudonyms (as the public standings name everyone): who sits at
/// each game and who is a stand-in. The scores and ranks the board shows are the standings'.
async fn scheduled_games(
    state: &WebState,
    tournament: &StreamId,
) -> Result<(BTreeSet<String>, TournamentFacts), PageError> {
    let (log, id) = (Arc::clone(&state.log), tournament.clone());
    let records = blocking(move || Ok(log.read_stream(&id, 1, usize::MAX)?)).await?;
    let events: Vec<(u64, Event)> = records.into_iter().map(|r| (r.envelope.seq, r.event)).collect();
    let facts = TournamentFacts::fold(&ledger_house::projections::pseudonymize(&events));
    Ok((ledger_house::projections::tournament_games(&events).into_iter().collect(), facts))
}

/// What put a row below the one above (`replay`'s [`Decider`]), in `lang`.
fn decided(lang: Lang, decider: Option<Decider>) -> String {
    match decider {
        Some(Decider::Total) => lang.t("board-decided-total"),
        Some(Decider::Unresolved) => lang.t("board-decided-unresolved"),
        Some(Decider::TieBreaker { index, tie_breaker }) => lang.t_args(
            "board-decided-tie-breaker",
            &[("index", index.to_string().into()), ("name", tie_breaker_name(lang, tie_breaker.as_str()).into())],
        ),
        None => String::new(),
    }
}

/// The games of the tournament as they stand: those running now, and those nobody has started.
struct Day {
    running: Vec<Running>,
    unstarted: BTreeSet<String>,
}

/// The board's content: the title; once the final has ended, its champion; the standings (the
/// line-up until a game has ended) beside the running games, the next round's tables and the
/// final. The same content serves a laptop, a phone and the projector (`?projector`): only
/// the stylesheet and the projector's paging script differ, so one render serves them all.
fn board_html(lang: Lang, standings: &Standings, facts: &TournamentFacts, day: &Day) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let mut out = format!(
        "<h1 class=\"board-title\">{} <span class=\"muted\">{}</span></h1>",
        esc(&standings.tournament),
        t(&format!("ruleset-{}", standings.ruleset.as_str()))
    );
    if let Some(champion) = standings.final_result.as_ref().and_then(|f| board_sections::champion(lang, facts, f)) {
        out.push_str(&champion);
    }
    out.push_str("<div class=\"board-columns\"><div class=\"board-main\" id=\"board-main\">");
    if board_sections::any_game_counted(standings) {
        out.push_str(&standings_html(lang, standings));
    } else {
        out.push_str(&board_sections::lineup_html(lang, standings, facts));
    }
    if !facts.stand_ins.is_empty() {
        let named: Vec<String> = (1..=facts.stand_ins.len()).map(|n| stand_in_label(lang, n)).collect();
        let line = lang.t_args("board-stand-ins", &[("players", named.join(", ").into())]);
        out.push_str(&format!("<p class=\"muted\" id=\"stand-ins\">{}</p>", esc(&line)));
    }
    out.push_str("</div><div class=\"board-side\">");
    out.push_str(&format!("<h2>{}</h2>", t("board-running")));
    if day.running.is_empty() {
        out.push_str(&format!("<p class=\"muted\" id=\"no-running\">{}</p>", t("board-none")));
    }
    out.push_str("<div class=\"running\" id=\"running\">");
    for game in &day.running {
        out.push_str(&running_html(lang, facts, game));
    }
    out.push_str("</div>");
    out.push_str(&board_sections::next_round_html(lang, facts, &day.unstarted));
    if let Some(final_game) = &standings.final_result {
        out.push_str(&board_sections::final_html(lang, facts, final_game));
    }
    out.push_str("</div></div>");
    out
}

/// The standings table, then the finalists (so far, or settled).
fn standings_html(lang: Lang, standings: &Standings) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let ruleset = standings.ruleset;
    let roles: String =
        Role::ALL.iter().map(|role| format!("<th class=\"role\">{}</th>", t(&format!("role-{role}")))).collect();
    let mut out = format!(
        "<table class=\"standings\" id=\"standings\"><thead><tr><th class=\"num\">#</th><th>{}</th>{roles}\
         <th class=\"num games\">{}</th><th class=\"num\">{}</th><th class=\"tb\">{}</th></tr></thead><tbody>",
        t("board-player"),
        t("board-games"),
        t("board-total"),
        t("board-tie-breakers"),
    );
    let finalists = &standings.finalists;
    for row in &standings.rows {
        let player = &row.player;
        let scores: String = Role::ALL
            .iter()
            .map(|role| {
                let score = row.scores.get(role).map(|v| shown_number(ruleset, *v)).unwrap_or_default();
                format!("<td class=\"num role\">{}</td>", esc(&lang.decimal(&score)))
            })
            .collect();
        let tie_breakers: String = row
            .tie_breakers
            .iter()
            .filter(|tb| tb.value.is_some())
            .map(|tb| {
                format!(
                    "<span class=\"tiebreak\">{} {}</span>",
                    esc(&tie_breaker_name(lang, tb.tie_breaker.as_str())),
                    esc(&tie_breaker_value(lang, &tb.display))
                )
            })
            .collect();
        let by = decided(lang, row.decided_by);
        let by = if by.is_empty() { String::new() } else { format!("<span class=\"decided\">{}</span>", esc(&by)) };
        // A withdrawn player keeps its row, marked; it is never among the finalists.
        let (class, left) = match row.withdrawn {
            Some(from_round) => ("withdrawn", withdrawn_note(lang, from_round)),
            None if finalists.contains(player) => ("finalist", String::new()),
            None => ("", String::new()),
        };
        out.push_str(&format!(
            "<tr class=\"{class}\" data-player=\"{p}\"><td class=\"num\">{rank}</td><td class=\"player\"><span class=\"name\">{p}</span>{left}</td>{scores}\
             <td class=\"num games\">{games}</td><td class=\"num total\">{total}</td><td class=\"tb\">{by}{tie_breakers}</td></tr>",
            p = esc(player),
            rank = row.rank,
            games = row.games_counted,
            total = esc(&lang.decimal(&shown_number(ruleset, row.total))),
        ));
    }
    out.push_str("</tbody></table>");
    if !finalists.is_empty() {
        let settled = if standings.finalists_settled { "board-finalists" } else { "board-finalists-so-far" };
        let line = lang.t_args(settled, &[("players", finalists.join(", ").into())]);
        out.push_str(&format!("<p class=\"finalists\" id=\"finalists\">{}</p>", esc(&line)));
    }
    out
}

fn running_html(lang: Lang, facts: &TournamentFacts, game: &Running) -> String {
    let clocks: String = match &game.clock {
        Some(clock) => [ledger::ClockSide::Prussia, ledger::ClockSide::Attackers]
            .iter()
            .map(|side| {
                let view = clock.side(*side);
                let on = clock.running == Some(*side);
                format!(
                    "<span class=\"side {s}{running}\">{label} <span class=\"clock\" data-side=\"{s}\" data-ms=\"{ms}\"{ticking}>{shown}</span></span>",
                    s = side.as_str(),
                    running = if on { " running" } else { "" },
                    label = esc(&lang.t(&format!("side-{}", side.as_str()))),
                    ms = view.remaining_ms,
                    ticking = if on { " data-running=\"down\"" } else { "" },
                    shown = hms(view.remaining_ms),
                )
            })
            .collect(),
        None => format!("<span class=\"muted\">{}</span>", esc(&lang.t("board-no-clock"))),
    };
    let running = game.clock.as_ref().and_then(|c| c.running).map_or("none", |side| side.as_str());
    let players: String = match &game.seats {
        Some(seats) => {
            let named: Vec<String> = ledger::Role::ALL
                .iter()
                .map(|role| {
                    let who = shown_player(lang, facts, seats.player(*role));
                    format!("{}: {who}", esc(&lang.t(&format!("role-{role}"))))
                })
                .collect();
            format!(" <span class=\"players\">{}</span>", named.join(" · "))
        }
        None => String::new(),
    };
    format!(
        "<div class=\"game\" data-game=\"{g}\" data-running=\"{running}\"><span class=\"game-id\">{g}</span> \
         <span class=\"turn\">{turn}</span>{players} {clocks}</div>",
        g = esc(&game.game),
        turn = esc(&lang.t_args("board-turn", &[("turn", game.turn.into())])),
    )
}

/// How the board is asked for: `?projector` for the hall's big screen.
#[derive(serde::Deserialize)]
pub(crate) struct PageQuery {
    projector: Option<String>,
}

/// `/board/<tournament>`, or `/board/<tournament>?projector` for a 1920x1080 screen: the same
/// content in large type, no header, two columns that fit the screen, the standings paging by
/// themselves (`board-projector.js`).
pub(crate) async fn page(
    axum::extract::State(state): axum::extract::State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    axum::extract::Path(tournament): axum::extract::Path<String>,
    axum::extract::Query(query): axum::extract::Query<PageQuery>,
) -> Result<axum::response::Html<String>, PageError> {
    let id = tournament_id(&tournament)?;
    let projector = query.projector.is_some();
    let position = state.log.last_position()?;
    let (content, _) = render(&state, &viewer.metadata, &id, lang).await?;
    let (class, after, scripts) = match projector {
        true => (" projector", String::new(), &["live.js", "board-projector.js"][..]),
        false => (
            "",
            format!(
                "<p class=\"board-links\"><a href=\"/board/{t}?projector\" id=\"projector-link\">{label}</a></p>{checkpoint}",
                t = esc(id.id()),
                label = esc(&lang.t("board-projector-link")),
                checkpoint = checkpoint(&state, lang)?,
            ),
            &["live.js"][..],
        ),
    };
    let body = format!(
        "<section class=\"board{class}\" id=\"board\" data-live=\"/board/{t}/live?from={from}\" data-event=\"board\">{content}</section>{status}{after}",
        t = esc(id.id()),
        from = position + 1,
        status = status_line(lang, &lang.t("live-now")),
    );
    let title = lang.t_args("board-title", &[("tournament", id.id().to_owned().into())]);
    Ok(axum::response::Html(shell(lang, &title, Some(&viewer), &body, scripts)))
}

/// The latest signed checkpoint as text and as a QR code a player can photograph, to check
/// proofs against it later (`ledgerctl verify-proof`); nothing without `--signing-key`. As of
/// when the page was opened: the live part above is the standings.
fn checkpoint(state: &WebState, lang: Lang) -> Result<String, PageError> {
    let Some(proofs) = state.proofs.as_ref() else { return Ok(String::new()) };
    let Some((note, witnesses)) = proofs.latest_note() else { return Ok(String::new()) };
    let qr = ledger_house::paper::qr::svg(&note, &lang.t("board-checkpoint"))
        .map_err(|e| PageError::from(Error::Internal(e.to_string())))?;
    let cosigned = match witnesses.is_empty() {
        true => String::new(),
        false => format!(
            "<p>{}</p>",
            esc(&lang.t_args("board-checkpoint-witnesses", &[("witnesses", witnesses.join(", ").into())]))
        ),
    };
    Ok(format!(
        "<section class=\"checkpoint\"><h2>{title}</h2><p>{help}</p>{cosigned}<pre>{note}</pre>{qr}</section>",
        title = esc(&lang.t("board-checkpoint")),
        help = esc(&lang.t("board-checkpoint-help")),
        note = esc(&note),
    ))
}

#[derive(serde::Deserialize)]
pub(crate) struct LiveQuery {
    from: Option<u64>,
}

pub(crate) async fn live(
    axum::extract::State(state): axum::extract::State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    axum::extract::Path(tournament): axum::extract::Path<String>,
    axum::extract::Query(query): axum::extract::Query<LiveQuery>,
) -> Result<Live, PageError> {
    let id = tournament_id(&tournament)?;
    // Refused now rather than on the first commit.
    let clocks = may_see(&state, &viewer.metadata)?;
    let (log, stream) = (Arc::clone(&state.log), id.clone());
    if blocking(move || Ok(log.read_stream(&stream, 1, 1)?)).await?.is_empty() {
        let error = PageError::from(Error::NotFound(format!("no tournament {id}")));
        return Err(error.saying(Say::new("error-no-tournament").arg("id", id.id())));
    }
    let viewing = shared::watch(&state, LiveBoard { tournament: id, clocks }, lang);
    let asking = state.clone();
    let claim = crate::live::sse::Claim::of(&viewer);
    let may_see_still = move || may_see(&asking, &viewer.metadata).map(drop);
    crate::live::sse::shared(&state, &claim, query.from.unwrap_or(1), viewing, lang, may_see_still)
}

/// The board as a live page: one tournament's, with the running games' clocks or without.
struct LiveBoard {
    tournament: StreamId,
    clocks: bool,
}

impl LivePage for LiveBoard {
    fn key(&self) -> Key {
        Key { event: "board", of: Some(self.tournament.clone()) }
    }

    fn view(&self) -> &'static str {
        if self.clocks {
            "clocks"
        } else {
            "no clocks"
        }
    }

    /// The tournament's stream, or one of the games the board showed last.
    fn changes(&self, games: &BTreeSet<String>, record: &Recorded) -> bool {
        let stream = &record.envelope.stream;
        *stream == self.tournament || (stream.kind() == StreamKind::Game && games.contains(stream.id()))
    }

    fn render<'a>(&'a self, state: &'a WebState, lang: Lang) -> Rendering<'a> {
        Box::pin(async move {
            let (html, games) = render_variant(state, &self.tournament, lang, self.clocks).await?;
            Ok(Rendered { html, follows: Some(games) })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::Ruleset;
    use replay::Rational;
    use std::collections::BTreeMap;

    #[test]
    fn a_withdrawal_and_a_stand_in_are_marked_in_each_language() {
        let row = |player: &str, withdrawn: Option<u32>| replay::standings::StandingRow {
            rank: 1,
            player: player.into(),
            name: player.into(),
            total: Rational::ZERO,
            games_counted: 1,
            scores: BTreeMap::new(),
            tie_breakers: Vec::new(),
            decided_by: None,
            withdrawn,
        };
        let standings = Standings {
            tournament: "relief".into(),
            ruleset: Ruleset::Cafe2023,
            rows: vec![row("Otter", Some(3)), row("Heron", None), row("Lynx", Some(1))],
            finalists: vec!["Heron".into()],
            finalists_settled: false,
            pending_games: vec!["q3-t1".into()],
            final_result: None,
        };
        let facts = TournamentFacts {
            stand_ins: vec![("stand-in 1".into(), "stand-in 1".into()), ("stand-in 2".into(), "stand-in 2".into())],
            ..TournamentFacts::default()
        };
        let seats = ledger::event::Seats {
            frederick: "Heron".into(),
            elisabeth: "stand-in 2".into(),
            maria_theresa: "Wren".into(),
            pompadour: "stand-in 1".into(),
        };
        let day = Day {
            running: vec![Running { game: "q3-t1".into(), turn: 2, clock: None, seats: Some(seats) }],
            unstarted: BTreeSet::new(),
        };
        let es = board_html(Lang::Es, &standings, &facts, &day);
        assert!(es.contains("<tr class=\"withdrawn\" data-player=\"Otter\">"), "{es}");
        assert!(es.contains("<span class=\"withdrawn-note\">se retiró tras la ronda 2</span>"), "{es}");
        assert!(es.contains("se retiró antes de la ronda 1"), "{es}");
        assert!(es.contains("<tr class=\"finalist\" data-player=\"Heron\">"), "{es}");
        assert!(es.contains("Isabel: <span class=\"stand-in\">suplente 2</span>"), "{es}");
        assert!(
            es.contains("suplentes, sin clasificar: suplente 1, suplente 2") && !es.contains("stand-in 1<"),
            "{es}"
        );
        let en = board_html(Lang::En, &standings, &facts, &day);
        assert!(en.contains("withdrew after round 2") && en.contains("withdrew before round 1"), "{en}");
        assert!(en.contains("Pompadour: <span class=\"stand-in\">stand-in 1</span>"), "{en}");
    }
}
