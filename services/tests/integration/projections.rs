//! Score sheets, standings and statistics: online through the Projections service, offline with
//! `ledgerctl`, and byte-identical between the two (and between processes).

use crate::support::TestServer;
use ledger_proto::v1 as pb;
use ledger_proto::v1::projections_client::ProjectionsClient;
use std::process::{Command, Output};

const TOURNAMENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
const WORKED_EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/cafe2019-worked-example.jsonl");

fn ledgerctl(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_ledgerctl")).args(args).output().unwrap();
    assert!(output.status.success(), "ledgerctl {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap().trim_end().to_owned()
}

#[test]
fn score_prints_the_sheet_the_issue_asks_for() {
    let out = ledgerctl(&["score", "--ruleset", "cafe2019", "--file", WORKED_EXAMPLE, "--json"]);
    let sheet: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(sheet["ruleset"], "cafe2019");
    assert_eq!(sheet["turns"], 21);
    assert_eq!(sheet["nations"]["prussia"].to_string(), "12.1");
    assert_eq!(sheet["nations"]["russia"].to_string(), "7.5");
    assert_eq!(sheet["nations"]["sweden"].to_string(), "3.5");
    assert_eq!(sheet["roles"]["frederick"].to_string(), "12.1");
    assert_eq!(sheet["roles"]["elisabeth"].to_string(), "7.5");
    assert_eq!(sheet["roles"]["maria_theresa"].to_string(), "8.7");
    assert_eq!(sheet["roles"]["pompadour"].to_string(), "8.8");
    assert!(sheet["tcc"].is_number());
    let explain: Vec<&str> = sheet["explain"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(
        explain.contains(&"austria: 11 of 12 objectives at the end of turn 21 → 92%; 92%/10 + 1.6 − 0.1×21 = 8.7"),
        "{explain:?}"
    );
    let text = stdout(&ledgerctl(&["score", "--ruleset", "cafe2019", "--file", WORKED_EXAMPLE]));
    assert!(text.starts_with("Score sheet (cafe2019), 21 turns, prussian_defensive_victory"), "{text}");
}

#[test]
fn score_refuses_an_invalid_file_like_check() {
    let bad = "{\"type\":\"game_started\",\"at_ms\":0}\n{\"type\":\"turn_started\",\"turn\":2}\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_ledgerctl"))
        .args(["score", "--ruleset", "wm2015"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), bad.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "line 2: FAILED_PRECONDITION: turn_started 2 skips a turn: turn 1 comes next"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn online_and_offline_projections_are_byte_identical() {
    let server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let offline = tokio::task::spawn_blocking(move || {
        ledgerctl(&["--server", &url, "--clearance", "organiser", "import", "--file", TOURNAMENT]);
        (
            stdout(&ledgerctl(&["--json", "standings", "--tournament", "open26", "--file", TOURNAMENT])),
            stdout(&ledgerctl(&["--json", "stats", "roles", "--file", TOURNAMENT, "--stage", "qualifying"])),
            stdout(&ledgerctl(&["--json", "--server", &url, "standings", "--tournament", "open26"])),
        )
    })
    .await
    .unwrap();
    let mut client = ProjectionsClient::connect(format!("http://{}", server.addr)).await.unwrap();
    let standings = client
        .get_standings(pb::StandingsRequest { tournament: "open26".into(), as_of_position: None, public: false })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(standings.json, offline.0, "gRPC standings = offline standings");
    assert_eq!(offline.2, offline.0, "ledgerctl online = offline");
    let parsed: serde_json::Value = serde_json::from_str(&standings.json).unwrap();
    assert_eq!(parsed["finalists"].as_array().unwrap().len(), 4);
    let stats = client
        .get_role_stats(pb::RoleStatsRequest { stage: Some("qualifying".into()), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(stats.json, offline.1);
    let parsed: serde_json::Value = serde_json::from_str(&stats.json).unwrap();
    assert_eq!(parsed["games"], 8);
    assert_eq!(parsed["roles"]["frederick"]["games"], 8);

    // A game as of an earlier event equals scoring the file's prefix offline.
    let sheet = client
        .get_score_sheet(pb::ScoreSheetRequest { game: "q1-t1".into(), as_of_seq: Some(40) })
        .await
        .unwrap()
        .into_inner();
    let game_lines: Vec<String> = std::fs::read_to_string(TOURNAMENT)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"stream\":\"game/q1-t1\""))
        .map(str::to_owned)
        .collect();
    let prefix = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(prefix.path(), game_lines.join("\n")).unwrap();
    let path = prefix.path().to_str().unwrap().to_owned();
    let offline_sheet = tokio::task::spawn_blocking(move || {
        stdout(&ledgerctl(&["--json", "score", "--ruleset", "cafe2023", "--file", &path, "--as-of", "40"]))
    })
    .await
    .unwrap();
    assert_eq!(sheet.json, offline_sheet);
    assert!(sheet.as_of_position > 0);
    // Standings as of a position before any game ended have no totals yet.
    let early = client
        .get_standings(pb::StandingsRequest { tournament: "open26".into(), as_of_position: Some(17), public: false })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(early.as_of_position, 17);
    assert_ne!(early.json, standings.json);
    let missing =
        client.get_score_sheet(pb::ScoreSheetRequest { game: "nope".into(), as_of_seq: None }).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn the_clock_is_projected_from_the_presses() {
    use crate::support::{append, events};
    use serde_json::json;
    let mut server = TestServer::start().await;
    let game = events(&[
        json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"}),
        json!({"type": "turn_started", "turn": 1, "at_ms": 0}),
        json!({"type": "clock_started", "side": "prussia", "at_ms": 0}),
        json!({"type": "clock_pressed", "at_ms": 90_000}),
        json!({"type": "clock_stopped", "reason": "combat", "at_ms": 100_000}),
        json!({"type": "clock_started", "side": "attackers", "at_ms": 160_000}),
    ]);
    server.client.append(append("game/c", &game, "", None)).await.unwrap();
    let mut client = ProjectionsClient::connect(format!("http://{}", server.addr)).await.unwrap();
    let now = client
        .get_clock(pb::ClockRequest { game: "c".into(), as_of_seq: None, now_at_ms: Some(170_000) })
        .await
        .unwrap()
        .into_inner();
    let view: serde_json::Value = serde_json::from_str(&now.json).unwrap();
    assert_eq!(view["prussia"]["used_ms"], 90_000);
    assert_eq!(view["attackers"]["used_ms"], 10_000 + 10_000, "10 s before the stop, 10 s since the restart");
    assert_eq!(view["running"], "attackers");
    assert_eq!(view["stopped_ms"]["combat"], 60_000);
    assert!(now.text.contains("attackers running"), "{}", now.text);
    let earlier = client
        .get_clock(pb::ClockRequest { game: "game/c".into(), as_of_seq: Some(4), now_at_ms: None })
        .await
        .unwrap()
        .into_inner();
    let view: serde_json::Value = serde_json::from_str(&earlier.json).unwrap();
    assert_eq!((view["prussia"]["used_ms"].as_u64(), view["attackers"]["used_ms"].as_u64()), (Some(90_000), Some(0)));
    server.stop().await;
}
