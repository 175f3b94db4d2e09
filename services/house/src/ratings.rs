//! Ratings for the analysts (issue 44): Weng-Lin's Bayesian approximation with the
//! Bradley-Terry full-pairing model (μ 25, σ 25/3, β 25/6, κ 0.0001, no additive dynamics: τ 0),
//! one update per ended game in the order the games ended on the log, the four seats ranked by
//! their game scores (equal scores tie). The update itself is the `skillratings` crate's
//! `weng_lin_multi_team` (the same formulas as openskill's `BradleyTerryFull`, which a test holds
//! it to within 1e-9).
//!
//! Three models over the same games: [`Model::Plain`] (each seat a team of one, the player),
//! [`Model::RoleAware`] (each seat a team of two: the player's rating and the role's, so a
//! Frederick win moves Frederick's player less when Frederick is strong) and the baseline
//! [`Model::RoleOnly`] (each seat the role alone). Before each game the model's predicted winner
//! (the highest expected score) is compared with who scored most ([`Prediction`]).
//!
//! Ratings are estimates, not scores: they are `f64` here, outside `replay`, whose figures are
//! exact (docs/DECISIONS.md, "Ratings are floats"). Pure: no I/O.

use ledger::Role;
use replay::exact::Rational;
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{expected_score_multi_team, weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;

/// A new rating's mean.
pub const MU: f64 = 25.0;
/// A new rating's standard deviation.
pub const SIGMA: f64 = 25.0 / 3.0;
/// The performance spread: β.
pub const BETA: f64 = 25.0 / 6.0;
/// The least share of its variance a rating keeps after a game: κ.
pub const KAPPA: f64 = 0.0001;

/// Which ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Players alone.
    Plain,
    /// Each seat the player's rating and the role's.
    RoleAware,
    /// Roles alone: the baseline a player rating must beat.
    RoleOnly,
}

impl Model {
    pub const ALL: [Model; 3] = [Model::Plain, Model::RoleAware, Model::RoleOnly];

    pub fn as_str(self) -> &'static str {
        match self {
            Model::Plain => "plain",
            Model::RoleAware => "role_aware",
            Model::RoleOnly => "role_only",
        }
    }
}

/// One seat of an ended game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    pub role: Role,
    /// The role's game score.
    pub score: Rational,
    /// The role won (at least one of its nations won), as the statistics count a win.
    pub won: bool,
}

/// An ended game as the ratings take it: the log position of the `game_ended` that stands (the
/// order of the updates), the tournament's year, and the four seats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatedGame {
    pub game: String,
    pub end_position: u64,
    pub year: Option<i32>,
    pub seats: Vec<Seat>,
}

/// A rating: μ and σ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating { mu: MU, sigma: SIGMA }
    }
}

impl Rating {
    /// μ - 3σ: the conservative estimate the lists are ordered by.
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    fn of(rating: &WengLinRating) -> Rating {
        Rating { mu: rating.rating, sigma: rating.uncertainty }
    }

    fn weng_lin(self) -> WengLinRating {
        WengLinRating { rating: self.mu, uncertainty: self.sigma }
    }
}

/// A player's (or role's) results in one role.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleResults {
    pub games: u64,
    pub wins: u64,
    pub score_sum: Rational,
}

/// A point of a rating's history: after the game that ended at `end_position`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub end_position: u64,
    pub year: Option<i32>,
    pub mu: f64,
    pub sigma: f64,
}

/// One player's rating, games, results per role and history.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    pub rating: Rating,
    pub games: u64,
    pub roles: BTreeMap<Role, RoleResults>,
    /// Shared, so that a view of the ratings is handed out without copying every game's point.
    pub history: std::sync::Arc<Vec<Point>>,
}

/// How often the predicted winner scored most: `right` is the sum over games of the share of
/// the predicted (tied) top seats that scored most, so a tie of the prediction is no luck.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    pub games: u64,
    pub right: f64,
}

impl Prediction {
    #[allow(clippy::cast_precision_loss)] // games: far below 2^52
    pub fn share(&self) -> Option<f64> {
        (self.games > 0).then(|| self.right / self.games as f64)
    }
}

/// One model's ratings after every game it was given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    pub model: Model,
    pub games: u64,
    /// Empty for [`Model::RoleOnly`].
    pub players: BTreeMap<String, PlayerRating>,
    /// The role terms: empty for [`Model::Plain`].
    pub roles: BTreeMap<Role, Rating>,
    pub prediction: Prediction,
    /// The last game's end position (the updates' order: a game ending before it means the
    /// ratings must be computed again from the first game).
    pub last_end: Option<(u64, String)>,
}

fn config() -> WengLinConfig {
    WengLinConfig { beta: BETA, uncertainty_tolerance: KAPPA }
}

impl Ratings {
    pub fn new(model: Model) -> Ratings {
        Ratings {
            model,
            games: 0,
            players: BTreeMap::new(),
            roles: BTreeMap::new(),
            prediction: Prediction::default(),
            last_end: None,
        }
    }

    /// Every game in the order of its end.
    pub fn of(model: Model, games: &[RatedGame]) -> Ratings {
        let mut ratings = Ratings::new(model);
        let mut sorted: Vec<&RatedGame> = games.iter().collect();
        sorted.sort_by(|a, b| (a.end_position, &a.game).cmp(&(b.end_position, &b.game)));
        for game in sorted {
            ratings.update(game);
        }
        ratings
    }

    /// Whether `game` comes after every game rated so far (else rate them all again).
    pub fn follows(&self, game: &RatedGame) -> bool {
        self.last_end.as_ref().is_none_or(|(end, id)| (*end, id.as_str()) < (game.end_position, game.game.as_str()))
    }

    fn player(&self, id: &str) -> Rating {
        self.players.get(id).map(|p| p.rating).unwrap_or_default()
    }

    fn role(&self, role: Role) -> Rating {
        self.roles.get(&role).copied().unwrap_or_default()
    }

    /// The teams of a game's seats under this model, in seat order.
    fn teams(&self, game: &RatedGame) -> Vec<Vec<WengLinRating>> {
        game.seats
            .iter()
            .map(|seat| match self.model {
                Model::Plain => vec![self.player(&seat.player).weng_lin()],
                Model::RoleAware => vec![self.player(&seat.player).weng_lin(), self.role(seat.role).weng_lin()],
                Model::RoleOnly => vec![self.role(seat.role).weng_lin()],
            })
            .collect()
    }

    /// One game's update (and the prediction made before it). A game without four seats is
    /// left out.
    pub fn update(&mut self, game: &RatedGame) {
        if game.seats.len() != 4 {
            return;
        }
        let teams = self.teams(game);
        let refs: Vec<&[WengLinRating]> = teams.iter().map(Vec::as_slice).collect();
        self.predict(game, &expected_score_multi_team(&refs, &config()));
        let ranks: Vec<(&[WengLinRating], MultiTeamOutcome)> = game
            .seats
            .iter()
            .zip(&refs)
            .map(|(seat, team)| {
                let above = game.seats.iter().filter(|other| other.score > seat.score).count();
                (*team, MultiTeamOutcome::new(above + 1))
            })
            .collect();
        let after = weng_lin_multi_team(&ranks, &config());
        for (seat, team) in game.seats.iter().zip(after) {
            if self.model != Model::RoleOnly {
                let rating = Rating::of(&team[0]);
                let player = self.players.entry(seat.player.clone()).or_default();
                player.rating = rating;
                player.games += 1;
                let results = player.roles.entry(seat.role).or_default();
                results.games += 1;
                results.wins += u64::from(seat.won);
                results.score_sum = results.score_sum + seat.score;
                let point =
                    Point { end_position: game.end_position, year: game.year, mu: rating.mu, sigma: rating.sigma };
                std::sync::Arc::make_mut(&mut player.history).push(point);
            }
            match self.model {
                Model::Plain => {}
                Model::RoleAware => {
                    self.roles.insert(seat.role, Rating::of(&team[1]));
                }
                Model::RoleOnly => {
                    self.roles.insert(seat.role, Rating::of(&team[0]));
                }
            }
        }
        self.games += 1;
        self.last_end = Some((game.end_position, game.game.clone()));
    }

    fn predict(&mut self, game: &RatedGame, expected: &[f64]) {
        let best_expected = expected.iter().copied().fold(f64::MIN, f64::max);
        let best_score = game.seats.iter().map(|s| s.score).max().unwrap_or_default();
        let predicted: Vec<usize> = (0..expected.len()).filter(|&i| expected[i] >= best_expected).collect();
        let right = predicted.iter().filter(|&&i| game.seats[i].score == best_score).count();
        self.prediction.games += 1;
        #[allow(clippy::cast_precision_loss)] // at most four seats
        let share = right as f64 / predicted.len().max(1) as f64;
        self.prediction.right += share;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, role: Role, score: i64) -> Seat {
        Seat { player: player.into(), role, score: Rational::int(score), won: score > 0 }
    }

    fn game(end: u64, scores: [(&str, i64); 4]) -> RatedGame {
        let roles = [Role::Frederick, Role::Elisabeth, Role::MariaTheresa, Role::Pompadour];
        let seats = scores.iter().zip(roles).map(|((p, s), r)| seat(p, r, *s)).collect();
        RatedGame { game: format!("g{end}"), end_position: end, year: Some(2026), seats }
    }

    #[test]
    fn a_first_game_moves_the_winner_up_and_the_last_down_and_ties_equally() {
        let ratings = Ratings::of(Model::Plain, &[game(1, [("a", 9), ("b", 5), ("c", 5), ("d", 1)])]);
        let (a, b, c, d) = ("a", "b", "c", "d");
        let mu = |p: &str| ratings.players[p].rating.mu;
        assert!(mu(a) > mu(b) && mu(b) > mu(d));
        assert!((mu(b) - mu(c)).abs() < 1e-12, "equal scores tie");
        assert!((mu(b) - MU).abs() < 1e-12, "the middle of four, tied, stays");
        assert!(ratings.players[a].rating.sigma < SIGMA);
        assert_eq!(ratings.games, 1);
    }

    #[test]
    fn the_order_of_the_updates_is_the_order_of_the_ends() {
        let games =
            [game(10, [("a", 9), ("b", 5), ("c", 3), ("d", 1)]), game(4, [("a", 1), ("b", 5), ("c", 3), ("d", 9)])];
        let reversed = [games[1].clone(), games[0].clone()];
        assert_eq!(Ratings::of(Model::Plain, &games), Ratings::of(Model::Plain, &reversed));
        let mut one_by_one = Ratings::new(Model::Plain);
        one_by_one.update(&games[1]);
        assert!(one_by_one.follows(&games[0]) && !one_by_one.follows(&games[1]));
        one_by_one.update(&games[0]);
        assert_eq!(one_by_one, Ratings::of(Model::Plain, &games));
    }

    #[test]
    fn a_strong_role_takes_part_of_the_credit_in_the_role_aware_model() {
        // Frederick wins every game with a different player: the role term grows, and the last
        // Frederick's win moves its player less than in the plain model.
        let mut games = Vec::new();
        for n in 0..12u64 {
            let f = format!("f{n}");
            games.push(game(n + 1, [(&f, 9), ("x", 3), ("y", 2), ("z", 1)]));
        }
        let plain = Ratings::of(Model::Plain, &games);
        let aware = Ratings::of(Model::RoleAware, &games);
        assert!(aware.roles[&Role::Frederick].mu > MU + 3.0);
        assert!(aware.players["f11"].rating.mu < plain.players["f11"].rating.mu);
        let baseline = Ratings::of(Model::RoleOnly, &games);
        assert!(baseline.players.is_empty());
        assert!(baseline.prediction.right > plain.prediction.right, "{baseline:?} {plain:?}");
    }
}
