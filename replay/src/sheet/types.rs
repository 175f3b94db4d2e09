//! The sheet's public types ([`ScoreSheet`], its lines, [`ScoreError`]). Facts, formulas and
//! assembly all use them, so they sit at the bottom of the layering and import none of it.

use crate::exact::Rational;
use ledger::{Nation, Outcome, Role, Ruleset};
use std::collections::BTreeMap;

/// Why a stream cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("the game has not started: game_started comes before {0}")]
    NotStarted(&'static str),
    #[error("the game names no ruleset and no tournament scheduled it")]
    NoRuleset,
    #[error("{0} belongs in a tournament stream, not a game stream")]
    NotAGameEvent(&'static str),
    #[error("{0} belongs in an andes stream, not a game stream")]
    AndesEvent(&'static str),
    #[error("the stream cannot be scored: {0}")]
    Inconsistent(String),
}

/// Decimals a ruleset shows: CAFE one, wm2015 two (spec §3 and §4, docs/RULES.md).
pub fn display_places(ruleset: Ruleset) -> u32 {
    if ruleset.is_cafe() {
        1
    } else {
        2
    }
}

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameStatus {
    InProgress,
    Ended { outcome: Outcome, winners: Vec<Nation> },
}

/// What fixed a nation's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixedBy {
    DroppedOut,
    GameEnded,
}

/// One nation's line. Hanover never scores on its own and has no line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NationScore {
    /// The role controlling it at the end, or when it left.
    pub controller: Role,
    /// `(held, total)` for an attacking nation whose score is fixed.
    pub objectives: Option<(i32, i32)>,
    /// The turn and the event that fixed the score; `None` while pending.
    pub fixed: Option<(u32, FixedBy)>,
    /// Exact score; `None` while the nation is still in a running game.
    pub score: Option<Rational>,
    pub won: bool,
}

/// One role's line. All `Option`s are `None` until the game has ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleScore {
    /// The game score: best nation score plus the wm2015 victory bonus share. Exact.
    pub score: Option<Rational>,
    /// The best nation score, without bonus (wm2015 tie-breaker 2 reads it).
    pub best: Option<Rational>,
    /// wm2015 victory bonus share; 0 in the CAFE rulesets.
    pub bonus: Rational,
    /// Winning nations the role controlled at the end (the final's first tie-breaker).
    pub winning_nations: u32,
    /// Per nation the value that can count for the role (Prussia and Austria already take the
    /// better of ordinary and offensive score), plus Maria Theresa's Imperial Army score at a
    /// switch, which counts for tie-breakers only. In action-stage order.
    pub entries: Vec<(String, Rational)>,
    /// The entry used for the game score.
    pub used: Option<String>,
    /// CAFE tie-breaker 1: the best entry other than the one used.
    pub second_best: Option<Rational>,
    /// wm2015 tie-breaker 1: the sum of the entries not used for the ranking.
    pub not_used: Option<Rational>,
}

/// The offensive option's scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffensiveScore {
    pub launched_in: u32,
    pub set_aside_tc: i32,
    pub picked_up: bool,
    pub austria_claimed: Option<i32>,
    /// The turn the offensive ended (victory, call-off, or game end while active).
    pub ended_in: Option<u32>,
    pub called_off: bool,
    pub bohemian_held_by_prussia: Option<i32>,
    pub frederick: Option<Rational>,
    pub maria_theresa: Option<Rational>,
}

/// The cafe2023 sTCC, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coefficient {
    Available(Rational),
    Unavailable(NoStcc),
}

/// Why a game has no sTCC. Its text (`Display`) is what the sheet and the standings print;
/// the web words the variant in the reader's language instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum NoStcc {
    #[error("{0} uses no sTCC")]
    NotInRuleset(Ruleset),
    #[error("the game has not ended")]
    NotEnded,
    #[error("there is no TCC")]
    NoTcc,
    #[error("no fate_horizon_recorded after a game that did not end in a prussian defensive victory")]
    NoFateHorizon,
}

impl NoStcc {
    /// Every reason but [`NoStcc::NotInRuleset`], which names a ruleset.
    pub const FIXED: [NoStcc; 3] = [NoStcc::NotEnded, NoStcc::NoTcc, NoStcc::NoFateHorizon];
}

impl Coefficient {
    pub fn value(&self) -> Option<Rational> {
        match self {
            Coefficient::Available(value) => Some(*value),
            Coefficient::Unavailable(_) => None,
        }
    }
}

/// Tactical cards dealt over the whole game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcCount {
    pub prussia_hanover: i64,
    pub attackers: i64,
}

/// The score sheet of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreSheet {
    pub ruleset: Ruleset,
    /// T: the last turn started so far (the final turn once the game has ended).
    pub turns: u32,
    pub status: GameStatus,
    /// Prussia and the five attacking nations.
    pub nations: BTreeMap<Nation, NationScore>,
    pub roles: BTreeMap<Role, RoleScore>,
    pub offensive: Option<OffensiveScore>,
    /// Maria Theresa's Imperial Army score at the switch away from her (cafe2023, wm2015:
    /// the losing/objective formula then; cafe2019: 0). Tie-breaker only.
    pub imperial_army_at_switch: Option<Rational>,
    pub tc: TcCount,
    /// (Prussia + Hanover) / attacking nations; `None` when no attacking nation got a card.
    pub tcc: Option<Rational>,
    /// cafe2023 only: TCC × N / T.
    pub stcc: Coefficient,
    pub fate_horizon: Option<u32>,
    /// One line per number, checkable by hand.
    pub explain: Vec<String>,
}

impl ScoreSheet {
    pub fn has_ended(&self) -> bool {
        matches!(self.status, GameStatus::Ended { .. })
    }

    /// Decimals this sheet shows.
    pub fn places(&self) -> u32 {
        display_places(self.ruleset)
    }

    /// A role's game score, once the game has ended.
    pub fn role_score(&self, role: Role) -> Option<Rational> {
        self.roles.get(&role).and_then(|r| r.score)
    }

    /// wm2015 tie-breaker 2: the population variance of the three attacking players' game
    /// scores without bonus; 0 after a Prussian victory. `None` before the end.
    pub fn attacker_variance(&self) -> Option<Rational> {
        let GameStatus::Ended { outcome, .. } = &self.status else {
            return None;
        };
        if outcome.is_prussian() {
            return Some(Rational::ZERO);
        }
        let scores: Vec<Rational> = [Role::Elisabeth, Role::MariaTheresa, Role::Pompadour]
            .iter()
            .map(|role| self.roles.get(role).and_then(|r| r.best))
            .collect::<Option<_>>()?;
        Some(population_variance(&scores))
    }
}

/// Σ(x − mean)² / n, exactly.
pub fn population_variance(values: &[Rational]) -> Rational {
    if values.is_empty() {
        return Rational::ZERO;
    }
    let n = Rational::int(i64::try_from(values.len()).unwrap_or(i64::MAX));
    let mean = values.iter().copied().sum::<Rational>() / n;
    values.iter().map(|&x| (x - mean) * (x - mean)).sum::<Rational>() / n
}
