//! The tournament's rules that need other streams, run as the sequencer's cross-stream check:
//! - the final's role choices follow the standings (spec §7, docs/RULES.md: "The top four choose
//!   roles in rank order"), which fold every game of the tournament;
//! - a game is scheduled only if it has not already started under another ruleset.

use ledger::rules::Rules;
use ledger::{Event, Folded, Rejection, StreamId};
use ledger_store::{AppendError, CrossCheck, StreamLookup};
use replay::standings::Decider;
use std::collections::BTreeMap;

/// The tournament's rules across streams.
pub struct TournamentChecks;

impl CrossCheck for TournamentChecks {
    fn check(
        &self,
        stream: &StreamId,
        state: &Folded,
        event: &Event,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError> {
        let Rules::Tournament(tournament) = state.rules() else { return Ok(()) };
        match event {
            Event::FinalRoleChosen { player, .. } => final_order(tournament, stream, player, streams),
            Event::QualifyingDrawn { games, .. } => {
                games.iter().try_for_each(|g| not_started_elsewhere(tournament, &g.game, streams))
            }
            Event::GameScheduled { game, .. } => not_started_elsewhere(tournament, game, streams),
            _ => Ok(()),
        }
    }
}

/// A game that already started as a stand-alone game under another ruleset cannot join the
/// tournament: its events were validated (and would be scored) under the wrong rules.
fn not_started_elsewhere(
    tournament: &ledger::rules::TournamentState,
    game: &str,
    streams: &dyn StreamLookup,
) -> Result<(), AppendError> {
    let (Some(ruleset), Ok(id)) = (tournament.ruleset, StreamId::game(game)) else { return Ok(()) };
    let started_as = streams.events(&id)?.into_iter().find_map(|(_, event)| match event {
        Event::GameStarted { ruleset, .. } => Some(ruleset),
        _ => None,
    });
    match started_as {
        Some(Some(other)) if other != ruleset => Err(Rejection::precondition(format!(
            "game {game} already started as a {other} game; this tournament plays {ruleset}"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// Refuses a `final_role_chosen` by anyone but the next finalist in rank order.
fn final_order(
    tournament: &ledger::rules::TournamentState,
    stream: &StreamId,
    player: &str,
    streams: &dyn StreamLookup,
) -> Result<(), AppendError> {
    // The tournament as the sequencer holds it, earlier events of this append included (a lot
    // drawn in the same batch counts); the games as committed.
    let events: Vec<(u64, Event)> = streams.events(stream)?;
    let mut games = BTreeMap::new();
    for game in crate::projections::tournament_games(&events) {
        // A game not started yet has no stream: standings list it as pending.
        let events = match StreamId::game(&game) {
            Ok(id) => streams.events(&id)?,
            Err(_) => continue,
        };
        if !events.is_empty() {
            games.insert(game, events);
        }
    }
    let standings = replay::standings(&events, &games)
        .map_err(|e| Rejection::precondition(format!("the standings cannot be computed: {e}")))?;
    if !standings.finalists_settled {
        let why = if standings.pending_games.is_empty() {
            "fourth and fifth place are tied; record a lot".to_owned()
        } else {
            format!("qualifying games still open: {}", standings.pending_games.join(", "))
        };
        return Err(Rejection::precondition(format!("the finalists are not settled yet: {why}")).into());
    }
    let finalists = &standings.finalists;
    if !finalists.iter().any(|f| f == player) {
        return Err(Rejection::precondition(format!(
            "{player} is not a finalist: the final is played by {}",
            finalists.join(", ")
        ))
        .into());
    }
    let n_chosen = tournament.final_roles.len();
    if let Some(tied) =
        standings.rows.iter().take(finalists.len()).skip(1).find(|r| r.decided_by == Some(Decider::Unresolved))
    {
        return Err(Rejection::precondition(format!(
            "{} shares rank {} with the player above: record a lot before the finalists choose",
            tied.player, tied.rank
        ))
        .into());
    }
    match finalists.get(n_chosen) {
        Some(next) if next == player => Ok(()),
        Some(next) => Err(Rejection::precondition(format!(
            "the finalists choose in rank order: {next} (rank {}) chooses next, not {player}",
            n_chosen + 1
        ))
        .into()),
        None => Err(Rejection::precondition("all finalists have chosen their roles").into()),
    }
}
