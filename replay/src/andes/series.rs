//! The two-game match (Andes laws, articles 8.3, 9.3, 9.4): the players swap sides for game 2,
//! each game's points plus its winner's bonus are summed per player, and the sums decide.
//!
//! Readings (docs/ANDES.md): level sums are broken by the pieces on the board at the end of
//! both games (5.2); if those are level too the match is drawn, since 9.2 forbids a level
//! result only for a single game and the Luna rule cannot apply to players who were each Luna
//! once.

use super::fold::GameRecord;
use super::score::{score_game, GameScore};
use crate::exact::Rational;
use ledger::andes::{MatchSetup, GAMES_PER_MATCH};
use ledger::event::PlayerId;

/// What decided a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchDecidedBy {
    /// The higher sum of points and bonuses (9.3).
    Points,
    /// Level sums: more pieces on the board at the end of the two games (5.2).
    PiecesOnBoard,
    /// Level on both: a drawn match.
    Drawn,
}

impl MatchDecidedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchDecidedBy::Points => "points",
            MatchDecidedBy::PiecesOnBoard => "pieces_on_board",
            MatchDecidedBy::Drawn => "drawn",
        }
    }
}

/// One player's line of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerTotal {
    pub player: PlayerId,
    /// Points plus bonuses over the games played so far (a running game counts its points).
    pub total: Rational,
    /// Points without bonus of each ended game, in game order.
    pub scores: Vec<u32>,
    /// Points without bonus of each game this player won, in game order (the level, 9.5).
    pub won: Vec<u32>,
    /// Pieces on the board at the end of each ended game, summed (5.2).
    pub pieces_on_board: u32,
}

/// The match so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchScore {
    pub games: Vec<GameScore>,
    /// First the player who was Sol in game 1, then the other.
    pub players: [PlayerTotal; 2],
    /// Both games have ended.
    pub complete: bool,
    /// The winner once the match is complete; `None` while it runs or when drawn.
    pub winner: Option<PlayerId>,
    pub decided_by: Option<MatchDecidedBy>,
    pub explain: Vec<String>,
}

/// Sums the games of a match.
pub fn score_match(setup: &MatchSetup, records: &[GameRecord]) -> MatchScore {
    let games: Vec<GameScore> = records.iter().map(score_game).collect();
    let mut players = [setup.first_sol.clone(), setup.first_luna.clone()].map(|player| PlayerTotal {
        player,
        total: Rational::ZERO,
        scores: Vec::new(),
        won: Vec::new(),
        pieces_on_board: 0,
    });
    let mut explain = Vec::new();
    for (record, score) in records.iter().zip(&games) {
        for line in players.iter_mut() {
            let Some(side) = setup.side_of(record.number, &line.player) else { continue };
            line.total = line.total + score.total(side);
            if let Some(result) = &score.result {
                line.scores.push(score.points[side.index()].total());
                if result.winner == side {
                    line.won.push(score.points[side.index()].total());
                }
                line.pieces_on_board += score.points[side.index()].on_board;
            }
        }
    }
    let ended = games.iter().filter(|g| g.result.is_some()).count();
    let complete = ended == usize::from(GAMES_PER_MATCH);
    for line in &players {
        let parts: Vec<String> = records
            .iter()
            .zip(&games)
            .filter_map(|(record, score)| {
                let side = setup.side_of(record.number, &line.player)?;
                Some(format!("game {} as {side}: {}", record.number, score.total(side)))
            })
            .collect();
        let parts = if parts.is_empty() { "no game yet".to_string() } else { parts.join(" + ") };
        explain.push(format!("{}: {parts} = {} (9.3)", line.player, line.total));
    }
    let (winner, decided_by) = if !complete {
        explain.push(format!("{ended} of {GAMES_PER_MATCH} games ended: the match is not decided yet (8.3)"));
        (None, None)
    } else {
        let [first, second] = &players;
        if first.total != second.total {
            let w = if first.total > second.total { first } else { second };
            explain.push(format!("{} wins the match on the sum of the two games (9.3)", w.player));
            (Some(w.player.clone()), Some(MatchDecidedBy::Points))
        } else if first.pieces_on_board != second.pieces_on_board {
            let w = if first.pieces_on_board > second.pieces_on_board { first } else { second };
            explain.push(format!(
                "level on {}; {} wins with more pieces on the board at the end of the games, {} to {} (5.2)",
                first.total,
                w.player,
                w.pieces_on_board,
                first.pieces_on_board.min(second.pieces_on_board)
            ));
            (Some(w.player.clone()), Some(MatchDecidedBy::PiecesOnBoard))
        } else {
            explain.push(format!(
                "level on {} and on {} pieces on the board: the match is drawn (9.2 forbids a level result only for a single game)",
                first.total, first.pieces_on_board
            ));
            (None, Some(MatchDecidedBy::Drawn))
        }
    };
    MatchScore { games, players, complete, winner, decided_by, explain }
}
