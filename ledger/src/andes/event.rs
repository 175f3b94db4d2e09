//! The events of an Andes stream, `andes/<match>`: one match of two games (Andes laws,
//! articles 8.3 and 9.3). Serde's form is the canonical JSON, one flat object tagged by
//! `type`, e.g. `{"type":"move_played","notation":"2c3c5","at_ms":61250}`.
//!
//! Recorded events are typed by the table: `match_created`, `game_started`, `move_played`,
//! `flag_fell`, `resigned`. Derived events are produced by the rules from a move
//! ([`super::derived_events`]) and appended right after it: `piece_attacked`,
//! `piece_captured`, `game_ended`. The ledger refuses a derived event that is not exactly the
//! next one the rules produce.
//!
//! Stored events are a promise: new variants go at the end and fields never change type.
//! Postcard cannot decode an internally tagged enum, so storage uses the positional twin in
//! [`super::stored`].

use super::board::{Side, Square};
use super::notation::{Move, Written};
use super::piece::PieceKind;
use super::position::EndReason;
use super::rejection::AndesRejection;
use crate::event::PlayerId;
use serde::{Deserialize, Serialize};

/// How many games a match has (8.3).
pub const GAMES_PER_MATCH: u8 = 2;

/// The longest player id accepted, in characters.
pub const MAX_PLAYER_CHARS: usize = 64;

/// One event of an Andes stream.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum AndesEvent {
    /// The match: who plays Sol in game 1 (Luna in game 2), who plays Luna in game 1, and each
    /// player's time per game in milliseconds (8.3: 720000).
    MatchCreated { first_sol: PlayerId, first_luna: PlayerId, clock_ms: u64 },
    /// Game 1 or 2 begins at the table time `at_ms`; Sol's clock starts.
    GameStarted { game: u8, at_ms: u64 },
    /// A move in the laws' notation (6.6), written from Sol's side (lowercase) or Luna's
    /// (uppercase), completed at the table time `at_ms` (the mover's clock stops).
    MovePlayed { notation: String, at_ms: u64 },
    /// Derived: the move replaced this opposing piece; it is gone for good (3.7.2, 4.3.2).
    PieceAttacked { square: Square, owner: Side, kind: PieceKind },
    /// Derived: the move flanked this opposing piece; it joins the mover's reserve (3.7.1,
    /// 4.3.1).
    PieceCaptured { square: Square, owner: Side, kind: PieceKind },
    /// Derived: the game is over (`continent_emptied` or `no_legal_move`), `side` being the
    /// side that lost the continent or cannot move.
    GameEnded { reason: EndReason, side: Side },
    /// `side`, to move, ran out of time at `at_ms` and loses the game (5.1, 6.2).
    FlagFell { side: Side, at_ms: u64 },
    /// `side` resigned during its own move at `at_ms` and loses the game (5.3).
    Resigned { side: Side, at_ms: u64 },
}

impl AndesEvent {
    /// The canonical `type` name.
    pub fn type_name(&self) -> &'static str {
        match self {
            AndesEvent::MatchCreated { .. } => "match_created",
            AndesEvent::GameStarted { .. } => "game_started",
            AndesEvent::MovePlayed { .. } => "move_played",
            AndesEvent::PieceAttacked { .. } => "piece_attacked",
            AndesEvent::PieceCaptured { .. } => "piece_captured",
            AndesEvent::GameEnded { .. } => "game_ended",
            AndesEvent::FlagFell { .. } => "flag_fell",
            AndesEvent::Resigned { .. } => "resigned",
        }
    }

    /// Events the ledger derives from a move instead of taking them from the table.
    pub fn is_derived(&self) -> bool {
        match self {
            AndesEvent::PieceAttacked { .. } | AndesEvent::PieceCaptured { .. } | AndesEvent::GameEnded { .. } => true,
            AndesEvent::MatchCreated { .. }
            | AndesEvent::GameStarted { .. }
            | AndesEvent::MovePlayed { .. }
            | AndesEvent::FlagFell { .. }
            | AndesEvent::Resigned { .. } => false,
        }
    }

    /// The table's clock reading, for the events that carry one.
    pub fn at_ms(&self) -> Option<u64> {
        match self {
            AndesEvent::GameStarted { at_ms, .. }
            | AndesEvent::MovePlayed { at_ms, .. }
            | AndesEvent::FlagFell { at_ms, .. }
            | AndesEvent::Resigned { at_ms, .. } => Some(*at_ms),
            AndesEvent::MatchCreated { .. }
            | AndesEvent::PieceAttacked { .. }
            | AndesEvent::PieceCaptured { .. }
            | AndesEvent::GameEnded { .. } => None,
        }
    }

    /// The move of a `move_played`, parsed.
    ///
    /// # Errors
    /// A malformed rejection naming the article of the notation it breaks; `Ok(None)` for
    /// other events.
    pub fn parsed_move(&self) -> Result<Option<Written>, AndesRejection> {
        match self {
            AndesEvent::MovePlayed { notation, .. } => Ok(Some(Move::parse_written(notation)?)),
            AndesEvent::MatchCreated { .. }
            | AndesEvent::GameStarted { .. }
            | AndesEvent::PieceAttacked { .. }
            | AndesEvent::PieceCaptured { .. }
            | AndesEvent::GameEnded { .. }
            | AndesEvent::FlagFell { .. }
            | AndesEvent::Resigned { .. } => Ok(None),
        }
    }

    /// What can be checked without any state: the players, the clock, the game number, the
    /// notation.
    ///
    /// # Errors
    /// A malformed [`AndesRejection`] naming the article.
    pub fn check_shape(&self) -> Result<(), AndesRejection> {
        match self {
            AndesEvent::MatchCreated { first_sol, first_luna, clock_ms } => {
                for (seat, player) in [("first_sol", first_sol), ("first_luna", first_luna)] {
                    let chars = player.chars().count();
                    if chars == 0 || chars > MAX_PLAYER_CHARS || player.chars().any(char::is_control) {
                        return Err(AndesRejection::malformed(
                            "1.1",
                            format!("{seat} must name a player in 1–{MAX_PLAYER_CHARS} printable characters"),
                        )
                        .said("law-player", [("seat", crate::rejection::Arg::name("record-seat", seat))]));
                    }
                }
                if first_sol == first_luna {
                    return Err(AndesRejection::malformed(
                        "1.1",
                        format!(
                            "a game is played between two adversaries, and `{}` cannot face itself",
                            crate::rejection::quote(first_sol)
                        ),
                    )
                    .said("law-adversaries", []));
                }
                if *clock_ms == 0 {
                    return Err(AndesRejection::malformed(
                        "6.2",
                        "each player's time (clock_ms) must be more than 0 ms",
                    )
                    .said("law-clock", []));
                }
                Ok(())
            }
            AndesEvent::GameStarted { game, .. } => {
                if !(1..=GAMES_PER_MATCH).contains(game) {
                    return Err(AndesRejection::malformed(
                        "8.3",
                        format!("a match has games 1 and {GAMES_PER_MATCH}, not game {game}"),
                    )
                    .said("law-game-number", [("game", (*game).into())]));
                }
                Ok(())
            }
            AndesEvent::MovePlayed { .. } => self.parsed_move().map(|_| ()),
            AndesEvent::PieceAttacked { .. }
            | AndesEvent::PieceCaptured { .. }
            | AndesEvent::GameEnded { .. }
            | AndesEvent::FlagFell { .. }
            | AndesEvent::Resigned { .. } => Ok(()),
        }
    }
}
