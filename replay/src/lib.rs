//! Pure projections over the ledger's events: the score sheet of a game, the standings of a
//! tournament and statistics for analysts. Each projection is a fold over events that the
//! ledger has already validated; voided events are skipped.
//!
//! Architecture Invariant: this crate does no I/O and reads no clock and no randomness; it
//! depends on `ledger` and serde only. Scores are exact ([`exact::Rational`]), never `f64`.

pub mod exact;
pub mod sheet;

pub use exact::Rational;
pub use sheet::{score_game, score_game_as_of, GameFold, ScoreError, ScoreSheet};
