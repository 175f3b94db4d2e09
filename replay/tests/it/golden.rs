//! Golden score sheets: every worked example of spec §3 and §4, docs/RULES.md, as scenario files
//! in `examples/scores/<ruleset>-<name>.jsonl` beside `<name>.expected.json`. The expected
//! file holds the numbers of the rule book (a subset of the sheet's JSON) with a `//` note on
//! anything the source left out.

use crate::support::{checked_game, examples_dir, load_game, subset_diff};
use replay::sheet::score_game;

/// Loads the scenario, validates it with the ledger's rules, scores it and compares the JSON
/// sheet with the expected subset.
fn check(name: &str) {
    let dir = examples_dir().join("scores");
    let events = load_game(&dir.join(format!("{name}.jsonl")));
    let sheet = score_game(None, &events).unwrap_or_else(|e| panic!("{name}: {e}"));
    let actual = serde_json::to_value(sheet.to_json()).expect("serialises");
    let expected_path = dir.join(format!("{name}.expected.json"));
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&expected_path).expect("expected sheet exists"))
            .expect("expected sheet is JSON");
    let mut diffs = Vec::new();
    subset_diff(&expected, &actual, "", &mut diffs);
    assert!(diffs.is_empty(), "{name}:\n  {}\n\nsheet:\n{sheet}", diffs.join("\n  "));
}

#[test]
fn cafe2019_worked_example() {
    check("cafe2019-worked-example");
}

#[test]
fn cafe2019_offensive_example() {
    check("cafe2019-failed-offensive-russian-victory");
}

#[test]
fn cafe2023_defensive_victory() {
    check("cafe2023-defensive-victory");
}

#[test]
fn cafe2023_double_victory() {
    check("cafe2023-double-victory");
}

#[test]
fn cafe2023_failed_offensive_russian_victory() {
    check("cafe2023-failed-offensive-russian-victory");
}

#[test]
fn cafe2023_victorious_offensive() {
    check("cafe2023-victorious-offensive");
}

#[test]
fn cafe2023_failed_offensive_defensive_victory() {
    check("cafe2023-failed-offensive-defensive-victory");
}

#[test]
fn wm2015_appendix_1_austrian_victory() {
    check("wm2015-1-austrian-victory");
}

#[test]
fn wm2015_appendix_2_prussian_victory() {
    check("wm2015-2-prussian-victory");
}

#[test]
fn wm2015_appendix_3_multiple_victory() {
    check("wm2015-3-multiple-victory");
}

/// The printed table has Austria "0.08"; 10 × 1/12 = 0.83 (spec §4, docs/RULES.md).
#[test]
fn wm2015_appendix_4_offensive_prussian_victory() {
    check("wm2015-4-offensive-prussian-victory");
}

/// The printed table subtracts 1.5 (F 7.1); the text says 1 point: 7.57 (spec §4, docs/RULES.md).
#[test]
fn wm2015_appendix_5_offensive_prussian_defeat() {
    check("wm2015-5-offensive-prussian-defeat");
}

/// The printed table has MT 8.5; the text's 5.5 + 4 + 1 capped at 9.5 gives 9.5 (docs/RULES.md
/// section 4).
#[test]
fn wm2015_appendix_6_offensive_defensive_victory() {
    check("wm2015-6-offensive-defensive-victory");
}

/// Every scenario file in the folder is checked here against its expected sheet (so one added
/// without a test of its own is still checked, and the count says when one goes missing), and the
/// README's worked example is the fixture.
#[test]
fn every_scenario_is_checked_and_the_readme_example_is_the_fixture() {
    let dir = examples_dir().join("scores");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/scores exists")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".jsonl").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 13, "{names:?}");
    for name in &names {
        assert!(dir.join(format!("{name}.expected.json")).exists(), "{name} has no expected sheet");
        check(name);
    }
    let readme = std::fs::read_to_string(examples_dir().join("cafe2019-worked-example.jsonl"))
        .expect("the README example exists");
    let fixture = std::fs::read_to_string(dir.join("cafe2019-worked-example.jsonl")).expect("the fixture exists");
    assert_eq!(readme, fixture);
}

/// A game that has not ended: nations that left have their scores, the rest are pending.
#[test]
fn a_running_game_scores_only_the_nations_that_left() {
    use ledger::{Event, Nation, Role};
    use replay::sheet::score_game_as_of;
    let events = load_game(&examples_dir().join("scores/cafe2019-worked-example.jsonl"));
    let (russia_out, _) = events
        .iter()
        .find(|(_, e)| matches!(e, Event::NationDroppedOut { nation: Nation::Russia, .. }))
        .expect("russia drops out");
    let sheet = score_game_as_of(None, &events, *russia_out).expect("scores");
    assert!(!sheet.has_ended());
    assert_eq!(sheet.turns, 11);
    assert_eq!(sheet.nations[&Nation::Russia].score, Some(replay::Rational::tenths(75)));
    assert_eq!(sheet.nations[&Nation::Sweden].score, None);
    assert_eq!(sheet.nations[&Nation::Prussia].score, None);
    assert!(sheet.roles.values().all(|r| r.score.is_none()));
    let json = serde_json::to_value(sheet.to_json()).unwrap();
    assert_eq!(json["status"], "in_progress");
    assert_eq!(json["nations"]["russia"], serde_json::json!(7.5));
    assert_eq!(json["nations"]["sweden"], serde_json::Value::Null);
    assert_eq!(json["roles"][Role::Elisabeth.as_str()], serde_json::Value::Null);
}

/// The jury voids a mistyped drop-out and the corrected one is appended: the sheet is the
/// worked example's.
#[test]
fn a_voided_and_corrected_event_scores_as_the_correction() {
    let path = examples_dir().join("scores/cafe2019-worked-example.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let correct = r#"{"type":"nation_dropped_out","nation":"russia","objectives_held":7,"objectives_total":10}"#;
    let at = lines.iter().position(|l| l == correct).expect("russia's drop-out");
    let wrong = correct.replace("\"objectives_held\":7", "\"objectives_held\":6");
    let wrong_seq = at + 1;
    lines[at] = wrong;
    lines.splice(
        at + 1..at + 1,
        [
            r#"{"type":"jury_called","reason":"russia held 7, not 6"}"#.to_owned(),
            format!(r#"{{"type":"event_voided","seq":{wrong_seq},"reason":"mistyped"}}"#),
            correct.to_owned(),
        ],
    );
    let events = checked_game(&lines.join("\n"), "corrected worked example");
    let sheet = score_game(None, &events).unwrap();
    let original = score_game(None, &load_game(&path)).unwrap();
    assert_eq!(sheet.to_json_string(), original.to_json_string());
}
