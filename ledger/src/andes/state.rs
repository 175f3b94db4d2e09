//! The rules of an Andes stream in the house style: [`decide`] refuses or accepts an event,
//! [`evolve`] applies an accepted one, and [`derived_events`] says which events the ledger
//! appends after a move. [`AndesState`] is all that deciding needs (it serializes, for the
//! writer's snapshots), and nothing in it grows with the stream beyond one game's position.
//!
//! Every refusal names the article of the Andes laws it rests on.

use super::board::Side;
use super::clock::Clocks;
use super::event::{AndesEvent, GAMES_PER_MATCH};
use super::notation::Move;
use super::piece::PieceKind;
use super::position::{EndReason, Played, Position};
use super::rejection::AndesRejection;
use crate::event::PlayerId;
use crate::rejection::quote;
use crate::rejection::Arg;
use serde::{Deserialize, Serialize};

/// The match as `match_created` set it up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSetup {
    pub first_sol: PlayerId,
    pub first_luna: PlayerId,
    pub clock_ms: u64,
}

impl MatchSetup {
    /// Who plays `side` in game 1 or 2: the sides swap for game 2 (8.3).
    pub fn player(&self, game: u8, side: Side) -> &PlayerId {
        match (game == 1, side) {
            (true, Side::Sol) | (false, Side::Luna) => &self.first_sol,
            (true, Side::Luna) | (false, Side::Sol) => &self.first_luna,
        }
    }

    /// The side `player` plays in `game`, if they play in this match.
    pub fn side_of(&self, game: u8, player: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| self.player(game, side) == player)
    }
}

/// A consequence of a move, waiting to be recorded as its derived event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Consequence {
    Attacked { square: super::board::Square, owner: Side, kind: PieceKind },
    Captured { square: super::board::Square, owner: Side, kind: PieceKind },
    Ended { reason: EndReason, side: Side },
}

impl Consequence {
    /// The derived event that records it.
    pub fn event(self) -> AndesEvent {
        match self {
            Consequence::Attacked { square, owner, kind } => AndesEvent::PieceAttacked { square, owner, kind },
            Consequence::Captured { square, owner, kind } => AndesEvent::PieceCaptured { square, owner, kind },
            Consequence::Ended { reason, side } => AndesEvent::GameEnded { reason, side },
        }
    }

    fn article(self) -> &'static str {
        match self {
            Consequence::Attacked { .. } => "4.3.2",
            Consequence::Captured { .. } => "4.3.1",
            Consequence::Ended { reason: EndReason::ContinentEmptied, .. } => "1.6",
            Consequence::Ended { .. } => "1.3",
        }
    }

    fn describe(self) -> String {
        match self {
            Consequence::Attacked { square, owner, kind } => format!("piece_attacked {square} ({owner}'s {kind})"),
            Consequence::Captured { square, owner, kind } => format!("piece_captured {square} ({owner}'s {kind})"),
            Consequence::Ended { reason, side } => format!("game_ended {} ({side})", reason.as_str()),
        }
    }
}

/// The game being played, or the last one played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AndesGame {
    /// 1 or 2.
    pub number: u8,
    pub position: Position,
    pub clocks: Clocks,
    /// The last move, for messages.
    pub last_move: Option<Move>,
    /// Consequences of the last move not yet recorded, next first.
    pub pending: Vec<Consequence>,
    /// How the game ended and the side the reason is about, once its last event is recorded.
    pub ended: Option<(EndReason, Side)>,
}

impl AndesGame {
    fn new(number: u8, clock_ms: u64, at_ms: u64) -> AndesGame {
        AndesGame {
            number,
            position: Position::new(),
            clocks: Clocks::start(clock_ms, at_ms),
            last_move: None,
            pending: Vec::new(),
            ended: None,
        }
    }

    fn play(&mut self, mv: Move, at_ms: u64) {
        let Ok(played) = self.position.check(mv) else { return };
        self.clocks.press(played.side, at_ms);
        self.position.apply(&played);
        self.last_move = Some(mv);
        self.pending = consequences(&self.position, &played);
    }
}

/// The consequences of `played`, once applied to `position`, in the order they are recorded:
/// the attack, the captures in square order, then the end of the game.
fn consequences(position: &Position, played: &Played) -> Vec<Consequence> {
    let mut out = Vec::new();
    if let Some((square, piece)) = played.attacked {
        out.push(Consequence::Attacked { square, owner: piece.side, kind: piece.kind });
    }
    for &(square, piece) in &played.captured {
        out.push(Consequence::Captured { square, owner: piece.side, kind: piece.kind });
    }
    if let Some((reason, side)) = position.end_after(played) {
        out.push(Consequence::Ended { reason, side });
    }
    out
}

/// What an Andes stream has recorded, as far as the rules need it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AndesState {
    pub setup: Option<MatchSetup>,
    pub game: Option<AndesGame>,
    /// The last table time recorded.
    pub last_at_ms: Option<u64>,
}

impl AndesState {
    pub fn new() -> AndesState {
        AndesState::default()
    }

    /// Both games have ended and nothing is waiting to be recorded.
    pub fn is_over(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.number == GAMES_PER_MATCH && g.ended.is_some() && g.pending.is_empty())
    }

    /// The game in progress: started, not ended.
    fn playing(&self, event: &AndesEvent) -> Result<&AndesGame, AndesRejection> {
        match &self.game {
            None => Err(AndesRejection::precondition(
                "8.3",
                format!("no game has started: game_started comes before {}", event.type_name()),
            )
            .said("law-no-game", [])),
            Some(game) => match game.ended {
                Some((reason, side)) => Err(AndesRejection::precondition(
                    "1.7",
                    format!(
                        "game {} is over ({}, {side}): {} belongs to no game; game_started {} comes next",
                        game.number,
                        reason.as_str(),
                        event.type_name(),
                        game.number + 1
                    ),
                )
                .said(
                    "law-game-over",
                    [
                        ("game", game.number.into()),
                        ("reason", Arg::name("record-reason", reason.as_str())),
                        ("side", Arg::name("record-side", side)),
                        ("next", (game.number + 1).into()),
                    ],
                )),
                None => Ok(game),
            },
        }
    }

    /// Decides, applies, and then decides and applies the derived events the rules produce;
    /// returns every event appended, `event` first.
    ///
    /// # Errors
    /// The refusal of `event`; the state is unchanged then.
    pub fn record(&mut self, event: AndesEvent) -> Result<Vec<AndesEvent>, AndesRejection> {
        let derived = derived_events(self, &event)?;
        evolve(self, &event);
        let mut appended = vec![event];
        for next in derived {
            debug_assert!(decide(self, &next).is_ok(), "derived events are always accepted");
            evolve(self, &next);
            appended.push(next);
        }
        Ok(appended)
    }

    /// The state after a whole stream.
    ///
    /// # Errors
    /// The index of the first refused event and its refusal.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a AndesEvent>) -> Result<AndesState, (usize, AndesRejection)> {
        let mut state = AndesState::new();
        for (index, event) in events.into_iter().enumerate() {
            decide(&state, event).map_err(|r| (index, r))?;
            evolve(&mut state, event);
        }
        Ok(state)
    }
}

/// Refuses `event` when it breaks a law given `state`, naming the article.
///
/// # Errors
/// An [`AndesRejection`]: malformed (bad notation, bad players) or a precondition.
pub fn decide(state: &AndesState, event: &AndesEvent) -> Result<(), AndesRejection> {
    event.check_shape()?;
    match (&state.setup, event) {
        (None, AndesEvent::MatchCreated { .. }) => return Ok(()),
        (Some(_), AndesEvent::MatchCreated { .. }) => {
            return Err(AndesRejection::precondition(
                "8.3",
                "the match was already created: one stream holds one match",
            )
            .said("law-match-exists", []))
        }
        (None, _) => {
            return Err(AndesRejection::precondition(
                "8.3",
                format!("match_created comes first: {} needs a match", event.type_name()),
            )
            .said("law-no-match", []))
        }
        (Some(_), _) => {}
    }
    if let Some(game) = &state.game {
        if let Some(&next) = game.pending.first() {
            if *event == next.event() {
                return Ok(());
            }
            let last = game.last_move.map(|m| m.to_string()).unwrap_or_default();
            return Err(AndesRejection::precondition(
                next.article(),
                format!(
                    "the move {last} is complete only once its consequences are recorded (4.2): {} comes next, not {}",
                    next.describe(),
                    event.type_name()
                ),
            )
            .said("law-pending", [("move", last.as_str().into())]));
        }
    }
    if state.is_over() {
        return Err(AndesRejection::precondition(
            "9.3",
            format!("the match is over: both games have ended, and {} has no place", event.type_name()),
        )
        .said("law-match-over", []));
    }
    if let (Some(at), Some(last)) = (event.at_ms(), state.last_at_ms) {
        if at < last {
            return Err(AndesRejection::precondition(
                "6.2",
                format!("at_ms {at} goes back in time: the table clock already read {last}"),
            )
            .said("law-time-back", [("at", at.into()), ("last", last.into())]));
        }
    }
    match event {
        AndesEvent::MatchCreated { .. } => Ok(()),
        AndesEvent::GameStarted { game, .. } => {
            let expected = match &state.game {
                None => 1,
                Some(current) if current.ended.is_some() => current.number + 1,
                Some(current) => {
                    return Err(AndesRejection::precondition(
                        "8.3",
                        format!("game {} is still being played: game {game} cannot start", current.number),
                    )
                    .said("law-game-running", [("current", current.number.into()), ("game", (*game).into())]))
                }
            };
            if *game != expected {
                return Err(AndesRejection::precondition(
                    "8.3",
                    format!("game {game} cannot start: game {expected} comes next"),
                )
                .said("law-game-next", [("game", (*game).into()), ("expected", expected.into())]));
            }
            Ok(())
        }
        AndesEvent::MovePlayed { notation, at_ms } => {
            let game = state.playing(event)?;
            let side = game.position.to_move();
            game.clocks.check_in_time(side, *at_ms, &format!("the move `{}`", quote(notation)))?;
            let Some(written) = event.parsed_move()? else { return Ok(()) };
            game.position.check(written.mv).map(|_| ())
        }
        AndesEvent::PieceAttacked { .. } => Err(not_waiting("4.3.2", event)),
        AndesEvent::PieceCaptured { .. } => Err(not_waiting("4.3.1", event)),
        AndesEvent::GameEnded { .. } => Err(not_waiting("1.6", event)),
        AndesEvent::FlagFell { side, at_ms } => {
            let game = state.playing(event)?;
            let to_move = game.position.to_move();
            if *side != to_move {
                return Err(AndesRejection::precondition(
                    "6.2",
                    format!(
                        "only the clock of the side to move runs: it is {to_move}'s move, so {side}'s flag cannot fall"
                    ),
                )
                .said(
                    "law-flag-not-running",
                    [("to_move", Arg::name("record-side", to_move)), ("side", Arg::name("record-side", side))],
                ));
            }
            game.clocks.check_fallen(*side, *at_ms)
        }
        AndesEvent::Resigned { side, at_ms } => {
            let game = state.playing(event)?;
            let to_move = game.position.to_move();
            if *side != to_move {
                return Err(AndesRejection::precondition(
                    "5.3",
                    format!("a player resigns during his own move: it is {to_move}'s move, not {side}'s"),
                )
                .said(
                    "law-resign-own-move",
                    [("to_move", Arg::name("record-side", to_move)), ("side", Arg::name("record-side", side))],
                ));
            }
            game.clocks.check_in_time(*side, *at_ms, "the resignation")
        }
    }
}

/// A derived event arrived while no move waits for it.
fn not_waiting(article: &'static str, event: &AndesEvent) -> AndesRejection {
    AndesRejection::precondition(
        article,
        format!(
            "{} is derived by the ledger from the move that causes it, and no move is waiting for it",
            event.type_name()
        ),
    )
    .said("law-derived", [("type", Arg::name("record-event-name", event.type_name()))])
}

/// Applies an event [`decide`] accepted.
pub fn evolve(state: &mut AndesState, event: &AndesEvent) {
    if let Some(at) = event.at_ms() {
        state.last_at_ms = Some(at);
    }
    match event {
        AndesEvent::MatchCreated { first_sol, first_luna, clock_ms } => {
            state.setup =
                Some(MatchSetup { first_sol: first_sol.clone(), first_luna: first_luna.clone(), clock_ms: *clock_ms });
        }
        AndesEvent::GameStarted { game, at_ms } => {
            let clock_ms = state.setup.as_ref().map_or(0, |s| s.clock_ms);
            state.game = Some(AndesGame::new(*game, clock_ms, *at_ms));
        }
        AndesEvent::MovePlayed { at_ms, .. } => {
            if let (Some(game), Ok(Some(written))) = (state.game.as_mut(), event.parsed_move()) {
                game.play(written.mv, *at_ms);
            }
        }
        AndesEvent::PieceAttacked { .. } | AndesEvent::PieceCaptured { .. } | AndesEvent::GameEnded { .. } => {
            if let Some(game) = state.game.as_mut() {
                if !game.pending.is_empty() {
                    if let Consequence::Ended { reason, side } = game.pending.remove(0) {
                        game.ended = Some((reason, side));
                    }
                }
            }
        }
        AndesEvent::FlagFell { side, at_ms } => {
            if let Some(game) = state.game.as_mut() {
                game.clocks.press(*side, *at_ms);
                game.ended = Some((EndReason::FlagFell, *side));
            }
        }
        AndesEvent::Resigned { side, at_ms } => {
            if let Some(game) = state.game.as_mut() {
                game.clocks.press(*side, *at_ms);
                game.ended = Some((EndReason::Resigned, *side));
            }
        }
    }
}

/// The events the ledger appends right after `event`: for a `move_played`, its attack, its
/// captures and the end of the game, in that order; for any other event, none.
///
/// # Errors
/// The refusal of `event` itself.
pub fn derived_events(state: &AndesState, event: &AndesEvent) -> Result<Vec<AndesEvent>, AndesRejection> {
    decide(state, event)?;
    match event {
        AndesEvent::MovePlayed { .. } => {
            let mut next = state.clone();
            evolve(&mut next, event);
            Ok(next.game.map(|g| g.pending.iter().map(|c| c.event()).collect()).unwrap_or_default())
        }
        AndesEvent::MatchCreated { .. }
        | AndesEvent::GameStarted { .. }
        | AndesEvent::PieceAttacked { .. }
        | AndesEvent::PieceCaptured { .. }
        | AndesEvent::GameEnded { .. }
        | AndesEvent::FlagFell { .. }
        | AndesEvent::Resigned { .. } => Ok(Vec::new()),
    }
}
