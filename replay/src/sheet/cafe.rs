//! The CAFE formulas (cafe2019 and cafe2023, spec §3, docs/RULES.md), in integer tenths.
//!
//! Each function returns the exact score and the line a jury reads to check it.

use super::facts::{Fix, OffensiveEnd, OffensiveFacts, Switch};
use super::types::{FixedBy, RoleScore};
use crate::exact::Rational;
use ledger::{Nation, Outcome, Ruleset};

/// %O = 100 × held / total rounded to the nearest whole number, halves up (spec §3, docs/RULES.md
/// follows the English text, "rounded to the nearest whole number").
pub(super) fn percent(held: i32, total: i32) -> i64 {
    let (held, total) = (i64::from(held), i64::from(total.max(1)));
    (200 * held + total).div_euclid(2 * total)
}

fn tenths(value: i64) -> Rational {
    Rational::tenths(value)
}

/// A value as CAFE shows it: one decimal.
pub(super) fn show(value: Rational) -> String {
    value.to_fixed(1)
}

/// Frederick's Prussian score at the end of turn `turn`.
pub(super) fn prussia(outcome: Outcome, turn: u32) -> (Rational, String) {
    let t = i64::from(turn);
    match outcome {
        Outcome::PrussianDefensiveVictory => {
            let score = tenths(100 + t);
            let line = format!("prussia: defensive victory in turn {turn}; 10 + 0.1×{turn} = {}", show(score));
            (score, line)
        }
        Outcome::PrussianOffensiveVictory => {
            let score = tenths(130);
            let line = format!("prussia: offensive victory in turn {turn}; exactly {}", show(score));
            (score, line)
        }
        Outcome::AlliedVictory => {
            let score = tenths(5 * t);
            let line = format!("prussia: defeated in turn {turn}; 0.5×{turn} = {}", show(score));
            (score, line)
        }
    }
}

/// An attacking nation: victorious 13 − 0.1·T, else %O/10 + 1.6 − 0.1·t (no floor).
pub(super) fn attacker(nation: Nation, fix: &Fix) -> (Rational, String) {
    let t = i64::from(fix.turn);
    if fix.won {
        let score = tenths(130 - t);
        let line = format!("{nation}: victory in turn {}; 13 − 0.1×{} = {}", fix.turn, fix.turn, show(score));
        return (score, line);
    }
    let pct = percent(fix.held, fix.total);
    let score = tenths(pct + 16 - t);
    let when = match fix.by {
        FixedBy::DroppedOut => format!("when it dropped out in turn {}", fix.turn),
        FixedBy::GameEnded => format!("at the end of turn {}", fix.turn),
    };
    let line = format!(
        "{nation}: {} of {} objectives {when} → {pct}%; {pct}%/10 + 1.6 − 0.1×{} = {}",
        fix.held,
        fix.total,
        fix.turn,
        show(score)
    );
    (score, line)
}

/// Frederick's offensive-option score: 13 after an offensive victory, else %B/10 of the 14
/// Bohemian objectives at the call-off or at the end while still active.
pub(super) fn frederick_offensive(end: OffensiveEnd) -> (Rational, String) {
    if end.succeeded {
        let score = tenths(130);
        return (
            score,
            format!("frederick offensive option: offensive victory in turn {}; exactly {}", end.turn, show(score)),
        );
    }
    let pct = percent(end.bohemian, 14);
    let score = tenths(pct);
    let when = if end.called_off {
        format!("called off in turn {}", end.turn)
    } else {
        format!("still active at the end of turn {}", end.turn)
    };
    let line = format!(
        "frederick offensive option: {when} holding {} of 14 Bohemian objectives → {pct}%; {pct}%/10 = {}",
        end.bohemian,
        show(score)
    );
    (score, line)
}

/// Maria Theresa's offensive-option score: 0.5·L + A, at most 9, plus 1 for the set-aside card.
pub(super) fn maria_theresa_offensive(offensive: &OffensiveFacts, end: OffensiveEnd) -> (Rational, String) {
    let length = i64::from(end.turn) - i64::from(offensive.launched_in) + 1;
    let austria_holds = 14 - i64::from(end.bohemian);
    let raw = tenths(5 * length + 10 * austria_holds);
    let capped = raw.min(tenths(90));
    let mut line = format!(
        "maria_theresa offensive option: L = {} − {} + 1 = {length}, A = 14 − {} = {austria_holds}; 0.5×{length} + {austria_holds} = {}",
        end.turn,
        offensive.launched_in,
        end.bohemian,
        show(raw)
    );
    if capped != raw {
        line.push_str(&format!(", at most 9 → {}", show(capped)));
    }
    let mut score = capped;
    if offensive.picked_up {
        score = score + tenths(10);
        line.push_str(&format!(" + 1 for the set-aside card = {}", show(score)));
    }
    (score, line)
}

/// Maria Theresa's Imperial Army score at the switch away from her: cafe2023 keeps the
/// losing formula at that turn for her tie-breakers; cafe2019 gives her 0.
pub(super) fn imperial_army_at_switch(ruleset: Ruleset, switch: &Switch) -> (Rational, String) {
    if ruleset == Ruleset::Cafe2019 {
        return (
            Rational::ZERO,
            format!(
                "imperial_army: switched to {} in turn {}; it scores only for its controller at the end, so maria_theresa has 0 from it for the tie-breakers",
                switch.to, switch.turn
            ),
        );
    }
    let pct = percent(switch.held, switch.total);
    let score = tenths(pct + 16 - i64::from(switch.turn));
    let line = format!(
        "imperial_army at the switch to {} in turn {}: {} of {} objectives → {pct}%; {pct}%/10 + 1.6 − 0.1×{} = {} (maria_theresa's tie-breakers only)",
        switch.to,
        switch.turn,
        switch.held,
        switch.total,
        switch.turn,
        show(score)
    );
    (score, line)
}

/// CAFE tie-breaker 1 reads the best entry other than the one used.
pub(super) fn tie_breaker_note(role: &RoleScore) -> Option<String> {
    role.second_best.map(|second| format!("second best {}", show(second)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_halves_up() {
        assert_eq!(percent(11, 12), 92);
        assert_eq!(percent(9, 14), 64);
        assert_eq!(percent(1, 8), 13); // 12.5 → 13
        assert_eq!(percent(11, 16), 69); // 68.75
        assert_eq!(percent(0, 5), 0);
        assert_eq!(percent(5, 5), 100);
    }
}
