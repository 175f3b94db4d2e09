//! A player's level (Andes laws, article 9.5, "los dos últimos puntajes sin bonificación de
//! partidas ganadas"): each score without bonus of the player's last two games **won**, as a
//! share of the maximum, × 360, averaged; 0–120 copper, 121–240 silver, 241–360 gold. A lost
//! game does not count.
//!
//! Readings (docs/ANDES.md): the maximum is 42 points (all 14 pieces on the board as one's
//! own); the level is exact (a fraction) and the bands are read as "at most 120", "at most 240",
//! "above 240", so that a level such as 120 3/7 is silver; a player who has won one game so far
//! has the level of that one score; one who has won none has no level yet.

use super::fold::AndesFold;
use super::score::{score_game, MAX_POINTS};
use super::AndesReplayError;
use crate::exact::Rational;
use ledger::andes::{AndesEvent, Side};
use ledger::event::PlayerId;

/// The three bands of 9.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    Copper,
    Silver,
    Gold,
}

impl Band {
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Copper => "copper",
            Band::Silver => "silver",
            Band::Gold => "gold",
        }
    }

    /// The band of a level 0–360.
    pub fn of(level: Rational) -> Band {
        if level <= Rational::int(120) {
            Band::Copper
        } else if level <= Rational::int(240) {
            Band::Silver
        } else {
            Band::Gold
        }
    }
}

/// A player's level and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The scores used (of the last two games won, or the one), older first.
    pub scores: Vec<u32>,
    pub value: Rational,
    pub band: Band,
    pub explain: String,
}

/// The level from the scores without bonus of the games a player **won**, oldest first: the
/// last two count, or the one; `None` with none won.
pub fn level(won: &[u32]) -> Option<Level> {
    let share = |score: u32| Rational::new(i128::from(score) * 360, i128::from(MAX_POINTS));
    let (value, sum) = match won {
        [] => return None,
        [only] => (share(*only), format!("{only} / {MAX_POINTS} × 360")),
        [.., older, last] => {
            let value = (share(*older) + share(*last)) * Rational::new(1, 2);
            let sum = format!(
                "({older} / {MAX_POINTS} × 360 + {last} / {MAX_POINTS} × 360) / 2 = ({} + {}) / 2",
                share(*older).shown(2),
                share(*last).shown(2)
            );
            (value, sum)
        }
    };
    let band = Band::of(value);
    let one = if won.len() == 1 { ", one game won" } else { "" };
    let explain = format!("{sum} = {} → {} (9.5{one})", value.shown(2), band.as_str());
    let scores = won[won.len().saturating_sub(2)..].to_vec();
    Some(Level { scores, value, band, explain })
}

/// Why a player has no level: no game won yet (9.5).
pub fn no_level(player: &str, ended: usize) -> String {
    format!("level of {player}: no game won yet, of {ended} ended (9.5: the last two games won count)")
}

/// One ended game, wherever it was recorded: its place in the log and each side's points
/// without bonus (5.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndedGame {
    /// The global log position of the event that ended it: the order of "last" (9.5).
    pub position: u64,
    pub match_id: String,
    pub game: u8,
    pub sol: PlayerId,
    pub luna: PlayerId,
    pub points: [u32; 2],
    /// The side that won it (9.5 counts only the games a player won).
    pub winner: Option<Side>,
}

impl EndedGame {
    /// The side `player` played, if any.
    pub fn side_of(&self, player: &str) -> Option<Side> {
        if self.sol == player {
            Some(Side::Sol)
        } else if self.luna == player {
            Some(Side::Luna)
        } else {
            None
        }
    }
}

/// The ended games of one match, each at the log position of the event that ended it
/// (`game_ended`, `flag_fell` or `resigned`: the k-th of them ends game k). `events` are the
/// match's events with their global positions, in stream order.
///
/// # Errors
/// As [`super::andes_match`].
pub fn ended_games(match_id: &str, events: &[(u64, AndesEvent)]) -> Result<Vec<EndedGame>, AndesReplayError> {
    let fold = AndesFold::of(events.iter().map(|(_, e)| e))?;
    let end_positions: Vec<u64> = events
        .iter()
        .filter(|(_, e)| {
            matches!(e, AndesEvent::GameEnded { .. } | AndesEvent::FlagFell { .. } | AndesEvent::Resigned { .. })
        })
        .map(|(position, _)| *position)
        .collect();
    Ok(fold
        .games()
        .iter()
        .filter(|record| record.end.is_some())
        .zip(end_positions)
        .map(|(record, position)| EndedGame {
            position,
            match_id: match_id.to_owned(),
            game: record.number,
            sol: record.sol.clone(),
            luna: record.luna.clone(),
            points: score_game(record).points.map(|p| p.total()),
            winner: score_game(record).result.map(|r| r.winner),
        })
        .collect())
}

/// A player's level over every match (9.5): the last two games they won, by log position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerLevel {
    pub player: PlayerId,
    /// The games that count, older first (at most two).
    pub games: Vec<EndedGame>,
    pub level: Option<Level>,
    pub explain: String,
}

/// The level of `player` from the last two games they won among `games` (any order, any
/// matches): the two with the highest log positions.
pub fn player_level(player: &str, games: &[EndedGame]) -> PlayerLevel {
    let mut theirs: Vec<&EndedGame> = games.iter().filter(|g| g.side_of(player).is_some()).collect();
    theirs.sort_by_key(|g| g.position);
    let ended = theirs.len();
    let won: Vec<&EndedGame> =
        theirs.into_iter().filter(|g| g.winner.is_some() && g.winner == g.side_of(player)).collect();
    let count = won.len();
    let last: Vec<EndedGame> = won.into_iter().skip(count.saturating_sub(2)).cloned().collect();
    let scores: Vec<u32> = last.iter().filter_map(|g| g.side_of(player).map(|side| g.points[side.index()])).collect();
    let level = level(&scores);
    let used: Vec<String> = last
        .iter()
        .filter_map(|g| {
            let side = g.side_of(player)?;
            Some(format!(
                "{} game {} as {side} (position {}): {}",
                g.match_id,
                g.game,
                g.position,
                g.points[side.index()]
            ))
        })
        .collect();
    let explain = match &level {
        Some(level) => format!(
            "level of {player}: last games won ({count} won of {ended} ended): {}; {}",
            used.join(", "),
            level.explain
        ),
        None => no_level(player, ended),
    };
    PlayerLevel { player: player.to_owned(), games: last, level, explain }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_the_last_two_scores_won() {
        assert_eq!(level(&[]), None, "no game won: no level");
        let one = level(&[14]).unwrap();
        assert_eq!((one.value, one.band, one.scores.clone()), (Rational::int(120), Band::Copper, vec![14]));
        assert_eq!(one.explain, "14 / 42 × 360 = 120 → copper (9.5, one game won)");
        let copper = level(&[14, 14]).unwrap();
        assert_eq!((copper.value, copper.band), (Rational::int(120), Band::Copper));
        let silver = level(&[14, 15]).unwrap();
        assert_eq!((silver.value, silver.band), (Rational::new(870, 7), Band::Silver));
        assert_eq!(level(&[28, 28]).unwrap().band, Band::Silver);
        assert_eq!(level(&[28, 29]).unwrap().band, Band::Gold);
        assert_eq!(level(&[0, 42, 42]).unwrap().value, Rational::int(360));
        assert_eq!(level(&[0, 0]).unwrap().band, Band::Copper);
        assert_eq!(
            level(&[14, 15]).unwrap().explain,
            "(14 / 42 × 360 + 15 / 42 × 360) / 2 = (120 + 900/7 → 128.57) / 2 = 870/7 → 124.29 → silver (9.5)"
        );
    }
}

#[cfg(test)]
mod across_matches {
    use super::*;
    use ledger::andes::AndesEvent as E;

    /// One game: Sol places a persona on the centre, Luna resigns. Sol 3 + 6 = 9, Luna 7.
    fn short_game(game: u8, start_ms: u64) -> Vec<E> {
        vec![
            E::GameStarted { game, at_ms: start_ms },
            E::MovePlayed { notation: "0d3".into(), at_ms: start_ms + 1000 },
            E::Resigned { side: Side::Luna, at_ms: start_ms + 2000 },
        ]
    }

    fn created(sol: &str, luna: &str) -> E {
        E::MatchCreated { first_sol: sol.into(), first_luna: luna.into(), clock_ms: 720_000 }
    }

    #[test]
    fn the_last_two_games_won_by_log_position_across_two_matches() {
        // m1: ana–bruno, both games; m2: ana–carla, game 1 ended between m1's two games. Luna
        // resigns every game: Sol wins each.
        let m1: Vec<E> = [vec![created("ana", "bruno")], short_game(1, 0), short_game(2, 10_000)].concat();
        let m2: Vec<E> = [vec![created("ana", "carla")], short_game(1, 0)].concat();
        let m1_positions = [1, 2, 3, 4, 10, 11, 12];
        let m2_positions = [5, 6, 7, 8];
        let m1: Vec<(u64, E)> = m1_positions.into_iter().zip(m1).collect();
        let m2: Vec<(u64, E)> = m2_positions.into_iter().zip(m2).collect();
        let mut games = ended_games("andes/m1", &m1).unwrap();
        games.extend(ended_games("andes/m2", &m2).unwrap());
        assert_eq!(
            games.iter().map(|g| (g.position, g.points, g.winner)).collect::<Vec<_>>(),
            [(4, [9, 7], Some(Side::Sol)), (12, [9, 7], Some(Side::Sol)), (8, [9, 7], Some(Side::Sol))]
        );
        // ana won m1 game 1 (sol, 9, position 4) and m2 game 1 (sol, 9, position 8) and lost m1
        // game 2 (luna, position 12), the last she finished: a lost game does not count.
        let ana = player_level("ana", &games);
        let level = ana.level.clone().unwrap();
        assert_eq!(level.scores, [9, 9]);
        assert_eq!((level.value, level.band), (Rational::new(540, 7), Band::Copper));
        assert_eq!(
            ana.explain,
            "level of ana: last games won (2 won of 3 ended): andes/m1 game 1 as sol (position 4): 9, andes/m2 game 1 \
             as sol (position 8): 9; (9 / 42 × 360 + 9 / 42 × 360) / 2 = (540/7 → 77.14 + 540/7 → 77.14) / 2 = 540/7 → \
             77.14 → copper (9.5)"
        );
        // bruno won one game (m1 game 2 as sol): that one score; carla won none: no level.
        let bruno = player_level("bruno", &games);
        assert_eq!(bruno.level.unwrap().scores, [9]);
        let carla = player_level("carla", &games);
        assert_eq!(
            (carla.level, carla.explain.as_str()),
            (None, "level of carla: no game won yet, of 1 ended (9.5: the last two games won count)")
        );
        // A game still running does not count.
        let running: Vec<(u64, E)> = m1_positions
            .into_iter()
            .zip(
                [vec![created("ana", "bruno")], short_game(1, 0)]
                    .concat()
                    .into_iter()
                    .chain([E::GameStarted { game: 2, at_ms: 10_000 }]),
            )
            .collect();
        assert_eq!(ended_games("andes/m1", &running).unwrap().len(), 1);
    }
}
