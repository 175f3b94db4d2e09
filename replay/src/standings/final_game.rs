//! The final (spec §7, docs/RULES.md): the winner is the player whose nation won; when several
//! players won, (1) most winning nations, (2) the role with the fewest wins in this
//! tournament's qualifying round, (3) CAFE: Pompadour wins every remaining tie and Maria
//! Theresa loses every one; wm2015: a recorded lot (purpose "final").

use super::{PlayedGame, TournamentFacts};
use crate::sheet::GameStatus;
use ledger::event::{PlayerId, Seats};
use ledger::{Role, Ruleset, Stage};
use serde::Serialize;

/// A player who controlled a winning nation at the end of the final.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FinalContender {
    pub player: PlayerId,
    pub role: Role,
    pub winning_nations: u32,
    /// Qualifying games of this tournament in which the role controlled a winning nation.
    pub role_qualifying_wins: u32,
}

/// What made the winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalDecider {
    /// The final's stream is missing or the game has not ended.
    NotEnded,
    OnlyWinner,
    MostWinningNations,
    FewestQualifyingWins,
    /// CAFE: Pompadour wins every remaining tie, Maria Theresa loses every one.
    CafeRoleOrder,
    /// wm2015: the recorded lot with purpose "final".
    Lot,
    /// wm2015 without a lot covering the tied players yet.
    Unresolved,
}

/// The final game and its winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalResult {
    pub game: String,
    pub seats: Seats,
    pub contenders: Vec<FinalContender>,
    pub winner: Option<PlayerId>,
    pub decided_by: FinalDecider,
}

/// CAFE's last rule as an order of roles: Pompadour first, Maria Theresa last. Frederick never
/// ties with an attacking role (a Prussian outcome has no attacking winner); Elisabeth is
/// placed before him only to make the order total.
fn cafe_role_rank(role: Role) -> u8 {
    match role {
        Role::Pompadour => 0,
        Role::Elisabeth => 1,
        Role::Frederick => 2,
        Role::MariaTheresa => 3,
    }
}

/// The last scheduled final, if any, with its result so far.
pub(super) fn final_result(
    ruleset: Ruleset,
    facts: &TournamentFacts,
    played: &[PlayedGame],
    qualifying: &[&PlayedGame],
) -> Option<FinalResult> {
    let scheduled = facts.games.iter().rev().find(|g| g.slot.stage == Stage::Final)?;
    let mut result = FinalResult {
        game: scheduled.game.clone(),
        seats: scheduled.slot.seats.clone(),
        contenders: Vec::new(),
        winner: None,
        decided_by: FinalDecider::NotEnded,
    };
    let Some(game) = played.iter().find(|g| g.scheduled.game == scheduled.game) else {
        return Some(result);
    };
    if !matches!(game.sheet.status, GameStatus::Ended { .. }) {
        return Some(result);
    }
    let qualifying_wins = |role: Role| {
        let wins =
            qualifying.iter().filter(|g| g.sheet.roles.get(&role).is_some_and(|r| r.winning_nations > 0)).count();
        u32::try_from(wins).unwrap_or(u32::MAX)
    };
    result.contenders = game
        .sheet
        .roles
        .iter()
        .filter(|(_, line)| line.winning_nations > 0)
        .map(|(&role, line)| FinalContender {
            player: scheduled.slot.seats.player(role).clone(),
            role,
            winning_nations: line.winning_nations,
            role_qualifying_wins: qualifying_wins(role),
        })
        .collect();

    let mut left: Vec<&FinalContender> = result.contenders.iter().collect();
    let mut decided_by = FinalDecider::OnlyWinner;
    if left.len() > 1 {
        let most = left.iter().map(|c| c.winning_nations).max().unwrap_or(0);
        left.retain(|c| c.winning_nations == most);
        decided_by = FinalDecider::MostWinningNations;
    }
    if left.len() > 1 {
        let fewest = left.iter().map(|c| c.role_qualifying_wins).min().unwrap_or(0);
        left.retain(|c| c.role_qualifying_wins == fewest);
        decided_by = FinalDecider::FewestQualifyingWins;
    }
    if left.len() > 1 {
        if ruleset.is_cafe() {
            left.sort_by_key(|c| cafe_role_rank(c.role));
            left.truncate(1);
            decided_by = FinalDecider::CafeRoleOrder;
        } else {
            let lot = facts.lots.iter().rev().filter(|l| l.is_for_final()).find_map(|lot| {
                let positions: Option<Vec<usize>> =
                    left.iter().map(|c| lot.order.iter().position(|p| *p == c.player)).collect();
                positions
            });
            match lot {
                Some(positions) => {
                    let best = positions.iter().enumerate().min_by_key(|(_, p)| **p).map_or(0, |(idx, _)| idx);
                    left = vec![left[best]];
                    decided_by = FinalDecider::Lot;
                }
                None => {
                    result.decided_by = FinalDecider::Unresolved;
                    return Some(result);
                }
            }
        }
    }
    result.winner = left.first().map(|c| c.player.clone());
    result.decided_by = decided_by;
    Some(result)
}
