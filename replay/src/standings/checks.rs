//! The tournament's rules that need other streams, decided here, in the pure crates; the store
//! runs them through its cross-stream hook (`services/house/src/cross_check.rs` is the adapter):
//! - the final's role choices follow the standings (spec §7, docs/RULES.md: "The top four choose
//!   roles in rank order"), which fold every game of the tournament;
//! - a game belongs to one tournament (issue 32): a draw or a schedule is refused when it names
//!   a game stream that already holds events (a stand-alone game, or another tournament's play)
//!   or that another tournament scheduled.
//!
//! Other streams arrive through [`Lookup`], whose failure (the storage's) is passed on as the
//! outer error; the rule's answer is the inner result.

use super::{Decider, TournamentFacts};
use crate::sheet::started_with;
use ledger::rules::{Rules, TournamentState};
use ledger::{Event, Folded, Reason, Rejection, StreamId};
use std::collections::BTreeMap;

/// The events of another stream as `(seq, event)`, empty if it has none.
pub type EventsOf<'a, E> = dyn FnMut(&StreamId) -> Result<Vec<(u64, Event)>, E> + 'a;

/// What the rules across streams read of the log: other streams' events, and which
/// tournaments scheduled a game (as the writer knows it, the append being decided included).
pub trait Lookup<E> {
    /// A stream's events as `(seq, event)`, empty if it has none.
    ///
    /// # Errors
    /// The storage failed.
    fn events(&mut self, stream: &StreamId) -> Result<Vec<(u64, Event)>, E>;

    /// The tournament streams whose draw or schedule names `game`.
    ///
    /// # Errors
    /// The storage failed.
    fn scheduled_by(&mut self, game: &str) -> Result<Vec<StreamId>, E>;
}

/// Decides `event`, appended to `stream` whose state before it is `state`, against the rules
/// across streams.
///
/// # Errors
/// `events_of` failed.
pub fn check<E>(
    stream: &StreamId,
    state: &Folded,
    event: &Event,
    lookup: &mut dyn Lookup<E>,
) -> Result<Result<(), Rejection>, E> {
    let Rules::Tournament(tournament) = state.rules() else { return Ok(Ok(())) };
    let mut events_of = |id: &StreamId| lookup.events(id);
    match event {
        Event::FinalRoleChosen { player, .. } => final_order(tournament, stream, player, &mut events_of),
        Event::QualifyingDrawn { games, .. } => {
            for drawn in games {
                if let Err(rejection) = free_for(stream, &drawn.game, lookup)? {
                    return Ok(Err(rejection));
                }
            }
            Ok(Ok(()))
        }
        Event::GameScheduled { game, .. } => free_for(stream, game, lookup),
        Event::PlayerWithdrew { player, from_round, .. } => {
            not_started(tournament, player, *from_round, &mut events_of)
        }
        // Decided by the tournament stream alone.
        Event::TournamentCreated { .. }
        | Event::PlayerRegistered { .. }
        | Event::StandInRegistered { .. }
        | Event::PlayerUnregistered { .. }
        | Event::LotDrawn { .. } => Ok(Ok(())),
        ledger::game_events!() | ledger::jury_events!() | Event::Andes(_) => Ok(Ok(())),
    }
}

/// A game belongs to the one tournament that scheduled it, and a tournament schedules only a
/// game nobody has played: its standings must never count another tournament's results, or a
/// stand-alone game's, as its own. A tournament may name its own game again (a final re-seated
/// after the jury voided its first line-up).
fn free_for<E>(tournament: &StreamId, game: &str, lookup: &mut dyn Lookup<E>) -> Result<Result<(), Rejection>, E> {
    let Ok(id) = StreamId::game(game) else { return Ok(Ok(())) };
    let owners = lookup.scheduled_by(game)?;
    if let Some(owner) = owners.iter().find(|t| *t != tournament) {
        return Ok(Err(Rejection::precondition(format!(
            "game {game} belongs to {owner}: each tournament schedules games of its own, named after it ({}-…)",
            tournament.id()
        ))
        .said(
            "refusal-game-of-another",
            [("game", game.into()), ("owner", owner.id().into()), ("tournament", tournament.id().into())],
        )));
    }
    if owners.contains(tournament) {
        return Ok(Ok(()));
    }
    let events = lookup.events(&id)?;
    if events.is_empty() {
        return Ok(Ok(()));
    }
    let started = match events.iter().find_map(|(_, event)| started_with(event)) {
        Some(Some(ruleset)) => format!(", started as a {ruleset} game"),
        Some(None) | None => String::new(),
    };
    Ok(Err(Rejection::precondition(format!(
        "game {game} already holds {} event{}{started}: a tournament schedules only a game not yet played",
        events.len(),
        if events.len() == 1 { "" } else { "s" }
    ))
    .said("refusal-game-played", [("game", game.into()), ("count", events.len().into())])))
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
            ))
            .said(
                "refusal-withdraw-started",
                [("game", game.as_str().into()), ("player", tournament.display_name(player).into())],
            )));
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
    let standings = super::standings(events, games).map_err(|e| {
        Rejection::precondition(format!("the standings cannot be computed: {e}"))
            .said("refusal-standings-unknown", [("why", e.to_string().into())])
    })?;
    final_choice(tournament, player, &standings)
}

/// Whether `player` may choose a role of the final now, on `standings` (the tournament's, as
/// folded from its games): the rule the writer applies, for a preview to refuse what the writer
/// would (the console's role choice).
///
/// # Errors
/// The finalists are not settled, `player` is none of them or not the next in rank order.
pub fn final_choice(tournament: &TournamentState, player: &str, standings: &super::Standings) -> Result<(), Rejection> {
    if !standings.finalists_settled {
        let (why, said) = if standings.pending_games.is_empty() {
            ("fourth and fifth place are tied; record a lot".to_owned(), Reason::new("refusal-finalists-tied"))
        } else {
            (
                format!("qualifying games still open: {}", standings.pending_games.join(", ")),
                Reason::new("refusal-finalists-open").arg("count", standings.pending_games.len()),
            )
        };
        return Err(Rejection::precondition(format!("the finalists are not settled yet: {why}")).because(said));
    }
    let finalists = &standings.finalists;
    if !finalists.iter().any(|f| f == player) {
        return Err(Rejection::precondition(format!(
            "{player} is not a finalist: the final is played by {}",
            finalists.join(", ")
        ))
        .said(
            "refusal-not-finalist",
            [
                ("player", tournament.display_name(player).into()),
                (
                    "finalists",
                    finalists.iter().map(|f| tournament.display_name(f)).collect::<Vec<_>>().join(", ").into(),
                ),
            ],
        ));
    }
    let n_chosen = tournament.final_roles.len();
    if let Some(tied) =
        standings.rows.iter().take(finalists.len()).skip(1).find(|r| r.decided_by == Some(Decider::Unresolved))
    {
        return Err(Rejection::precondition(format!(
            "{} shares rank {} with the player above: record a lot before the finalists choose",
            tied.player, tied.rank
        ))
        .said(
            "refusal-finalists-rank-tied",
            [("player", tournament.display_name(&tied.player).into()), ("rank", tied.rank.into())],
        ));
    }
    match finalists.get(n_chosen) {
        Some(next) if next == player => Ok(()),
        Some(next) => Err(Rejection::precondition(format!(
            "the finalists choose in rank order: {next} (rank {}) chooses next, not {player}",
            n_chosen + 1
        ))
        .said(
            "refusal-finalists-order",
            [
                ("next", tournament.display_name(next).into()),
                ("rank", (n_chosen + 1).into()),
                ("player", tournament.display_name(player).into()),
            ],
        )),
        None => {
            Err(Rejection::precondition("all finalists have chosen their roles").said("refusal-finalists-chosen", []))
        }
    }
}
