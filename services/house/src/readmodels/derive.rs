//! What the season's read models keep of one stream, derived from its events alone (and, for a
//! game, what its tournament says of it): pure functions, the same ones a rebuild from scratch
//! and the keeper following the log call, so the two cannot disagree.

use crate::projections::{game_progress, pseudonyms, ProjectionError};
use crate::source::Entry;
use ledger::rules::ScheduledGame as Slot;
use ledger::{Event, Nation, Outcome, Role, Ruleset, Stage, StreamId};
use replay::exact::Rational;
use replay::sheet::voided_seqs;
use replay::standings::{StandingsError, TournamentFacts};
use replay::stats::year_of_unix_ms;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the season keeps of a created tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub name: String,
    pub ruleset: Ruleset,
    /// The year its stream's first event was recorded (UTC).
    pub year: Option<i32>,
    pub players: u64,
    pub withdrawn: u64,
    pub first_position: u64,
    pub last_position: u64,
    /// Its games in scheduling order.
    pub games: Vec<(String, Slot)>,
    /// Player id → pseudonym, and → name (registered players and stand-ins).
    pub pseudonyms: BTreeMap<String, String>,
    pub names: BTreeMap<String, String>,
}

impl TournamentSummary {
    /// What a game of this tournament is scored and counted under: changes here mean its
    /// games are derived again.
    pub fn context(&self) -> (&str, Ruleset, Option<i32>, &[(String, Slot)]) {
        (&self.name, self.ruleset, self.year, &self.games)
    }

    /// The facts `replay::season::phase` reads (the schedule and the name).
    pub fn facts(&self) -> TournamentFacts {
        let games = self
            .games
            .iter()
            .map(|(game, slot)| replay::standings::ScheduledGame { game: game.clone(), slot: slot.clone() })
            .collect();
        TournamentFacts { name: self.name.clone(), ruleset: Some(self.ruleset), games, ..TournamentFacts::default() }
    }
}

/// A tournament's summary from its stream's entries; `None` when no tournament stands created.
pub fn tournament(entries: &[Entry]) -> Option<TournamentSummary> {
    let first = entries.first()?;
    let events: Vec<(u64, Event)> = entries.iter().map(|e| (e.seq, e.event.clone())).collect();
    let facts = TournamentFacts::fold(&events);
    let ruleset = facts.ruleset?;
    let mut names: BTreeMap<String, String> = facts.players.iter().cloned().collect();
    names.extend(facts.stand_ins.iter().cloned());
    Some(TournamentSummary {
        name: facts.name,
        ruleset,
        year: first.recorded_at_ms.map(year_of_unix_ms),
        players: facts.players.len() as u64,
        withdrawn: facts.withdrawn.len() as u64,
        first_position: first.position,
        last_position: entries.iter().map(|e| e.position).max().unwrap_or(0),
        games: facts.games.into_iter().map(|g| (g.game, g.slot)).collect(),
        pseudonyms: pseudonyms(&events),
        names,
    })
}

/// A call for the jury no ruling has answered since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub seq: u64,
    pub reason: String,
    pub recorded_at_ms: u64,
}

/// One role's line of an ended game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedRole {
    pub role: Role,
    pub player: String,
    pub score: Option<Rational>,
    /// At least one of its nations won.
    pub won: bool,
}

/// What the statistics and ratings read of an ended tournament game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The tournament's stream id (without `tournament/`), and its name.
    pub tournament: String,
    pub tournament_name: String,
    pub ruleset: Ruleset,
    pub stage: Stage,
    pub year: Option<i32>,
    /// The global position of the `game_ended` that stands: the ratings' order.
    pub end_position: u64,
    pub roles: Vec<PlayedRole>,
    pub nations: Vec<(Nation, Option<Rational>, bool)>,
}

impl Played {
    /// The game as the ratings take it: `None` unless all four roles have a score.
    pub fn rated(&self, game: &str) -> Option<crate::ratings::RatedGame> {
        let seats: Option<Vec<crate::ratings::Seat>> = self
            .roles
            .iter()
            .map(|r| {
                r.score.map(|score| crate::ratings::Seat { player: r.player.clone(), role: r.role, score, won: r.won })
            })
            .collect();
        let seats = seats.filter(|s| s.len() == 4)?;
        Some(crate::ratings::RatedGame {
            game: game.to_owned(),
            end_position: self.end_position,
            year: self.year,
            seats,
        })
    }
}

/// What the season keeps of a game stream.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// `game_started` and `game_ended` stand (the ledger's rules, voids applied).
    pub started: bool,
    pub ended: bool,
    /// The stream's version once the game has ended (0 before: only an ended game's form
    /// records at a version).
    pub version: u64,
    pub calls: Vec<Call>,
    /// An ended CAFE 2023 game without its fate horizon: the last turn started.
    pub horizon: Option<u32>,
    /// An ended game of a tournament: its figures, or why it cannot be scored.
    pub played: Option<Result<Played, String>>,
}

/// Whether an event can change what is kept of a game that has not ended (every event of an
/// ended game can: its sheet, its version).
pub fn matters_before_the_end(event: &Event) -> bool {
    matches!(
        event,
        Event::GameStarted { .. }
            | Event::GameEnded { .. }
            | Event::EventVoided { .. }
            | Event::JuryCalled { .. }
            | Event::JuryRuling { .. }
            | Event::FateHorizonRecorded { .. }
    )
}

/// The calls of a game after its last ruling.
pub fn open_calls(entries: &[Entry]) -> Vec<Call> {
    let answered = entries.iter().rposition(|e| matches!(e.event, Event::JuryRuling { .. })).map_or(0, |i| i + 1);
    entries[answered..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::JuryCalled { reason } => {
                Some(Call { seq: e.seq, reason: reason.clone(), recorded_at_ms: e.recorded_at_ms.unwrap_or(0) })
            }
            _ => None,
        })
        .collect()
}

/// An end that no void took back, other than a Prussian defensive victory, and no fate horizon
/// recorded: the jury records the horizon (as `commands::jury::needs_fate_horizon`).
pub fn needs_fate_horizon(events: &[(u64, Event)]) -> bool {
    let voided = voided_seqs(events);
    let live = || events.iter().filter(|(seq, _)| !voided.contains(seq)).map(|(_, e)| e);
    let ended_otherwise =
        live().any(|e| matches!(e, Event::GameEnded { outcome, .. } if *outcome != Outcome::PrussianDefensiveVictory));
    ended_otherwise && !live().any(|e| matches!(e, Event::FateHorizonRecorded { .. }))
}

/// The last turn started (0 before any), voided or not, as the desk prefills it.
pub fn last_turn(events: &[(u64, Event)]) -> u32 {
    events
        .iter()
        .filter_map(|(_, e)| if let Event::TurnStarted { turn, .. } = e { Some(*turn) } else { None })
        .max()
        .unwrap_or(0)
}

/// The game's tournament as its summary says it: id and summary.
pub type Context<'a> = Option<(&'a StreamId, &'a TournamentSummary)>;

/// A game's summary from its stream's entries and its tournament.
pub fn game(id: &StreamId, entries: &[Entry], tournament: Context<'_>) -> GameSummary {
    let events: Vec<(u64, Event)> = entries.iter().map(|e| (e.seq, e.event.clone())).collect();
    let progress = game_progress(id, events.iter().map(|(_, e)| e));
    let ruleset = tournament
        .map(|(_, t)| t.ruleset)
        .or_else(|| events.iter().find_map(|(_, e)| replay::sheet::started_with(e).flatten()));
    let horizon = (ruleset == Some(Ruleset::Cafe2023) && needs_fate_horizon(&events)).then(|| last_turn(&events));
    let played = match tournament {
        Some((tid, t)) if progress.ended => played(id, entries, &events, tid, t),
        _ => None,
    };
    GameSummary {
        started: progress.started,
        ended: progress.ended,
        version: if progress.ended { entries.last().map_or(0, |e| e.seq) } else { 0 },
        calls: open_calls(entries),
        horizon,
        played,
    }
}

/// The figures of an ended tournament game, as `replay::stats::tournament_records` scores it.
fn played(
    id: &StreamId,
    entries: &[Entry],
    events: &[(u64, Event)],
    tid: &StreamId,
    t: &TournamentSummary,
) -> Option<Result<Played, String>> {
    let slot = t.games.iter().find(|(g, _)| g == id.id()).map(|(_, slot)| slot)?;
    let sheet = match replay::sheet::score_game(Some(t.ruleset), events) {
        Ok(sheet) => sheet,
        Err(error) => {
            let error = StandingsError::Game { game: id.id().to_owned(), error };
            return Some(Err(ProjectionError::from(error).to_string()));
        }
    };
    if !sheet.has_ended() {
        return None;
    }
    let voided = voided_seqs(events);
    let end_position = entries
        .iter()
        .filter(|e| matches!(e.event, Event::GameEnded { .. }) && !voided.contains(&e.seq))
        .map(|e| e.position)
        .next_back()
        .unwrap_or(0);
    let roles = sheet
        .roles
        .iter()
        .map(|(&role, line)| PlayedRole {
            role,
            player: slot.seats.player(role).to_owned(),
            score: line.score,
            won: line.winning_nations > 0,
        })
        .collect();
    let nations = sheet.nations.iter().map(|(&nation, line)| (nation, line.score, line.won)).collect();
    Some(Ok(Played {
        tournament: tid.id().to_owned(),
        tournament_name: t.name.clone(),
        ruleset: t.ruleset,
        stage: slot.stage,
        year: t.year,
        end_position,
        roles,
        nations,
    }))
}
