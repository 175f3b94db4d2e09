//! The fold over an Andes stream: every game with every move, the position and both clocks
//! after it (its attack and captures included), and how the game ended. The ledger's own
//! rules (`ledger::andes::decide`/`evolve`) do the moving, so a projection and the ledger
//! can never disagree about a position.

use super::AndesReplayError;
use ledger::andes::{
    decide, evolve, AndesEvent, AndesGame, AndesState, EndReason, MatchSetup, Move, Piece, Position, Side, Square,
};
use ledger::event::PlayerId;

/// One move and where it left the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// 1, 2, … within the game; Sol plays the odd ones.
    pub number: u32,
    pub side: Side,
    pub mv: Move,
    /// The notation as recorded (it may use Luna's coordinates).
    pub written: String,
    pub at_ms: u64,
    /// The mover's thinking time: from the end of the previous turn to this move.
    pub used_ms: u64,
    /// Both players' remaining time after the move, by [`Side::index`].
    pub clock_ms: [u64; 2],
    pub attacked: Option<(Square, Piece)>,
    pub captured: Vec<(Square, Piece)>,
    /// The position after the move and all its consequences.
    pub position: Position,
}

/// How a game ended: the reason, the side it is about, and the table time when recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    pub reason: EndReason,
    pub side: Side,
    pub at_ms: Option<u64>,
}

/// One game of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub number: u8,
    pub sol: PlayerId,
    pub luna: PlayerId,
    pub started_at_ms: u64,
    pub plies: Vec<Ply>,
    pub end: Option<GameEnd>,
    /// The position now (the last ply's, or the empty board).
    pub position: Position,
    /// Both players' remaining time at the start of the current (or last) turn.
    pub clock_ms: [u64; 2],
}

impl GameRecord {
    /// The player of a side in this game.
    pub fn player(&self, side: Side) -> &PlayerId {
        match side {
            Side::Sol => &self.sol,
            Side::Luna => &self.luna,
        }
    }

    /// The position after `ply` moves (0: the empty board).
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        match ply {
            0 => Some(Position::new()),
            n => self.plies.get(n - 1).map(|p| p.position.clone()),
        }
    }
}

/// The fold: feed it a stream's events in order.
#[derive(Debug, Clone, Default)]
pub struct AndesFold {
    state: AndesState,
    games: Vec<GameRecord>,
    events: usize,
}

impl AndesFold {
    pub fn new() -> AndesFold {
        AndesFold::default()
    }

    /// Folds a whole stream.
    ///
    /// # Errors
    /// The first event the rules refuse.
    pub fn of<'a>(events: impl IntoIterator<Item = &'a AndesEvent>) -> Result<AndesFold, AndesReplayError> {
        let mut fold = AndesFold::new();
        for event in events {
            fold.apply(event)?;
        }
        Ok(fold)
    }

    pub fn setup(&self) -> Option<&MatchSetup> {
        self.state.setup.as_ref()
    }

    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// The rules' state after the events folded so far.
    pub fn state(&self) -> &AndesState {
        &self.state
    }

    /// Folds one more event.
    ///
    /// # Errors
    /// [`AndesReplayError::Refused`] when the rules refuse it: the stream is not one the ledger
    /// would have recorded.
    pub fn apply(&mut self, event: &AndesEvent) -> Result<(), AndesReplayError> {
        let index = self.events;
        decide(&self.state, event)
            .map_err(|rejection| AndesReplayError::Refused { index, message: rejection.to_string() })?;
        let before = self.state.game.clone();
        evolve(&mut self.state, event);
        self.events += 1;
        let now = self.state.game.as_ref();
        match event {
            AndesEvent::MatchCreated { .. } => {}
            AndesEvent::GameStarted { game, at_ms } => {
                let setup = self.state.setup.as_ref().ok_or(AndesReplayError::NoMatch)?;
                self.games.push(GameRecord {
                    number: *game,
                    sol: setup.player(*game, Side::Sol).clone(),
                    luna: setup.player(*game, Side::Luna).clone(),
                    started_at_ms: *at_ms,
                    plies: Vec::new(),
                    end: None,
                    position: Position::new(),
                    clock_ms: [setup.clock_ms; 2],
                });
            }
            AndesEvent::MovePlayed { notation, at_ms } => {
                let (Some(before), Some(now), Some(record)) = (before, now, self.games.last_mut()) else {
                    return Err(AndesReplayError::NoMatch);
                };
                let side = before.position.to_move();
                let mv =
                    Move::parse(notation).map_err(|e| AndesReplayError::Refused { index, message: e.to_string() })?;
                let played = before
                    .position
                    .check(mv)
                    .map_err(|r| AndesReplayError::Refused { index, message: r.to_string() })?;
                let clock_ms = [now.clocks.remaining_ms(Side::Sol), now.clocks.remaining_ms(Side::Luna)];
                record.plies.push(Ply {
                    number: now.position.moves_played(),
                    side,
                    mv,
                    written: notation.clone(),
                    at_ms: *at_ms,
                    used_ms: at_ms.saturating_sub(before.clocks.turn_began_at_ms()),
                    clock_ms,
                    attacked: played.attacked,
                    captured: played.captured,
                    position: now.position.clone(),
                });
                record.position = now.position.clone();
                record.clock_ms = clock_ms;
            }
            AndesEvent::PieceAttacked { .. } | AndesEvent::PieceCaptured { .. } => {}
            AndesEvent::GameEnded { reason, side } => {
                if let Some(record) = self.games.last_mut() {
                    record.end = Some(GameEnd { reason: *reason, side: *side, at_ms: None });
                }
            }
            AndesEvent::FlagFell { side, at_ms } => end_game(&mut self.games, now, EndReason::FlagFell, *side, *at_ms),
            AndesEvent::Resigned { side, at_ms } => end_game(&mut self.games, now, EndReason::Resigned, *side, *at_ms),
        }
        Ok(())
    }
}

/// A flag fall or a resignation ends the last game at `at_ms`, the loser's clock charged.
fn end_game(games: &mut [GameRecord], now: Option<&AndesGame>, reason: EndReason, side: Side, at_ms: u64) {
    if let (Some(record), Some(now)) = (games.last_mut(), now) {
        record.end = Some(GameEnd { reason, side, at_ms: Some(at_ms) });
        record.clock_ms = [now.clocks.remaining_ms(Side::Sol), now.clocks.remaining_ms(Side::Luna)];
    }
}
