//! `ledgerctl tournament …` and `ledgerctl draw verify`: organisers run the tournament on the
//! ledger — create it, register players, draw the qualifying rounds, schedule games, and let
//! the finalists choose their roles.

use super::append::append_events;
use super::{connect, from_status, read_input, Cli, CliError};
use crate::convert::FromProto;
use ledger::check::{check_stream, parse_lines};
use ledger::draw::{draw_qualifying, verify_draw, QualifyingDraw};
use ledger::event::Seats;
use ledger::rules::{Rules, TournamentState};
use ledger::{Event, Recorded, Role, Ruleset, Stage, StreamId, StreamState};
use ledger_proto::v1 as pb;
use serde_json::json;
use std::path::Path;
use tokio_stream::StreamExt;

fn tournament_id(text: &str) -> Result<StreamId, CliError> {
    StreamId::tournament(text.strip_prefix("tournament/").unwrap_or(text))
        .map_err(|r| CliError::Refused(format!("INVALID_ARGUMENT: {r}")))
}

fn parse<T>(text: &str, what: &str, parse: fn(&str) -> Option<T>, choices: &str) -> Result<T, CliError> {
    parse(text).ok_or_else(|| CliError::Failed(format!("unknown {what} `{text}`: use {choices}")))
}

/// The tournament's rules state as the server holds it (voided events left out).
async fn tournament_state(cli: &Cli, id: &StreamId) -> Result<TournamentState, CliError> {
    let mut client = connect(cli).await?;
    let request = pb::ReadRequest { stream: id.to_string(), from_seq: 1, limit: None };
    let mut events = client.read(request).await.map_err(|s| from_status(&s))?.into_inner();
    let mut state = StreamState::new(id, None);
    while let Some(item) = events.next().await {
        let record = Recorded::from_proto(item.map_err(|s| from_status(&s))?)
            .map_err(|r| CliError::Failed(format!("the server sent {r}")))?;
        state.evolve(&record.event);
    }
    match state.rules() {
        Rules::Tournament(t) if t.ruleset.is_some() => Ok(t.clone()),
        _ => Err(CliError::Refused(format!("NOT_FOUND: there is no tournament {id}"))),
    }
}

pub async fn create(
    cli: &Cli,
    id: &str,
    name: &str,
    ruleset: &str,
    clock_minutes: Option<u64>,
) -> Result<(), CliError> {
    let ruleset = parse(ruleset, "ruleset", Ruleset::parse, "wm2015, cafe2019 or cafe2023")?;
    let event = Event::TournamentCreated {
        name: name.to_owned(),
        ruleset,
        clock_ms_per_side: clock_minutes.map(|m| m * 60_000),
    };
    append_events(cli, &tournament_id(id)?, vec![event]).await
}

pub async fn register(
    cli: &Cli,
    tournament: &str,
    player: &str,
    name: &str,
    pseudonym: Option<&str>,
) -> Result<(), CliError> {
    let event = Event::PlayerRegistered {
        player: player.to_owned(),
        name: name.to_owned(),
        pseudonym: pseudonym.map(str::to_owned),
    };
    append_events(cli, &tournament_id(tournament)?, vec![event]).await
}

fn print_draw(cli: &Cli, draw: &QualifyingDraw) {
    if cli.json {
        let repeats: Vec<_> =
            draw.repeats.iter().map(|r| json!({"players": r.players, "times_met": r.times_met})).collect();
        say!("{}", json!({"event": ledger::event::to_canonical_json(&draw.to_event()), "repeats": repeats}));
        return;
    }
    let mut round = 0;
    for g in &draw.games {
        if g.round != round {
            round = g.round;
            say!("round {round}");
        }
        let s = &g.seats;
        say!(
            "  table {:<3} {:<8} frederick {} · elisabeth {} · maria_theresa {} · pompadour {}",
            g.table,
            g.game,
            s.frederick,
            s.elisabeth,
            s.maria_theresa,
            s.pompadour
        );
    }
    if draw.repeats.is_empty() {
        say!("no two players share a table twice");
    } else {
        say!("{} pairs meet more than once (unavoidable with {} players):", draw.repeats.len(), draw.games.len());
        for r in &draw.repeats {
            say!("  {} and {}: {} times", r.players[0], r.players[1], r.times_met);
        }
    }
}

pub async fn draw(cli: &Cli, tournament: &str, seed: u64, dry_run: bool) -> Result<(), CliError> {
    let id = tournament_id(tournament)?;
    let state = tournament_state(cli, &id).await?;
    let draw = draw_qualifying(&state.registration_order, seed).map_err(|e| CliError::Refused(e.to_string()))?;
    print_draw(cli, &draw);
    if dry_run {
        return Ok(());
    }
    append_events(cli, &id, vec![draw.to_event()]).await
}

/// Recomputes the recorded draw from its seed and the registered players.
pub async fn verify(cli: &Cli, tournament: &str, file: Option<&Path>) -> Result<(), CliError> {
    let id = tournament_id(tournament)?;
    let state_and_events = match file {
        Some(path) => {
            let lines = parse_lines(&read_input(Some(path))?).map_err(|e| CliError::Refused(e.to_string()))?;
            let name = id.to_string();
            let lines: Vec<_> = lines.into_iter().filter(|l| l.stream.as_deref().is_none_or(|s| s == name)).collect();
            let state = check_stream(&id, None, &lines).map_err(|e| CliError::Refused(e.to_string()))?;
            let Rules::Tournament(t) = state.rules() else { unreachable!("a tournament stream") };
            (t.clone(), lines.into_iter().map(|l| l.event).collect::<Vec<_>>())
        }
        None => {
            let state = tournament_state(cli, &id).await?;
            let mut client = connect(cli).await?;
            let request = pb::ReadRequest { stream: id.to_string(), from_seq: 1, limit: None };
            let records: Vec<_> = client.read(request).await.map_err(|s| from_status(&s))?.into_inner().collect().await;
            let mut events = Vec::new();
            for item in records {
                let record = Recorded::from_proto(item.map_err(|s| from_status(&s))?)
                    .map_err(|r| CliError::Failed(format!("the server sent {r}")))?;
                events.push(record.event);
            }
            (state, events)
        }
    };
    let (state, events) = state_and_events;
    let Some((seed, games)) = events.iter().find_map(|e| match e {
        Event::QualifyingDrawn { seed, games } => Some((*seed, games.clone())),
        _ => None,
    }) else {
        return Err(CliError::Refused(format!("{id} has no recorded qualifying draw")));
    };
    verify_draw(&state.registration_order, seed, &games).map_err(|difference| {
        CliError::Refused(format!("the recorded draw is not the draw of seed {seed}: {difference}"))
    })?;
    if cli.json {
        say!("{}", json!({"ok": true, "seed": seed, "games": games.len(), "players": state.registration_order.len()}));
    } else {
        say!(
            "ok: the recorded draw is the draw of seed {seed} for the {} registered players ({} games)",
            state.registration_order.len(),
            games.len()
        );
    }
    Ok(())
}

/// Seats by role, as given on the command line.
pub struct SeatArgs<'a> {
    pub frederick: &'a str,
    pub elisabeth: &'a str,
    pub maria_theresa: &'a str,
    pub pompadour: &'a str,
}

pub async fn schedule(
    cli: &Cli,
    tournament: &str,
    game: &str,
    stage: &str,
    round: u32,
    table: u32,
    seats: SeatArgs<'_>,
) -> Result<(), CliError> {
    let stage = parse(stage, "stage", Stage::parse, "qualifying or final")?;
    let event = Event::GameScheduled {
        game: game.to_owned(),
        stage,
        round,
        table,
        seats: Seats {
            frederick: seats.frederick.to_owned(),
            elisabeth: seats.elisabeth.to_owned(),
            maria_theresa: seats.maria_theresa.to_owned(),
            pompadour: seats.pompadour.to_owned(),
        },
    };
    append_events(cli, &tournament_id(tournament)?, vec![event]).await
}

pub async fn choose(cli: &Cli, tournament: &str, player: &str, role: &str) -> Result<(), CliError> {
    let role = parse(role, "role", Role::parse, "frederick, elisabeth, maria_theresa or pompadour")?;
    let event = Event::FinalRoleChosen { player: player.to_owned(), role };
    append_events(cli, &tournament_id(tournament)?, vec![event]).await
}

/// Draws a lot among tied players from a seed and records it.
pub async fn lot(cli: &Cli, tournament: &str, purpose: &str, seed: u64, players: &[String]) -> Result<(), CliError> {
    let order = ledger::draw::lot_order(players, seed);
    if cli.json {
        say!("{}", json!({"purpose": purpose, "seed": seed, "order": order}));
    } else {
        say!("lot for {purpose} (seed {seed}): {}", order.join(" > "));
    }
    let event = Event::LotDrawn { purpose: purpose.to_owned(), seed, order };
    append_events(cli, &tournament_id(tournament)?, vec![event]).await
}

/// Schedules the final from the four choices.
pub async fn schedule_final(cli: &Cli, tournament: &str, game: &str, table: u32) -> Result<(), CliError> {
    let id = tournament_id(tournament)?;
    let state = tournament_state(cli, &id).await?;
    let chosen = |role: Role| {
        state.final_roles.get(&role).cloned().ok_or_else(|| {
            CliError::Refused(format!("no finalist has chosen {role} yet: `ledgerctl tournament final choose` first"))
        })
    };
    let seats = Seats {
        frederick: chosen(Role::Frederick)?,
        elisabeth: chosen(Role::Elisabeth)?,
        maria_theresa: chosen(Role::MariaTheresa)?,
        pompadour: chosen(Role::Pompadour)?,
    };
    let round = state.games.values().map(|g| g.round).max().unwrap_or(0) + 1;
    let event = Event::GameScheduled { game: game.to_owned(), stage: Stage::Final, round, table, seats };
    append_events(cli, &id, vec![event]).await
}
