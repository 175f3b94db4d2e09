//! Assembles a [`ScoreSheet`] from the folded facts: fixes each nation's score when it left or
//! at the end, applies the ruleset's formulas, and derives the role scores and tie-breaker
//! inputs that are the same in every ruleset (best nation, second best, points not used).

use super::fold::Facts;
use super::{cafe, tc, wm2015, FixedBy, GameStatus, NationScore, OffensiveScore, RoleScore, ScoreError, ScoreSheet};
use crate::exact::Rational;
use ledger::{Nation, Role, Ruleset};
use std::collections::BTreeMap;

/// When and with what an attacking nation's score was fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fix {
    pub turn: u32,
    pub by: FixedBy,
    pub held: i32,
    pub total: i32,
    pub won: bool,
}

fn fix(facts: &Facts, nation: Nation) -> Result<Option<Fix>, ScoreError> {
    if let Some(left) = facts.left.get(&nation) {
        return Ok(Some(Fix {
            turn: left.turn,
            by: FixedBy::DroppedOut,
            held: left.held,
            total: left.total,
            won: false,
        }));
    }
    let Some(ended) = facts.ended.as_ref() else {
        return Ok(None);
    };
    let &(held, total) = ended.objectives.get(&nation).ok_or_else(|| {
        ScoreError::Inconsistent(format!("game_ended gives no objectives for {nation}, still in the game"))
    })?;
    if total <= 0 {
        return Err(ScoreError::Inconsistent(format!("game_ended gives {nation} an objectives total of {total}")));
    }
    Ok(Some(Fix { turn: ended.turn, by: FixedBy::GameEnded, held, total, won: ended.winners.contains(&nation) }))
}

fn show(ruleset: Ruleset, value: Rational) -> String {
    if ruleset.is_cafe() {
        value.to_fixed(1)
    } else {
        value.shown(2)
    }
}

pub(super) fn build(ruleset: Ruleset, facts: &Facts) -> Result<ScoreSheet, ScoreError> {
    let cafe = ruleset.is_cafe();
    let mut explain = Vec::new();
    let ended = facts.ended.as_ref();
    let mut nations = BTreeMap::new();

    let prussia = ended.map(|e| {
        let (score, line) = if cafe { cafe::prussia(e.outcome, e.turn) } else { wm2015::prussia(e.outcome, e.turn) };
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
        let line = match fix(facts, nation)? {
            Some(fix) => {
                let (score, line) = if cafe { cafe::attacker(nation, &fix) } else { wm2015::attacker(nation, &fix) };
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

    let offensive = offensive(ruleset, facts, &mut explain);
    let imperial_army_at_switch = facts.switches.iter().find(|s| s.from == Role::MariaTheresa).map(|switch| {
        let (score, line) =
            if cafe { cafe::imperial_army_at_switch(ruleset, switch) } else { wm2015::imperial_army_at_switch(switch) };
        explain.push(line);
        score
    });

    let winners: Vec<(Nation, Role)> = ended.map_or_else(Vec::new, |e| {
        e.winners
            .iter()
            .map(|&n| {
                let role = if n == Nation::Prussia { Role::Frederick } else { facts.controller(n) };
                (n, role)
            })
            .collect()
    });
    let bonus = if !cafe && ended.is_some() {
        let (shares, line) = wm2015::bonus(&winners);
        explain.push(line);
        shares
    } else {
        BTreeMap::new()
    };

    let mut roles = BTreeMap::new();
    for &role in Role::ALL {
        let winning = winners.iter().filter(|(_, r)| *r == role).count();
        let score = role_score(
            ruleset,
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

fn offensive(ruleset: Ruleset, facts: &Facts, explain: &mut Vec<String>) -> Option<OffensiveScore> {
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
        let (frederick, line) =
            if ruleset.is_cafe() { cafe::frederick_offensive(end) } else { wm2015::frederick_offensive(end) };
        explain.push(line);
        let (maria_theresa, line) = if ruleset.is_cafe() {
            cafe::maria_theresa_offensive(&facts_offensive, end)
        } else {
            wm2015::maria_theresa_offensive(&facts_offensive, end)
        };
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
    ruleset: Ruleset,
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
                show(ruleset, ordinary),
                show(ruleset, alt),
                show(ruleset, value)
            ),
            None => format!("{nation} {}", show(ruleset, value)),
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
        format!("{role}: best of {} = {} ({used})", described.join(", "), show(ruleset, best))
    };
    if !ruleset.is_cafe() && bonus != Rational::ZERO {
        line.push_str(&format!(" + bonus {} = {}", bonus.exact_text(), show(ruleset, score)));
    }
    if matches!(role, Role::Elisabeth | Role::MariaTheresa) {
        if role == Role::MariaTheresa {
            if let Some(at_switch) = imperial_army_at_switch {
                line.push_str(&format!(
                    "; imperial_army at the switch {} counts for tie-breakers",
                    show(ruleset, at_switch)
                ));
            }
        }
        if ruleset.is_cafe() {
            if let Some(second) = out.second_best {
                line.push_str(&format!("; second best {}", show(ruleset, second)));
            }
        } else if let Some(not_used) = out.not_used {
            line.push_str(&format!("; not used for the ranking {}", show(ruleset, not_used)));
        }
    }
    explain.push(line);
    out.used = Some(used);
    out
}
