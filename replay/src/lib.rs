//! Pure projections over the ledger's events. Each is a fold over events the ledger has
//! already validated, with voided events left out:
//!
//! - [`sheet`]: the score sheet of one game (spec §3–5, docs/RULES.md), with an `explain` line
//!   per number; [`sheet::GameFold`] folds event by event, for "as of seq" and audits.
//! - [`mod@standings`]: qualifying totals, tie-breakers and the final (sections 6–7).
//! - [`stats`]: games, wins, Wilson intervals and averages per role and nation, and which
//!   tournaments they cover.
//! - [`season`]: where a tournament stands (registering, drawn, round N, final, ended).
//! - [`exact`]: the exact numbers all of them use.
//! - [`audit`]: the jury's audit — any point of a game as the ledger knew it then, stepping,
//!   diffs, the timeline with voids and rulings, and the Markdown report with the chain digest.
//! - [`clock`]: the chess clock and the jury's stopwatch of one game, as a fold.
//! - [`mod@andes`]: an Andes match — positions, points, the two-game match and levels.
//!
//! Architecture Invariant: this crate does no I/O and reads no clock and no randomness; it
//! depends on `ledger`, serde, serde_json (the projections' JSON shapes) and thiserror only.
//! Scores are exact ([`exact::Rational`]), never `f64`. The rules the projections follow are in
//! docs/RULES.md and docs/ANDES.md; the readings taken where the rulebooks are unclear, in
//! docs/DECISIONS.md.

pub mod andes;
pub mod audit;
pub mod clock;
pub mod exact;
pub mod season;
pub mod sheet;
pub mod standings;
pub mod stats;

pub use exact::Rational;
pub use sheet::{score_game, score_game_as_of, GameFold, ScoreError, ScoreSheet};
pub use standings::{standings, Standings, StandingsError};
