//! The public standings board of a tournament: pseudonyms only (the Projections service's
//! public standings, the same JSON as `ledgerctl standings --public --json`), each player's
//! role scores as they are fixed, totals, every tie-breaker, the games still running with their
//! turn and chess clocks, and the final. It follows the log: every commit to the tournament or
//! one of its games re-renders the board, pushed as a server-sent event within the second.

use super::auth::Viewer;
use super::game::table_now_ms;
use super::layout::{esc, hms, shell, short_id};
use super::sse::{follow, html_event, Live};
use super::{blocking, wall_ms, PageError, WebState};
use ledger::{Event, Recorded, StreamId, StreamKind};
use ledger_proto::v1 as pb;
use ledger_proto::v1::projections_server::Projections;
use replay::clock::ClockView;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use tonic::metadata::MetadataMap;

fn tournament_id(text: &str) -> Result<StreamId, PageError> {
    let id = StreamId::tournament(short_id(text)).map_err(crate::status::from_rejection)?;
    Ok(id)
}

/// A running game as the board shows it.
struct Running {
    game: String,
    turn: u32,
    clock: Option<ClockView>,
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

/// The board's content and the games it shows.
async fn render(
    state: &WebState,
    metadata: &MetadataMap,
    tournament: &StreamId,
) -> Result<(String, BTreeSet<String>), PageError> {
    let mut request = tonic::Request::new(pb::StandingsRequest {
        tournament: tournament.to_string(),
        public: true,
        as_of_position: None,
    });
    *request.metadata_mut() = metadata.clone();
    let standings: Value = serde_json::from_str(&state.projections.get_standings(request).await?.into_inner().json)
        .map_err(|e| PageError::internal(format!("standings JSON: {e}")))?;
    let pending: Vec<String> = strings(&standings["pending_games"]);
    let mut games: BTreeSet<String> = pending.iter().cloned().collect();
    if let Some(final_game) = standings["final"]["game"].as_str() {
        games.insert(final_game.to_owned());
    }
    // The public may see clocks; the turn of a running game is read here and shown alone.
    let mut running = Vec::new();
    for game in &pending {
        let Ok(id) = StreamId::game(game) else { continue };
        let log = Arc::clone(&state.log);
        let records = blocking(move || Ok(log.read_stream(&id, 1, usize::MAX)?)).await?;
        if records.is_empty() {
            continue;
        }
        let (turn, now_ms) = turn_and_now(&records);
        let mut request =
            tonic::Request::new(pb::ClockRequest { game: game.clone(), as_of_seq: None, now_at_ms: Some(now_ms) });
        *request.metadata_mut() = metadata.clone();
        let clock = match state.projections.get_clock(request).await {
            Ok(answer) => serde_json::from_str(&answer.into_inner().json).ok(),
            Err(_) => None,
        };
        running.push(Running { game: game.clone(), turn, clock });
    }
    Ok((board_html(&standings, &running), games))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn decided(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.replace('_', " "),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                Value::Object(inner) => format!(
                    "{} {}",
                    k.replace('_', " "),
                    inner.values().map(text).collect::<Vec<_>>().join(" ").replace('_', " ")
                ),
                other => format!("{} {}", k.replace('_', " "), text(other)),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

const ROLES: [&str; 4] = ["frederick", "elisabeth", "maria_theresa", "pompadour"];

fn board_html(standings: &Value, running: &[Running]) -> String {
    let mut out = format!(
        "<h1 class=\"board-title\">{} <span class=\"muted\">{}</span></h1>",
        esc(&text(&standings["tournament"])),
        esc(&text(&standings["ruleset"]))
    );
    out.push_str(
        "<table class=\"standings\" id=\"standings\"><thead><tr><th>#</th><th>Player</th>\
         <th>Frederick</th><th>Elisabeth</th><th>Maria Theresa</th><th>Pompadour</th><th>Games</th><th>Total</th>\
         <th class=\"tb\">Tie-breakers</th></tr></thead><tbody>",
    );
    let finalists = strings(&standings["finalists"]);
    for row in standings["rows"].as_array().into_iter().flatten() {
        let player = text(&row["player"]);
        let scores: String =
            ROLES.iter().map(|role| format!("<td class=\"num\">{}</td>", esc(&text(&row["scores"][*role])))).collect();
        let tie_breakers: String = row["tie_breakers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|tb| !tb["value"].is_null())
            .map(|tb| {
                format!(
                    "<span class=\"tiebreak\">{} {}</span>",
                    esc(&text(&tb["name"]).replace('_', " ")),
                    esc(&text(&tb["display"]))
                )
            })
            .collect();
        let by = decided(&row["decided_by"]);
        let by = if by.is_empty() { String::new() } else { format!("<span class=\"decided\">by {}</span>", esc(&by)) };
        out.push_str(&format!(
            "<tr class=\"{finalist}\" data-player=\"{p}\"><td class=\"num\">{rank}</td><td class=\"player\">{p}</td>{scores}\
             <td class=\"num\">{games}</td><td class=\"num total\">{total}</td><td class=\"tb\">{by}{tie_breakers}</td></tr>",
            finalist = if finalists.contains(&player) { "finalist" } else { "" },
            p = esc(&player),
            rank = text(&row["rank"]),
            games = text(&row["games_counted"]),
            total = esc(&text(&row["total"])),
        ));
    }
    out.push_str("</tbody></table>");
    if !finalists.is_empty() {
        let settled =
            if standings["finalists_settled"].as_bool() == Some(true) { "finalists" } else { "finalists so far" };
        out.push_str(&format!("<p class=\"finalists\">{settled}: {}</p>", esc(&finalists.join(", "))));
    }
    out.push_str("<h2>Games running</h2>");
    if running.is_empty() {
        out.push_str("<p class=\"muted\" id=\"no-running\">none</p>");
    }
    out.push_str("<div class=\"running\" id=\"running\">");
    for game in running {
        out.push_str(&running_html(game));
    }
    out.push_str("</div>");
    let final_game = &standings["final"];
    if !final_game.is_null() {
        let seats: String = ROLES
            .iter()
            .map(|role| format!("<li>{}: {}</li>", role.replace('_', " "), esc(&text(&final_game["seats"][*role]))))
            .collect();
        let winner = match final_game["winner"].as_str() {
            Some(winner) => format!(
                "<p class=\"winner\">Winner: <strong>{}</strong> ({})</p>",
                esc(winner),
                esc(&decided(&final_game["decided_by"]))
            ),
            None => "<p class=\"muted\">not decided yet</p>".to_owned(),
        };
        out.push_str(&format!(
            "<h2>The final <span class=\"muted\">{}</span></h2><ul class=\"seats\">{seats}</ul>{winner}",
            esc(&text(&final_game["game"]))
        ));
    }
    out
}

fn running_html(game: &Running) -> String {
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
                    label = if *side == ledger::ClockSide::Prussia { "Prussia" } else { "Attackers" },
                    ms = view.remaining_ms,
                    ticking = if on { " data-running=\"down\"" } else { "" },
                    shown = hms(view.remaining_ms),
                )
            })
            .collect(),
        None => "<span class=\"muted\">no clock yet</span>".to_owned(),
    };
    let running = game.clock.as_ref().and_then(|c| c.running).map_or("none", |side| side.as_str());
    format!(
        "<div class=\"game\" data-game=\"{g}\" data-running=\"{running}\"><span class=\"game-id\">{g}</span> \
         <span class=\"turn\">turn {turn}</span> {clocks}</div>",
        g = esc(&game.game),
        turn = game.turn,
    )
}

pub(crate) async fn page(
    axum::extract::State(state): axum::extract::State<WebState>,
    viewer: Viewer,
    axum::extract::Path(tournament): axum::extract::Path<String>,
) -> Result<axum::response::Html<String>, PageError> {
    let id = tournament_id(&tournament)?;
    let position = state.log.last_position()?;
    let (content, _) = render(&state, &viewer.metadata, &id).await?;
    let body = format!(
        "<section class=\"board\" id=\"board\" data-live=\"/board/{t}/live?from={from}\" data-event=\"board\">{content}</section>\
         <p class=\"live-status muted\" id=\"live-status\">live</p>",
        t = esc(id.id()),
        from = position + 1,
    );
    Ok(axum::response::Html(shell(&format!("Standings {}", id.id()), Some(&viewer), &body, &["live.js"])))
}

#[derive(serde::Deserialize)]
pub(crate) struct LiveQuery {
    from: Option<u64>,
}

pub(crate) async fn live(
    axum::extract::State(state): axum::extract::State<WebState>,
    viewer: Viewer,
    axum::extract::Path(tournament): axum::extract::Path<String>,
    axum::extract::Query(query): axum::extract::Query<LiveQuery>,
) -> Result<Live, PageError> {
    let id = tournament_id(&tournament)?;
    // Refused now rather than on the first commit.
    let (_, games) = render(&state, &viewer.metadata, &id).await?;
    let games = Arc::new(Mutex::new(games));
    let watched = Arc::clone(&games);
    let tournament = id.clone();
    let render_state = state.clone();
    follow(
        &state,
        query.from.unwrap_or(1),
        move |record| {
            let stream = &record.envelope.stream;
            *stream == tournament
                || (stream.kind() == StreamKind::Game
                    && watched.lock().map(|g| g.contains(stream.id())).unwrap_or(true))
        },
        move |position| {
            let (state, metadata, id, games) =
                (render_state.clone(), viewer.metadata.clone(), id.clone(), Arc::clone(&games));
            async move {
                match render(&state, &metadata, &id).await {
                    Ok((html, shown)) => {
                        if let Ok(mut games) = games.lock() {
                            *games = shown;
                        }
                        Some(html_event("board", position, &html))
                    }
                    Err(error) => Some(html_event("refused", position, &esc(&error.message))),
                }
            }
        },
    )
}
