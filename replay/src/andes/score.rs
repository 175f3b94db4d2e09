//! The points of a game (Andes laws, article 5.1), its winner with the tie rules (5.2, 9.2),
//! and the winner's bonus (9.4), each number with a line saying how it was reached.
//!
//! Readings (docs/ANDES.md): a flag fall loses whatever the points (5.1); a resignation loses
//! too (5.3, "rendición"); otherwise more points win, then more pieces on the board (5.2: the
//! pieces by their value, the board's being worth most), then Luna (the ledger's choice: 9.2
//! allows no level game). The bonus is half the winner's own points; both are exact.

use super::fold::GameRecord;
use crate::exact::Rational;
use ledger::andes::{EndReason, Position, Side};

/// Points per piece on the board, per opposing piece attacked, per piece in reserve (5.1.1–5.1.3).
pub const ON_BOARD: u32 = 3;
pub const ATTACKED: u32 = 2;
pub const IN_RESERVE: u32 = 1;

/// The most points a game can give: all 14 pieces on the board as one's own (14 × 3).
pub const MAX_POINTS: u32 = 42;

/// What a side's points are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Points {
    pub on_board: u32,
    pub attacked: u32,
    pub reserve: u32,
}

impl Points {
    pub fn of(position: &Position, side: Side) -> Points {
        Points {
            on_board: u32::from(position.on_board(side)),
            attacked: u32::from(position.attacked_by(side)),
            reserve: u32::from(position.reserve(side)),
        }
    }

    /// 3 per piece on the board, 2 per opposing piece attacked, 1 per piece in reserve.
    pub fn total(&self) -> u32 {
        ON_BOARD * self.on_board + ATTACKED * self.attacked + IN_RESERVE * self.reserve
    }

    /// E.g. `ana (sol): 3 on the board × 3 = 9, 0 attacked × 2 = 0, 5 in reserve × 1 = 5: 14 points (5.1)`.
    pub fn explain(&self, who: &str) -> String {
        format!(
            "{who}: {} on the board × {ON_BOARD} = {}, {} attacked × {ATTACKED} = {}, {} in reserve × {IN_RESERVE} = {}: {} points (5.1)",
            self.on_board,
            ON_BOARD * self.on_board,
            self.attacked,
            ATTACKED * self.attacked,
            self.reserve,
            IN_RESERVE * self.reserve,
            self.total()
        )
    }
}

/// What decided a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecidedBy {
    /// The loser's flag fell (5.1).
    FlagFell,
    /// The loser resigned (5.3).
    Resigned,
    /// More points (5.1).
    Points,
    /// Level on points: more pieces on the board (5.2).
    PiecesOnBoard,
    /// Level on points and pieces: Luna (9.2, the ledger's choice).
    Luna,
}

impl DecidedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::FlagFell => "flag_fell",
            DecidedBy::Resigned => "resigned",
            DecidedBy::Points => "points",
            DecidedBy::PiecesOnBoard => "pieces_on_board",
            DecidedBy::Luna => "luna",
        }
    }
}

/// The score of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    pub game: u8,
    /// By [`Side::index`].
    pub points: [Points; 2],
    /// `None` while the game is in progress.
    pub result: Option<GameResult>,
    pub explain: Vec<String>,
}

/// The winner of an ended game and the bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Side,
    pub decided_by: DecidedBy,
    /// Half the winner's points (9.4).
    pub bonus: Rational,
    /// Points plus bonus, by [`Side::index`].
    pub total: [Rational; 2],
}

impl GameScore {
    /// Points plus bonus for a side; the points alone while the game runs.
    pub fn total(&self, side: Side) -> Rational {
        match &self.result {
            Some(result) => result.total[side.index()],
            None => Rational::from(i64::from(self.points[side.index()].total())),
        }
    }
}

/// Scores a game: the points now, and once it has ended the winner and the bonus.
pub fn score_game(record: &GameRecord) -> GameScore {
    let who = |side: Side| format!("{} ({side})", record.player(side));
    let points = [Points::of(&record.position, Side::Sol), Points::of(&record.position, Side::Luna)];
    let mut explain: Vec<String> = Side::BOTH.iter().map(|&side| points[side.index()].explain(&who(side))).collect();
    let Some(end) = record.end else {
        explain.push(format!("game {} is in progress: no winner yet (1.7)", record.number));
        return GameScore { game: record.number, points, result: None, explain };
    };
    let sol = points[Side::Sol.index()];
    let luna = points[Side::Luna.index()];
    let (winner, decided_by, line) = match end.reason {
        EndReason::FlagFell => (
            end.side.other(),
            DecidedBy::FlagFell,
            format!("{}'s flag fell: {} wins whatever the points (5.1)", who(end.side), who(end.side.other())),
        ),
        EndReason::Resigned => (
            end.side.other(),
            DecidedBy::Resigned,
            format!("{} resigned: {} wins (5.3)", who(end.side), who(end.side.other())),
        ),
        EndReason::ContinentEmptied => {
            explain.push(format!(
                "game {} ended: {} has no piece left on the continent (1.6); the points decide (1.7)",
                record.number,
                who(end.side)
            ));
            on_points(&points, &who)
        }
        EndReason::NoLegalMove => {
            explain.push(format!(
                "game {} ended: {} has no legal move (1.3); the points decide (1.7)",
                record.number,
                who(end.side)
            ));
            on_points(&points, &who)
        }
    };
    explain.push(line);
    let won = Rational::from(i64::from(points[winner.index()].total()));
    let bonus = won * Rational::new(1, 2);
    explain.push(format!("bonus for {}: 50% of {} = {} (9.4)", who(winner), won, bonus));
    let mut total = [Rational::from(i64::from(sol.total())), Rational::from(i64::from(luna.total()))];
    total[winner.index()] = won + bonus;
    for side in Side::BOTH {
        explain.push(format!("game {} total for {}: {}", record.number, who(side), total[side.index()]));
    }
    GameScore { game: record.number, points, result: Some(GameResult { winner, decided_by, bonus, total }), explain }
}

/// The winner of a game that ended on the board: points (5.1), then pieces on the board (5.2),
/// then Luna (9.2).
fn on_points(points: &[Points; 2], who: &dyn Fn(Side) -> String) -> (Side, DecidedBy, String) {
    let sol = points[Side::Sol.index()];
    let luna = points[Side::Luna.index()];
    if sol.total() != luna.total() {
        let winner = if sol.total() > luna.total() { Side::Sol } else { Side::Luna };
        let line = format!(
            "{} wins on points, {} to {} (5.1)",
            who(winner),
            points[winner.index()].total(),
            points[winner.other().index()].total()
        );
        (winner, DecidedBy::Points, line)
    } else if sol.on_board != luna.on_board {
        let winner = if sol.on_board > luna.on_board { Side::Sol } else { Side::Luna };
        let line = format!(
            "level on {} points; {} wins with more pieces on the board, {} to {} (5.2)",
            sol.total(),
            who(winner),
            points[winner.index()].on_board,
            points[winner.other().index()].on_board
        );
        (winner, DecidedBy::PiecesOnBoard, line)
    } else {
        let line = format!(
            "level on {} points and {} pieces on the board; a game may not end level (9.2): {} wins as Luna",
            sol.total(),
            sol.on_board,
            who(Side::Luna)
        );
        (Side::Luna, DecidedBy::Luna, line)
    }
}
