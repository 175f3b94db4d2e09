//! Projections of an Andes stream (`andes/<match>`, see `ledger::andes`): the position after
//! any move and the board as text from both sides, the points of each game (Andes laws, 5.1)
//! with the tie rules (5.2, 9.2), the two-game match with the winner's bonus (9.3, 9.4), and
//! each player's level (9.5). Every number comes with an `explain` line; the JSON is
//! [`render::MatchJson`]. Readings of the laws are in `docs/ANDES.md`.
//!
//! - [`fold`]: the fold over the stream, move by move, through the ledger's own rules.
//! - [`score`]: one game's points, winner and bonus.
//! - [`series`]: the match.
//! - [`level`]: the level of 9.5.
//! - [`text`]: the board for a terminal.
//! - [`render`]: the JSON.

pub mod fold;
pub mod level;
pub mod render;
pub mod score;
pub mod series;
pub mod text;

pub use fold::{AndesFold, GameEnd, GameRecord, Ply};
pub use level::{ended_games, level, no_level, player_level, Band, EndedGame, Level, PlayerLevel};
pub use render::MatchJson;
pub use score::{score_game, DecidedBy, GameResult, GameScore, Points, MAX_POINTS};
pub use series::{score_match, MatchDecidedBy, MatchScore, PlayerTotal};
pub use text::board_text;

use ledger::andes::{AndesEvent, Position, Side};

/// Why an Andes stream cannot be projected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AndesReplayError {
    #[error("the stream has no match_created")]
    NoMatch,
    /// The ledger's rules refuse event `index` (0-based): not a stream the ledger recorded.
    #[error("event {index} is refused by the rules: {message}")]
    Refused { index: usize, message: String },
}

/// The match so far: its score sheet.
///
/// # Errors
/// The stream is empty of a match, or the rules refuse one of its events.
pub fn andes_match(events: &[AndesEvent]) -> Result<MatchScore, AndesReplayError> {
    let fold = AndesFold::of(events)?;
    let setup = fold.setup().ok_or(AndesReplayError::NoMatch)?;
    Ok(score_match(setup, fold.games()))
}

/// The match as JSON.
///
/// # Errors
/// As [`andes_match`].
pub fn andes_match_json(events: &[AndesEvent]) -> Result<MatchJson, AndesReplayError> {
    let fold = AndesFold::of(events)?;
    let setup = fold.setup().ok_or(AndesReplayError::NoMatch)?;
    let score = score_match(setup, fold.games());
    Ok(render::match_json(setup, fold.games(), &score))
}

/// The position of `game` (1 or 2) after `ply` moves (0: the empty board); `None` when that
/// game or move is not in the stream.
///
/// # Errors
/// As [`andes_match`].
pub fn position_after(events: &[AndesEvent], game: u8, ply: usize) -> Result<Option<Position>, AndesReplayError> {
    let fold = AndesFold::of(events)?;
    Ok(fold.games().iter().find(|g| g.number == game).and_then(|g| g.position_after(ply)))
}

/// The match as text: for each game the board now from both sides, then every explain line.
///
/// # Errors
/// As [`andes_match`].
pub fn andes_match_text(events: &[AndesEvent]) -> Result<String, AndesReplayError> {
    let fold = AndesFold::of(events)?;
    let setup = fold.setup().ok_or(AndesReplayError::NoMatch)?;
    let score = score_match(setup, fold.games());
    let mut out = String::new();
    for (record, game) in fold.games().iter().zip(&score.games) {
        out.push_str(&format!("game {}: {} (sol) – {} (luna)\n", record.number, record.sol, record.luna));
        for side in Side::BOTH {
            out.push_str(&board_text(&record.position, side));
        }
        for line in &game.explain {
            out.push_str(&format!("  {line}\n"));
        }
    }
    for line in &score.explain {
        out.push_str(&format!("{line}\n"));
    }
    for line in &score.players {
        match level(&line.won) {
            Some(level) => out.push_str(&format!("level of {}: {}\n", line.player, level.explain)),
            None => out.push_str(&format!("{}\n", level::no_level(&line.player, line.scores.len()))),
        }
    }
    Ok(out)
}
