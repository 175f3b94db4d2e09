//! The inputs of the `replay` projections, gathered from many streams: which tournament
//! scheduled a game (and so its ruleset), which games a tournament's standings need, and the
//! year of a tournament for statistics. Pure: the server fills [`Streams`] from the log, the
//! CLI from a JSON Lines file, and both get the same numbers.

use ledger::{Event, Recorded, Ruleset, StreamId, StreamKind};
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
}

/// Streams from stored records, in order.
pub fn from_records<'a>(records: impl IntoIterator<Item = &'a Recorded>) -> Streams {
    let mut streams = Streams::new();
    for record in records {
        streams
            .entry(record.envelope.stream.clone())
            .or_default()
            .push((record.envelope.seq, record.event.clone()));
    }
    streams
}

/// The ruleset of the tournament whose draw or schedule names `game`, if any.
pub fn scheduled_ruleset(streams: &Streams, game: &str) -> Option<Ruleset> {
    streams
        .iter()
        .filter(|(id, _)| id.kind() == StreamKind::Tournament)
        .find_map(|(_, events)| {
            let facts = TournamentFacts::fold(events);
            facts
                .games
                .iter()
                .any(|g| g.game == game)
                .then_some(facts.ruleset)
                .flatten()
        })
}

/// The game ids a tournament's events schedule, in schedule order.
pub fn tournament_games(tournament_events: &[(u64, Event)]) -> Vec<String> {
    TournamentFacts::fold(tournament_events)
        .games
        .into_iter()
        .map(|g| g.game)
        .collect()
}

/// A game's score sheet, as of a seq if given.
///
/// # Errors
/// The game has no events, or cannot be scored yet.
pub fn score_sheet(streams: &Streams, game: &StreamId, as_of_seq: Option<u64>) -> Result<ScoreSheet, ProjectionError> {
    let events = streams
        .get(game)
        .filter(|e| !e.is_empty())
        .ok_or_else(|| ProjectionError::NotFound(game.to_string()))?;
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
    let events = streams
        .get(tournament)
        .ok_or_else(|| ProjectionError::NotFound(tournament.to_string()))?;
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
    section(
        "role",
        json.roles.iter().map(|(r, l)| (r.to_string(), l.clone())).collect(),
    );
    section(
        "nation",
        json.nations.iter().map(|(n, l)| (n.to_string(), l.clone())).collect(),
    );
    out
}
