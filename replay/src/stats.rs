//! Statistics for analysts: per role and per nation, games, wins, win rate with a 95% Wilson
//! score interval, and average score, over ended games filtered by tournament, ruleset, stage
//! and year.
//!
//! Events carry no calendar date (`at_ms` is the table device's clock), so the year is an
//! attribute of each [`GameRecord`] given by the caller; [`year_of_unix_ms`] turns the
//! envelope's `recorded_at_ms` of a game's first event into one, without a clock.
//!
//! The Wilson interval needs a square root: its bounds are computed exactly to four decimals
//! (rounded halves up) from z = 1.96 with integer square roots, see
//! [`crate::exact::round_sum_with_root`]. No `f64` anywhere.

use crate::exact::{fixed_text, json_rounded, round_sum_with_root, Rational};
use crate::sheet::ScoreSheet;
use crate::standings::{StandingsError, TournamentFacts};
use ledger::{Event, Nation, Role, Ruleset, Stage};
use serde::Serialize;
use serde_json::Number;
use std::collections::BTreeMap;

/// Decimals of the win rate and its interval.
pub const RATE_PLACES: u32 = 4;

/// One scored game and what the filters read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub game: String,
    /// What the tournament filter matches (the caller's choice: the stream id, or the name).
    pub tournament: Option<String>,
    /// The tournament's name from `tournament_created`, for [`Stats::tournaments`].
    pub tournament_name: Option<String>,
    pub stage: Option<Stage>,
    pub year: Option<i32>,
    pub sheet: ScoreSheet,
}

/// Which games count; `None` lets every value through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub tournament: Option<String>,
    pub ruleset: Option<Ruleset>,
    pub stage: Option<Stage>,
    pub year: Option<i32>,
}

impl Filter {
    pub fn admits(&self, record: &GameRecord) -> bool {
        self.admits_parts(record.tournament.as_deref(), record.sheet.ruleset, record.stage, record.year)
    }

    /// The same test on a game's parts (what the season's read models keep of a game).
    pub fn admits_parts(
        &self,
        tournament: Option<&str>,
        ruleset: Ruleset,
        stage: Option<Stage>,
        year: Option<i32>,
    ) -> bool {
        fn matches<T: PartialEq + ?Sized>(want: Option<&T>, have: Option<&T>) -> bool {
            want.is_none_or(|w| have == Some(w))
        }
        matches(self.tournament.as_deref(), tournament)
            && matches(self.ruleset.as_ref(), Some(&ruleset))
            && matches(self.stage.as_ref(), stage.as_ref())
            && matches(self.year.as_ref(), year.as_ref())
    }
}

/// A 95% Wilson score interval, bounds in units of 10^-[`RATE_PLACES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    pub low: i128,
    pub high: i128,
}

impl Interval {
    pub fn low_text(&self) -> String {
        fixed_text(self.low, RATE_PLACES)
    }

    pub fn high_text(&self) -> String {
        fixed_text(self.high, RATE_PLACES)
    }
}

/// The Wilson score interval for `wins` of `games` at z = 1.96:
/// (w + z²/2 ± z·√(w(n − w)/n + z²/4)) / (n + z²).
pub fn wilson_interval(wins: u64, games: u64) -> Option<Interval> {
    if games == 0 || wins > games {
        return None;
    }
    let w = Rational::new(i128::from(wins), 1);
    let n = Rational::new(i128::from(games), 1);
    let z2 = Rational::new(49 * 49, 25 * 25);
    let denominator = n + z2;
    let centre = (w + z2 / Rational::int(2)) / denominator;
    let spread = z2 * (w * (n - w) / n + z2 / Rational::int(4)) / (denominator * denominator);
    let low = round_sum_with_root(centre, -1, spread, RATE_PLACES);
    let high = round_sum_with_root(centre, 1, spread, RATE_PLACES);
    let one = 10i128.pow(RATE_PLACES);
    Some(Interval { low: low.clamp(0, one), high: high.clamp(0, one) })
}

/// One role's or nation's figures.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    pub games: u64,
    pub wins: u64,
    pub score_sum: Rational,
}

impl Line {
    pub fn win_rate(&self) -> Option<Rational> {
        (self.games > 0).then(|| Rational::new(i128::from(self.wins), i128::from(self.games)))
    }

    pub fn wilson(&self) -> Option<Interval> {
        wilson_interval(self.wins, self.games)
    }

    pub fn average_score(&self) -> Option<Rational> {
        (self.games > 0).then(|| self.score_sum / Rational::new(i128::from(self.games), 1))
    }

    fn add(&mut self, won: bool, score: Rational) {
        self.games += 1;
        self.wins += u64::from(won);
        self.score_sum = self.score_sum + score;
    }

    fn merge(&mut self, other: &Line) {
        self.games += other.games;
        self.wins += other.wins;
        self.score_sum = self.score_sum + other.score_sum;
    }
}

/// Figures over the admitted, ended games. Averages mix scales when rulesets are mixed:
/// filter by ruleset to compare scores.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stats {
    pub games: u64,
    pub roles: BTreeMap<Role, Line>,
    pub nations: BTreeMap<Nation, Line>,
    /// The tournaments at least one counted game was played in, in the order first counted;
    /// shared, so that a kept count is handed out without copying the list.
    pub tournaments: std::sync::Arc<Vec<Covered>>,
}

/// A tournament whose games a [`Stats`] counted: what its records name it by (the filter's
/// `tournament`, a stream id when the house gathers them) and its name. Shared text: a season's
/// kept statistics hand out their list of tournaments without copying a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Covered {
    pub id: std::sync::Arc<str>,
    pub name: std::sync::Arc<str>,
}

/// Folds the records the filter admits; games that have not ended are left out.
pub fn stats(records: &[GameRecord], filter: &Filter) -> Stats {
    let mut out = Stats::default();
    for record in records.iter().filter(|r| filter.admits(r)) {
        let sheet = &record.sheet;
        if !sheet.has_ended() {
            continue;
        }
        let tournament = record.tournament.as_deref().map(|id| (id, record.tournament_name.as_deref().unwrap_or(id)));
        let roles =
            sheet.roles.iter().filter_map(|(&role, line)| line.score.map(|s| (role, line.winning_nations > 0, s)));
        let nations = sheet.nations.iter().filter_map(|(&nation, line)| line.score.map(|s| (nation, line.won, s)));
        out.count(tournament, roles, nations);
    }
    out
}

impl Stats {
    /// Counts one ended game the filter admitted: its tournament (id and name), and each
    /// scored role and nation with whether it won. [`stats`] counts each game so, and the
    /// season's read models count what they kept of a game the same way.
    pub fn count(
        &mut self,
        tournament: Option<(&str, &str)>,
        roles: impl IntoIterator<Item = (Role, bool, Rational)>,
        nations: impl IntoIterator<Item = (Nation, bool, Rational)>,
    ) {
        self.games += 1;
        if let Some((id, name)) = tournament {
            if !self.tournaments.iter().any(|t| *t.id == *id) {
                std::sync::Arc::make_mut(&mut self.tournaments).push(Covered { id: id.into(), name: name.into() });
            }
        }
        for (role, won, score) in roles {
            self.roles.entry(role).or_default().add(won, score);
        }
        for (nation, won, score) in nations {
            self.nations.entry(nation).or_default().add(won, score);
        }
    }

    /// Adds another count's figures, its tournaments after these: counting games in two parts
    /// and merging them gives what counting them in one does (the season's read models keep
    /// their counts in parts, a tournament's games by what a filter can ask).
    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        if self.tournaments.is_empty() {
            self.tournaments = std::sync::Arc::clone(&other.tournaments);
        } else {
            for covered in other.tournaments.iter() {
                if !self.tournaments.iter().any(|t| t.id == covered.id) {
                    std::sync::Arc::make_mut(&mut self.tournaments).push(covered.clone());
                }
            }
        }
        for (role, line) in &other.roles {
            self.roles.entry(*role).or_default().merge(line);
        }
        for (nation, line) in &other.nations {
            self.nations.entry(*nation).or_default().merge(line);
        }
    }
}

/// The records of one tournament's games: stage from the schedule, tournament name from
/// `tournament_created`, the same `year` for every game. Games without a stream are skipped.
///
/// # Errors
/// As [`crate::standings::standings`].
pub fn tournament_records(
    tournament: &[(u64, Event)],
    games: &BTreeMap<String, Vec<(u64, Event)>>,
    year: Option<i32>,
) -> Result<Vec<GameRecord>, StandingsError> {
    let facts = TournamentFacts::fold(tournament);
    let ruleset = facts.ruleset.ok_or(StandingsError::NotCreated)?;
    let mut records = Vec::new();
    for scheduled in &facts.games {
        let Some(events) = games.get(&scheduled.game) else {
            continue;
        };
        let sheet = crate::sheet::score_game(Some(ruleset), events)
            .map_err(|error| StandingsError::Game { game: scheduled.game.clone(), error })?;
        records.push(GameRecord {
            game: scheduled.game.clone(),
            tournament: Some(facts.name.clone()),
            tournament_name: Some(facts.name.clone()),
            stage: Some(scheduled.slot.stage),
            year,
            sheet,
        });
    }
    Ok(records)
}

/// The calendar year (UTC, proleptic Gregorian) of a Unix time in milliseconds, e.g. an
/// envelope's `recorded_at_ms`. Howard Hinnant's `civil_from_days`, in integers.
pub fn year_of_unix_ms(ms: u64) -> i32 {
    let days = i64::try_from(ms / 86_400_000).unwrap_or(i64::MAX / 2) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // March = 0
    let year = year_of_era + era * 400 + i64::from(month_index >= 10);
    i32::try_from(year).unwrap_or(i32::MAX)
}

/// The JSON form: rates and bounds at four decimals, averages at two.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsJson {
    pub games: u64,
    pub roles: BTreeMap<Role, LineJson>,
    pub nations: BTreeMap<Nation, LineJson>,
    /// The tournaments the figures cover ([`Stats::tournaments`]).
    pub tournaments: Vec<Covered>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineJson {
    pub games: u64,
    pub wins: u64,
    pub win_rate: Option<Number>,
    pub wilson_low: Option<Number>,
    pub wilson_high: Option<Number>,
    pub average_score: Option<Number>,
    pub average_score_exact: Option<String>,
}

impl Line {
    pub fn to_json(&self) -> LineJson {
        let wilson = self.wilson();
        LineJson {
            games: self.games,
            wins: self.wins,
            win_rate: self.win_rate().map(|r| json_rounded(r, RATE_PLACES)),
            wilson_low: wilson.map(|i| crate::exact::json_number(i.low, RATE_PLACES)),
            wilson_high: wilson.map(|i| crate::exact::json_number(i.high, RATE_PLACES)),
            average_score: self.average_score().map(|a| json_rounded(a, 2)),
            average_score_exact: self.average_score().map(|a| a.to_string()),
        }
    }
}

impl Stats {
    pub fn to_json(&self) -> StatsJson {
        StatsJson {
            games: self.games,
            roles: self.roles.iter().map(|(r, l)| (*r, l.to_json())).collect(),
            nations: self.nations.iter().map(|(n, l)| (*n, l.to_json())).collect(),
            tournaments: self.tournaments.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_bounds_match_the_textbook_values() {
        // 5 of 10: 0.2366 – 0.7634; 0 of 10: 0 – 0.2775; 10 of 10: 0.7225 – 1.
        let text = |w, n| {
            let i = wilson_interval(w, n).unwrap();
            (i.low_text(), i.high_text())
        };
        assert_eq!(text(5, 10), ("0.2366".into(), "0.7634".into()));
        assert_eq!(text(0, 10), ("0.0000".into(), "0.2775".into()));
        assert_eq!(text(10, 10), ("0.7225".into(), "1.0000".into()));
        assert_eq!(text(1, 4), ("0.0456".into(), "0.6994".into()));
        assert_eq!(wilson_interval(0, 0), None);
    }

    #[test]
    fn years_from_unix_milliseconds() {
        assert_eq!(year_of_unix_ms(0), 1970);
        assert_eq!(year_of_unix_ms(1_686_300_000_000), 2023); // 9 June 2023
        assert_eq!(year_of_unix_ms(1_704_067_199_999), 2023); // 31 Dec 2023 23:59:59.999
        assert_eq!(year_of_unix_ms(1_704_067_200_000), 2024);
        assert_eq!(year_of_unix_ms(951_782_400_000), 2000); // 29 Feb 2000
    }
}
