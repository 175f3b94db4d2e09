//! Test support shared by every crate's tests (feature `testing`): generators of valid
//! streams for property tests, and the table of refusals from docs/EVENTS.md that both
//! the domain tests and the gRPC tests run.

#![allow(clippy::cloned_ref_to_slice_refs)] // the refusal table reads better with `&[x.clone()]`

use crate::event::{Event, Seats};
use crate::names::{ClockSide, Nation, Outcome, Role, Ruleset, Stage, StopReason};
use crate::rejection::RejectionKind;
use crate::rules::{Offensive, Rules, StreamState};
use crate::stream::StreamId;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Builds a valid game from a list of choices: at each step the candidates the rules accept are
/// listed and one is picked. Every prefix of the result is a valid game stream.
pub fn simulate_game(ruleset: Ruleset, choices: &[u32]) -> Vec<Event> {
    let stream = StreamId::game("sim").expect("valid id");
    let mut state = StreamState::new(&stream, Some(ruleset));
    let mut events = Vec::new();
    let mut clock = 0u64;
    let mut push = |state: &mut StreamState, event: Event| {
        state.apply(&event).expect("simulated events are valid");
        events.push(event);
    };
    push(&mut state, Event::GameStarted { at_ms: 0, ruleset: Some(ruleset), tournament: None });
    for &choice in choices {
        let Rules::Game(game) = state.rules() else { unreachable!() };
        if game.ended.is_some() {
            break;
        }
        clock += u64::from(choice % 90_000);
        let candidates: Vec<Event> =
            candidates(game, clock, choice).into_iter().filter(|e| state.decide(e).is_ok()).collect();
        if candidates.is_empty() {
            continue;
        }
        let idx = usize::try_from(choice / 7).unwrap_or(0) % candidates.len();
        push(&mut state, candidates[idx].clone());
    }
    events
}

fn candidates(game: &crate::rules::GameState, at_ms: u64, choice: u32) -> Vec<Event> {
    let pick = |xs: &[Nation]| xs[usize::try_from(choice).unwrap_or(0) % xs.len()];
    let nation = pick(Nation::ALL);
    let small = i32::try_from(choice % 6).unwrap_or(0);
    let mut out = vec![
        Event::TurnStarted { turn: game.turn + 1, at_ms: Some(at_ms) },
        Event::TcDealt { nation, count: small },
        Event::ClockStarted {
            side: if choice.is_multiple_of(2) { ClockSide::Prussia } else { ClockSide::Attackers },
            at_ms,
        },
        Event::ClockPressed { at_ms },
        Event::ClockStopped { reason: StopReason::ALL[usize::try_from(choice).unwrap_or(0) % 5], at_ms },
        Event::ActionStageStarted { nation, at_ms },
        Event::RetreatStarted { length: choice % 5, at_ms },
        Event::RetreatEnded { at_ms },
        Event::FateCardDrawn { card: format!("card-{}", choice % 18) },
        Event::JuryCalled { reason: "question".into() },
    ];
    if let Some(open) = game.action_stage {
        out.push(Event::ActionStageEnded { nation: open, at_ms });
    }
    // Now and then a jury's correction that names an earlier turn.
    let turn = choice.is_multiple_of(4).then(|| game.turn.saturating_sub(choice % 3).max(1));
    if choice.is_multiple_of(11) {
        out.push(Event::NationDroppedOut {
            nation: pick(&[Nation::Russia, Nation::Sweden, Nation::France]),
            objectives_held: small,
            objectives_total: 10,
            turn,
        });
        out.push(Event::ImperialArmySwitched {
            to: if choice.is_multiple_of(2) { Role::Elisabeth } else { Role::Pompadour },
            objectives_held: small.min(5),
            objectives_total: 5,
            turn,
        });
    }
    if choice.is_multiple_of(13) {
        out.push(Event::OffensiveLaunched { set_aside_tc: 10 + small, turn });
        out.push(Event::AustriaClaimedObjectives { count: 4 });
        out.push(Event::SetAsideTcPickedUp {});
        out.push(Event::OffensiveCalledOff { bohemian_held_by_prussia: small * 2, turn });
    }
    if game.turn >= 3 && choice.is_multiple_of(17) {
        out.push(ending(game, choice));
    }
    out
}

/// A valid `game_ended` for the game as it stands.
fn ending(game: &crate::rules::GameState, choice: u32) -> Event {
    let in_game: Vec<Nation> = Nation::attacking().filter(|n| !game.out.contains_key(n)).collect();
    let objectives: BTreeMap<Nation, (i32, i32)> =
        in_game.iter().map(|&n| (n, (i32::try_from(choice % 9).unwrap_or(0), 10))).collect();
    let active = matches!(game.offensive, Offensive::Active { .. });
    let (outcome, winners) = match choice % 3 {
        0 => (Outcome::PrussianDefensiveVictory, vec![Nation::Prussia]),
        1 if active => (Outcome::PrussianOffensiveVictory, vec![Nation::Prussia]),
        _ => (Outcome::AlliedVictory, in_game.iter().copied().take(1 + (choice as usize / 3) % 2).collect()),
    };
    let bohemian = active.then_some(if outcome == Outcome::PrussianOffensiveVictory { 14 } else { 7 });
    Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia: bohemian }
}

/// The `n`-th event after `game_started` (from 1) of a game as long as a test needs: turns 1
/// to 23 (a game's last, [`crate::rules::MAX_TURNS`]), then, in the last turn, the seven
/// nations' action stages one after the other, a start and an end each, round and round.
/// The filler that tests, the load and the crash programs use where they once counted turns
/// past 23: every event is valid only after the one before it, so a stream of them still checks
/// its order: a double is refused, and a lost event too unless the next one is a stage's start,
/// which the rules accept whenever no stage is open (a whole stage lost, or turn 23 before the
/// first). Turns carry no table time; a stage's is `n` seconds.
pub fn play_event_at(n: u64) -> Event {
    let last_turn = u64::from(crate::rules::MAX_TURNS);
    if n <= last_turn {
        return Event::TurnStarted { turn: u32::try_from(n).unwrap_or(u32::MAX), at_ms: None };
    }
    let k = n - last_turn - 1;
    let nation = Nation::ALL[usize::try_from(k / 2).unwrap_or(0) % Nation::ALL.len()];
    let at_ms = n * 1000;
    if k.is_multiple_of(2) {
        Event::ActionStageStarted { nation, at_ms }
    } else {
        Event::ActionStageEnded { nation, at_ms }
    }
}

/// The `idx`-th event (from 0) of a long cafe2023 game: `game_started`, then
/// [`play_event_at`].
pub fn game_event_at(idx: u64) -> Event {
    match idx {
        0 => Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None },
        n => play_event_at(n),
    }
}

/// Random valid games of any ruleset.
pub fn arb_game() -> impl Strategy<Value = (Ruleset, Vec<Event>)> {
    (prop::sample::select(Ruleset::ALL.to_vec()), prop::collection::vec(any::<u32>(), 0..300))
        .prop_map(|(ruleset, choices)| (ruleset, simulate_game(ruleset, &choices)))
}

/// A valid tournament stream with `n_players` players and a hand-made draw.
pub fn simple_tournament(ruleset: Ruleset, n_players: usize) -> Vec<Event> {
    let mut events = vec![Event::TournamentCreated { name: "Test Open".into(), ruleset, clock_ms_per_side: None }];
    let players: Vec<String> = (1..=n_players).map(|i| format!("p{i}")).collect();
    for p in &players {
        events.push(Event::PlayerRegistered { player: p.clone(), name: format!("Player {p}"), pseudonym: None });
    }
    if let Ok(draw) = crate::draw::draw_qualifying(&players, 7) {
        events.push(draw.to_event());
    }
    if n_players >= 4 {
        events.push(Event::GameScheduled {
            game: "final".into(),
            stage: Stage::Final,
            round: 5,
            table: 1,
            seats: Seats {
                frederick: players[1].clone(),
                elisabeth: players[0].clone(),
                maria_theresa: players[3].clone(),
                pompadour: players[2].clone(),
            },
        });
    }
    events
}

/// One refusal of docs/RULES.md: a stream prepared by `setup`, then `refused`, which the ledger must
/// refuse with `kind` and a message containing `message`.
#[derive(Debug, Clone)]
pub struct RefusalCase {
    pub name: &'static str,
    pub stream: &'static str,
    pub ruleset: Ruleset,
    /// Canonical JSON lines.
    pub setup: Vec<serde_json::Value>,
    pub refused: serde_json::Value,
    pub kind: RejectionKind,
    pub message: &'static str,
}

/// `game_started` and turns 1..=n, with table times.
pub fn started_game(ruleset: Option<Ruleset>, turns: u32) -> Vec<serde_json::Value> {
    let mut lines = vec![match ruleset {
        Some(r) => serde_json::json!({"type": "game_started", "at_ms": 0, "ruleset": r}),
        None => serde_json::json!({"type": "game_started", "at_ms": 0}),
    }];
    lines.extend(
        (1..=turns).map(|t| serde_json::json!({"type": "turn_started", "turn": t, "at_ms": u64::from(t) * 1000})),
    );
    lines
}

/// `tournament` (its `tournament_created`), players p1–p4 and their qualifying draw (seed 1).
fn drawn_four(tournament: &serde_json::Value) -> Vec<serde_json::Value> {
    let players: Vec<String> = (1..=4).map(|i| format!("p{i}")).collect();
    let draw = crate::draw::draw_qualifying(&players, 1).expect("four players draw");
    let mut lines = vec![tournament.clone()];
    lines.extend(players.iter().map(|p| serde_json::json!({"type": "player_registered", "player": p, "name": p})));
    lines.push(crate::event::to_canonical_json(&draw.to_event()));
    lines
}

/// Every refusal listed in docs/EVENTS.md, plus the ones this project added.
pub fn refusal_cases() -> Vec<RefusalCase> {
    use serde_json::json;
    use RejectionKind::{Malformed, Precondition};
    let game = |turns| started_game(Some(Ruleset::Cafe2023), turns);
    let with = |mut base: Vec<serde_json::Value>, more: &[serde_json::Value]| {
        base.extend_from_slice(more);
        base
    };
    let all_objectives =
        json!({"russia": [3, 10], "sweden": [2, 5], "austria": [5, 12], "imperial_army": [1, 5], "france": [4, 10]});
    let russia_out =
        json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10});
    let launched = json!({"type": "offensive_launched", "set_aside_tc": 12});
    let tournament = json!({"type": "tournament_created", "name": "Refusal Open", "ruleset": "cafe2023"});
    let andes_started = vec![
        json!({"type": "match_created", "first_sol": "ana", "first_luna": "bruno", "clock_ms": 720_000}),
        json!({"type": "game_started", "game": 1, "at_ms": 0}),
    ];
    let case = |name, setup, refused, kind, message| RefusalCase {
        name,
        stream: "game/refusal",
        ruleset: Ruleset::Cafe2023,
        setup,
        refused,
        kind,
        message,
    };
    vec![
        case("event before game_started", vec![], json!({"type": "turn_started", "turn": 1}), Precondition,
            "the game has not started: game_started comes before turn_started"),
        case("second game_started", game(0), json!({"type": "game_started", "at_ms": 5}), Precondition,
            "the game has already started"),
        case("event after game_ended",
            with(game(2), &[json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["prussia"], "objectives": all_objectives})]),
            json!({"type": "tc_dealt", "nation": "austria", "count": 2}), Precondition,
            "the game ended in turn 2 (prussian_defensive_victory); only the jury may record events now, not tc_dealt"),
        case("turn that skips", game(2), json!({"type": "turn_started", "turn": 4}), Precondition,
            "turn_started 4 skips a turn: turn 3 comes next"),
        case("turn that repeats", game(2), json!({"type": "turn_started", "turn": 2}), Precondition,
            "turn_started 2 repeats a turn: turn 3 comes next"),
        case("at_ms going backwards", game(2), json!({"type": "clock_started", "side": "prussia", "at_ms": 1500}), Precondition,
            "at_ms 1500 goes back in time: the table clock already read 2000"),
        case("unknown nation", game(1), json!({"type": "tc_dealt", "nation": "spain", "count": 1}), Malformed,
            "unknown value `spain`"),
        case("nation already out", with(game(11), &[russia_out.clone()]), json!({"type": "tc_dealt", "nation": "russia", "count": 2}), Precondition,
            "russia already dropped out in turn 11"),
        case("nation dropping out twice", with(game(11), &[russia_out.clone()]), russia_out.clone(), Precondition,
            "russia already dropped out in turn 11"),
        case("action stage of a nation no longer in the game", with(game(11), &[russia_out.clone()]),
            json!({"type": "action_stage_started", "nation": "russia", "at_ms": 11_500}), Precondition,
            "russia already dropped out in turn 11"),
        case("nation that cannot drop out", game(3),
            json!({"type": "nation_dropped_out", "nation": "austria", "objectives_held": 1, "objectives_total": 12}), Precondition,
            "austria cannot drop out: only russia, sweden and france leave by a Card of Fate"),
        case("nation event before the first turn", game(0), russia_out.clone(), Precondition,
            "no turn has started yet: turn_started 1 comes first"),
        case("objectives held below 0", game(3),
            json!({"type": "nation_dropped_out", "nation": "france", "objectives_held": -1, "objectives_total": 10}), Malformed,
            "objectives held must be between 0 and the total 10, got -1"),
        case("objectives held above total", game(3),
            json!({"type": "imperial_army_switched", "to": "elisabeth", "objectives_held": 6, "objectives_total": 5}), Malformed,
            "objectives held must be between 0 and the total 5, got 6"),
        case("objectives total of 0", game(3),
            json!({"type": "nation_dropped_out", "nation": "sweden", "objectives_held": 0, "objectives_total": 0}), Malformed,
            "objectives total must be more than 0, got 0"),
        case("negative tc count", game(1), json!({"type": "tc_dealt", "nation": "prussia", "count": -2}), Malformed,
            "tc_dealt count must not be negative, got -2"),
        case("deals adding up past a deal", with(game(1), &[json!({"type": "tc_dealt", "nation": "austria", "count": 5})]),
            json!({"type": "tc_dealt", "nation": "austria", "count": 3}), Precondition,
            "austria was dealt 5 tactical cards in turn 1 already; 3 more is more than a deal: at most 7 a turn"),
        case("tc count above any deal", game(1), json!({"type": "tc_dealt", "nation": "prussia", "count": 70}), Malformed,
            "tc_dealt count 70 is more than a nation is dealt in one turn: at most 7"),
        case("second offensive_launched", with(game(2), &[launched.clone()]), json!({"type": "offensive_launched", "set_aside_tc": 11}), Precondition,
            "the prussian offensive was already launched in turn 2"),
        case("offensive launched again after a call-off",
            with(game(2), &[launched.clone(), json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 3})]),
            launched.clone(), Precondition, "the prussian offensive was already launched in turn 2"),
        case("call-off without an offensive", game(2), json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 3}), Precondition,
            "the offensive can be called off only during a prussian offensive, and none was launched"),
        case("austria claims without an offensive", game(2), json!({"type": "austria_claimed_objectives", "count": 4}), Precondition,
            "austria can claim objectives only during a prussian offensive, and none was launched"),
        case("picking up the set-aside card without an offensive", game(2), json!({"type": "set_aside_tc_picked_up"}), Precondition,
            "the set-aside tactical card can be picked up only during a prussian offensive, and none was launched"),
        case("picking up the set-aside card twice", with(game(3), &[launched.clone(), json!({"type": "set_aside_tc_picked_up"})]),
            json!({"type": "set_aside_tc_picked_up"}), Precondition, "the set-aside tactical card was already picked up"),
        // "in turn 3" (CAFE 2019 and 2023, offensive option) read as the earliest turn.
        case("picking up the set-aside card before turn 3", with(game(2), &[launched.clone()]),
            json!({"type": "set_aside_tc_picked_up"}), Precondition,
            "the set-aside tactical card can be picked up from turn 3 on, and the game is in turn 2"),
        // Frederick's maximum, 23/2 = 11.5 points: a game has at most 23 turns.
        case("a turn past the 23rd", game(23), json!({"type": "turn_started", "turn": 24}), Precondition,
            "turn_started 24 is past the last turn: a game has at most 23 turns (Frederick's maximum of 23/2 = 11.5 points)"),
        case("a mistyped turn far past the 23rd", game(2), json!({"type": "turn_started", "turn": 30}), Precondition,
            "turn_started 30 is past the last turn: a game has at most 23 turns"),
        case("claiming after the call-off",
            with(game(4), &[launched.clone(), json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 3})]),
            json!({"type": "austria_claimed_objectives", "count": 4}), Precondition,
            "austria can claim objectives only during a prussian offensive, and it was called off in turn 4"),
        case("bohemian objectives above 14", with(game(2), &[launched.clone()]),
            json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 15}), Malformed,
            "bohemian_held_by_prussia must be between 0 and 14, got 15"),
        case("bohemian objectives below 0", with(game(2), &[launched.clone()]),
            json!({"type": "offensive_called_off", "bohemian_held_by_prussia": -1}), Malformed,
            "bohemian_held_by_prussia must be between 0 and 14, got -1"),
        RefusalCase {
            ruleset: Ruleset::Cafe2019,
            ..case("cafe2019 set-aside card below 10", started_game(Some(Ruleset::Cafe2019), 1),
                json!({"type": "offensive_launched", "set_aside_tc": 9}), Precondition,
                "cafe2019: the tactical card set aside for the offensive must be worth at least 10, got 9")
        },
        case("imperial army switched to its controller",
            with(game(5), &[json!({"type": "imperial_army_switched", "to": "elisabeth", "objectives_held": 2, "objectives_total": 5})]),
            json!({"type": "imperial_army_switched", "to": "elisabeth", "objectives_held": 2, "objectives_total": 5}), Precondition,
            "the imperial army is already controlled by elisabeth"),
        case("prussian victory with attacking winners", game(3),
            json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["russia"], "objectives": all_objectives}), Precondition,
            "a prussian_defensive_victory has prussia as its only winner, not [russia]"),
        case("allied victory without a winner", game(3),
            json!({"type": "game_ended", "outcome": "allied_victory", "winners": [], "objectives": all_objectives}), Precondition,
            "an allied_victory needs at least one attacking winner"),
        case("allied victory won by a nation already out", with(game(11), &[russia_out.clone()]),
            json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["russia"],
                   "objectives": {"sweden": [2, 5], "austria": [5, 12], "imperial_army": [1, 5], "france": [4, 10]}}), Precondition,
            "winner: russia already dropped out in turn 11"),
        case("game end missing a nation's objectives", game(3),
            json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["france"], "objectives": {"france": [10, 10]}}), Precondition,
            "game_ended must report the objectives of russia, still in the game"),
        case("game end while the offensive is active without bohemian count", with(game(3), &[launched.clone()]),
            json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["russia"], "objectives": all_objectives}), Precondition,
            "the prussian offensive is still active: game_ended must give bohemian_held_by_prussia"),
        case("correction recorded for a turn still to come", game(13),
            json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10, "turn": 14}), Precondition,
            "nation_dropped_out is recorded for turn 14, but the game is in turn 13"),
        case("correction recorded for turn 0", game(3),
            json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10, "turn": 0}), Malformed,
            "turns start at 1"),
        case("call-off corrected to before the launch", with(game(6), &[json!({"type": "offensive_launched", "set_aside_tc": 12, "turn": 4})]),
            json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 3, "turn": 3}), Precondition,
            "the offensive cannot be called off in turn 3: it was launched in turn 4"),
        case("a second fate horizon", with(game(3), &[json!({"type": "fate_horizon_recorded", "turn": 20})]),
            json!({"type": "fate_horizon_recorded", "turn": 18}), Precondition,
            "the fate horizon was already recorded (turn 20); void it to record another"),
        case("clock press while no clock runs", game(1), json!({"type": "clock_pressed", "at_ms": 1200}), Precondition,
            "no clock is running to press"),
        case("action stage ended that was not started", game(1),
            json!({"type": "action_stage_ended", "nation": "sweden", "at_ms": 1200}), Precondition,
            "the action stage of sweden was not started"),
        case("tournament event in a game stream", game(1),
            json!({"type": "player_registered", "player": "p1", "name": "Ann"}), Malformed,
            "player_registered belongs in a tournament stream, not a game stream"),
        case("voiding an event whose absence breaks the stream", game(3), json!({"type": "event_voided", "seq": 2, "reason": "typo"}), Precondition,
            "voiding event 2 (turn_started) would leave event 3 invalid: turn_started 2 skips a turn: turn 1 comes next"),
        // The jury is called to a game in progress (or over), never to one not yet started.
        case("jury called before game_started", vec![], json!({"type": "jury_called", "reason": "who sits where?"}), Precondition,
            "the game has not started: game_started comes before jury_called"),
        case("jury ruling before game_started", vec![], json!({"type": "jury_ruling", "text": "frederick sits north"}), Precondition,
            "the game has not started: game_started comes before jury_ruling"),
        // Hostile free text: no control characters (terminal escapes, forged lines), no blank
        // reasons, bounded lengths (docs/DECISIONS.md, "Interfaces").
        case("terminal escape in a jury_called reason", game(1),
            json!({"type": "jury_called", "reason": "ok\u{1b}[2J\u{1b}[Hall clear"}), Malformed,
            "jury_called.reason must not contain control characters: found U+001B at character 3"),
        case("forged line in a jury ruling", game(1),
            json!({"type": "jury_ruling", "text": "russia keeps 7\rgame/x  #99  jury-anna  event_voided seq=1"}), Malformed,
            "jury_ruling.text must not contain control characters: found U+000D at character 15"),
        case("carriage return in a void's reason", game(3),
            json!({"type": "event_voided", "seq": 2, "reason": "typo\rapproved"}), Malformed,
            "event_voided.reason must not contain control characters: found U+000D at character 5"),
        case("tab in a fate card", game(1), json!({"type": "fate_card_drawn", "card": "elisabeth\tdies"}), Malformed,
            "fate_card_drawn.card must not contain control characters: found U+0009 at character 10"),
        case("DEL in a jury_called reason", game(1), json!({"type": "jury_called", "reason": "a\u{7f}b"}), Malformed,
            "jury_called.reason must not contain control characters: found U+007F at character 2"),
        case("C1 control in a jury ruling", game(1), json!({"type": "jury_ruling", "text": "x\u{9b}2J"}), Malformed,
            "jury_ruling.text must not contain control characters: found U+009B at character 2"),
        case("control character in game_started's tournament", vec![],
            json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023", "tournament": "open\u{0}26"}), Malformed,
            "game_started.tournament must not contain control characters: found U+0000 at character 5"),
        case("blank jury_called reason", game(1), json!({"type": "jury_called", "reason": " \u{3000} "}), Malformed,
            "jury_called.reason must not be blank"),
        case("empty jury ruling", game(1), json!({"type": "jury_ruling", "text": ""}), Malformed,
            "jury_ruling.text must not be blank"),
        case("blank void reason", game(3), json!({"type": "event_voided", "seq": 2, "reason": "   "}), Malformed,
            "event_voided.reason must not be blank"),
        case("jury ruling over 2000 characters", game(1), json!({"type": "jury_ruling", "text": "a".repeat(2001)}), Malformed,
            "jury_ruling.text is 2001 characters long; at most 2000 are allowed"),
        case("fate card name over 200 characters", game(1), json!({"type": "fate_card_drawn", "card": "é".repeat(201)}), Malformed,
            "fate_card_drawn.card is 201 characters long; at most 200 are allowed"),
        RefusalCase {
            stream: "tournament/refusal",
            ..case("jury called to a tournament not yet created", vec![],
                json!({"type": "jury_called", "reason": "who registers?"}), Precondition,
                "the tournament has not been created: tournament_created comes before jury_called")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("control character in a tournament name", vec![],
                json!({"type": "tournament_created", "name": "Open\u{1b}]0;pwned\u{7}", "ruleset": "cafe2023"}), Malformed,
                "tournament_created.name must not contain control characters: found U+001B at character 5")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("player name over 200 characters", vec![tournament.clone()],
                json!({"type": "player_registered", "player": "p1", "name": "n".repeat(201)}), Malformed,
                "player_registered.name is 201 characters long; at most 200 are allowed")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("line break in a pseudonym", vec![tournament.clone()],
                json!({"type": "player_registered", "player": "p1", "name": "Ann", "pseudonym": "A\nB"}), Malformed,
                "player_registered.pseudonym must not contain control characters: found U+000A at character 2")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("control character in a seat", vec![tournament.clone()],
                json!({"type": "game_scheduled", "game": "final", "stage": "final", "round": 5, "table": 1,
                       "seats": {"frederick": "p1\u{1b}", "elisabeth": "p2", "maria_theresa": "p3", "pompadour": "p4"}}), Malformed,
                "game_scheduled.seats.frederick must not contain control characters: found U+001B at character 3")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("control character in a lot's order", vec![tournament.clone()],
                json!({"type": "lot_drawn", "purpose": "3rd place", "seed": 1, "order": ["p1", "p\u{85}2"]}), Malformed,
                "lot_drawn.order[1] must not contain control characters: found U+0085 at character 2")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a stand-in under a player's id", vec![tournament.clone(), json!({"type": "player_registered", "player": "p1", "name": "Ann"})],
                json!({"type": "stand_in_registered", "player": "p1", "name": "Richard"}), Precondition,
                "player p1 is already registered as Ann")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a player under a stand-in's id", vec![tournament.clone(), json!({"type": "stand_in_registered", "player": "designer", "name": "Richard"})],
                json!({"type": "player_registered", "player": "designer", "name": "Ann"}), Precondition,
                "designer is already registered as a stand-in (Richard)")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a stand-in chooses a final role", vec![tournament.clone(), json!({"type": "stand_in_registered", "player": "designer", "name": "Richard"})],
                json!({"type": "final_role_chosen", "player": "designer", "role": "pompadour"}), Precondition,
                "designer is a stand-in: stand-ins are not ranked and never reach the final")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("blank stand-in name", vec![tournament.clone()],
                json!({"type": "stand_in_registered", "player": "designer", "name": " "}), Malformed,
                "stand_in_registered.name must not be blank")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a stand-in withdraws", vec![tournament.clone(), json!({"type": "stand_in_registered", "player": "designer", "name": "Richard"})],
                json!({"type": "player_withdrew", "player": "designer", "from_round": 2}), Precondition,
                "designer is a stand-in: stand-ins are not ranked and never reach the final")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a withdrawal from round 0", vec![tournament.clone(), json!({"type": "player_registered", "player": "p1", "name": "Ann"})],
                json!({"type": "player_withdrew", "player": "p1", "from_round": 0}), Malformed,
                "player_withdrew.from_round starts at 1")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a withdrawal before the draw", vec![tournament.clone(), json!({"type": "player_registered", "player": "p1", "name": "Ann"})],
                json!({"type": "player_withdrew", "player": "p1", "from_round": 1}), Precondition,
                "p1 cannot withdraw before the qualifying draw, which seats every registered player: \
                 the organiser unregisters p1 instead (player_unregistered)")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a second withdrawal", with(drawn_four(&tournament), &[json!({"type": "player_withdrew", "player": "p1", "from_round": 5})]),
                json!({"type": "player_withdrew", "player": "p1", "from_round": 3}), Precondition,
                "p1 already withdrew (from round 5)")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a withdrawal naming a stand-in with no seat to take",
                with(drawn_four(&tournament), &[json!({"type": "stand_in_registered", "player": "designer", "name": "Richard"})]),
                json!({"type": "player_withdrew", "player": "p1", "from_round": 5, "stand_in": "designer"}), Precondition,
                "p1 has no qualifying game from round 5 on: no stand-in takes a seat")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a direction override in a pseudonym", vec![tournament.clone()],
                json!({"type": "player_registered", "player": "p1", "name": "Ann", "pseudonym": "Fox\u{202E}xoF"}), Malformed,
                "player_registered.pseudonym must not contain characters that change the text's direction: found U+202E at character 4")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("a pseudonym another player has", with(vec![tournament.clone()], &[json!({"type": "player_registered", "player": "p1", "name": "Ann", "pseudonym": "Zorro"})]),
                json!({"type": "player_registered", "player": "p2", "name": "Bea", "pseudonym": " zorro "}), Precondition,
                "the pseudonym Zorro is already p1's in this tournament: choose another")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("unregistering someone not registered", vec![tournament.clone()],
                json!({"type": "player_unregistered", "player": "p9"}), Precondition,
                "p9 is not registered")
        },
        RefusalCase {
            stream: "tournament/refusal",
            ..case("unregistering after the draw", drawn_four(&tournament),
                json!({"type": "player_unregistered", "player": "p1"}), Precondition,
                // The gRPC test names the draw's games after its tournament: the tail is the same.
                "q1-t1: after the draw a registration stays; p1 withdraws instead")
        },
        case("a table time past any clock", game(1),
            json!({"type": "clock_started", "side": "prussia", "at_ms": u64::MAX}), Malformed,
            "at_ms 18446744073709551615 is past any table clock: at most 9007199254740991 (2^53 - 1) milliseconds"),
        case("a table clock leaping more than a day", game(1),
            json!({"type": "clock_started", "side": "prussia", "at_ms": 90_001_000u64}), Precondition,
            "at_ms 90001000 leaps 25 hours past the table clock's last reading 1000: a game's table time moves on by at most 24 hours at once"),
        // Andes (docs/ANDES.md): every refusal names its article.
        RefusalCase {
            stream: "andes/refusal",
            ..case("andes: sol's first move on an island", andes_started.clone(),
                json!({"type": "move_played", "notation": "0a0", "at_ms": 1000}), Precondition,
                "article 3.4: sol's first move places a persona on the continent, and a0 is island")
        },
        RefusalCase {
            stream: "andes/refusal",
            ..case("andes: a move that is not notation", andes_started.clone(),
                json!({"type": "move_played", "notation": "4d3", "at_ms": 1000}), Malformed,
                "article 6.6.1: `4d3` does not start with a piece digit")
        },
        RefusalCase {
            stream: "andes/refusal",
            ..case("andes: a friedrich event in an andes stream", andes_started.clone(),
                json!({"type": "clock_pressed", "at_ms": 1000}), Malformed,
                "clock_pressed belongs in a game stream, not an andes stream")
        },
        case("andes: an andes event in a game stream", game(1),
            json!({"type": "resigned", "side": "sol", "at_ms": 1200}), Malformed,
            "resigned belongs in an andes stream, not a game stream"),
    ]
}
