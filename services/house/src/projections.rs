//! The inputs of the `replay` projections, gathered from many streams: which tournament
//! scheduled a game (and so its ruleset), which games a tournament's standings need, and the
//! year of a tournament for statistics. Pure: the server fills [`Streams`] from the log, the
//! CLI from a JSON Lines file, and both get the same numbers. The Andes projections of a match
//! are in [`andes`].

pub mod andes;
pub mod andes_table;
pub mod player;
pub mod table;

use ledger::rules::Rules;
use ledger::{Event, Recorded, Ruleset, StreamId, StreamKind, StreamState};
use replay::season::GameProgress;
use replay::standings::TournamentFacts;
use replay::stats::{self, Filter, GameRecord, Stats};
use replay::{ScoreError, ScoreSheet, Standings, StandingsError};
use std::collections::BTreeMap;

/// Events of many streams as `(seq, event)`, by stream.
pub type Streams = BTreeMap<StreamId, Vec<(u64, Event)>>;

/// Why a projection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    #[error("there is no stream {0}")]
    NotFound(String),
    #[error("{0}")]
    Score(#[from] ScoreError),
    #[error("{0}")]
    Standings(#[from] StandingsError),
    #[error("{0}")]
    Andes(#[from] replay::andes::AndesReplayError),
}

/// Streams from stored records, in order.
pub fn from_records<'a>(records: impl IntoIterator<Item = &'a Recorded>) -> Streams {
    let mut streams = Streams::new();
    for record in records {
        streams.entry(record.envelope.stream.clone()).or_default().push((record.envelope.seq, record.event.clone()));
    }
    streams
}

/// The ruleset of the tournament whose draw or schedule names `game`, if any.
pub fn scheduled_ruleset(streams: &Streams, game: &str) -> Option<Ruleset> {
    streams.iter().filter(|(id, _)| id.kind() == StreamKind::Tournament).find_map(|(_, events)| {
        let facts = TournamentFacts::fold(events);
        facts.games.iter().any(|g| g.game == game).then_some(facts.ruleset).flatten()
    })
}

/// There is no tournament of this id: its stream created none (voids honoured).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no tournament {0}")]
pub struct NoTournament(pub StreamId);

/// A tournament's schedule after its stream's `records` (voided events left out), or
/// [`NoTournament`] when they created none. `ledgerctl` and the web pages read a tournament so,
/// each saying "not found" its own way.
///
/// # Errors
/// The records hold no `tournament_created` that stands.
pub fn created_tournament(id: &StreamId, records: &[Recorded]) -> Result<TournamentFacts, NoTournament> {
    let events: Vec<(u64, Event)> = records.iter().map(|r| (r.envelope.seq, r.event.clone())).collect();
    let facts = TournamentFacts::fold(&events);
    match facts.ruleset {
        Some(_) => Ok(facts),
        None => Err(NoTournament(id.clone())),
    }
}

/// The game ids a tournament's events schedule, in schedule order.
pub fn tournament_games(tournament_events: &[(u64, Event)]) -> Vec<String> {
    TournamentFacts::fold(tournament_events).games.into_iter().map(|g| g.game).collect()
}

/// A game's progress after its stream's `events`, as the ledger's rules fold them (voids
/// applied): the facade's replay and the read models' summaries both ask it, so they agree.
pub fn game_progress<'a>(game: &StreamId, events: impl IntoIterator<Item = &'a Event>) -> GameProgress {
    let mut state = StreamState::new(game, None);
    for event in events {
        state.evolve(event);
    }
    match state.rules() {
        Rules::Game(game) => GameProgress { started: game.started, ended: game.ended.is_some() },
        _ => GameProgress::default(),
    }
}

/// A game's score sheet, as of a seq if given.
///
/// # Errors
/// The game has no events, or cannot be scored yet.
pub fn score_sheet(streams: &Streams, game: &StreamId, as_of_seq: Option<u64>) -> Result<ScoreSheet, ProjectionError> {
    let events =
        streams.get(game).filter(|e| !e.is_empty()).ok_or_else(|| ProjectionError::NotFound(game.to_string()))?;
    let scheduled = scheduled_ruleset(streams, game.id());
    Ok(match as_of_seq {
        Some(seq) => replay::score_game_as_of(scheduled, events, seq)?,
        None => replay::score_game(scheduled, events)?,
    })
}

/// The games of one tournament, by game id, as `replay::standings` takes them.
fn games_of(streams: &Streams, tournament_events: &[(u64, Event)]) -> BTreeMap<String, Vec<(u64, Event)>> {
    tournament_games(tournament_events)
        .into_iter()
        .filter_map(|game| {
            let id = StreamId::game(&game).ok()?;
            streams.get(&id).map(|events| (game, events.clone()))
        })
        .collect()
}

/// A tournament's standings.
///
/// # Errors
/// The tournament has no events, or its games cannot be scored.
pub fn standings(streams: &Streams, tournament: &StreamId) -> Result<Standings, ProjectionError> {
    let events = streams.get(tournament).ok_or_else(|| ProjectionError::NotFound(tournament.to_string()))?;
    Ok(replay::standings(events, &games_of(streams, events))?)
}

/// Role and nation statistics over every tournament in `streams`. `years` gives each
/// tournament's year where it is known.
///
/// # Errors
/// A tournament's games cannot be scored.
pub fn role_stats(
    streams: &Streams,
    years: &BTreeMap<StreamId, i32>,
    filter: &Filter,
) -> Result<Stats, ProjectionError> {
    let mut records: Vec<GameRecord> = Vec::new();
    for (id, events) in streams.iter().filter(|(id, _)| id.kind() == StreamKind::Tournament) {
        // Analysts filter by the tournament's id (its stream), not its display name.
        let mut found = stats::tournament_records(events, &games_of(streams, events), years.get(id).copied())?;
        for record in &mut found {
            record.tournament = Some(id.id().to_owned());
        }
        records.extend(found);
    }
    Ok(stats::stats(&records, filter))
}

/// Statistics as a table a person reads.
pub fn stats_text(stats: &Stats) -> String {
    let json = stats.to_json();
    let mut out = format!("{} games\n", json.games);
    let mut section = |title: &str, rows: Vec<(String, replay::stats::LineJson)>| {
        out.push_str(&format!(
            "\n{title:<14} {:>6} {:>6} {:>9} {:>19} {:>10}\n",
            "games", "wins", "win rate", "95% interval", "avg score"
        ));
        for (name, line) in rows {
            let show = |n: &Option<serde_json::Number>| n.as_ref().map_or_else(|| "-".to_owned(), ToString::to_string);
            let interval = format!("{} – {}", show(&line.wilson_low), show(&line.wilson_high));
            out.push_str(&format!(
                "{name:<14} {:>6} {:>6} {:>9} {interval:>19} {:>10}\n",
                line.games,
                line.wins,
                show(&line.win_rate),
                show(&line.average_score)
            ));
        }
    };
    section("role", json.roles.iter().map(|(r, l)| (r.to_string(), l.clone())).collect());
    section("nation", json.nations.iter().map(|(n, l)| (n.to_string(), l.clone())).collect());
    if !stats.tournaments.is_empty() {
        let covered: Vec<String> = stats.tournaments.iter().map(|t| format!("{} ({})", t.id, t.name)).collect();
        out.push_str(&format!("\ntournaments: {}\n", covered.join(", ")));
    }
    out
}

/// Who sat where in a game, from the tournament that scheduled it.
pub fn game_seats(streams: &Streams, game: &StreamId) -> Option<ledger::event::Seats> {
    streams.iter().filter(|(id, _)| id.kind() == StreamKind::Tournament).find_map(|(_, events)| {
        TournamentFacts::fold(events).games.into_iter().find(|g| g.game == game.id()).map(|g| g.slot.seats)
    })
}

/// The ruleset and clock length of a game: from the tournament that scheduled it, else from
/// its own `game_started`.
pub fn game_settings(streams: &Streams, game: &StreamId) -> (Option<Ruleset>, u64) {
    let mut ms_per_side = replay::clock::DEFAULT_MS_PER_SIDE;
    let mut ruleset = None;
    for (_, events) in streams.iter().filter(|(id, _)| id.kind() == StreamKind::Tournament) {
        if tournament_games(events).iter().any(|g| g == game.id()) {
            for (_, event) in events {
                if let Event::TournamentCreated { ruleset: r, clock_ms_per_side, .. } = event {
                    ruleset = Some(*r);
                    ms_per_side = clock_ms_per_side.unwrap_or(ms_per_side);
                }
            }
        }
    }
    if ruleset.is_none() {
        ruleset = streams
            .get(game)
            .and_then(|events| events.iter().find_map(|(_, e)| replay::sheet::started_with(e).flatten()));
    }
    (ruleset, ms_per_side)
}

/// A game's chess clock as of a seq (voids known by then left out), extrapolated to the table
/// time `now_at_ms` if given.
///
/// # Errors
/// The game has no events or no ruleset.
pub fn clock(
    streams: &Streams,
    game: &StreamId,
    as_of_seq: Option<u64>,
    now_at_ms: Option<u64>,
) -> Result<replay::clock::ClockView, ProjectionError> {
    let events =
        streams.get(game).filter(|e| !e.is_empty()).ok_or_else(|| ProjectionError::NotFound(game.to_string()))?;
    let (ruleset, ms_per_side) = game_settings(streams, game);
    let ruleset = ruleset.ok_or(ProjectionError::Score(ScoreError::NoRuleset))?;
    let as_of = as_of_seq.unwrap_or(u64::MAX);
    let prefix: Vec<(u64, Event)> = events.iter().filter(|(seq, _)| *seq <= as_of).cloned().collect();
    let voided = replay::sheet::voided_seqs(&prefix);
    let mut fold = replay::clock::ClockFold::new(ruleset, ms_per_side);
    for (seq, event) in prefix.iter().filter(|(seq, _)| !voided.contains(seq)) {
        fold.apply(*seq, event);
    }
    Ok(fold.view(now_at_ms))
}

/// Who is known by which name in public, by player id: the registered players and stand-ins
/// of `events` (a tournament's stream), as [`pseudonymize`] names them.
pub fn pseudonyms(events: &[(u64, Event)]) -> BTreeMap<String, String> {
    let mut alias: BTreeMap<String, String> = BTreeMap::new();
    let mut taken: BTreeMap<String, u32> = BTreeMap::new();
    let mut unique = |base: String| {
        let count = taken.entry(base.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            base
        } else {
            format!("{base} #{count}")
        }
    };
    // Who is registered in the end, in registration order: a registration taken back
    // (`player_unregistered`) frees its pseudonym and its number.
    let mut players: Vec<(&String, &Option<String>)> = Vec::new();
    let mut stand_ins: Vec<&String> = Vec::new();
    for (_, event) in events {
        match event {
            Event::PlayerRegistered { player, pseudonym, .. } => players.push((player, pseudonym)),
            Event::StandInRegistered { player, .. } => stand_ins.push(player),
            Event::PlayerUnregistered { player } => {
                players.retain(|(p, _)| *p != player);
                stand_ins.retain(|p| *p != player);
            }
            _ => {}
        }
    }
    for (player, pseudonym) in players {
        let base =
            pseudonym.clone().filter(|p| !p.trim().is_empty()).unwrap_or_else(|| format!("player {}", alias.len() + 1));
        let name = unique(base);
        alias.entry(player.clone()).or_insert(name);
    }
    for (n, player) in (1..).zip(stand_ins) {
        let name = unique(format!("stand-in {n}"));
        alias.entry(player.clone()).or_insert(name);
    }
    alias
}

/// The same tournament with every player known only by a pseudonym: ids, names, seats, lots
/// and role choices are all rewritten, so that standings computed from it name nobody (the WM
/// rules publish standings this way). A player without a pseudonym becomes `player N`
/// (registration order); two players who chose the same pseudonym get `#2`, `#3` after it. A
/// stand-in (never ranked) is shown as `stand-in N`, in its registration order.
pub fn pseudonymize(events: &[(u64, Event)]) -> Vec<(u64, Event)> {
    use ledger::event::Seats;
    let alias = pseudonyms(events);
    let hide = |player: &String| alias.get(player).cloned().unwrap_or_else(|| "unregistered player".to_owned());
    let seats = |s: &Seats| Seats {
        frederick: hide(&s.frederick),
        elisabeth: hide(&s.elisabeth),
        maria_theresa: hide(&s.maria_theresa),
        pompadour: hide(&s.pompadour),
    };
    events
        .iter()
        .map(|(seq, event)| {
            let public = match event.clone() {
                Event::PlayerRegistered { player, .. } => {
                    let shown = hide(&player);
                    Event::PlayerRegistered { player: shown.clone(), name: shown.clone(), pseudonym: Some(shown) }
                }
                Event::QualifyingDrawn { seed, games } => Event::QualifyingDrawn {
                    seed,
                    games: games
                        .into_iter()
                        .map(|mut g| {
                            g.seats = seats(&g.seats);
                            g
                        })
                        .collect(),
                },
                Event::GameScheduled { game, stage, round, table, seats: s } => {
                    Event::GameScheduled { game, stage, round, table, seats: seats(&s) }
                }
                Event::FinalRoleChosen { player, role } => Event::FinalRoleChosen { player: hide(&player), role },
                Event::LotDrawn { purpose, seed, order } => {
                    Event::LotDrawn { purpose, seed, order: order.iter().map(hide).collect() }
                }
                Event::StandInRegistered { player, .. } => {
                    let shown = hide(&player);
                    Event::StandInRegistered { player: shown.clone(), name: shown }
                }
                Event::PlayerWithdrew { player, from_round, stand_in } => {
                    Event::PlayerWithdrew { player: hide(&player), from_round, stand_in: stand_in.as_ref().map(hide) }
                }
                Event::PlayerUnregistered { player } => Event::PlayerUnregistered { player: hide(&player) },
                other => other,
            };
            (*seq, public)
        })
        .collect()
}

/// A tournament's standings under pseudonyms.
///
/// # Errors
/// As [`standings`].
pub fn public_standings(streams: &Streams, tournament: &StreamId) -> Result<Standings, ProjectionError> {
    let events = streams.get(tournament).ok_or_else(|| ProjectionError::NotFound(tournament.to_string()))?;
    let public = pseudonymize(events);
    Ok(replay::standings(&public, &games_of(streams, events))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_standings_name_nobody() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"))
                .unwrap();
        let lines = ledger::check::parse_lines(&text).unwrap();
        let mut streams = Streams::new();
        for line in lines {
            let id = StreamId::parse(line.stream.as_deref().unwrap()).unwrap();
            let events = streams.entry(id).or_default();
            events.push((events.len() as u64 + 1, line.event));
        }
        let tournament = StreamId::tournament("open26").unwrap();
        let private = standings(&streams, &tournament).unwrap();
        let public = public_standings(&streams, &tournament).unwrap();
        let shown = format!("{}\n{}", public.to_json_string(), public);
        for (_, event) in &streams[&tournament] {
            if let Event::PlayerRegistered { player, name, .. } = event {
                assert!(!shown.contains(&format!("\"{player}\"")) && !shown.contains(name.as_str()), "{player} shows");
            }
        }
        assert!(shown.contains("Fox") && shown.contains("Raven"));
        // The same numbers, only the names differ.
        let totals = |s: &Standings| s.rows.iter().map(|r| r.total).collect::<Vec<_>>();
        assert_eq!(totals(&private), totals(&public));
    }
}
