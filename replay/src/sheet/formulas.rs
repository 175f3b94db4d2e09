//! The one place a [`Ruleset`] picks its scoring formulas ([`of`]): the assembly asks a
//! [`Formulas`] and never the ruleset, so it has no branch per ruleset. A new ruleset is one more
//! implementation here, plus its coefficient and display rules where those are computed
//! (`tc.rs` has the sTCC only cafe2023 uses, `types::display_places` the precision shown).

use super::facts::{Fix, OffensiveEnd, OffensiveFacts, Switch};
use super::types::RoleScore;
use super::{cafe, wm2015};
use crate::exact::Rational;
use ledger::{Nation, Outcome, Role, Ruleset};
use std::collections::BTreeMap;

/// A ruleset's scoring formulas. Each returns the exact value and the line a jury reads to check
/// it.
pub(super) trait Formulas {
    /// A value as the ruleset's explain lines show it.
    fn show(&self, value: Rational) -> String;
    /// Frederick's Prussian score at the end of turn `turn`.
    fn prussia(&self, outcome: Outcome, turn: u32) -> (Rational, String);
    /// An attacking nation whose score is fixed.
    fn attacker(&self, nation: Nation, fix: &Fix) -> (Rational, String);
    /// Frederick's offensive-option score.
    fn frederick_offensive(&self, end: OffensiveEnd) -> (Rational, String);
    /// Maria Theresa's offensive-option score.
    fn maria_theresa_offensive(&self, offensive: &OffensiveFacts, end: OffensiveEnd) -> (Rational, String);
    /// Maria Theresa's Imperial Army score at the switch away from her (tie-breakers only).
    fn imperial_army_at_switch(&self, switch: &Switch) -> (Rational, String);
    /// Each role's share of the victory bonus, `winners` pairing each winning nation with its
    /// controller; `None` in a ruleset without a bonus.
    fn victory_bonus(&self, winners: &[(Nation, Role)]) -> Option<(BTreeMap<Role, Rational>, String)>;
    /// The tie-breaker input that ends the explain line of a role that can hold several nations.
    fn tie_breaker_note(&self, role: &RoleScore) -> Option<String>;
}

/// The formulas of `ruleset`.
pub(super) fn of(ruleset: Ruleset) -> &'static dyn Formulas {
    match ruleset {
        Ruleset::Cafe2019 => &Cafe(Ruleset::Cafe2019),
        Ruleset::Cafe2023 => &Cafe(Ruleset::Cafe2023),
        Ruleset::Wm2015 => &Wm2015,
    }
}

/// cafe2019 and cafe2023: their formulas differ only at the Imperial Army's switch.
struct Cafe(Ruleset);

struct Wm2015;

impl Formulas for Cafe {
    fn show(&self, value: Rational) -> String {
        cafe::show(value)
    }
    fn prussia(&self, outcome: Outcome, turn: u32) -> (Rational, String) {
        cafe::prussia(outcome, turn)
    }
    fn attacker(&self, nation: Nation, fix: &Fix) -> (Rational, String) {
        cafe::attacker(nation, fix)
    }
    fn frederick_offensive(&self, end: OffensiveEnd) -> (Rational, String) {
        cafe::frederick_offensive(end)
    }
    fn maria_theresa_offensive(&self, offensive: &OffensiveFacts, end: OffensiveEnd) -> (Rational, String) {
        cafe::maria_theresa_offensive(offensive, end)
    }
    fn imperial_army_at_switch(&self, switch: &Switch) -> (Rational, String) {
        cafe::imperial_army_at_switch(self.0, switch)
    }
    fn victory_bonus(&self, _winners: &[(Nation, Role)]) -> Option<(BTreeMap<Role, Rational>, String)> {
        None
    }
    fn tie_breaker_note(&self, role: &RoleScore) -> Option<String> {
        cafe::tie_breaker_note(role)
    }
}

impl Formulas for Wm2015 {
    fn show(&self, value: Rational) -> String {
        wm2015::show(value)
    }
    fn prussia(&self, outcome: Outcome, turn: u32) -> (Rational, String) {
        wm2015::prussia(outcome, turn)
    }
    fn attacker(&self, nation: Nation, fix: &Fix) -> (Rational, String) {
        wm2015::attacker(nation, fix)
    }
    fn frederick_offensive(&self, end: OffensiveEnd) -> (Rational, String) {
        wm2015::frederick_offensive(end)
    }
    fn maria_theresa_offensive(&self, offensive: &OffensiveFacts, end: OffensiveEnd) -> (Rational, String) {
        wm2015::maria_theresa_offensive(offensive, end)
    }
    fn imperial_army_at_switch(&self, switch: &Switch) -> (Rational, String) {
        wm2015::imperial_army_at_switch(switch)
    }
    fn victory_bonus(&self, winners: &[(Nation, Role)]) -> Option<(BTreeMap<Role, Rational>, String)> {
        Some(wm2015::bonus(winners))
    }
    fn tie_breaker_note(&self, role: &RoleScore) -> Option<String> {
        wm2015::tie_breaker_note(role)
    }
}
