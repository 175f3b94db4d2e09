//! A jury's correction recorded turns later still scores in the turn the event happened: the
//! void takes out the wrong drop-out, the corrected one names its turn.

use ledger::check::{check_stream, parse_lines};
use ledger::{Ruleset, StreamId};
use serde_json::json;

fn game_with(correction: serde_json::Value) -> Vec<(u64, ledger::Event)> {
    let mut lines = vec![json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"})];
    for turn in 1..=11 {
        lines.push(json!({"type": "turn_started", "turn": turn}));
    }
    // Turn 11: the table records Sweden by mistake (seq 13).
    lines.push(json!({"type": "nation_dropped_out", "nation": "sweden", "objectives_held": 4, "objectives_total": 5}));
    lines.push(json!({"type": "turn_started", "turn": 12}));
    lines.push(json!({"type": "turn_started", "turn": 13}));
    // Turn 13: the jury rules: it was Russia, with 7 of 10, in turn 11.
    lines.push(json!({"type": "jury_ruling", "text": "Russia left in turn 11, not Sweden"}));
    lines.push(json!({"type": "event_voided", "seq": 13, "reason": "wrong nation"}));
    lines.push(correction);
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    let parsed = parse_lines(&text.join("\n")).unwrap();
    check_stream(&StreamId::game("g").unwrap(), None, &parsed).expect("the ledger accepts the corrected stream");
    replay::sheet::with_seqs(parsed.into_iter().map(|l| l.event))
}

#[test]
fn a_corrected_drop_out_scores_in_the_turn_it_happened() {
    let russia = |turn: Option<u32>| {
        let mut event =
            json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10});
        if let Some(turn) = turn {
            event["turn"] = json!(turn);
        }
        event
    };
    let named = replay::score_game(Some(Ruleset::Cafe2023), &game_with(russia(Some(11)))).unwrap();
    let json = named.to_json();
    // 70%/10 + 1.6 − 0.1×11 = 7.5, as if recorded on time.
    assert_eq!(json.nations.get(&ledger::Nation::Russia).cloned().flatten().map(|n| n.to_string()), Some("7.5".into()));
    assert!(named.explain.iter().any(|l| l.contains("dropped out in turn 11")), "{:?}", named.explain);
    // Without the turn it would count as turn 13: 0.2 less.
    let late = replay::score_game(Some(Ruleset::Cafe2023), &game_with(russia(None))).unwrap().to_json();
    assert_eq!(late.nations.get(&ledger::Nation::Russia).cloned().flatten().map(|n| n.to_string()), Some("7.3".into()));
    assert_eq!(
        json.nations.get(&ledger::Nation::Sweden).cloned().flatten(),
        None,
        "the voided Sweden drop-out is gone"
    );
}
