//! Assembles a [`ScoreSheet`] from the folded facts: fixes each nation's score when it left or
//! at the end, applies the ruleset's formulas, and derives the role scores and tie-breaker
//! inputs that are the same in every ruleset (best nation, second best, points not used).

use super::facts::Facts;
use super::formulas::{self, Formulas};
use super::tc;
use super::types::{FixedBy, GameStatus, NationScore, OffensiveScore, RoleScore, ScoreError, ScoreSheet};
use crate::exact::Rational;
use ledger::{Nation, Role, Ruleset};
use std::collections::BTreeMap;

/// The sheet of `facts` under `ruleset`, the one place its formulas are chosen.
///
/// # Errors
/// As [`Facts::fix`].
pub(super) fn build(ruleset: Ruleset, facts: &Facts) -> Result<ScoreSheet, ScoreError> {
    let formulas = formulas::of(ruleset);
    let mut explain = Vec::new();
    let ended = facts.ended.as_ref();
    let mut nations = BTreeMap::new();

    let prussia = ended.map(|e| {
        let (score, line) = formulas.prussia(e.outcome, e.turn);
        explain.push(line);
        NationScore {
            controller: Role::Frederick,
            objectives: None,
            fixed: Some((e.turn, FixedBy::GameEnded)),
            score: Some(score),
            won: e.outcome.is_prussian(),
        }
    });
    nations.insert(
        Nation::Prussia,
        prussia.unwrap_or(NationScore {
            controller: Role::Frederick,
            objectives: None,
            fixed: None,
            score: None,
            won: false,
        }),
    );
    for nation in Nation::attacking() {
        let line = match facts.fix(nation)? {
            Some(fix) => {
                let (score, line) = formulas.attacker(nation, &fix);
                explain.push(line);
                NationScore {
                    controller: facts.controller(nation),
                    objectives: Some((fix.held, fix.total)),
                    fixed: Some((fix.turn, fix.by)),
                    score: Some(score),
                    won: fix.won,
                }
            }
            None => NationScore {
                controller: facts.controller(nation),
                objectives: None,
                fixed: None,
                score: None,
                won: false,
            },
        };
        nations.insert(nation, line);
    }

    let offensive = offensive(formulas, facts, &mut explain);
    let imperial_army_at_switch = facts.switches.iter().find(|s| s.from == Role::MariaTheresa).map(|switch| {
        let (score, line) = formulas.imperial_army_at_switch(switch);
        explain.push(line);
        score
    });

    let winners: Vec<(Nation, Role)> =
        ended.map_or_else(Vec::new, |e| e.winners.iter().map(|&n| (n, facts.controller(n))).collect());
    let bonus = ended.and_then(|_| formulas.victory_bonus(&winners)).map_or_else(BTreeMap::new, |(shares, line)| {
        explain.push(line);
        shares
    });

    let mut roles = BTreeMap::new();
    for &role in Role::ALL {
        let winning = winners.iter().filter(|(_, r)| *r == role).count();
        let score = role_score(
            formulas,
            role,
            ended.is_some(),
            &nations,
            offensive.as_ref(),
            imperial_army_at_switch,
            bonus.get(&role).copied().unwrap_or(Rational::ZERO),
            u32::try_from(winning).unwrap_or(u32::MAX),
            &mut explain,
        );
        roles.insert(role, score);
    }

    let (tc, tcc, stcc, tc_lines) = tc::coefficients(ruleset, facts);
    explain.extend(tc_lines);
    let status = match ended {
        Some(e) => GameStatus::Ended { outcome: e.outcome, winners: e.winners.clone() },
        None => GameStatus::InProgress,
    };
    Ok(ScoreSheet {
        ruleset,
        turns: ended.map_or(facts.turn, |e| e.turn),
        status,
        nations,
        roles,
        offensive,
        imperial_army_at_switch,
        tc,
        tcc,
        stcc,
        fate_horizon: facts.fate_horizon,
        explain,
    })
}

fn offensive(formulas: &dyn Formulas, facts: &Facts, explain: &mut Vec<String>) -> Option<OffensiveScore> {
    let facts_offensive = facts.offensive?;
    let end = facts.offensive_end();
    let mut score = OffensiveScore {
        launched_in: facts_offensive.launched_in,
        set_aside_tc: facts_offensive.set_aside_tc,
        picked_up: facts_offensive.picked_up,
        austria_claimed: facts_offensive.claimed,
        ended_in: end.map(|e| e.turn),
        called_off: end.is_some_and(|e| e.called_off),
        bohemian_held_by_prussia: end.map(|e| e.bohemian),
        frederick: None,
        maria_theresa: None,
    };
    if let Some(end) = end {
        let (frederick, line) = formulas.frederick_offensive(end);
        explain.push(line);
        let (maria_theresa, line) = formulas.maria_theresa_offensive(&facts_offensive, end);
        explain.push(line);
        score.frederick = Some(frederick);
        score.maria_theresa = Some(maria_theresa);
    }
    Some(score)
}

/// A role's game score and tie-breaker inputs. Entries are the role's nations at the end
/// (dropped-out ones included); Prussia and Austria count the better of ordinary and
/// offensive score; Maria Theresa's Imperial Army score at a switch counts for tie-breakers.
#[allow(clippy::too_many_arguments)]
fn role_score(
    formulas: &dyn Formulas,
    role: Role,
    ended: bool,
    nations: &BTreeMap<Nation, NationScore>,
    offensive: Option<&OffensiveScore>,
    imperial_army_at_switch: Option<Rational>,
    bonus: Rational,
    winning_nations: u32,
    explain: &mut Vec<String>,
) -> RoleScore {
    let mut out = RoleScore {
        score: None,
        best: None,
        bonus,
        winning_nations,
        entries: Vec::new(),
        used: None,
        second_best: None,
        not_used: None,
    };
    if !ended {
        return out;
    }
    let mut described = Vec::new();
    for (&nation, line) in nations {
        let Some(ordinary) = line.score.filter(|_| line.controller == role) else {
            continue;
        };
        let alternative = match nation {
            Nation::Prussia => offensive.and_then(|o| o.frederick),
            Nation::Austria => offensive.and_then(|o| o.maria_theresa),
            _ => None,
        };
        let value = alternative.map_or(ordinary, |alt| ordinary.max(alt));
        described.push(match alternative {
            Some(alt) => format!(
                "{nation} max({}, offensive {}) = {}",
                formulas.show(ordinary),
                formulas.show(alt),
                formulas.show(value)
            ),
            None => format!("{nation} {}", formulas.show(value)),
        });
        out.entries.push((nation.as_str().to_owned(), value));
    }
    let Some((used_idx, best)) =
        out.entries.iter().enumerate().fold(None, |acc: Option<(usize, Rational)>, (idx, (_, v))| match acc {
            Some((_, b)) if b >= *v => acc,
            _ => Some((idx, *v)),
        })
    else {
        return out;
    };
    if role == Role::MariaTheresa {
        if let Some(at_switch) = imperial_army_at_switch {
            out.entries.push(("imperial_army_at_switch".to_owned(), at_switch));
        }
    }
    let others: Vec<Rational> =
        out.entries.iter().enumerate().filter(|(idx, _)| *idx != used_idx).map(|(_, (_, v))| *v).collect();
    let used = out.entries[used_idx].0.clone();
    out.second_best = others.iter().copied().max();
    out.not_used = Some(others.iter().copied().sum());
    out.best = Some(best);
    let score = best + bonus;
    out.score = Some(score);

    let mut line = if described.len() == 1 {
        format!("{role}: {}", described[0])
    } else {
        format!("{role}: best of {} = {} ({used})", described.join(", "), formulas.show(best))
    };
    if bonus != Rational::ZERO {
        line.push_str(&format!(" + bonus {} = {}", bonus.exact_text(), formulas.show(score)));
    }
    if matches!(role, Role::Elisabeth | Role::MariaTheresa) {
        if role == Role::MariaTheresa {
            if let Some(at_switch) = imperial_army_at_switch {
                line.push_str(&format!(
                    "; imperial_army at the switch {} counts for tie-breakers",
                    formulas.show(at_switch)
                ));
            }
        }
        if let Some(note) = formulas.tie_breaker_note(&out) {
            line.push_str(&format!("; {note}"));
        }
    }
    explain.push(line);
    out.used = Some(used);
    out
}
