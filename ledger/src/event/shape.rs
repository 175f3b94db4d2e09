//! Stateless checks: what makes an event malformed whatever the game (INVALID_ARGUMENT).

use super::Event;
use crate::names::Nation;
use crate::rejection::Rejection;

/// Bohemia has 14 objectives (RULES.md section 3).
pub const BOHEMIAN_OBJECTIVES: i32 = 14;

pub(super) fn check(event: &Event) -> Result<(), Rejection> {
    if event.corrected_turn() == Some(0) {
        return Err(Rejection::malformed("turns start at 1"));
    }
    match event {
        Event::TournamentCreated { name, clock_ms_per_side, .. } => {
            not_blank("name", name)?;
            if *clock_ms_per_side == Some(0) {
                return Err(Rejection::malformed("clock_ms_per_side must be more than 0"));
            }
            Ok(())
        }
        Event::PlayerRegistered { player, name, .. } => {
            not_blank("player", player)?;
            not_blank("name", name)
        }
        Event::TcDealt { count, .. } if *count < 0 => {
            Err(Rejection::malformed(format!("tc_dealt count must not be negative, got {count}")))
        }
        Event::NationDroppedOut { objectives_held, objectives_total, .. }
        | Event::ImperialArmySwitched { objectives_held, objectives_total, .. } => {
            objectives("", *objectives_held, *objectives_total)
        }
        Event::OffensiveLaunched { set_aside_tc, .. } if *set_aside_tc < 1 => Err(Rejection::malformed(format!(
            "set_aside_tc is the value of a tactical card, at least 1, got {set_aside_tc}"
        ))),
        Event::AustriaClaimedObjectives { count } if *count < 0 => {
            Err(Rejection::malformed(format!("austria_claimed_objectives count must not be negative, got {count}")))
        }
        Event::OffensiveCalledOff { bohemian_held_by_prussia, .. } => bohemian(*bohemian_held_by_prussia),
        Event::GameEnded { objectives: held, winners, bohemian_held_by_prussia, .. } => {
            for (nation, (h, t)) in held {
                if !nation.is_attacking() {
                    return Err(Rejection::malformed(format!(
                        "objectives are reported for attacking nations only, not {nation}"
                    )));
                }
                objectives(&format!("{nation}: "), *h, *t)?;
            }
            let mut seen: Vec<Nation> = Vec::new();
            for winner in winners {
                if seen.contains(winner) {
                    return Err(Rejection::malformed(format!("{winner} is listed twice among the winners")));
                }
                seen.push(*winner);
            }
            bohemian_held_by_prussia.map_or(Ok(()), bohemian)
        }
        Event::FateHorizonRecorded { turn: 0 } => Err(Rejection::malformed("fate horizon turn must be 1 or later")),
        Event::EventVoided { seq: 0, .. } => Err(Rejection::malformed("event_voided seq starts at 1")),
        Event::EventVoided { reason, .. } => not_blank("reason", reason),
        Event::JuryRuling { text } => not_blank("text", text),
        Event::LotDrawn { purpose, order, .. } => {
            not_blank("purpose", purpose)?;
            if order.is_empty() {
                return Err(Rejection::malformed("lot_drawn order must name at least one player"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn not_blank(field: &str, value: &str) -> Result<(), Rejection> {
    if value.trim().is_empty() {
        return Err(Rejection::malformed(format!("{field} must not be empty")));
    }
    Ok(())
}

fn objectives(prefix: &str, held: i32, total: i32) -> Result<(), Rejection> {
    if total <= 0 {
        return Err(Rejection::malformed(format!("{prefix}objectives total must be more than 0, got {total}")));
    }
    if held < 0 || held > total {
        return Err(Rejection::malformed(format!(
            "{prefix}objectives held must be between 0 and the total {total}, got {held}"
        )));
    }
    Ok(())
}

fn bohemian(held: i32) -> Result<(), Rejection> {
    if !(0..=BOHEMIAN_OBJECTIVES).contains(&held) {
        return Err(Rejection::malformed(format!(
            "bohemian_held_by_prussia must be between 0 and {BOHEMIAN_OBJECTIVES}, got {held}"
        )));
    }
    Ok(())
}
