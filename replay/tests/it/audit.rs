//! The jury's audit (issue 5) on a game with a correction: a drop-out recorded with the wrong
//! objectives and a mistaken clock press, both voided under a ruling, the drop-out recorded
//! again. The audit before a void still shows the original; after it, the original is struck
//! and the sheet and clocks are corrected. Also: stepping, diffs, the timeline and the report.
//! The property test that every point equals a fold from scratch is in `audit_props.rs`.

use ledger::envelope::{short_digest, Draft, GENESIS};
use ledger::event::{from_canonical_json, Seats};
use ledger::{Event, Nation, Recorded, StreamId, StreamState};
use replay::audit::{audit_at, audit_at_time, diff, report, timeline, AuditError, Auditor, RulingNote, VoidNote};
use replay::clock::DEFAULT_MS_PER_SIDE;
use serde_json::{json, Value};

/// 2026-05-01T09:00:00Z.
const BASE_MS: u64 = 1_777_626_000_000;
const RULING: &str = "Russia held 7 of 10 objectives when it left; the press at 0:15:00 was a mistake";

/// The corrected game, event by event (seq = line number).
fn lines() -> Vec<Value> {
    vec![
        json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"}),
        json!({"type": "turn_started", "turn": 1, "at_ms": 600_000}),
        json!({"type": "tc_dealt", "nation": "prussia", "count": 7}),
        json!({"type": "tc_dealt", "nation": "russia", "count": 4}),
        json!({"type": "clock_started", "side": "prussia", "at_ms": 600_000}),
        json!({"type": "clock_pressed", "at_ms": 900_000}), // 6: a mistake, voided by 14
        json!({"type": "clock_stopped", "reason": "combat", "at_ms": 1_200_000}),
        json!({"type": "turn_started", "turn": 2, "at_ms": 1_800_000}),
        json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 3, "objectives_total": 10}), // 9
        json!({"type": "jury_called", "reason": "russia's objectives miscounted"}),
        json!({"type": "jury_ruling", "text": RULING}), // 11
        json!({"type": "event_voided", "seq": 9, "reason": "objectives miscounted"}), // 12
        json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10}),
        json!({"type": "event_voided", "seq": 6, "reason": "clock pressed by mistake"}), // 14
        json!({"type": "turn_started", "turn": 3, "at_ms": 2_400_000}),
        json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["prussia"],
               "objectives": {"sweden": [2, 5], "austria": [6, 12], "imperial_army": [1, 5], "france": [4, 10]}}),
    ]
}

fn stream() -> StreamId {
    StreamId::game("r1-t3").unwrap()
}

/// Sealed records after the ledger's rules accepted each event: one a minute from 09:01 UTC,
/// the jury's events appended by the jury.
fn records() -> Vec<Recorded> {
    let stream = stream();
    let mut state = StreamState::new(&stream, None);
    let mut prev = GENESIS;
    let mut out = Vec::new();
    for (seq, line) in (1u64..).zip(lines()) {
        let event = from_canonical_json(&line).unwrap();
        state.apply(&event).unwrap_or_else(|r| panic!("event {seq} refused: {r:?}"));
        let actor =
            if matches!(event, Event::JuryRuling { .. } | Event::EventVoided { .. }) { "jury-anna" } else { "table-3" };
        let draft = Draft {
            stream: stream.clone(),
            seq,
            position: 100 + seq,
            event_id: format!("e{seq}"),
            recorded_at_ms: BASE_MS + seq * 60_000,
            actor: actor.into(),
        };
        let record = Recorded::seal(draft, prev, event);
        prev = record.envelope.hash;
        out.push(record);
    }
    out
}

fn events() -> Vec<(u64, Event)> {
    records().into_iter().map(|r| (r.envelope.seq, r.event)).collect()
}

fn at(seq: u64) -> replay::audit::AuditPoint {
    audit_at(None, &events(), seq, DEFAULT_MS_PER_SIDE).unwrap_or_else(|e| panic!("audit at {seq}: {e}"))
}

/// A path in a point's JSON, e.g. `sheet.nations.russia`.
fn get(point: &replay::audit::AuditPoint, path: &str) -> Value {
    path.split('.').fold(point.to_json(), |value, key| value[key].clone())
}

#[test]
fn before_the_void_the_audit_shows_the_original() {
    let point = at(11);
    assert!(point.voids.is_empty());
    assert_eq!(get(&point, "state.nations.russia.out_in_turn"), json!(2));
    assert_eq!(get(&point, "sheet.nations.russia"), json!(4.4), "30%: 3 + 1.6 − 0.2");
    assert_eq!(get(&point, "clock.prussia.used_ms"), json!(300_000));
    assert_eq!(get(&point, "clock.attackers.used_ms"), json!(300_000));
    assert!(point.to_string().contains("russia        out in turn 2"), "{point}");
}

#[test]
fn after_the_void_the_original_is_struck_and_then_corrected() {
    let voided = at(12);
    assert!(voided.is_voided(9));
    assert_eq!(get(&voided, "state.nations.russia.in_game"), json!(true));
    assert_eq!(get(&voided, "sheet.nations.russia"), Value::Null);
    let text = voided.to_string();
    assert!(
        text.contains(
            "~~#9 nation_dropped_out nation=russia objectives_held=3 objectives_total=10~~ voided by #12: objectives miscounted"
        ),
        "{text}"
    );
    let corrected = at(13);
    assert_eq!(get(&corrected, "sheet.nations.russia"), json!(8.4), "70%: 7 + 1.6 − 0.2");
    assert_eq!(get(&corrected, "state.nations.russia.out_in_turn"), json!(2));
}

#[test]
fn the_clock_honours_a_void_from_the_moment_it_is_recorded() {
    let before = at(13);
    assert_eq!(get(&before, "clock.prussia.used_ms"), json!(300_000));
    let after = at(14);
    assert_eq!(get(&after, "clock.prussia.used_ms"), json!(600_000), "prussia ran until the stop");
    assert_eq!(get(&after, "clock.attackers.used_ms"), json!(0));
    assert_eq!(after.voids.iter().map(|v| v.seq).collect::<Vec<_>>(), [9, 6]);
}

#[test]
fn the_final_point_scores_the_corrected_game() {
    let end = at(16);
    assert_eq!(get(&end, "sheet.roles.frederick"), json!(10.3));
    assert_eq!(get(&end, "sheet.roles.elisabeth"), json!(8.4), "russia 8.4 beats sweden 5.3");
    assert_eq!(get(&end, "state.ended"), json!({"outcome": "prussian_defensive_victory", "turn": 3}));
    assert_eq!(end.tc_dealt[&Nation::Russia], 4);
    assert_eq!(end.tc_dealt[&Nation::Prussia], 7);
    assert_eq!(end.tc_dealt[&Nation::France], 0);
    assert_eq!(end.to_json_string(), end.clone().to_json_string());
}

#[test]
fn the_json_form_is_byte_stable() {
    let json = at(2).to_json_string();
    assert!(
        json.starts_with(
            r#"{"seq":2,"event":{"type":"turn_started","turn":1,"at_ms":600000},"table_time_ms":600000,"asked_at_ms":null,"voids":[],"state":{"ruleset":"cafe2023","started":true,"turn":1,"ended":null,"nations":{"prussia":{"in_game":true,"out_in_turn":null,"controller":"frederick"}"#
        ),
        "{json}"
    );
    assert!(
        json.contains(r#""offensive":{"status":"not_launched","set_aside_picked_up":false,"austria_claimed":false}"#)
    );
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), at(2).to_json());
}

#[test]
fn a_point_by_table_time_carries_the_clock_to_that_moment() {
    let point = audit_at_time(None, &events(), 1_000_000, DEFAULT_MS_PER_SIDE).unwrap();
    assert_eq!(point.seq, 6, "the press at 900 000 ms is the last event by then");
    assert_eq!(point.asked_at_ms, Some(1_000_000));
    assert_eq!(get(&point, "clock.attackers.used_ms"), json!(100_000));
    let last = audit_at_time(None, &events(), 9_999_999, DEFAULT_MS_PER_SIDE).unwrap();
    assert_eq!(last.seq, 16);
}

#[test]
fn stepping_forward_back_and_to_a_seq() {
    let mut auditor = Auditor::new(None, events(), DEFAULT_MS_PER_SIDE).unwrap();
    assert_eq!(auditor.back(), Ok(None));
    assert_eq!(auditor.forward().unwrap().map(|p| p.seq), Some(1));
    assert_eq!(auditor.back(), Ok(None), "nothing before the first event");
    assert_eq!(auditor.goto(11).unwrap(), at(11));
    assert_eq!(auditor.forward().unwrap(), Some(at(12)));
    assert_eq!(auditor.back().unwrap(), Some(at(11)));
    assert_eq!(auditor.goto(16).unwrap().seq, 16);
    assert_eq!(auditor.forward(), Ok(None));
    assert_eq!(auditor.position(), 16);
    assert_eq!(auditor.goto(17), Err(AuditError::NoSuchEvent { seq: 17, last: 16 }));
    assert_eq!(auditor.position(), 16, "a failed goto leaves the position");
    assert_eq!(auditor.goto_time(1_500_000).unwrap().seq, 7);
    assert_eq!(auditor.position(), 7);
}

#[test]
fn diffs_name_each_change_by_its_path() {
    let changes = |a: u64, b: u64| -> Vec<String> { diff(&at(a), &at(b)).iter().map(ToString::to_string).collect() };
    let next_turn = changes(7, 8);
    assert!(next_turn.contains(&"state.turn: 1 → 2".to_owned()), "{next_turn:#?}");
    assert!(next_turn.contains(&"table_time_ms: 1200000 → 1800000".to_owned()), "{next_turn:#?}");
    let end = changes(15, 16);
    for expected in [
        "sheet.roles.elisabeth: pending → 8.4",
        "sheet.roles.frederick: pending → 10.3",
        "sheet.status: in_progress → ended",
        "sheet.outcome: pending → prussian_defensive_victory",
        r#"state.ended: none → {"outcome":"prussian_defensive_victory","turn":3}"#,
    ] {
        assert!(end.contains(&expected.to_owned()), "{expected} missing from {end:#?}");
    }
    let void = changes(11, 12);
    assert!(void.contains(&"sheet.nations.russia: 4.4 → pending".to_owned()), "{void:#?}");
    assert!(void.contains(&"state.nations.russia.in_game: false → true".to_owned()), "{void:#?}");
    assert!(
        void.iter().any(|c| c.starts_with(r#"voids[0]: — → {"seq":9,"event":{"type":"nation_dropped_out""#)),
        "{void:#?}"
    );
    assert!(diff(&at(9), &at(9)).is_empty());
}

#[test]
fn the_timeline_strikes_voided_events_and_names_the_ruling() {
    let entries = timeline(&records());
    assert_eq!(entries.len(), 16);
    let ruling = Some(RulingNote { seq: 11, text: RULING.into() });
    assert_eq!(
        entries[8].voided_by,
        Some(VoidNote { void_seq: 12, reason: "objectives miscounted".into(), ruling: ruling.clone() })
    );
    assert_eq!(
        entries[5].voided_by,
        Some(VoidNote { void_seq: 14, reason: "clock pressed by mistake".into(), ruling })
    );
    assert!(entries.iter().filter(|e| e.voided_by.is_some()).count() == 2);
    assert_eq!(entries[6].table_time_ms, Some(1_200_000));
    assert_eq!(entries[5].table_time_ms, Some(600_000), "a voided event does not move the table time");
    assert_eq!(
        entries[8].to_string(),
        format!(
            "#9 2026-05-01T09:09:00.000Z table-3 @0:30:00 \
             ~~nation_dropped_out nation=russia objectives_held=3 objectives_total=10~~ \
             [VOIDED by #12: objectives miscounted; ruling #11: {RULING}]"
        )
    );
    assert_eq!(entries[10].actor, "jury-anna");
}

#[test]
fn the_report_has_players_struck_events_rulings_the_sheet_and_the_digest() {
    let records = records();
    let seats =
        Seats { frederick: "p1".into(), elisabeth: "p2".into(), maria_theresa: "p3".into(), pompadour: "p4".into() };
    let text = report(&stream(), &records, Some(&seats), None, replay::clock::DEFAULT_MS_PER_SIDE).unwrap();
    let head = records.last().unwrap().envelope.hash;
    let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
    for expected in [
        "# Audit report: game/r1-t3",
        "- Ruleset: cafe2023 (named in game_started)",
        "- Events: 16 (2 voided by the jury)",
        "| elisabeth | p2 |",
        "| maria_theresa | p3 |",
        "| 9 | 2026-05-01T09:09:00.000Z | table-3 | 0:30:00 | ~~`nation_dropped_out nation=russia objectives_held=3 objectives_total=10`~~ **\\[VOIDED by #12: objectives miscounted; ruling #11: ",
        "| 13 | 2026-05-01T09:13:00.000Z | table-3 | 0:30:00 | `nation_dropped_out nation=russia objectives_held=7 objectives_total=10` |",
        &format!("- #11 2026-05-01T09:11:00.000Z by jury-anna: ruling: {RULING}"),
        "- #12 2026-05-01T09:12:00.000Z by jury-anna: voided #9 `nation_dropped_out nation=russia objectives_held=3 objectives_total=10`: objectives miscounted (under ruling #11)",
        "Score sheet (cafe2023), 3 turns, prussian_defensive_victory, won by prussia",
        "  elisabeth          8.4",
        "russia: 7 of 10 objectives when it dropped out in turn 2",
        &format!("- Head hash: `{hex}`"),
        &format!("- Digest: `{}`", short_digest(&head)),
        "- Chain: verifies",
        "- Rules: every event, voids included, replays",
        "## Chess clock",
        "7800000 ms a side; no stopwatch overrun.",
        // The voided press (#6) is left out: Prussia's clock ran from 600 s on.
        "  prussia    2:00:00.000 left",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

/// Issue 42: reasons written to break out of the report's Markdown — a double backtick that
/// closed the code span early, autolinks, raw HTML, a link — read back by a CommonMark parser
/// (with GitHub's tables and strikethrough) give no link, no image and no HTML.
#[test]
fn the_report_read_by_a_commonmark_parser_holds_no_live_link_or_html() {
    use pulldown_cmark::{Event as Md, Options, Parser, Tag};
    let hostile = [
        "``[open](javascript:alert(1))``",
        "` <javascript:alert(2)> `",
        "<https://evil.example/x> and <a@evil.example>",
        "<a href=\"javascript:alert(3)\">x</a><img src=x onerror=alert(4)>",
        "[x](javascript:alert(5)) ![](http://evil.example/p.png) ```` ``` `` `",
    ];
    let mut lines = vec![json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"})];
    for reason in hostile {
        lines.push(json!({"type": "jury_called", "reason": reason}));
    }
    lines.push(json!({"type": "jury_ruling", "text": hostile[0]}));
    lines.push(json!({"type": "event_voided", "seq": 2, "reason": hostile[3]}));
    let stream = stream();
    let mut state = StreamState::new(&stream, None);
    let mut prev = GENESIS;
    let mut records = Vec::new();
    for (seq, line) in (1u64..).zip(lines) {
        let event = from_canonical_json(&line).unwrap();
        state.apply(&event).unwrap_or_else(|r| panic!("event {seq} refused: {r:?}"));
        let draft = Draft {
            stream: stream.clone(),
            seq,
            position: seq,
            event_id: format!("h{seq}"),
            recorded_at_ms: BASE_MS + seq * 60_000,
            actor: "<b>jury</b>".into(),
        };
        let record = Recorded::seal(draft, prev, event);
        prev = record.envelope.hash;
        records.push(record);
    }
    let text = report(&stream, &records, None, None, DEFAULT_MS_PER_SIDE).unwrap();
    let live: Vec<String> = Parser::new_ext(&text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
        .filter(|event| {
            matches!(
                event,
                Md::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::HtmlBlock) | Md::Html(_) | Md::InlineHtml(_)
            )
        })
        .map(|event| format!("{event:?}"))
        .collect();
    assert!(live.is_empty(), "{live:?} in\n{text}");
    // The reasons are all there, as text: the code spans hold them whole.
    let shown: String = Parser::new_ext(&text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
        .filter_map(|event| match event {
            Md::Code(code) => Some(code.into_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    // Whole, as the timeline words an event (its quotes escaped).
    for reason in hostile {
        let worded = reason.replace('"', "\\\"");
        assert!(shown.contains(&worded), "{worded:?} not in a code span:\n{shown}");
    }
}

#[test]
fn the_report_says_when_the_chain_is_broken() {
    let mut records = records();
    records[4].envelope.actor = "someone-else".into();
    let text = report(&stream(), &records, None, None, replay::clock::DEFAULT_MS_PER_SIDE).unwrap();
    assert!(text.contains("- Chain: **BROKEN** at seq 5: its contents do not match its hash"), "{text}");
    assert!(!text.contains("## Players"));
}

#[test]
fn refusals_of_the_audit() {
    let events = events();
    assert_eq!(audit_at(None, &events, 0, 1), Err(AuditError::NoSuchEvent { seq: 0, last: 16 }));
    assert_eq!(audit_at(None, &[], 1, 1), Err(AuditError::Empty));
    assert_eq!(audit_at(None, &events[1..], 3, 1), Err(AuditError::OutOfSequence { expected: 1, found: 2 }));
    let tournament = StreamId::tournament("open").unwrap();
    assert_eq!(report(&tournament, &records(), None, None, 1), Err(AuditError::NotAGame("tournament/open".into())));
    let other = StreamId::game("r1-t4").unwrap();
    assert_eq!(report(&other, &records(), None, None, 1), Err(AuditError::NoRecords("game/r1-t4".into())));
    let mut broken = events.clone();
    broken[1].1 = Event::TurnStarted { turn: 2, at_ms: None };
    assert!(matches!(audit_at(None, &broken, 5, 1), Err(AuditError::Refused { seq: 2, event: "turn_started", .. })));
}
