//! The Andes projections of one match (`andes/<match>`, docs/ANDES.md), shared by the
//! projections facade (`crate::facade`) and through it the Projections service, the web's board
//! and `ledgerctl andes`: the board of a game, each game's points, the whole match, the players'
//! levels. Each is a typed view whose JSON (serde) is the API's canonical JSON and whose
//! `Display` is the text for people; every number in them comes from `replay::andes` with the
//! line saying how it was reached.

use super::{ProjectionError, Streams};
use ledger::andes::{AndesEvent, Position, Side};
use ledger::event::PlayerId;
use ledger::{Event, StreamId};
use replay::andes::render::{EndJson, LevelJson, PointsJson};
use replay::andes::{andes_match_json, andes_match_text, board_text, AndesFold, AndesReplayError, MatchJson, Points};
use serde::{Serialize, Serializer};
use serde_json::Number;
use std::collections::BTreeMap;
use std::fmt;

/// Which board: a game of the match (the last one started when `None`), from whose side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WhichBoard {
    pub game: Option<u8>,
    pub side: Side,
}

/// `sol` or `luna` (`None`: Sol).
///
/// # Errors
/// Anything else, in a sentence.
pub fn parse_side(text: Option<&str>) -> Result<Side, String> {
    match text.unwrap_or("sol") {
        "" | "sol" => Ok(Side::Sol),
        "luna" => Ok(Side::Luna),
        other => Err(format!("side `{}` must be sol or luna", ledger::rejection::quote(other))),
    }
}

/// A game of a match: 1 or 2.
///
/// # Errors
/// Any other number, in a sentence.
pub fn parse_game(number: u64) -> Result<u8, String> {
    u8::try_from(number)
        .ok()
        .filter(|game| (1..=ledger::andes::GAMES_PER_MATCH).contains(game))
        .ok_or_else(|| format!("a match has games 1 and 2, not game {number}"))
}

/// A stream id as the JSON names a match: `andes/<match>`.
pub(crate) fn as_text<S: Serializer>(id: &StreamId, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(id)
}

/// Each side's value, Sol first.
fn sides<T>(f: impl Fn(Side) -> T) -> BTreeMap<Side, T> {
    Side::BOTH.iter().map(|&side| (side, f(side))).collect()
}

/// A player with their side, as the texts name them: `ana (sol)`.
fn who(player: &str, side: Side) -> String {
    format!("{player} ({side})")
}

/// The Andes events of a match as they stood after event `as_of_seq` (all of them for `None`):
/// jury events and voided events left out, as in every projection.
///
/// # Errors
/// The stream has no events.
pub fn events_of(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<Vec<AndesEvent>, ProjectionError> {
    let events = streams.get(id).filter(|e| !e.is_empty()).ok_or_else(|| ProjectionError::NotFound(id.to_string()))?;
    let as_of = as_of_seq.unwrap_or(u64::MAX);
    let prefix: Vec<(u64, Event)> = events.iter().filter(|(seq, _)| *seq <= as_of).cloned().collect();
    let voided = replay::sheet::voided_seqs(&prefix);
    Ok(prefix
        .into_iter()
        .filter(|(seq, _)| !voided.contains(seq))
        .filter_map(|(_, event)| match event {
            Event::Andes(andes) => Some(andes),
            _ => None,
        })
        .collect())
}

/// The board of one game: the position now (after its last move, attacks and captures
/// included), as `side` sees it, with each side's points and how they were reached (5.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardView {
    #[serde(rename = "match", serialize_with = "as_text")]
    pub match_id: StreamId,
    pub game: u8,
    pub sol: PlayerId,
    pub luna: PlayerId,
    /// Moves played in the game.
    pub moves: usize,
    /// Whose view.
    pub side: Side,
    pub position: BoardPosition,
    pub end: Option<EndJson>,
    pub points: BTreeMap<Side, BoardPoints>,
    /// The position itself, which the text draws.
    #[serde(skip)]
    pub board: Position,
}

/// The position of a board view: its notation from each side, whose move it is, the reserves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardPosition {
    pub sol_view: String,
    pub luna_view: String,
    pub to_move: Side,
    pub reserve: BTreeMap<Side, u8>,
}

/// A side's points on the board and the line saying how they were reached (5.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardPoints {
    pub on_board: u32,
    pub attacked: u32,
    pub reserve: u32,
    pub points: u32,
    pub explain: String,
}

impl BoardView {
    /// The player of `side` in this game.
    pub fn player(&self, side: Side) -> &str {
        match side {
            Side::Sol => &self.sol,
            Side::Luna => &self.luna,
        }
    }
}

impl fmt::Display for BoardView {
    /// `andes/m1, game 2: ana (sol) – bo (luna), after 13 moves`, the board as `side` sees it,
    /// then each side's points.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ended = self.end.as_ref().map(|end| format!(", ended ({}, {})", end.reason, end.side)).unwrap_or_default();
        writeln!(
            f,
            "{}, game {}: {} – {}, after {} moves{ended}",
            self.match_id,
            self.game,
            who(&self.sol, Side::Sol),
            who(&self.luna, Side::Luna),
            self.moves
        )?;
        f.write_str(&board_text(&self.board, self.side))?;
        for points in self.points.values() {
            writeln!(f, "{}", points.explain)?;
        }
        Ok(())
    }
}

/// The board of one game as `which` asks.
///
/// # Errors
/// No such match or game, or the stream is not one the rules accept.
pub fn board(
    streams: &Streams,
    id: &StreamId,
    as_of_seq: Option<u64>,
    which: WhichBoard,
) -> Result<BoardView, ProjectionError> {
    let events = events_of(streams, id, as_of_seq)?;
    let fold = AndesFold::of(&events)?;
    fold.setup().ok_or(AndesReplayError::NoMatch)?;
    let record = match which.game {
        Some(number) => fold.games().iter().find(|g| g.number == number),
        None => fold.games().last(),
    }
    .ok_or_else(|| match which.game {
        Some(number) => ProjectionError::NotFound(format!("game {number} of {id}: it has not started")),
        None => ProjectionError::NotFound(format!("a game of {id}: none has started")),
    })?;
    let position = &record.position;
    Ok(BoardView {
        match_id: id.clone(),
        game: record.number,
        sol: record.sol.clone(),
        luna: record.luna.clone(),
        moves: record.plies.len(),
        side: which.side,
        position: BoardPosition {
            sol_view: position.notation(Side::Sol),
            luna_view: position.notation(Side::Luna),
            to_move: position.to_move(),
            reserve: sides(|side| position.reserve(side)),
        },
        end: record.end.map(|end| EndJson { reason: end.reason.as_str(), side: end.side, at_ms: end.at_ms }),
        points: sides(|side| {
            let points = Points::of(position, side);
            BoardPoints {
                on_board: points.on_board,
                attacked: points.attacked,
                reserve: points.reserve,
                points: points.total(),
                explain: points.explain(&who(record.player(side), side)),
            }
        }),
        board: position.clone(),
    })
}

/// Each game's points, winner and bonus (5.1, 5.2, 9.2, 9.4), each with its explain lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreView {
    #[serde(rename = "match", serialize_with = "as_text")]
    pub match_id: StreamId,
    pub games: Vec<GameScoreView>,
}

/// One game of a [`ScoreView`]: the match sheet's game without its moves and position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameScoreView {
    pub game: u8,
    pub sol: PlayerId,
    pub luna: PlayerId,
    /// `in_progress` or `ended`.
    pub status: &'static str,
    pub end: Option<EndJson>,
    pub points: BTreeMap<Side, PointsJson>,
    pub winner: Option<Side>,
    pub decided_by: Option<&'static str>,
    pub bonus: Option<Number>,
    /// Points plus the bonus.
    pub total: BTreeMap<Side, Number>,
    pub explain: Vec<String>,
}

impl fmt::Display for ScoreView {
    /// `game 1: ana (sol) – bo (luna)` and its explain lines, for each game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for game in &self.games {
            writeln!(f, "game {}: {} – {}", game.game, who(&game.sol, Side::Sol), who(&game.luna, Side::Luna))?;
            for line in &game.explain {
                writeln!(f, "  {line}")?;
            }
        }
        if self.games.is_empty() {
            writeln!(f, "no game has started")?;
        }
        Ok(())
    }
}

/// The match sheet of a stream, or why there is none.
fn match_json(events: &[AndesEvent]) -> Result<MatchJson, ProjectionError> {
    Ok(andes_match_json(events)?)
}

/// Each game's points, winner and bonus of a match as of a seq.
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn score(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<ScoreView, ProjectionError> {
    let sheet = match_json(&events_of(streams, id, as_of_seq)?)?;
    let games = sheet
        .games
        .into_iter()
        .map(|game| GameScoreView {
            game: game.game,
            sol: game.sol,
            luna: game.luna,
            status: game.status,
            end: game.end,
            points: game.points,
            winner: game.winner,
            decided_by: game.decided_by,
            bonus: game.bonus,
            total: game.total,
            explain: game.explain,
        })
        .collect();
    Ok(ScoreView { match_id: id.clone(), games })
}

/// The whole match: every game with its moves and positions, the totals and the winner (8.3,
/// 9.3, 9.4). Its JSON is `replay::andes::andes_match_json`'s sheet, its text
/// `replay::andes::andes_match_text`, both as they are.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct MatchView {
    pub sheet: MatchJson,
    /// For each game the board from both sides with its lines, then the match's lines.
    #[serde(skip)]
    text: String,
}

impl fmt::Display for MatchView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The whole match as of a seq.
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn whole_match(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<MatchView, ProjectionError> {
    let events = events_of(streams, id, as_of_seq)?;
    let sheet = match_json(&events)?;
    let text = andes_match_text(&events)?;
    Ok(MatchView { sheet, text })
}

/// Each player's level from the match's two game scores without bonus (9.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelsView {
    #[serde(rename = "match", serialize_with = "as_text")]
    pub match_id: StreamId,
    pub players: Vec<MatchLevel>,
}

/// A player's level in one match: the scores without bonus of their ended games and of those
/// they won, and the level once they have won one (9.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchLevel {
    pub player: PlayerId,
    pub scores: Vec<u32>,
    pub won: Vec<u32>,
    pub level: Option<LevelJson>,
}

impl fmt::Display for LevelsView {
    /// `level of ana: …` for each player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for player in &self.players {
            match &player.level {
                Some(level) => writeln!(f, "level of {}: {}", player.player, level.explain)?,
                None => writeln!(f, "{}", replay::andes::no_level(&player.player, player.scores.len()))?,
            }
        }
        Ok(())
    }
}

/// The players' levels of a match as of a seq.
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn level(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<LevelsView, ProjectionError> {
    let sheet = match_json(&events_of(streams, id, as_of_seq)?)?;
    let players = sheet
        .players
        .into_iter()
        .map(|player| MatchLevel { player: player.player, scores: player.scores, won: player.won, level: player.level })
        .collect();
    Ok(LevelsView { match_id: id.clone(), players })
}

/// An Andes match as the season lists it (`ledgerctl tournament list`, the front page): who
/// plays (as `match_created` names them), how many games have ended and who won each, and the
/// match's winner once both have.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchSummary {
    #[serde(rename = "match", serialize_with = "as_text")]
    pub match_id: StreamId,
    /// Sol in game 1 (Luna in game 2).
    pub first_sol: PlayerId,
    pub first_luna: PlayerId,
    pub games_ended: usize,
    /// Ended games won, by player (a game without a winner counts for nobody).
    pub wins: BTreeMap<PlayerId, usize>,
    /// `in_progress` or `complete`, as the match sheet says.
    pub status: &'static str,
    pub winner: Option<PlayerId>,
}

/// The summary of a match from its sheet (`replay::andes::andes_match_json`).
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn summary(streams: &Streams, id: &StreamId) -> Result<MatchSummary, ProjectionError> {
    let sheet = match_json(&events_of(streams, id, None)?)?;
    let ended: Vec<_> = sheet.games.iter().filter(|g| g.status == "ended").collect();
    let mut wins: BTreeMap<PlayerId, usize> =
        [sheet.first_sol.clone(), sheet.first_luna.clone()].into_iter().map(|p| (p, 0)).collect();
    for game in &ended {
        let winner = match game.winner {
            Some(Side::Sol) => &game.sol,
            Some(Side::Luna) => &game.luna,
            None => continue,
        };
        *wins.entry(winner.clone()).or_default() += 1;
    }
    Ok(MatchSummary {
        match_id: id.clone(),
        first_sol: sheet.first_sol,
        first_luna: sheet.first_luna,
        games_ended: ended.len(),
        wins,
        status: sheet.status,
        winner: sheet.winner,
    })
}

/// One player's level from their last two games won across every Andes match (9.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerLevelView {
    pub player: PlayerId,
    /// The games that count, older first (at most two).
    pub games: Vec<CountedGame>,
    pub level: Option<LevelJson>,
    pub explain: String,
}

/// A game that counts for a player's level: where it was played, on which side, when it ended
/// (its log position) and the player's points without bonus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountedGame {
    #[serde(rename = "match")]
    pub match_id: String,
    pub game: u8,
    pub side: Side,
    pub position: u64,
    pub points: u32,
}

impl fmt::Display for PlayerLevelView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.explain)
    }
}

/// One player's level across every Andes match of `streams`, "last" by the global log position
/// `position_of(stream, seq)` of the event that ended each game. Voided and jury events are
/// left out as in every projection.
///
/// # Errors
/// A stream the rules do not accept.
pub fn player_level(
    streams: &Streams,
    player: &str,
    position_of: impl Fn(&StreamId, u64) -> u64,
) -> Result<PlayerLevelView, ProjectionError> {
    let mut games = Vec::new();
    for (id, events) in streams.iter().filter(|(id, _)| id.kind() == ledger::StreamKind::Andes) {
        let voided = replay::sheet::voided_seqs(events);
        let andes: Vec<(u64, AndesEvent)> = events
            .iter()
            .filter(|(seq, _)| !voided.contains(seq))
            .filter_map(|(seq, event)| match event {
                Event::Andes(andes) => Some((position_of(id, *seq), andes.clone())),
                _ => None,
            })
            .collect();
        games.extend(replay::andes::ended_games(&id.to_string(), &andes)?);
    }
    let level = replay::andes::player_level(player, &games);
    let counted = level
        .games
        .iter()
        .filter_map(|g| {
            let side = g.side_of(player)?;
            Some(CountedGame {
                match_id: g.match_id.clone(),
                game: g.game,
                side,
                position: g.position,
                points: g.points[side.index()],
            })
        })
        .collect();
    Ok(PlayerLevelView {
        player: player.to_owned(),
        games: counted,
        level: level.level.as_ref().map(|l| LevelJson {
            value: replay::exact::json_rounded(l.value, 2),
            value_exact: l.value.exact_text(),
            band: l.band.as_str(),
            explain: l.explain.clone(),
        }),
        explain: level.explain,
    })
}

#[cfg(test)]
mod tests;
