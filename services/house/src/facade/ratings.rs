//! The analysts' ratings (issue 44, `crate::ratings`): per player μ, σ and μ - 3σ, games,
//! results per role and history; the role terms of the role-aware model; how often each model
//! picked the winner. From the read models when ledgerd keeps them, else rated from a rebuild
//! of them over the source (`ledgerctl` offline). Players are shown by pseudonym unless the
//! caller may see names (organiser, jury).

use super::{At, Projections};
use crate::error::Error;
use crate::ratings::{Model, PlayerRating, Prediction, Rating, RoleResults};
use crate::readmodels::Kept;
use crate::source::Source;
use ledger::Role;
use serde::Serialize;
use std::collections::BTreeMap;

/// One model's ratings as shown: players best first (by μ - 3σ).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingsView {
    pub model: Model,
    /// The year asked for: the players of that year, each as after their last game of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// The games rated (in the year asked for, when one is).
    pub games: u64,
    pub players: Vec<PlayerLine>,
    /// The role terms (role-aware and role-only models).
    pub roles: BTreeMap<Role, RatingLine>,
    pub prediction: PredictionLine,
}

/// A rating with its conservative estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatingLine {
    pub mu: f64,
    pub sigma: f64,
    /// μ - 3σ.
    pub ordinal: f64,
}

impl From<Rating> for RatingLine {
    fn from(r: Rating) -> Self {
        RatingLine { mu: r.mu, sigma: r.sigma, ordinal: r.ordinal() }
    }
}

/// A player's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerLine {
    /// As shown: a pseudonym, or the name for who may see names.
    pub player: String,
    /// The player's id: only for who may see names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(flatten)]
    pub rating: RatingLine,
    pub games: u64,
    pub roles: BTreeMap<Role, RoleLine>,
    pub history: std::sync::Arc<Vec<crate::ratings::Point>>,
}

/// A player's results in one role.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoleLine {
    pub games: u64,
    pub wins: u64,
    /// The average game score, exact, as text.
    pub average_score: String,
}

/// The share of games whose predicted winner scored most.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PredictionLine {
    pub games: u64,
    pub right: f64,
    pub share: Option<f64>,
}

impl From<Prediction> for PredictionLine {
    fn from(p: Prediction) -> Self {
        PredictionLine { games: p.games, right: p.right, share: p.share() }
    }
}

impl RatingsView {
    fn of(kept: &Kept, model: Model, public: bool, year: Option<i32>) -> RatingsView {
        let ratings = kept.ratings(model);
        let shown = kept.shown_names(public);
        let mut players: Vec<PlayerLine> = match year {
            None => ratings.players.iter().map(|(id, p)| player_line(id, p, &shown, public)).collect(),
            Some(year) => {
                let of_year = of_year(kept, year);
                ratings
                    .players
                    .iter()
                    .filter_map(|(id, p)| {
                        let rating = as_of_year(p, year, of_year.get(id.as_str())?)?;
                        Some(player_line(id, &rating, &shown, public))
                    })
                    .collect()
            }
        };
        players.sort_by(|a, b| b.rating.ordinal.total_cmp(&a.rating.ordinal).then_with(|| a.player.cmp(&b.player)));
        let games = match year {
            None => ratings.games,
            Some(year) => kept.rated_games().filter(|g| g.year == Some(year) && g.seats.len() == 4).count() as u64,
        };
        RatingsView {
            model,
            year,
            games,
            players,
            roles: ratings.roles.iter().map(|(&role, &r)| (role, r.into())).collect(),
            prediction: ratings.prediction.into(),
        }
    }

    /// The JSON `ledgerctl stats ratings --json` prints and gRPC answers.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("ratings serialise")
    }

    /// As a text table.
    pub fn text(&self) -> String {
        let mut out = match self.year {
            None => format!("{} model, {} games\n", self.model.as_str(), self.games),
            Some(year) => format!(
                "{} model, {year}: {} games (each player as after their last of them)\n",
                self.model.as_str(),
                self.games
            ),
        };
        if let Some(share) = self.prediction.share {
            out.push_str(&format!("winner predicted: {:.1}% of {} games\n", share * 100.0, self.prediction.games));
        }
        if !self.players.is_empty() {
            out.push_str(&format!("\n{:<24} {:>8} {:>8} {:>9} {:>6}\n", "player", "mu", "sigma", "mu-3sigma", "games"));
            for p in &self.players {
                out.push_str(&format!(
                    "{:<24} {:>8.3} {:>8.3} {:>9.3} {:>6}\n",
                    p.player, p.rating.mu, p.rating.sigma, p.rating.ordinal, p.games
                ));
            }
        }
        if !self.roles.is_empty() {
            out.push_str(&format!("\n{:<24} {:>8} {:>8}\n", "role", "mu", "sigma"));
            for (role, r) in &self.roles {
                out.push_str(&format!("{:<24} {:>8.3} {:>8.3}\n", role.to_string(), r.mu, r.sigma));
            }
        }
        out
    }
}

/// Each player's results per role in `year`'s rated games.
fn of_year(kept: &Kept, year: i32) -> BTreeMap<&str, BTreeMap<Role, RoleResults>> {
    let mut players: BTreeMap<&str, BTreeMap<Role, RoleResults>> = BTreeMap::new();
    for game in kept.rated_games().filter(|g| g.year == Some(year) && g.seats.len() == 4) {
        for seat in &game.seats {
            let results = players.entry(seat.player.as_str()).or_default().entry(seat.role).or_default();
            results.games += 1;
            results.wins += u64::from(seat.won);
            results.score_sum = results.score_sum + seat.score;
        }
    }
    players
}

/// A player as after their last game of `year`: that rating, the year's games and results per
/// role, the history up to it. `None` for a player who did not play that year.
fn as_of_year(p: &PlayerRating, year: i32, roles: &BTreeMap<Role, RoleResults>) -> Option<PlayerRating> {
    let last = p.history.iter().rposition(|point| point.year == Some(year))?;
    let point = p.history[last];
    Some(PlayerRating {
        rating: Rating { mu: point.mu, sigma: point.sigma },
        games: roles.values().map(|r| r.games).sum(),
        roles: roles.clone(),
        history: std::sync::Arc::new(p.history[..=last].to_vec()),
    })
}

fn player_line(id: &str, p: &PlayerRating, shown: &BTreeMap<String, String>, public: bool) -> PlayerLine {
    let roles = p
        .roles
        .iter()
        .map(|(&role, r)| {
            let games = i128::from(r.games.max(1));
            let average = (r.score_sum / replay::exact::Rational::new(games, 1)).to_string();
            (role, RoleLine { games: r.games, wins: r.wins, average_score: average })
        })
        .collect();
    PlayerLine {
        player: shown.get(id).cloned().unwrap_or_else(|| if public { "?".to_owned() } else { id.to_owned() }),
        id: (!public).then(|| id.to_owned()),
        rating: p.rating.into(),
        games: p.games,
        roles,
        history: p.history.clone(),
    }
}

/// A model as requests name it: `plain` (or empty), `role_aware`, `role_only`.
///
/// # Errors
/// `InvalidArgument` for another name.
pub fn model(name: &str) -> Result<Model, Error> {
    match name.trim() {
        "" => Ok(Model::Plain),
        other => Model::ALL.into_iter().find(|m| m.as_str() == other).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown ratings model `{}`: plain, role_aware or role_only",
                ledger::rejection::quote(other)
            ))
        }),
    }
}

impl<S: Source> Projections<S> {
    /// One model's ratings, players under pseudonyms if `public`; with `year`, that year's
    /// players, each as after their last game of it, with that year's games and results.
    ///
    /// # Errors
    /// The source's failure.
    pub fn ratings(&self, model: Model, public: bool, year: Option<i32>) -> Result<At<RatingsView>, Error> {
        if let Some(models) = self.kept()? {
            return Ok(models
                .read(|kept| At { value: RatingsView::of(kept, model, public, year), as_of_position: kept.position }));
        }
        let kept = Kept::rebuild(&self.source)?;
        Ok(At { value: RatingsView::of(&kept, model, public, year), as_of_position: kept.position })
    }
}

/// The role and nation statistics of one year's games under one ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct Period {
    pub year: i32,
    pub ruleset: ledger::Ruleset,
    pub stats: replay::stats::Stats,
}

impl<S: Source> Projections<S> {
    /// The statistics for each year and ruleset the season's tournaments were played in (did
    /// CAFE 2023 change the balance against CAFE 2019?), oldest first; periods without an ended
    /// game left out.
    ///
    /// # Errors
    /// As [`Projections::role_stats`].
    pub fn stats_by_year_and_ruleset(&self) -> Result<Vec<Period>, Error> {
        if let Some(models) = self.kept()? {
            return models.read(|kept| {
                Ok(kept
                    .periods()?
                    .iter()
                    .map(|(year, ruleset, stats)| Period { year: *year, ruleset: *ruleset, stats: stats.clone() })
                    .collect())
            });
        }
        self.replayed_stats_by_year_and_ruleset()
    }

    /// [`Projections::stats_by_year_and_ruleset`] by replaying the tournaments' streams.
    ///
    /// # Errors
    /// As [`Projections::role_stats`].
    pub fn replayed_stats_by_year_and_ruleset(&self) -> Result<Vec<Period>, Error> {
        let season = self.season(super::season::SeasonScope { andes: false })?.value;
        let periods: std::collections::BTreeSet<(i32, ledger::Ruleset)> =
            season.tournaments.iter().filter_map(|t| t.year.map(|y| (y, t.ruleset))).collect();
        let mut out = Vec::new();
        for (year, ruleset) in periods {
            let filter = replay::stats::Filter { ruleset: Some(ruleset), year: Some(year), ..Default::default() };
            let stats = self.role_stats(&filter, None)?.value;
            if stats.games > 0 {
                out.push(Period { year, ruleset, stats });
            }
        }
        Ok(out)
    }
}
