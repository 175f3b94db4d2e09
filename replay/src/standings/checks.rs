//! The tournament's rules that need other streams, decided here, in the pure crates; the store
//! runs them through its cross-stream hook (`services/house/src/cross_check.rs` is the adapter):
//! - the final's role choices follow the standings (spec §7, docs/RULES.md: "The top four choose
//!   roles in rank order"), which fold every game of the tournament;
//! - a game is scheduled only if it has not already started under another ruleset.
//!
//! Other streams arrive through `events_of`, whose failure (the storage's) is passed on as the
//! outer error; the rule's answer is the inner result.

use super::{Decider, TournamentFacts};
use crate::sheet::started_with;
use ledger::rules::{Rules, TournamentState};
use ledger::{Event, Folded, Rejection, StreamId};
use std::collections::BTreeMap;

/// The events of another stream as `(seq, event)`, empty if it has none.
pub type EventsOf<'a, E> = dyn FnMut(&StreamId) -> Result<Vec<(u64, Event)>, E> + 'a;

/// Decides `event`, appended to `stream` whose state before it is `state`, against the rules
/// across streams.
///
/// # Errors
/// `events_of` failed.
pub fn check<E>(
    stream: &StreamId,
    state: &Folded,
    event: &Event,
    events_of: &mut EventsOf<'_, E>,
) -> Result<Result<(), Rejection>, E> {
    let Rules::Tournament(tournament) = state.rules() else { return Ok(Ok(())) };
    match event {
        Event::FinalRoleChosen { player, .. } => final_order(tournament, stream, player, events_of),
        Event::QualifyingDrawn { games, .. } => {
            for drawn in games {
                if let Err(rejection) = not_started_elsewhere(tournament, &drawn.game, events_of)? {
                    return Ok(Err(rejection));
                }
            }
            Ok(Ok(()))
        }
        Event::GameScheduled { game, .. } => not_started_elsewhere(tournament, game, events_of),
        Event::PlayerWithdrew { player, from_round, .. } => not_started(tournament, player, *from_round, events_of),
        // Decided by the tournament stream alone.
        Event::TournamentCreated { .. }
        | Event::PlayerRegistered { .. }
        | Event::StandInRegistered { .. }
        | Event::LotDrawn { .. } => Ok(Ok(())),
        ledger::game_events!() | ledger::jury_events!() | Event::Andes(_) => Ok(Ok(())),
    }
}

/// A game that already started as a stand-alone game under another ruleset cannot join the
/// tournament: its events were validated (and would be scored) under the wrong rules.
fn not_started_elsewhere<E>(
    tournament: &TournamentState,
    game: &str,
    events_of: &mut EventsOf<'_, E>,
) -> Result<Result<(), Rejection>, E> {
    let (Some(ruleset), Ok(id)) = (tournament.ruleset, StreamId::game(game)) else { return Ok(Ok(())) };
    let started_as = events_of(&id)?.into_iter().find_map(|(_, event)| started_with(&event));
    Ok(match started_as {
        Some(Some(other)) if other != ruleset => Err(Rejection::precondition(format!(
            "game {game} already started as a {other} game; this tournament plays {ruleset}"
        ))),
        _ => Ok(()),
    })
}

/// A withdrawal re-seats only games not started: a game in progress is played out (or ruled
/// on by the jury), never handed to a stand-in half-way.
fn not_started<E>(
    tournament: &TournamentState,
    player: &str,
    from_round: u32,
    events_of: &mut EventsOf<'_, E>,
) -> Result<Result<(), Rejection>, E> {
    for game in tournament.reseated(player, from_round) {
        let Ok(id) = StreamId::game(&game) else { continue };
        if !events_of(&id)?.is_empty() {
            return Ok(Err(Rejection::precondition(format!(
                "game {game} has already started: a withdrawal re-seats only games not started; withdraw {player} from a later round"
            ))));
        }
    }
    Ok(Ok(()))
}

/// Refuses a `final_role_chosen` by anyone but the next finalist in rank order.
fn final_order<E>(
    tournament: &TournamentState,
    stream: &StreamId,
    player: &str,
    events_of: &mut EventsOf<'_, E>,
) -> Result<Result<(), Rejection>, E> {
    // The tournament as the writer holds it, earlier events of this append included (a lot
    // drawn in the same batch counts); the games as committed.
    let events = events_of(stream)?;
    let mut games = BTreeMap::new();
    for game in TournamentFacts::fold(&events).games.into_iter().map(|g| g.game) {
        // A game not started yet has no stream: standings list it as pending.
        let Ok(id) = StreamId::game(&game) else { continue };
        let game_events = events_of(&id)?;
        if !game_events.is_empty() {
            games.insert(game, game_events);
        }
    }
    Ok(rank_order(tournament, player, &events, &games))
}

fn rank_order(
    tournament: &TournamentState,
    player: &str,
    events: &[(u64, Event)],
    games: &BTreeMap<String, Vec<(u64, Event)>>,
) -> Result<(), Rejection> {
    let standings = super::standings(events, games)
        .map_err(|e| Rejection::precondition(format!("the standings cannot be computed: {e}")))?;
    if !standings.finalists_settled {
        let why = if standings.pending_games.is_empty() {
            "fourth and fifth place are tied; record a lot".to_owned()
        } else {
            format!("qualifying games still open: {}", standings.pending_games.join(", "))
        };
        return Err(Rejection::precondition(format!("the finalists are not settled yet: {why}")));
    }
    let finalists = &standings.finalists;
    if !finalists.iter().any(|f| f == player) {
        return Err(Rejection::precondition(format!(
            "{player} is not a finalist: the final is played by {}",
            finalists.join(", ")
        )));
    }
    let n_chosen = tournament.final_roles.len();
    if let Some(tied) =
        standings.rows.iter().take(finalists.len()).skip(1).find(|r| r.decided_by == Some(Decider::Unresolved))
    {
        return Err(Rejection::precondition(format!(
            "{} shares rank {} with the player above: record a lot before the finalists choose",
            tied.player, tied.rank
        )));
    }
    match finalists.get(n_chosen) {
        Some(next) if next == player => Ok(()),
        Some(next) => Err(Rejection::precondition(format!(
            "the finalists choose in rank order: {next} (rank {}) chooses next, not {player}",
            n_chosen + 1
        ))),
        None => Err(Rejection::precondition("all finalists have chosen their roles")),
    }
}
