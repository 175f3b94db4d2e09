//! The two faces of a score sheet: the JSON the CLI prints and the gRPC server can pass on,
//! and a plain-text sheet for a jury's table.
//!
//! JSON scores are numbers at the ruleset's precision, written from their decimal text (see
//! [`crate::exact::json_number`]); exact values that do not end within the precision (TCC,
//! wm2015 thirds) are also given as fraction strings in `details`.

use super::tc::COEFFICIENT_PLACES;
use super::types::{Coefficient, FixedBy, GameStatus, ScoreSheet};
use crate::exact::{json_rounded, Rational};
use ledger::{Nation, Outcome, Role, Ruleset};
use serde::Serialize;
use serde_json::Number;
use std::collections::BTreeMap;
use std::fmt;

/// The JSON form of a sheet. Field order is fixed by this struct, so the bytes are the same
/// on every machine and in every build.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetJson {
    pub ruleset: Ruleset,
    pub turns: u32,
    /// "in_progress" or "ended".
    pub status: &'static str,
    pub outcome: Option<Outcome>,
    pub winners: Vec<Nation>,
    /// `null` while a nation is still in a running game.
    pub nations: BTreeMap<Nation, Option<Number>>,
    /// Game scores; `null` until the game has ended.
    pub roles: BTreeMap<Role, Option<Number>>,
    pub tcc: Option<Number>,
    pub stcc: Option<Number>,
    pub explain: Vec<String>,
    pub details: Details,
}

/// Everything else on the sheet, for tools and audits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Details {
    pub nations: BTreeMap<Nation, NationJson>,
    pub roles: BTreeMap<Role, RoleJson>,
    pub offensive: Option<OffensiveJson>,
    pub imperial_army_at_switch: Option<Number>,
    pub tc_dealt: TcJson,
    pub tcc_exact: Option<String>,
    pub stcc_exact: Option<String>,
    pub stcc_unavailable: Option<String>,
    pub fate_horizon: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NationJson {
    pub controller: Role,
    pub objectives: Option<(i32, i32)>,
    pub fixed_in_turn: Option<u32>,
    /// "dropped_out", "game_ended", or `null` while pending.
    pub fixed_by: Option<&'static str>,
    pub won: bool,
    pub score: Option<Number>,
    pub score_exact: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoleJson {
    pub score: Option<Number>,
    pub score_exact: Option<String>,
    pub best: Option<Number>,
    pub bonus: Number,
    pub winning_nations: u32,
    pub used: Option<String>,
    pub second_best: Option<Number>,
    pub not_used: Option<Number>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OffensiveJson {
    pub launched_in: u32,
    pub set_aside_tc: i32,
    pub picked_up: bool,
    pub austria_claimed: Option<i32>,
    pub ended_in: Option<u32>,
    pub called_off: bool,
    pub bohemian_held_by_prussia: Option<i32>,
    pub frederick: Option<Number>,
    pub maria_theresa: Option<Number>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TcJson {
    pub prussia_hanover: i64,
    pub attackers: i64,
}

impl ScoreSheet {
    /// The JSON form the CLI prints.
    pub fn to_json(&self) -> SheetJson {
        let places = self.places();
        let num = |value: Rational| json_rounded(value, places);
        let opt = |value: Option<Rational>| value.map(num);
        let (status, outcome, winners) = match &self.status {
            GameStatus::InProgress => ("in_progress", None, Vec::new()),
            GameStatus::Ended { outcome, winners } => ("ended", Some(*outcome), winners.clone()),
        };
        let exact_if_needed = |value: Option<Rational>| value.filter(|v| !v.fits(places)).map(|v| v.to_string());
        SheetJson {
            ruleset: self.ruleset,
            turns: self.turns,
            status,
            outcome,
            winners,
            nations: self.nations.iter().map(|(n, s)| (*n, opt(s.score))).collect(),
            roles: self.roles.iter().map(|(r, s)| (*r, opt(s.score))).collect(),
            tcc: self.tcc.map(|v| json_rounded(v, COEFFICIENT_PLACES)),
            stcc: self.stcc.value().map(|v| json_rounded(v, COEFFICIENT_PLACES)),
            explain: self.explain.clone(),
            details: Details {
                nations: self
                    .nations
                    .iter()
                    .map(|(n, s)| {
                        let line = NationJson {
                            controller: s.controller,
                            objectives: s.objectives,
                            fixed_in_turn: s.fixed.map(|(turn, _)| turn),
                            fixed_by: s.fixed.map(|(_, by)| match by {
                                FixedBy::DroppedOut => "dropped_out",
                                FixedBy::GameEnded => "game_ended",
                            }),
                            won: s.won,
                            score: opt(s.score),
                            score_exact: exact_if_needed(s.score),
                        };
                        (*n, line)
                    })
                    .collect(),
                roles: self
                    .roles
                    .iter()
                    .map(|(r, s)| {
                        let line = RoleJson {
                            score: opt(s.score),
                            score_exact: exact_if_needed(s.score),
                            best: opt(s.best),
                            bonus: num(s.bonus),
                            winning_nations: s.winning_nations,
                            used: s.used.clone(),
                            second_best: opt(s.second_best),
                            not_used: opt(s.not_used),
                        };
                        (*r, line)
                    })
                    .collect(),
                offensive: self.offensive.as_ref().map(|o| OffensiveJson {
                    launched_in: o.launched_in,
                    set_aside_tc: o.set_aside_tc,
                    picked_up: o.picked_up,
                    austria_claimed: o.austria_claimed,
                    ended_in: o.ended_in,
                    called_off: o.called_off,
                    bohemian_held_by_prussia: o.bohemian_held_by_prussia,
                    frederick: opt(o.frederick),
                    maria_theresa: opt(o.maria_theresa),
                }),
                imperial_army_at_switch: opt(self.imperial_army_at_switch),
                tc_dealt: TcJson { prussia_hanover: self.tc.prussia_hanover, attackers: self.tc.attackers },
                tcc_exact: self.tcc.map(|v| v.to_string()),
                stcc_exact: self.stcc.value().map(|v| v.to_string()),
                stcc_unavailable: match &self.stcc {
                    Coefficient::Unavailable(why) if self.ruleset == Ruleset::Cafe2023 => Some(why.to_string()),
                    _ => None,
                },
                fate_horizon: self.fate_horizon,
            },
        }
    }

    /// The JSON form as one compact line; the same bytes for the same events.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&self.to_json()).expect("a sheet always serialises")
    }
}

/// The plain-text sheet: one line per role with its nations, then the coefficients and the
/// explanation lines.
impl fmt::Display for ScoreSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let places = self.places();
        let show = |value: Option<Rational>| value.map_or_else(|| "pending".to_owned(), |v| v.to_fixed(places));
        match &self.status {
            GameStatus::InProgress => {
                writeln!(f, "Score sheet ({}), turn {}, game in progress", self.ruleset, self.turns)?
            }
            GameStatus::Ended { outcome, winners } => {
                let names: Vec<&str> = winners.iter().map(|n| n.as_str()).collect();
                writeln!(
                    f,
                    "Score sheet ({}), {} turns, {outcome}, won by {}",
                    self.ruleset,
                    self.turns,
                    names.join(", ")
                )?;
            }
        }
        for (&role, line) in &self.roles {
            let nations: Vec<String> = self
                .nations
                .iter()
                .filter(|(_, n)| n.controller == role)
                .map(|(nation, n)| {
                    let left = match n.fixed {
                        Some((turn, FixedBy::DroppedOut)) => format!(", out in turn {turn}"),
                        _ => String::new(),
                    };
                    let won = if n.won { ", won" } else { "" };
                    format!("{nation} {}{left}{won}", show(n.score))
                })
                .collect();
            writeln!(f, "  {:<14}{:>8}   {}", role.as_str(), show(line.score), nations.join("; "))?;
        }
        let tcc = self.tcc.map_or_else(|| "none".to_owned(), |v| format!("{} ({})", v, v.to_fixed(COEFFICIENT_PLACES)));
        write!(f, "  TCC {tcc}")?;
        match &self.stcc {
            Coefficient::Available(v) => write!(f, ", sTCC {} ({})", v, v.to_fixed(COEFFICIENT_PLACES))?,
            Coefficient::Unavailable(why) if self.ruleset == Ruleset::Cafe2023 => {
                write!(f, ", sTCC unavailable: {why}")?
            }
            Coefficient::Unavailable(_) => {}
        }
        writeln!(f)?;
        writeln!(f, "How each number was found:")?;
        for line in &self.explain {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}
