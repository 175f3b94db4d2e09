//! The chess clock and stopwatch of spec §9, docs/RULES.md on hand-made games: a side running out,
//! stopwatch allowances, unused time passed from a player's first nation to the second (and
//! wm2015's narrower rule), retreats, and the clock stopped. Every stream is first checked by
//! the ledger's rules, so the fixtures are games the ledger would accept.

use ledger::event::from_canonical_json;
use ledger::{ClockSide, Nation, Ruleset, StopReason, StreamId, StreamState};
use proptest::prelude::*;
use replay::clock::{ClockFold, ClockView, Overrun, TimeRanOut, Timed};
use serde_json::{json, Value};

/// Folds canonical JSON lines after the ledger accepted each; returns the fold.
fn fold(ruleset: Ruleset, ms_per_side: u64, lines: &[Value]) -> ClockFold {
    let stream = StreamId::game("clock-test").unwrap();
    let mut state = StreamState::new(&stream, Some(ruleset));
    let mut fold = ClockFold::new(ruleset, ms_per_side);
    for (i, line) in lines.iter().enumerate() {
        let event = from_canonical_json(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        state.apply(&event).unwrap_or_else(|r| panic!("line {} refused: {r:?}", i + 1));
        fold.apply(u64::try_from(i + 1).unwrap(), &event);
    }
    fold
}

fn begin(ruleset: Ruleset) -> Vec<Value> {
    vec![json!({"type": "game_started", "at_ms": 0, "ruleset": ruleset})]
}
fn turn(turn: u32, at_ms: u64) -> Value {
    json!({"type": "turn_started", "turn": turn, "at_ms": at_ms})
}
fn start(side: &str, at_ms: u64) -> Value {
    json!({"type": "clock_started", "side": side, "at_ms": at_ms})
}
fn press(at_ms: u64) -> Value {
    json!({"type": "clock_pressed", "at_ms": at_ms})
}
fn stop(reason: &str, at_ms: u64) -> Value {
    json!({"type": "clock_stopped", "reason": reason, "at_ms": at_ms})
}
fn stage_start(nation: &str, at_ms: u64) -> Value {
    json!({"type": "action_stage_started", "nation": nation, "at_ms": at_ms})
}
fn stage_end(nation: &str, at_ms: u64) -> Value {
    json!({"type": "action_stage_ended", "nation": nation, "at_ms": at_ms})
}
/// A whole action stage with the clock running throughout.
fn stage(nation: &str, from: u64, to: u64) -> [Value; 2] {
    [stage_start(nation, from), stage_end(nation, to)]
}
fn retreat(length: u32, at_ms: u64) -> Value {
    json!({"type": "retreat_started", "length": length, "at_ms": at_ms})
}
fn retreat_end(at_ms: u64) -> Value {
    json!({"type": "retreat_ended", "at_ms": at_ms})
}
fn switch_imperial_army(to: &str) -> Value {
    json!({"type": "imperial_army_switched", "to": to, "objectives_held": 1, "objectives_total": 5})
}

/// Turn 1 uses up the attackers' `ms_per_side` = 1 s, so turn 2 (from 10 s) is on the stopwatch.
fn attackers_out_of_time(ruleset: Ruleset) -> Vec<Value> {
    let mut lines = begin(ruleset);
    lines.extend([turn(1, 0), start("attackers", 0), stop("turn_end", 2_000), turn(2, 10_000)]);
    lines
}

fn overrun(view: &ClockView, nation: Nation) -> Vec<&Overrun> {
    view.overruns.iter().filter(|o| o.nation == Some(nation)).collect()
}

#[test]
fn a_side_runs_out_and_the_stage_it_ran_out_in_is_not_timed() {
    let mut lines = begin(Ruleset::Cafe2023);
    lines.extend([turn(1, 0), start("prussia", 0)]);
    lines.extend(stage("prussia", 0, 60_000));
    lines.extend(stage("hanover", 60_000, 130_000));
    lines.push(press(130_000));
    let running = fold(Ruleset::Cafe2023, 100_000, &lines);

    let view = running.view(None);
    assert_eq!(view.prussia.remaining_ms, 0);
    assert_eq!(view.prussia.used_ms, 130_000);
    assert!(view.prussia.on_stopwatch);
    assert_eq!(view.prussia.ran_out, Some(TimeRanOut { at_ms: 100_000, turn: 1 }));
    assert_eq!(view.attackers.remaining_ms, 100_000);
    assert_eq!(view.running, Some(ClockSide::Attackers));
    assert!(view.overruns.is_empty(), "hanover started before the time ran out: {:?}", view.overruns);

    let live = running.view(Some(145_000));
    assert_eq!(live.at_ms, Some(145_000));
    assert_eq!(live.attackers.remaining_ms, 85_000, "the running side's clock is carried forward");
    assert_eq!(live.prussia.used_ms, 130_000);

    lines.extend([stop("turn_end", 150_000), turn(2, 150_000)]);
    let stopped = fold(Ruleset::Cafe2023, 100_000, &lines);
    let view = stopped.view(Some(170_000));
    assert_eq!(view.attackers.remaining_ms, 80_000);
    assert_eq!(view.running, None);
    assert_eq!(view.stopped_for, Some(StopReason::TurnEnd));
    assert_eq!(view.stopped_ms[&StopReason::TurnEnd], 20_000, "an open stop is carried forward too");
    assert_eq!(stopped.view(None).stopped_ms[&StopReason::TurnEnd], 0);
}

#[test]
fn stopwatch_allowances_and_prussia_passing_unused_time_to_hanover() {
    let mut lines = begin(Ruleset::Cafe2023);
    lines.extend([turn(1, 0), start("prussia", 0), stop("turn_end", 1_000), turn(2, 10_000)]);
    // Turn 2: Prussia uses 100 s of 150, Hanover gets 30 + 50 and uses 90.
    lines.push(start("prussia", 10_000));
    lines.extend(stage("prussia", 10_000, 110_000));
    lines.extend(stage("hanover", 110_000, 200_000));
    lines.extend([press(200_000), stop("turn_end", 201_000), turn(3, 300_000), start("prussia", 300_000)]);
    // Turn 3: Prussia 160 s (10 s over), nothing left for Hanover, which stays within 30 s.
    lines.extend(stage("prussia", 300_000, 460_000));
    lines.extend(stage("hanover", 460_000, 485_000));
    lines.push(stage_start("prussia", 485_000));
    let fold = fold(Ruleset::Cafe2023, 1_000, &lines);
    let view = fold.view(None);

    let hanover = overrun(&view, Nation::Hanover);
    assert_eq!(hanover.len(), 1, "{:?}", view.overruns);
    let h = hanover[0];
    assert_eq!(
        (h.turn, h.allowance_ms, h.transferred_ms, h.used_ms, h.overrun_ms),
        (2, 30_000, 50_000, 90_000, 10_000)
    );
    assert_eq!((h.timed, h.side, h.retreat_length, h.seq), (Timed::ActionStage, ClockSide::Prussia, None, 10));

    let prussia = overrun(&view, Nation::Prussia);
    assert_eq!(prussia.len(), 1);
    let p = prussia[0];
    assert_eq!((p.turn, p.allowance_ms, p.transferred_ms, p.used_ms, p.overrun_ms), (3, 150_000, 0, 160_000, 10_000));

    // A stage under way: the live view shows what is left of its allowance.
    let live = fold.view(Some(585_000));
    assert_eq!(live.stopwatch.len(), 1);
    let watch = &live.stopwatch[0];
    assert_eq!(
        (watch.nation, watch.used_ms, watch.left_ms, watch.overrun_ms),
        (Some(Nation::Prussia), 100_000, 50_000, 0)
    );
    assert_eq!(fold.view(Some(645_000)).stopwatch[0].overrun_ms, 10_000);
}

/// Turn 2 of a game where the Imperial Army went to Pompadour in turn 1: Russia leaves 20 s to
/// Sweden; Austria is Maria Theresa's only nation; the Imperial Army acts before France.
fn imperial_army_with_pompadour(ruleset: Ruleset) -> ClockView {
    let mut lines = attackers_out_of_time(ruleset);
    lines.insert(2, switch_imperial_army("pompadour"));
    lines.push(start("attackers", 10_000));
    lines.extend(stage("russia", 10_000, 50_000));
    lines.extend(stage("sweden", 50_000, 85_000));
    lines.extend(stage("austria", 85_000, 115_000));
    lines.extend(stage("imperial_army", 115_000, 120_000));
    lines.extend(stage("france", 120_000, 190_000));
    fold(ruleset, 1_000, &lines).view(None)
}

#[test]
fn unused_time_passes_to_the_players_second_nation_in_cafe() {
    let view = imperial_army_with_pompadour(Ruleset::Cafe2023);
    assert!(view.overruns.is_empty(), "sweden has 20 + 20 s, france 60 + 15 s: {:?}", view.overruns);
    let view = imperial_army_with_pompadour(Ruleset::Cafe2019);
    assert!(view.overruns.is_empty(), "{:?}", view.overruns);
}

#[test]
fn wm2015_passes_time_only_prussia_to_hanover_russia_to_sweden_austria_to_imperial_army() {
    let view = imperial_army_with_pompadour(Ruleset::Wm2015);
    assert!(overrun(&view, Nation::Sweden).is_empty(), "russia to sweden is allowed");
    let france = overrun(&view, Nation::France);
    assert_eq!(france.len(), 1, "imperial army to france is not: {:?}", view.overruns);
    assert_eq!((france[0].transferred_ms, france[0].used_ms, france[0].overrun_ms), (0, 70_000, 10_000));

    // With Maria Theresa still leading both, Austria's unused 30 s go to the Imperial Army.
    let mut lines = attackers_out_of_time(Ruleset::Wm2015);
    lines.push(start("attackers", 10_000));
    lines.extend(stage("austria", 10_000, 40_000));
    lines.extend(stage("imperial_army", 40_000, 80_000));
    let view = fold(Ruleset::Wm2015, 1_000, &lines).view(None);
    assert!(view.overruns.is_empty(), "{:?}", view.overruns);
}

#[test]
fn a_third_nation_gets_nothing_and_unused_time_does_not_carry_into_the_next_turn() {
    let mut lines = attackers_out_of_time(Ruleset::Cafe2023);
    lines.insert(2, switch_imperial_army("elisabeth"));
    lines.push(start("attackers", 10_000));
    lines.extend(stage("russia", 10_000, 50_000));
    lines.extend(stage("sweden", 50_000, 70_000));
    lines.extend(stage("imperial_army", 70_000, 95_000));
    lines.extend([stop("turn_end", 95_000), turn(3, 100_000), start("attackers", 100_000)]);
    lines.extend(stage("sweden", 100_000, 130_000));
    let view = fold(Ruleset::Cafe2023, 1_000, &lines).view(None);
    let imperial = overrun(&view, Nation::ImperialArmy);
    assert_eq!(imperial.len(), 1, "{:?}", view.overruns);
    assert_eq!((imperial[0].transferred_ms, imperial[0].overrun_ms), (0, 5_000));
    let sweden = overrun(&view, Nation::Sweden);
    assert_eq!(sweden.len(), 1, "turn 3: sweden is elisabeth's first nation: {:?}", view.overruns);
    assert_eq!((sweden[0].turn, sweden[0].transferred_ms, sweden[0].overrun_ms), (3, 0, 10_000));
}

#[test]
fn retreats_on_the_stopwatch_get_3_s_plus_1_s_per_length_apart_from_the_stage() {
    let mut lines = attackers_out_of_time(Ruleset::Cafe2023);
    lines.extend([start("attackers", 10_000), stage_start("austria", 10_000)]);
    // Austria wins a combat and takes 7 s for a retreat of length 3 (allowance 6 s).
    lines.extend([stop("combat", 20_000), start("attackers", 30_000), retreat(3, 30_000), retreat_end(37_000)]);
    // Austria loses a combat: Frederick (still on the clock) chooses, untimed.
    lines.extend([stop("combat", 50_000), retreat(2, 60_000), start("prussia", 60_000), retreat_end(80_000)]);
    lines.extend([press(80_000), stage_end("austria", 100_000)]);
    let view = fold(Ruleset::Cafe2023, 1_000, &lines).view(None);

    assert_eq!(view.overruns.len(), 1, "{:?}", view.overruns);
    let o = &view.overruns[0];
    assert_eq!(o.timed, Timed::Retreat);
    assert_eq!((o.nation, o.side, o.retreat_length), (Some(Nation::Austria), ClockSide::Attackers, Some(3)));
    assert_eq!((o.allowance_ms, o.used_ms, o.overrun_ms, o.seq), (6_000, 7_000, 1_000, 11));
    // Austria's stage: 10 + 13 + 20 s of her own time = 43 s of 60; without taking out the
    // retreat it would be 50 s, and the combats and Frederick's retreat are not hers.
    assert_eq!(view.prussia.used_ms, 20_000);
    assert_eq!(view.stopped_ms[&StopReason::Combat], 20_000);

    // The same retreat chosen before the time ran out is not timed.
    let mut lines = begin(Ruleset::Cafe2023);
    lines.extend([turn(1, 0), start("attackers", 0), retreat(0, 1_000), retreat_end(60_000)]);
    assert!(fold(Ruleset::Cafe2023, 100_000, &lines).view(None).overruns.is_empty());
}

#[test]
fn time_the_clock_is_stopped_counts_by_reason_and_not_on_the_stopwatch() {
    let mut lines = attackers_out_of_time(Ruleset::Cafe2019);
    lines.extend([start("attackers", 10_000), stage_start("russia", 10_000)]);
    lines.extend([stop("jury", 40_000), start("attackers", 160_000)]);
    lines.extend([stop("discussion", 170_000), start("attackers", 200_000)]);
    lines.extend([stop("break", 210_000)]);
    let paused = fold(Ruleset::Cafe2019, 1_000, &lines);
    let view = paused.view(Some(250_000));
    assert_eq!(view.stopped_ms[&StopReason::Jury], 120_000);
    assert_eq!(view.stopped_ms[&StopReason::Discussion], 30_000);
    assert_eq!(view.stopped_ms[&StopReason::Break], 40_000);
    assert_eq!(view.stopped_ms[&StopReason::Combat], 0);
    assert_eq!(view.stopped_ms[&StopReason::TurnEnd], 8_000, "from turn 1");
    assert_eq!(view.stopwatch[0].used_ms, 50_000, "russia's clock ran 30 + 10 + 10 s");
    assert_eq!(view.attackers.used_ms, 2_000 + 50_000);

    lines.extend([start("attackers", 300_000), stage_end("russia", 305_000)]);
    let view = fold(Ruleset::Cafe2019, 1_000, &lines).view(None);
    assert!(view.overruns.is_empty(), "55 s of 60: {:?}", view.overruns);
}

#[test]
fn the_game_end_closes_an_open_stage_and_freezes_the_clocks() {
    let mut lines = attackers_out_of_time(Ruleset::Cafe2023);
    lines.extend([start("attackers", 10_000), stage_start("france", 10_000), press(100_000)]);
    lines.push(json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["france"],
        "objectives": {"russia": [1, 10], "sweden": [1, 5], "austria": [1, 12], "imperial_army": [1, 5], "france": [10, 10]}}));
    let fold = fold(Ruleset::Cafe2023, 1_000, &lines);
    let view = fold.view(Some(500_000));
    assert_eq!(view, fold.view(None), "nothing runs after the end");
    assert!(view.game_ended);
    assert_eq!(view.running, None);
    assert_eq!(view.at_ms, Some(100_000));
    let france = overrun(&view, Nation::France);
    assert_eq!((france.len(), france[0].overrun_ms, france[0].seq), (1, 30_000, 9));
}

#[test]
fn the_view_is_plain_json_and_back() {
    let mut lines = attackers_out_of_time(Ruleset::Wm2015);
    lines.extend([start("attackers", 10_000)]);
    lines.extend(stage("france", 10_000, 80_000));
    lines.push(stage_start("russia", 80_000));
    let view = fold(Ruleset::Wm2015, 1_000, &lines).view(Some(90_000));
    let value = serde_json::to_value(&view).unwrap();
    assert_eq!(value["attackers"]["ran_out"], json!({"at_ms": 1_000, "turn": 1}));
    assert_eq!(value["stopped_ms"]["turn_end"], json!(8_000));
    assert_eq!(value["overruns"][0]["nation"], json!("france"));
    assert_eq!(value["overruns"][0]["timed"], json!("action_stage"));
    assert_eq!(value["stopwatch"][0]["left_ms"], json!(50_000));
    assert_eq!(serde_json::from_value::<ClockView>(value).unwrap(), view);
}

proptest! {
    /// On any valid game: no time is counted twice, and the clocks add up.
    #[test]
    fn clocks_add_up_on_any_game((ruleset, events) in ledger::testing::arb_game(), per_side in 0u64..200_000) {
        let mut fold = ClockFold::new(ruleset, per_side);
        for (i, event) in events.iter().enumerate() {
            fold.apply(u64::try_from(i + 1).unwrap(), event);
        }
        let view = fold.view(None);
        let last = events.iter().filter_map(ledger::Event::at_ms).max().unwrap_or(0);
        let stopped: u64 = view.stopped_ms.values().sum();
        prop_assert!(view.prussia.used_ms + view.attackers.used_ms + stopped <= last);
        for side in [&view.prussia, &view.attackers] {
            prop_assert_eq!(side.remaining_ms + side.used_ms.min(per_side), per_side);
            prop_assert_eq!(side.on_stopwatch, side.remaining_ms == 0);
        }
        for o in &view.overruns {
            prop_assert_eq!(o.used_ms, o.allowance_ms + o.transferred_ms + o.overrun_ms);
        }
    }
}
