//! The wm2015 formulas (spec §4, docs/RULES.md): exact rationals, %O not rounded, a victory
//! bonus pool shared among the players, rounded once for display (two decimals, halves up).
//!
//! Each function returns the exact score and the line a jury reads to check it.

use super::facts::{Fix, OffensiveEnd, OffensiveFacts, Switch};
use super::types::{FixedBy, RoleScore};
use crate::exact::Rational;
use ledger::{Nation, Outcome, Role};
use std::collections::BTreeMap;

/// A value as wm2015 shows it: exact, with its two-decimal rounding when it has more.
pub(super) fn show(value: Rational) -> String {
    value.shown(2)
}

fn half(n: i64) -> Rational {
    Rational::new(i128::from(n), 2)
}

/// %O/10 = 10 × held / total, at most 10.
fn objectives(held: i32, total: i32) -> Rational {
    Rational::new(10 * i128::from(held), i128::from(total.max(1))).min(Rational::int(10))
}

/// Frederick's Prussian score: 10 after a Prussian victory, else 0.5 per turn, at most 11.5.
pub(super) fn prussia(outcome: Outcome, turn: u32) -> (Rational, String) {
    if outcome.is_prussian() {
        let score = Rational::int(10);
        return (score, format!("prussia: prussian victory in turn {turn}; always {}", show(score)));
    }
    let raw = half(i64::from(turn));
    let score = raw.min(Rational::new(23, 2));
    let mut line = format!("prussia: defeated in turn {turn}; 0.5×{turn} = {}", show(raw));
    if score != raw {
        line.push_str(&format!(", at most 11.5 → {}", show(score)));
    }
    (score, line)
}

/// An attacking nation, winner or not: %O/10 of its objectives at the end or when it left.
pub(super) fn attacker(nation: Nation, fix: &Fix) -> (Rational, String) {
    let score = objectives(fix.held, fix.total);
    let when = match fix.by {
        FixedBy::DroppedOut => format!("when it dropped out in turn {}", fix.turn),
        FixedBy::GameEnded => format!("at the end of turn {}", fix.turn),
    };
    let line = format!(
        "{nation}: {} of {} objectives {when}; 10×{}/{} = {}",
        fix.held,
        fix.total,
        fix.held,
        fix.total,
        show(score)
    );
    (score, line)
}

/// Frederick's offensive-option score: %B/10 of the 14 Bohemian objectives at the call-off or
/// the end, minus 1 if the offensive did not succeed (the text's 1 point, not the appendix's
/// 1.5: spec §4, docs/RULES.md).
pub(super) fn frederick_offensive(end: OffensiveEnd) -> (Rational, String) {
    let base = objectives(end.bohemian, 14);
    let when = if end.succeeded {
        format!("offensive victory in turn {}", end.turn)
    } else if end.called_off {
        format!("called off in turn {}", end.turn)
    } else {
        format!("still active at the end of turn {}", end.turn)
    };
    if end.succeeded {
        return (
            base,
            format!(
                "frederick offensive option: {when} holding {} of 14 Bohemian objectives; 10×{}/14 = {}",
                end.bohemian,
                end.bohemian,
                show(base)
            ),
        );
    }
    let score = base - Rational::int(1);
    let line = format!(
        "frederick offensive option: {when} holding {} of 14 Bohemian objectives; 10×{}/14 − 1 = {}",
        end.bohemian,
        end.bohemian,
        show(score)
    );
    (score, line)
}

/// Maria Theresa's offensive-option score: 0.5·L + A + 1 for the set-aside card, at most 9.5.
pub(super) fn maria_theresa_offensive(offensive: &OffensiveFacts, end: OffensiveEnd) -> (Rational, String) {
    let length = i64::from(end.turn) - i64::from(offensive.launched_in) + 1;
    let austria_holds = 14 - i64::from(end.bohemian);
    let card = i64::from(offensive.picked_up);
    let raw = half(length) + Rational::int(austria_holds + card);
    let score = raw.min(Rational::new(19, 2));
    let mut line = format!(
        "maria_theresa offensive option: L = {} − {} + 1 = {length}, A = 14 − {} = {austria_holds}; 0.5×{length} + {austria_holds}",
        end.turn,
        offensive.launched_in,
        end.bohemian,
    );
    if offensive.picked_up {
        line.push_str(" + 1 for the set-aside card");
    }
    line.push_str(&format!(" = {}", show(raw)));
    if score != raw {
        line.push_str(&format!(", at most 9.5 → {}", show(score)));
    }
    (score, line)
}

/// Maria Theresa's Imperial Army score at the switch away from her, for tie-breakers only.
pub(super) fn imperial_army_at_switch(switch: &Switch) -> (Rational, String) {
    let score = objectives(switch.held, switch.total);
    let line = format!(
        "imperial_army at the switch to {} in turn {}: 10×{}/{} = {} (maria_theresa's tie-breakers only)",
        switch.to,
        switch.turn,
        switch.held,
        switch.total,
        show(score)
    );
    (score, line)
}

/// The victory bonus: a pool of 2 + (W − 1) for W winning nations, shared in proportion to
/// the winning nations each role controls at the end. `winners` pairs each winning nation
/// with its controller.
pub(super) fn bonus(winners: &[(Nation, Role)]) -> (BTreeMap<Role, Rational>, String) {
    let n_winners = i64::try_from(winners.len()).unwrap_or(i64::MAX);
    let mut shares = BTreeMap::new();
    if n_winners == 0 {
        return (shares, "victory bonus: no winner".into());
    }
    let pool = Rational::int(2 + (n_winners - 1));
    let mut per_role: BTreeMap<Role, i64> = BTreeMap::new();
    for (_, role) in winners {
        *per_role.entry(*role).or_insert(0) += 1;
    }
    let names: Vec<&str> = winners.iter().map(|(n, _)| n.as_str()).collect();
    let mut parts = Vec::new();
    for (role, count) in per_role {
        let share = pool * Rational::new(i128::from(count), i128::from(n_winners));
        parts.push(format!("{role} {}×{count}/{n_winners} = {}", pool.exact_text(), show(share)));
        shares.insert(role, share);
    }
    let line = format!(
        "victory bonus: {n_winners} winning nation{} ({}); pool 2 + ({n_winners} − 1) = {}; {}",
        if n_winners == 1 { "" } else { "s" },
        names.join(", "),
        pool.exact_text(),
        parts.join("; ")
    );
    (shares, line)
}

/// wm2015 tie-breaker 1 reads the sum of the entries not used for the ranking.
pub(super) fn tie_breaker_note(role: &RoleScore) -> Option<String> {
    role.not_used.map(|not_used| format!("not used for the ranking {}", show(not_used)))
}
