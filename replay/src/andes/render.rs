//! The JSON face of the Andes projections: one object per match with its games, every move
//! with the position after it, the points, the bonus, the totals and each player's level,
//! plus the `explain` lines. Field order is fixed by these structs, so the bytes are the same
//! on every machine. Halves (the 9.4 bonus) are exact at one decimal; levels are shown at two
//! decimals with the exact fraction beside them.

use super::fold::{GameRecord, Ply};
use super::level::{level, Level};
use super::score::{GameScore, Points};
use super::series::MatchScore;
use crate::exact::{json_rounded, Rational};
use ledger::andes::{MatchSetup, Piece, Position, Side, Square};
use serde::Serialize;
use serde_json::Number;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchJson {
    pub first_sol: String,
    pub first_luna: String,
    pub clock_ms: u64,
    /// "in_progress" or "complete".
    pub status: &'static str,
    pub games: Vec<GameJson>,
    pub players: Vec<PlayerJson>,
    pub winner: Option<String>,
    pub decided_by: Option<&'static str>,
    pub explain: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameJson {
    pub game: u8,
    pub sol: String,
    pub luna: String,
    pub status: &'static str,
    pub end: Option<EndJson>,
    pub moves: Vec<PlyJson>,
    pub position: PositionJson,
    pub points: BTreeMap<Side, PointsJson>,
    pub winner: Option<Side>,
    pub decided_by: Option<&'static str>,
    pub bonus: Option<Number>,
    /// Points plus the bonus.
    pub total: BTreeMap<Side, Number>,
    pub explain: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EndJson {
    pub reason: &'static str,
    pub side: Side,
    pub at_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlyJson {
    pub ply: u32,
    pub side: Side,
    /// Sol's notation.
    pub notation: String,
    /// As recorded.
    pub written: String,
    pub at_ms: u64,
    pub used_ms: u64,
    pub clock_ms: BTreeMap<Side, u64>,
    pub attacked: Option<PieceJson>,
    pub captured: Vec<PieceJson>,
    /// Position notation from Sol's side after the move.
    pub position: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PieceJson {
    pub square: Square,
    pub owner: Side,
    pub kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionJson {
    pub sol_view: String,
    pub luna_view: String,
    pub to_move: Side,
    pub reserve: BTreeMap<Side, u8>,
    pub clock_ms: BTreeMap<Side, u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointsJson {
    pub on_board: u32,
    pub attacked: u32,
    pub reserve: u32,
    pub points: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerJson {
    pub player: String,
    pub total: Number,
    pub total_exact: String,
    /// Points without bonus of each ended game.
    pub scores: Vec<u32>,
    /// Points without bonus of each game won: the level's (9.5).
    pub won: Vec<u32>,
    pub level: Option<LevelJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelJson {
    pub value: Number,
    pub value_exact: String,
    pub band: &'static str,
    pub explain: String,
}

fn sides<T>(f: impl Fn(Side) -> T) -> BTreeMap<Side, T> {
    Side::BOTH.iter().map(|&side| (side, f(side))).collect()
}

fn half_units(value: Rational) -> Number {
    json_rounded(value, 1)
}

fn piece_json((square, piece): (Square, Piece)) -> PieceJson {
    PieceJson { square, owner: piece.side, kind: piece.kind.as_str() }
}

fn ply_json(ply: &Ply) -> PlyJson {
    PlyJson {
        ply: ply.number,
        side: ply.side,
        notation: ply.mv.to_string(),
        written: ply.written.clone(),
        at_ms: ply.at_ms,
        used_ms: ply.used_ms,
        clock_ms: sides(|side| ply.clock_ms[side.index()]),
        attacked: ply.attacked.map(piece_json),
        captured: ply.captured.iter().copied().map(piece_json).collect(),
        position: ply.position.notation(Side::Sol),
    }
}

fn position_json(position: &Position, clock_ms: [u64; 2]) -> PositionJson {
    PositionJson {
        sol_view: position.notation(Side::Sol),
        luna_view: position.notation(Side::Luna),
        to_move: position.to_move(),
        reserve: sides(|side| position.reserve(side)),
        clock_ms: sides(|side| clock_ms[side.index()]),
    }
}

fn points_json(points: &Points) -> PointsJson {
    PointsJson { on_board: points.on_board, attacked: points.attacked, reserve: points.reserve, points: points.total() }
}

fn game_json(record: &GameRecord, score: &GameScore) -> GameJson {
    GameJson {
        game: record.number,
        sol: record.sol.clone(),
        luna: record.luna.clone(),
        status: if record.end.is_some() { "ended" } else { "in_progress" },
        end: record.end.map(|end| EndJson { reason: end.reason.as_str(), side: end.side, at_ms: end.at_ms }),
        moves: record.plies.iter().map(ply_json).collect(),
        position: position_json(&record.position, record.clock_ms),
        points: sides(|side| points_json(&score.points[side.index()])),
        winner: score.result.map(|r| r.winner),
        decided_by: score.result.map(|r| r.decided_by.as_str()),
        bonus: score.result.map(|r| half_units(r.bonus)),
        total: sides(|side| half_units(score.total(side))),
        explain: score.explain.clone(),
    }
}

fn level_json(level: &Level) -> LevelJson {
    LevelJson {
        value: json_rounded(level.value, 2),
        value_exact: level.value.exact_text(),
        band: level.band.as_str(),
        explain: level.explain.clone(),
    }
}

/// The JSON of a match.
pub fn match_json(setup: &MatchSetup, records: &[GameRecord], score: &MatchScore) -> MatchJson {
    let mut explain = Vec::new();
    for game in &score.games {
        explain.extend(game.explain.iter().cloned());
    }
    explain.extend(score.explain.iter().cloned());
    let players = score
        .players
        .iter()
        .map(|line| {
            let level = level(&line.won);
            match &level {
                Some(level) => explain.push(format!("level of {}: {}", line.player, level.explain)),
                None => explain.push(super::level::no_level(&line.player, line.scores.len())),
            }
            PlayerJson {
                player: line.player.clone(),
                total: half_units(line.total),
                total_exact: line.total.exact_text(),
                scores: line.scores.clone(),
                won: line.won.clone(),
                level: level.as_ref().map(level_json),
            }
        })
        .collect();
    MatchJson {
        first_sol: setup.first_sol.clone(),
        first_luna: setup.first_luna.clone(),
        clock_ms: setup.clock_ms,
        status: if score.complete { "complete" } else { "in_progress" },
        games: records.iter().zip(&score.games).map(|(r, s)| game_json(r, s)).collect(),
        players,
        winner: score.winner.clone(),
        decided_by: score.decided_by.map(|d| d.as_str()),
        explain,
    }
}
