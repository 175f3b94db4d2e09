//! The next event of a tournament stream: mostly what an organiser would record next (the
//! creation, the next player or stand-in, the draw the seed really gives, a withdrawal with a
//! free stand-in, a final seated as the finalists chose, a lot in the order its seed gives), now
//! and then something subtly wrong.

use super::values::{jury_event, name};
use crate::choices::Choices;
use ledger::draw::{draw_with_stand_ins, game_id, lot_order, stand_ins_needed};
use ledger::event::{PlayerId, Seats};
use ledger::rules::TournamentState;
use ledger::{Event, Role, Ruleset, Stage};

/// At most this many players register, so that the draw stays cheap to compute.
const MAX_PLAYERS: usize = 16;

const WEIGHTS: [u8; 10] = [
    2,  // tournament_created
    10, // player_registered
    3,  // qualifying_drawn
    3,  // game_scheduled
    4,  // final_role_chosen
    3,  // lot_drawn
    3,  // jury_called, jury_ruling, event_voided
    1,  // a game's event, in the wrong stream
    3,  // stand_in_registered
    2,  // player_withdrew
];

/// The next event for `tournament`, a stream of `n_events` events so far.
pub fn next_event(c: &mut Choices<'_>, tournament: &TournamentState, n_events: u64) -> Event {
    if tournament.ruleset.is_none() && !c.one_in(8) {
        return created(c);
    }
    let players = &tournament.registration_order;
    match c.weighted(&WEIGHTS) {
        0 => created(c),
        1 => {
            let player = match c.below(8) {
                6 if !players.is_empty() => c.pick(players),
                7 => name(c, &["p 1", ".."]),
                _ => format!("p{}", (players.len() % MAX_PLAYERS) + 1),
            };
            let pseudonym = if c.one_in(2) { Some(name(c, &["Fox", "Heron"])) } else { None };
            Event::PlayerRegistered { name: format!("Player {player}"), player, pseudonym }
        }
        2 => qualifying_drawn(c, tournament),
        3 => game_scheduled(c, tournament),
        4 => {
            let player = if players.is_empty() || c.one_in(8) { "nobody".to_owned() } else { c.pick(players) };
            let free: Vec<Role> =
                Role::ALL.iter().copied().filter(|r| !tournament.final_roles.contains_key(r)).collect();
            let role = if free.is_empty() || c.one_in(8) { c.pick(Role::ALL) } else { c.pick(&free) };
            Event::FinalRoleChosen { player, role }
        }
        5 => lot_drawn(c, players),
        6 => jury_event(c, n_events),
        7 => Event::TurnStarted { turn: 1, at_ms: None },
        8 => stand_in_registered(c, tournament),
        _ => player_withdrew(c, tournament),
    }
}

/// The next stand-in (`s1`, `s2`, …), now and then under a player's id or a blank name.
fn stand_in_registered(c: &mut Choices<'_>, tournament: &TournamentState) -> Event {
    let players = &tournament.registration_order;
    let player = match c.below(8) {
        6 if !players.is_empty() => c.pick(players),
        7 if !tournament.stand_ins.is_empty() => c.pick(&tournament.stand_in_ids()),
        _ => format!("s{}", tournament.stand_ins.len() % 4 + 1),
    };
    let name = if c.one_in(8) { name(c, &[" "]) } else { format!("Stand-in {player}") };
    Event::StandInRegistered { player, name }
}

/// A player leaves from a round with the first stand-in free for its games (as `ledgerctl
/// tournament withdraw` names it); now and then a stand-in, round 0, a second withdrawal or a
/// stand-in already seated in those rounds.
fn player_withdrew(c: &mut Choices<'_>, tournament: &TournamentState) -> Event {
    let players = &tournament.registration_order;
    let stand_ins = tournament.stand_in_ids();
    let player = match c.below(8) {
        6 if !stand_ins.is_empty() => c.pick(&stand_ins),
        7 => "nobody".to_owned(),
        _ if !players.is_empty() => c.pick(players),
        _ => "p1".to_owned(),
    };
    let from_round = match c.below(8) {
        7 => u32::from(c.byte() % 7),
        _ => 1 + u32::from(c.byte() % 5),
    };
    let stand_in = match c.below(8) {
        6 => None,
        7 if !stand_ins.is_empty() => Some(c.pick(&stand_ins)),
        _ => tournament.free_stand_in(&player, from_round),
    };
    Event::PlayerWithdrew { player, from_round, stand_in }
}

fn created(c: &mut Choices<'_>) -> Event {
    let clock_ms_per_side = match c.below(4) {
        0 | 1 => None,
        2 => Some(7_200_000),
        _ => Some(u64::from(c.byte() % 2) * c.u64()),
    };
    Event::TournamentCreated {
        name: name(c, &["Friedrich Open 2026", "WM 2026"]),
        ruleset: c.pick(Ruleset::ALL),
        clock_ms_per_side,
    }
}

/// The draw the seed gives for the registered players, now and then tampered with. The draw is
/// the costliest computation here, so it is made only when the rules could accept it.
fn qualifying_drawn(c: &mut Choices<'_>, tournament: &TournamentState) -> Event {
    let seed = u64::from(c.byte());
    let players = &tournament.registration_order;
    let stand_ins = tournament.stand_in_ids();
    let mut games = if tournament.drawn || players.is_empty() || stand_ins_needed(players.len()) > stand_ins.len() {
        Vec::new()
    } else {
        draw_with_stand_ins(players, &stand_ins, seed).map(|draw| draw.games).unwrap_or_default()
    };
    let mut recorded_seed = seed;
    match c.below(16) {
        11 => recorded_seed = seed.wrapping_add(1),
        12 => {
            games.pop();
        }
        13 => {
            if let Some(first) = games.first().cloned() {
                games.push(first);
            }
        }
        14 => {
            if let Some(game) = games.first_mut() {
                std::mem::swap(&mut game.seats.frederick, &mut game.seats.elisabeth);
            }
        }
        15 => {
            if let Some(game) = games.last_mut() {
                game.game = name(c, &["q1-t1", "final"]);
            }
        }
        _ => {}
    }
    Event::QualifyingDrawn { seed: recorded_seed, games }
}

/// The final, seated as the finalists chose once all four have; else four registered players.
fn game_scheduled(c: &mut Choices<'_>, tournament: &TournamentState) -> Event {
    let players = &tournament.registration_order;
    let chosen = |role: Role| tournament.final_roles.get(&role).cloned();
    let seat = |idx: usize| players.get(idx).cloned().unwrap_or_else(|| format!("p{}", idx + 1));
    let offset = c.below(4);
    let mut seats =
        match (chosen(Role::Frederick), chosen(Role::Elisabeth), chosen(Role::MariaTheresa), chosen(Role::Pompadour)) {
            (Some(frederick), Some(elisabeth), Some(maria_theresa), Some(pompadour)) => {
                Seats { frederick, elisabeth, maria_theresa, pompadour }
            }
            _ => Seats {
                frederick: seat(offset),
                elisabeth: seat(offset + 1),
                maria_theresa: seat(offset + 2),
                pompadour: seat(offset + 3),
            },
        };
    if c.one_in(8) {
        seats.pompadour = seats.frederick.clone();
    }
    let (game, stage, round) = match c.below(8) {
        5 => (game_id(1, 1), Stage::Qualifying, 1),
        6 => (name(c, &["final"]), Stage::Final, 5),
        7 => ("..".to_owned(), c.pick(Stage::ALL), c.u32()),
        _ => ("final".to_owned(), Stage::Final, 5),
    };
    Event::GameScheduled { game, stage, round, table: 1, seats }
}

/// A lot among some registered players, in the order its seed gives unless the bytes say not.
fn lot_drawn(c: &mut Choices<'_>, players: &[PlayerId]) -> Event {
    let n_tied = (2 + c.below(3)).min(players.len());
    let start = if players.is_empty() { 0 } else { c.below(players.len().min(256)) };
    let tied: Vec<PlayerId> = players.iter().cycle().skip(start).take(n_tied).cloned().collect();
    let seed = u64::from(c.byte());
    let mut order = lot_order(&tied, seed);
    match c.below(8) {
        5 => order.reverse(),
        6 => order.extend(order.first().cloned()),
        7 => order.push("nobody".into()),
        _ => {}
    }
    Event::LotDrawn { purpose: name(c, &["qualifying 4th", "final seat", "third place"]), seed, order }
}
