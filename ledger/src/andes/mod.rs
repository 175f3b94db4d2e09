//! Andes, the abstract game of the Andes laws (issue 13): the pure domain the ledger needs to
//! record a match as the third party of article 9.1 — the board, the pieces, the notation, the
//! events of an Andes stream and the rules that refuse bad ones. No I/O; times arrive in events.
//!
//! - [`board`]: squares, colours, sectors, continent and border; Sol's and Luna's coordinates.
//! - [`piece`]: piece types, their moves, letters and digits.
//! - [`notation`]: move notation (`0d3`, `2c3c5`) and position notation (`7/7/7/3a3/7/7/7`).
//! - [`position`]: one game's position and the laws of a single move.
//! - [`clock`]: the two countdown clocks.
//! - [`event`]: [`AndesEvent`], the vocabulary of an Andes stream; [`stored`] its postcard form.
//! - [`state`]: [`decide`], [`evolve`] and [`derived_events`] over [`AndesState`].
//! - [`rejection`]: [`AndesRejection`], every refusal with its article.
//! - `testing` (feature `testing`): random legal matches for property tests.
//!
//! # Stream layout
//!
//! One stream per match, `andes/<match>`, holds the match and both its games:
//!
//! ```text
//! match_created                     who plays Sol in game 1, who plays Luna, the clock
//! game_started {game: 1}            Sol's clock starts
//! move_played …                     each move, then the events it derives:
//!   piece_attacked | piece_captured …   (derived)
//!   game_ended                          (derived: continent_emptied or no_legal_move)
//! flag_fell | resigned              (or one of these ends the game instead)
//! game_started {game: 2}            the players swap sides (8.3)
//! …
//! ```
//!
//! A game ends with exactly one of `game_ended` (derived), `flag_fell` or `resigned`; after
//! the second game the stream takes nothing more. The readings of the laws the rules make are
//! in `docs/ANDES.md`, each with its article.

pub mod board;
pub mod clock;
pub mod event;
pub mod notation;
pub mod piece;
pub mod position;
pub mod rejection;
pub mod state;
pub mod stored;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use board::{Colour, Region, Side, Square};
pub use clock::{Clocks, COMPETITIVE_CLOCK_MS};
pub use event::{AndesEvent, GAMES_PER_MATCH};
pub use notation::{Move, NotationError};
pub use piece::{Piece, PieceKind};
pub use position::{EndReason, Played, Position, PIECES_PER_PLAYER};
pub use rejection::AndesRejection;
pub use state::{decide, derived_events, evolve, AndesGame, AndesState, Consequence, MatchSetup};

/// The prefix of Andes stream names: `andes/<match>`.
pub const STREAM_PREFIX: &str = "andes";
