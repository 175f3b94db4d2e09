//! The next event of a game stream, read from the fuzzer's bytes and the game as it stands:
//! mostly an event a table could really record now (the next turn, the nation whose action
//! stage is open, objectives within their totals), so that sequences get deep into a game —
//! drop-outs, the offensive, the end, voids after it — and not only refused at their first step.

use super::values::{at_ms, jury_event, name, objectives, text};
use crate::choices::Choices;
use ledger::rules::{GameState, Offensive};
use ledger::{ClockSide, Event, Nation, Outcome, Role, Ruleset, StopReason};
use std::collections::BTreeMap;

/// How often each kind of event is tried, in the order of [`next_event`]'s match.
const WEIGHTS: [u8; 23] = [
    10, // turn_started
    8,  // tc_dealt
    6,  // clock_started
    8,  // clock_pressed
    5,  // clock_stopped
    8,  // action_stage_started
    8,  // action_stage_ended
    3,  // retreat_started
    3,  // retreat_ended
    3,  // fate_card_drawn
    3,  // nation_dropped_out
    2,  // imperial_army_switched
    3,  // offensive_launched
    2,  // austria_claimed_objectives
    2,  // set_aside_tc_picked_up
    2,  // offensive_called_off
    1,  // game_ended
    1,  // fate_horizon_recorded
    4,  // jury_called, jury_ruling, event_voided
    1,  // game_started again
    1,  // a tournament's event, in the wrong stream
    1,  // a correction for an earlier turn
    1,  // anything at all in a field that takes a number
];

/// The next event for `game`, a stream of `n_events` events so far.
pub fn next_event(c: &mut Choices<'_>, game: &GameState, scheduled: Option<Ruleset>, n_events: u64) -> Event {
    if !game.started && !c.one_in(8) {
        return game_started(c, scheduled, game.last_at_ms);
    }
    let last = game.last_at_ms;
    if game.ended.is_some() && !c.one_in(4) {
        // After the end only the jury records: a ruling, the fate horizon, or a void (of the
        // end itself, mostly) that lets the game go on.
        return match c.below(4) {
            0 => Event::FateHorizonRecorded { turn: game.turn.saturating_add(u32::from(c.byte() % 8)) },
            _ => jury_event(c, n_events),
        };
    }
    match c.weighted(&WEIGHTS) {
        0 => Event::TurnStarted {
            turn: match c.below(10) {
                7 => game.turn,
                8 => game.turn.saturating_add(2),
                9 => c.u32(),
                _ => game.turn.saturating_add(1),
            },
            at_ms: if c.one_in(4) { None } else { Some(at_ms(c, last)) },
        },
        1 => Event::TcDealt { nation: c.pick(Nation::ALL), count: count(c, 8) },
        2 => Event::ClockStarted { side: c.pick(ClockSide::ALL), at_ms: at_ms(c, last) },
        3 => Event::ClockPressed { at_ms: at_ms(c, last) },
        4 => Event::ClockStopped { reason: c.pick(StopReason::ALL), at_ms: at_ms(c, last) },
        5 => Event::ActionStageStarted { nation: acting_nation(c, game), at_ms: at_ms(c, last) },
        6 => Event::ActionStageEnded {
            nation: match game.action_stage {
                Some(open) if !c.one_in(8) => open,
                _ => c.pick(Nation::ALL),
            },
            at_ms: at_ms(c, last),
        },
        7 => Event::RetreatStarted { length: u32::from(c.byte() % 6), at_ms: at_ms(c, last) },
        8 => Event::RetreatEnded { at_ms: at_ms(c, last) },
        9 => Event::FateCardDrawn { card: name(c, &["elisabeth dies", "sweden leaves", "france leaves"]) },
        10 => {
            let (held, total) = objectives(c, 10);
            Event::NationDroppedOut {
                nation: if c.one_in(8) {
                    c.pick(Nation::ALL)
                } else {
                    c.pick(&[Nation::Russia, Nation::Sweden, Nation::France])
                },
                objectives_held: held,
                objectives_total: total,
                turn: None,
            }
        }
        11 => imperial_army_switched(c, game, None),
        12 => Event::OffensiveLaunched { set_aside_tc: set_aside(c), turn: None },
        13 => Event::AustriaClaimedObjectives { count: if c.one_in(8) { count(c, 12) } else { 4 } },
        14 => Event::SetAsideTcPickedUp {},
        15 => Event::OffensiveCalledOff { bohemian_held_by_prussia: bohemian(c), turn: None },
        16 => game_ended(c, game),
        17 => Event::FateHorizonRecorded {
            turn: match c.below(8) {
                6 => 0,
                7 => c.u32(),
                _ => game.turn.saturating_add(u32::from(c.byte() % 20)),
            },
        },
        18 => jury_event(c, n_events),
        19 => game_started(c, scheduled, last),
        20 => match c.below(3) {
            0 => Event::PlayerRegistered { player: "p1".into(), name: "Ann".into(), pseudonym: None },
            1 => Event::StandInRegistered { player: "s1".into(), name: "Richard".into() },
            _ => Event::PlayerWithdrew { player: "p1".into(), from_round: 2, stand_in: Some("s1".into()) },
        },
        21 => correction(c, game),
        _ => anything(c),
    }
}

fn game_started(c: &mut Choices<'_>, scheduled: Option<Ruleset>, last: Option<u64>) -> Event {
    let ruleset = match c.below(8) {
        6 => None,
        7 => Some(c.pick(Ruleset::ALL)),
        _ => Some(scheduled.unwrap_or(Ruleset::ALL[usize::from(c.byte()) % Ruleset::ALL.len()])),
    };
    let tournament = if c.one_in(4) { Some(name(c, &["open26"])) } else { None };
    Event::GameStarted { at_ms: at_ms(c, last), ruleset, tournament }
}

/// Mostly a nation still in the game, so that stages open and close in turn.
fn acting_nation(c: &mut Choices<'_>, game: &GameState) -> Nation {
    let in_game: Vec<Nation> = Nation::ALL.iter().copied().filter(|n| !game.out.contains_key(n)).collect();
    if in_game.is_empty() || c.one_in(8) {
        c.pick(Nation::ALL)
    } else {
        c.pick(&in_game)
    }
}

/// A count of cards or objectives: small and not negative, now and then anything.
fn count(c: &mut Choices<'_>, max: u8) -> i32 {
    if c.one_in(16) {
        c.i32()
    } else {
        i32::from(c.byte() % (max + 1))
    }
}

/// The value of the card set aside for the offensive: at least 10 (cafe2019's floor) mostly.
fn set_aside(c: &mut Choices<'_>) -> i32 {
    match c.below(8) {
        6 => i32::from(c.byte() % 10),
        7 => c.i32(),
        _ => 10 + i32::from(c.byte() % 6),
    }
}

fn bohemian(c: &mut Choices<'_>) -> i32 {
    match c.below(16) {
        14 => 15,
        15 => c.i32(),
        _ => i32::from(c.byte() % 15),
    }
}

fn imperial_army_switched(c: &mut Choices<'_>, game: &GameState, turn: Option<u32>) -> Event {
    let (held, total) = objectives(c, 5);
    let to = match c.below(8) {
        7 => c.pick(Role::ALL),
        _ if game.imperial_army == Role::Elisabeth => Role::Pompadour,
        _ => Role::Elisabeth,
    };
    Event::ImperialArmySwitched { to, objectives_held: held, objectives_total: total, turn }
}

/// The jury's correction: an event that names the turn it really happened in.
fn correction(c: &mut Choices<'_>, game: &GameState) -> Event {
    let turn = match c.below(8) {
        6 => 0,
        7 => game.turn.saturating_add(1),
        _ => game.turn.saturating_sub(u32::from(c.byte() % 4)).max(1),
    };
    match c.below(4) {
        0 => {
            let (held, total) = objectives(c, 10);
            let nation = c.pick(&[Nation::Russia, Nation::Sweden, Nation::France]);
            Event::NationDroppedOut { nation, objectives_held: held, objectives_total: total, turn: Some(turn) }
        }
        1 => imperial_army_switched(c, game, Some(turn)),
        2 => Event::OffensiveLaunched { set_aside_tc: set_aside(c), turn: Some(turn) },
        _ => Event::OffensiveCalledOff { bohemian_held_by_prussia: bohemian(c), turn: Some(turn) },
    }
}

/// A `game_ended` that fits the game as it stands (objectives for every attacker still in,
/// the Bohemian count while the offensive is active), unless the bytes say otherwise.
fn game_ended(c: &mut Choices<'_>, game: &GameState) -> Event {
    let in_game: Vec<Nation> = Nation::attacking().filter(|n| !game.out.contains_key(n)).collect();
    let mut objectives: BTreeMap<Nation, (i32, i32)> =
        in_game.iter().map(|&n| (n, (i32::from(c.byte() % 11), 10))).collect();
    let active = matches!(game.offensive, Offensive::Active { .. });
    let (outcome, mut winners) = match c.below(3) {
        0 => (Outcome::PrussianDefensiveVictory, vec![Nation::Prussia]),
        1 if active => (Outcome::PrussianOffensiveVictory, vec![Nation::Prussia]),
        _ => {
            let n_winners = 1 + c.below(2);
            (Outcome::AlliedVictory, in_game.iter().copied().take(n_winners).collect())
        }
    };
    let mut bohemian = active.then(|| if outcome == Outcome::PrussianOffensiveVictory { 14 } else { bohemian(c) });
    // Now and then one thing wrong.
    match c.below(16) {
        10 => winners = vec![c.pick(Nation::ALL)],
        11 => {
            objectives.pop_first();
        }
        12 => {
            objectives.insert(c.pick(Nation::ALL), (c.i32(), c.i32()));
        }
        13 => bohemian = if bohemian.is_some() { None } else { Some(7) },
        14 => winners.push(c.pick(Nation::ALL)),
        15 => winners.clear(),
        _ => {}
    }
    let outcome = if c.one_in(16) { c.pick(Outcome::ALL) } else { outcome };
    Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia: bohemian }
}

/// Any event, every number in it drawn from the whole range of its type.
fn anything(c: &mut Choices<'_>) -> Event {
    match c.below(8) {
        0 => Event::TurnStarted { turn: c.u32(), at_ms: Some(c.u64()) },
        1 => Event::TcDealt { nation: c.pick(Nation::ALL), count: c.i32() },
        2 => Event::RetreatStarted { length: c.u32(), at_ms: c.u64() },
        3 => Event::NationDroppedOut {
            nation: c.pick(Nation::ALL),
            objectives_held: c.i32(),
            objectives_total: c.i32(),
            turn: Some(c.u32()),
        },
        4 => Event::OffensiveLaunched { set_aside_tc: c.i32(), turn: Some(c.u32()) },
        5 => Event::FateHorizonRecorded { turn: c.u32() },
        6 => Event::OffensiveCalledOff { bohemian_held_by_prussia: c.i32(), turn: Some(c.u32()) },
        _ => Event::JuryCalled { reason: text(c) },
    }
}
