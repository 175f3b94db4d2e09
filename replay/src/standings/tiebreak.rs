//! Qualifying totals and the tie-breakers of spec §6, docs/RULES.md, and the ranking they give.
//!
//! Ranking splits groups: players are grouped by total, and each tied group is split by the
//! next tie-breaker in turn. A tie-breaker that is unavailable for any member of a tied group
//! (an sTCC without a fate horizon, a lot not drawn yet) is passed over for that group and the
//! next one decides; for two players that is exactly "unavailable → the next decides", and
//! for more it keeps the order transitive. Players nothing separates share a rank.

use super::unavailable::{NotScorable, Unavailable};
use super::{PlayedGame, StandingRow, TournamentFacts};
use crate::exact::{fixed_text, round_sum_with_root, Rational};
use crate::sheet::display_places;
use ledger::event::PlayerId;
use ledger::{Role, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;

/// One tie-breaker of spec §6, docs/RULES.md. Its one wire name is [`TieBreaker::as_str`], which
/// JSON uses too (`stcc`, as on the score sheet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum TieBreaker {
    /// CAFE 1: second-best nation scores in the Elisabeth and Maria Theresa games, higher wins.
    SecondBestSum,
    /// cafe2023 2: sTCC of the Frederick game, lower wins.
    ScaledTcc,
    /// cafe2019 2 / wm2015 3: TCC of the Frederick game, lower wins.
    Tcc,
    /// CAFE 3: qualifying totals of the three opponents in the Frederick game, higher wins.
    OpponentsQuality,
    /// wm2015 1: points of the nations not used for the ranking in the Elisabeth and Maria
    /// Theresa games, higher wins.
    NotUsedPoints,
    /// wm2015 2: population standard deviation of the attacking players' game scores without
    /// bonus in the Frederick game (0 after a Prussian victory), lower wins. Compared as the
    /// exact variance, shown as the deviation.
    AttackerSpread,
    /// wm2015 4: points in the Frederick role, higher wins.
    FrederickPoints,
    /// The recorded lot: earlier in `lot_drawn.order` wins.
    Lot,
}

impl TieBreaker {
    /// The ruleset's tie-breakers, in order.
    pub fn for_ruleset(ruleset: Ruleset) -> &'static [TieBreaker] {
        use TieBreaker::*;
        match ruleset {
            Ruleset::Cafe2023 => &[SecondBestSum, ScaledTcc, OpponentsQuality, Lot],
            Ruleset::Cafe2019 => &[SecondBestSum, Tcc, OpponentsQuality, Lot],
            Ruleset::Wm2015 => &[NotUsedPoints, AttackerSpread, Tcc, FrederickPoints, Lot],
        }
    }

    pub fn higher_wins(self) -> bool {
        matches!(
            self,
            TieBreaker::SecondBestSum
                | TieBreaker::OpponentsQuality
                | TieBreaker::NotUsedPoints
                | TieBreaker::FrederickPoints
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TieBreaker::SecondBestSum => "second_best_sum",
            TieBreaker::ScaledTcc => "stcc",
            TieBreaker::Tcc => "tcc",
            TieBreaker::OpponentsQuality => "opponents_quality",
            TieBreaker::NotUsedPoints => "not_used_points",
            TieBreaker::AttackerSpread => "attacker_spread",
            TieBreaker::FrederickPoints => "frederick_points",
            TieBreaker::Lot => "lot",
        }
    }
}

impl From<TieBreaker> for &'static str {
    fn from(tie_breaker: TieBreaker) -> Self {
        tie_breaker.as_str()
    }
}

/// What separated a row from the one above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// The qualifying totals differ.
    Total,
    /// The 1-based tie-breaker of the ruleset's list that decided.
    TieBreaker { index: usize, tie_breaker: TieBreaker },
    /// Nothing separates them (no lot drawn yet); they share a rank.
    Unresolved,
}

/// A player's value for one tie-breaker; `value` is `None` when unavailable, and `unavailable`
/// then says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieBreakValue {
    pub tie_breaker: TieBreaker,
    pub value: Option<Rational>,
    /// Why there is no value (`None` when there is one).
    pub unavailable: Option<Unavailable>,
    /// The value as shown, or why it is unavailable (`unavailable: …`, [`Unavailable::display`]).
    pub display: String,
}

/// A player's qualifying games by role.
struct PlayerGames<'a> {
    by_role: BTreeMap<Role, Vec<&'a PlayedGame>>,
}

impl PlayerGames<'_> {
    fn first(&self, role: Role) -> Option<&PlayedGame> {
        self.by_role.get(&role).and_then(|games| games.first().copied())
    }

    fn all(&self, roles: &[Role]) -> Vec<(Role, &PlayedGame)> {
        roles
            .iter()
            .flat_map(|role| self.by_role.get(role).into_iter().flatten().map(move |game| (*role, *game)))
            .collect()
    }
}

fn unavailable(tie_breaker: TieBreaker, why: Unavailable) -> TieBreakValue {
    TieBreakValue { tie_breaker, value: None, display: why.display(), unavailable: Some(why) }
}

fn coefficient_text(value: Rational) -> String {
    value.shown(3)
}

/// The latest qualifying lot in which every one of `players` appears, as their positions.
fn lot_positions(facts: &TournamentFacts, players: &[&PlayerId]) -> Option<Vec<usize>> {
    facts
        .lots
        .iter()
        .rev()
        .filter(|lot| !lot.is_for_final())
        .find_map(|lot| players.iter().map(|p| lot.order.iter().position(|q| q == *p)).collect())
}

fn value_of(
    ruleset: Ruleset,
    tie_breaker: TieBreaker,
    player: &PlayerId,
    games: &PlayerGames<'_>,
    totals: &BTreeMap<PlayerId, Rational>,
    facts: &TournamentFacts,
) -> TieBreakValue {
    let places = display_places(ruleset);
    let number = |value: Rational, display: String| TieBreakValue {
        tie_breaker,
        value: Some(value),
        unavailable: None,
        display,
    };
    let attacking_games = [Role::Elisabeth, Role::MariaTheresa];
    let frederick = games.first(Role::Frederick);
    match tie_breaker {
        TieBreaker::SecondBestSum | TieBreaker::NotUsedPoints => {
            let parts: Vec<(Role, Option<Rational>)> = games
                .all(&attacking_games)
                .into_iter()
                .map(|(role, game)| {
                    let line = game.sheet.roles.get(&role);
                    let value = if tie_breaker == TieBreaker::SecondBestSum {
                        line.and_then(|l| l.second_best)
                    } else {
                        line.and_then(|l| l.not_used)
                    };
                    (role, value)
                })
                .collect();
            if parts.is_empty() {
                return unavailable(tie_breaker, Unavailable::NoElisabethOrMariaTheresaGameEnded);
            }
            let sum: Rational = parts.iter().filter_map(|(_, v)| *v).sum();
            let terms: Vec<String> = parts
                .iter()
                .map(|(role, v)| format!("{role} {}", v.unwrap_or(Rational::ZERO).to_fixed(places)))
                .collect();
            number(sum, format!("{} ({})", sum.to_fixed(places), terms.join(" + ")))
        }
        TieBreaker::ScaledTcc | TieBreaker::Tcc => {
            let Some(game) = frederick else {
                return unavailable(tie_breaker, Unavailable::NoFrederickGameEnded);
            };
            let value = if tie_breaker == TieBreaker::ScaledTcc {
                match &game.sheet.stcc {
                    crate::sheet::Coefficient::Available(v) => Ok(*v),
                    crate::sheet::Coefficient::Unavailable(why) => Err(NotScorable::Stcc(*why)),
                }
            } else {
                game.sheet.tcc.ok_or(NotScorable::NoTacticalCard)
            };
            match value {
                Ok(v) => number(v, format!("{} (game {})", coefficient_text(v), game.scheduled.game)),
                Err(why) => {
                    unavailable(tie_breaker, Unavailable::GameNotScorable { game: game.scheduled.game.clone(), why })
                }
            }
        }
        TieBreaker::OpponentsQuality => {
            let Some(game) = frederick else {
                return unavailable(tie_breaker, Unavailable::NoFrederickGameEnded);
            };
            let opponents: Vec<&PlayerId> =
                game.scheduled.slot.seats.iter().filter(|(role, _)| *role != Role::Frederick).map(|(_, p)| p).collect();
            let sum: Rational = opponents.iter().map(|p| totals.get(*p).copied().unwrap_or(Rational::ZERO)).sum();
            let names: Vec<&str> = opponents.iter().map(|p| p.as_str()).collect();
            number(sum, format!("{} ({})", sum.to_fixed(places), names.join(", ")))
        }
        TieBreaker::AttackerSpread => {
            let Some(game) = frederick else {
                return unavailable(tie_breaker, Unavailable::NoFrederickGameEnded);
            };
            match game.sheet.attacker_variance() {
                Some(variance) => {
                    let deviation = round_sum_with_root(Rational::ZERO, 1, variance, 2);
                    number(
                        variance,
                        format!(
                            "σ {} (variance {}, game {})",
                            fixed_text(deviation, 2),
                            variance.exact_text(),
                            game.scheduled.game
                        ),
                    )
                }
                None => unavailable(tie_breaker, Unavailable::NoAttackerScores),
            }
        }
        TieBreaker::FrederickPoints => {
            let points: Vec<Rational> = games
                .all(&[Role::Frederick])
                .into_iter()
                .filter_map(|(_, g)| g.sheet.role_score(Role::Frederick))
                .collect();
            if points.is_empty() {
                return unavailable(tie_breaker, Unavailable::NoFrederickGameEnded);
            }
            let sum: Rational = points.into_iter().sum();
            number(sum, sum.to_fixed(places))
        }
        TieBreaker::Lot => match lot_positions(facts, &[player]) {
            Some(positions) => {
                let position = positions[0] + 1;
                number(Rational::int(i64::try_from(position).unwrap_or(i64::MAX)), format!("drawn {position}"))
            }
            None => unavailable(tie_breaker, Unavailable::NoLotDrawn),
        },
    }
}

/// Ranks every registered player (and anyone seated in a qualifying game) but the stand-ins.
/// A stand-in's games count for the real players at its tables like any game; its own total
/// enters the opponents' quality of those who met it (docs/DECISIONS.md, "Stand-ins"), but it
/// has no row.
pub(super) fn rank(ruleset: Ruleset, facts: &TournamentFacts, qualifying: &[&PlayedGame]) -> Vec<StandingRow> {
    let mut players: Vec<(PlayerId, String)> = facts.players.clone();
    players.extend(facts.stand_ins.iter().cloned());
    let mut by_player: BTreeMap<PlayerId, PlayerGames<'_>> = BTreeMap::new();
    let mut scores: BTreeMap<PlayerId, BTreeMap<Role, Rational>> = BTreeMap::new();
    let mut counted: BTreeMap<PlayerId, u32> = BTreeMap::new();
    for game in qualifying {
        for (role, player) in game.scheduled.slot.seats.iter() {
            if !players.iter().any(|(p, _)| p == player) {
                players.push((player.clone(), player.clone()));
            }
            by_player
                .entry(player.clone())
                .or_insert_with(|| PlayerGames { by_role: BTreeMap::new() })
                .by_role
                .entry(role)
                .or_default()
                .push(game);
            if let Some(score) = game.sheet.role_score(role) {
                let slot = scores.entry(player.clone()).or_default().entry(role).or_insert(Rational::ZERO);
                *slot = *slot + score;
                *counted.entry(player.clone()).or_insert(0) += 1;
            }
        }
    }
    let totals: BTreeMap<PlayerId, Rational> = players
        .iter()
        .map(|(p, _)| {
            let total = scores.get(p).map_or(Rational::ZERO, |s| s.values().copied().sum());
            (p.clone(), total)
        })
        .collect();
    players.retain(|(p, _)| !facts.stand_ins.iter().any(|(s, _)| s == p));
    let empty = PlayerGames { by_role: BTreeMap::new() };
    let tie_breakers = TieBreaker::for_ruleset(ruleset);
    let values: Vec<Vec<TieBreakValue>> = players
        .iter()
        .map(|(p, _)| {
            let games = by_player.get(p).unwrap_or(&empty);
            tie_breakers.iter().map(|&tb| value_of(ruleset, tb, p, games, &totals, facts)).collect()
        })
        .collect();

    let ranking = Ranking { facts, tie_breakers, players: &players, totals: &totals, values: &values };
    let mut order = Vec::new();
    ranking.order((0..players.len()).collect(), 0, None, &mut order);

    let mut rows: Vec<StandingRow> = Vec::new();
    for (position, (idx, decided_by)) in order.into_iter().enumerate() {
        let (player, name) = &players[idx];
        let rank = match (decided_by, rows.last()) {
            (Some(Decider::Unresolved), Some(above)) => above.rank,
            _ => u32::try_from(position + 1).unwrap_or(u32::MAX),
        };
        rows.push(StandingRow {
            rank,
            player: player.clone(),
            name: name.clone(),
            total: totals[player],
            games_counted: counted.get(player).copied().unwrap_or(0),
            scores: scores.get(player).cloned().unwrap_or_default(),
            tie_breakers: values[idx].clone(),
            decided_by,
            withdrawn: facts.withdrawn.iter().find(|(p, _)| p == player).map(|(_, round)| *round),
        });
    }
    rows
}

struct Ranking<'a> {
    facts: &'a TournamentFacts,
    tie_breakers: &'a [TieBreaker],
    players: &'a [(PlayerId, String)],
    totals: &'a BTreeMap<PlayerId, Rational>,
    values: &'a [Vec<TieBreakValue>],
}

impl Ranking<'_> {
    /// The sort keys of a group at a level (0 = total), or `None` when the level cannot
    /// decide this group because a member's value is unavailable.
    fn keys(&self, level: usize, group: &[usize]) -> Option<Vec<Rational>> {
        if level == 0 {
            return Some(group.iter().map(|&i| self.totals[&self.players[i].0]).collect());
        }
        let tie_breaker = self.tie_breakers[level - 1];
        if tie_breaker == TieBreaker::Lot {
            let ids: Vec<&PlayerId> = group.iter().map(|&i| &self.players[i].0).collect();
            let positions = lot_positions(self.facts, &ids)?;
            return Some(positions.into_iter().map(|p| Rational::int(i64::try_from(p).unwrap_or(i64::MAX))).collect());
        }
        group.iter().map(|&i| self.values[i][level - 1].value).collect()
    }

    fn decider(&self, level: usize) -> Decider {
        if level == 0 {
            Decider::Total
        } else {
            Decider::TieBreaker { index: level, tie_breaker: self.tie_breakers[level - 1] }
        }
    }

    /// Appends the group in rank order; `lead` is what separates its first member from the
    /// row above.
    fn order(&self, group: Vec<usize>, level: usize, lead: Option<Decider>, out: &mut Vec<(usize, Option<Decider>)>) {
        if group.len() == 1 {
            out.push((group[0], lead));
            return;
        }
        if level > self.tie_breakers.len() {
            let mut group = group;
            group.sort_by(|&a, &b| self.players[a].0.cmp(&self.players[b].0));
            for (n, idx) in group.into_iter().enumerate() {
                out.push((idx, if n == 0 { lead } else { Some(Decider::Unresolved) }));
            }
            return;
        }
        let Some(keys) = self.keys(level, &group) else {
            return self.order(group, level + 1, lead, out);
        };
        let higher_wins = level == 0 || self.tie_breakers[level - 1].higher_wins();
        let mut members: Vec<(Rational, usize)> = keys.into_iter().zip(group).collect();
        members.sort_by(|a, b| {
            let by_key = if higher_wins { b.0.cmp(&a.0) } else { a.0.cmp(&b.0) };
            by_key.then(a.1.cmp(&b.1))
        });
        let mut start = 0;
        let mut first_run = true;
        while start < members.len() {
            let end = start + members[start..].iter().take_while(|(k, _)| *k == members[start].0).count();
            let run: Vec<usize> = members[start..end].iter().map(|(_, i)| *i).collect();
            let run_lead = if first_run { lead } else { Some(self.decider(level)) };
            self.order(run, level + 1, run_lead, out);
            first_run = false;
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tie_breaker_has_one_spelling_in_text_and_json() {
        let all = [Ruleset::Cafe2019, Ruleset::Cafe2023, Ruleset::Wm2015].map(TieBreaker::for_ruleset).concat();
        for tie_breaker in all {
            let json = serde_json::to_value(tie_breaker).unwrap();
            assert_eq!(json, serde_json::json!(tie_breaker.as_str()));
        }
        assert_eq!(TieBreaker::ScaledTcc.as_str(), "stcc");
    }
}
