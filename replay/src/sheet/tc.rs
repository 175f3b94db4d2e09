//! Tactical-card coefficients (spec §5, docs/RULES.md), the tie-breakers that reward a Frederick
//! who won with fewer cards than his opponents.
//!
//! TCC = tactical cards dealt to Prussia and Hanover / cards dealt to all attacking nations,
//! over the whole game. The cafe2023 scaled coefficient lives in [`scaled_tcc`] alone, so a
//! tournament that reads the lost formula differently replaces one function.

use super::facts::Facts;
use super::types::{Coefficient, NoStcc, TcCount};
use crate::exact::Rational;
use ledger::{Nation, Outcome, Ruleset};

/// Decimals a coefficient shows (the exact fraction is always kept beside it).
pub const COEFFICIENT_PLACES: u32 = 3;

/// cafe2023 sTCC = TCC × N / T, with N the turn the game ended or would have ended in a
/// Prussian defensive victory and T the game's last turn (spec §5, docs/RULES.md).
pub fn scaled_tcc(tcc: Rational, horizon: u32, last_turn: u32) -> Rational {
    tcc * Rational::new(i128::from(horizon), i128::from(last_turn.max(1)))
}

pub(super) fn count(facts: &Facts) -> TcCount {
    let mut counts = TcCount::default();
    for (nation, dealt) in &facts.tc {
        if nation.is_attacking() {
            counts.attackers += dealt;
        } else {
            counts.prussia_hanover += dealt;
        }
    }
    counts
}

/// TCC and sTCC with their explanation lines.
pub(super) fn coefficients(ruleset: Ruleset, facts: &Facts) -> (TcCount, Option<Rational>, Coefficient, Vec<String>) {
    let counts = count(facts);
    let mut lines = Vec::new();
    let dealt = |nation: Nation| facts.tc.get(&nation).copied().unwrap_or(0);
    let tcc = if counts.attackers > 0 {
        let tcc = Rational::new(i128::from(counts.prussia_hanover), i128::from(counts.attackers));
        lines.push(format!(
            "tcc: (prussia {} + hanover {}) / attacking nations {} = {} → {}",
            dealt(Nation::Prussia),
            dealt(Nation::Hanover),
            counts.attackers,
            tcc.exact_text(),
            tcc.to_fixed(COEFFICIENT_PLACES)
        ));
        Some(tcc)
    } else {
        lines.push("tcc: no tactical card was dealt to an attacking nation; no TCC".into());
        None
    };
    let stcc = stcc(ruleset, facts, tcc);
    match &stcc {
        Coefficient::Available(value) => {
            let ended = facts.ended.as_ref().map_or(0, |e| e.turn);
            let horizon = horizon(facts).unwrap_or(ended);
            lines.push(format!(
                "stcc: TCC × N / T = {} × {horizon} / {ended} = {} → {}",
                tcc.unwrap_or(Rational::ZERO).exact_text(),
                value.exact_text(),
                value.to_fixed(COEFFICIENT_PLACES)
            ));
        }
        Coefficient::Unavailable(why) if ruleset == Ruleset::Cafe2023 => {
            lines.push(format!("stcc: unavailable, {why}"));
        }
        Coefficient::Unavailable(_) => {}
    }
    (counts, tcc, stcc, lines)
}

/// N: T after a Prussian defensive victory, else the recorded fate horizon.
fn horizon(facts: &Facts) -> Option<u32> {
    let ended = facts.ended.as_ref()?;
    if ended.outcome == Outcome::PrussianDefensiveVictory {
        Some(ended.turn)
    } else {
        facts.fate_horizon
    }
}

fn stcc(ruleset: Ruleset, facts: &Facts, tcc: Option<Rational>) -> Coefficient {
    if ruleset != Ruleset::Cafe2023 {
        return Coefficient::Unavailable(NoStcc::NotInRuleset(ruleset));
    }
    let Some(ended) = facts.ended.as_ref() else {
        return Coefficient::Unavailable(NoStcc::NotEnded);
    };
    let Some(tcc) = tcc else {
        return Coefficient::Unavailable(NoStcc::NoTcc);
    };
    match horizon(facts) {
        Some(n) => Coefficient::Available(scaled_tcc(tcc, n, ended.turn)),
        None => Coefficient::Unavailable(NoStcc::NoFateHorizon),
    }
}
