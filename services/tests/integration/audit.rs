//! The jury's audit end to end: a void honoured by every projection, the audit at a point, the
//! difference between two points, the timeline with the void struck through, and the report
//! whose digest matches the one `ledgerctl digest` prints.

use crate::support::TestServer;
use ledger_proto::v1 as pb;
use ledger_proto::v1::projections_client::ProjectionsClient;
use std::process::Output;

const TOURNAMENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");

fn ledgerctl(url: &str, args: &[&str], stdin: &str) -> Output {
    let out = crate::support::run_ledgerctl(&[&["--server", url], args].concat(), stdin);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn text(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_void_is_honoured_everywhere_and_the_audit_shows_it() {
    let server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let mut projections = ProjectionsClient::connect(url.clone()).await.unwrap();
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        ledgerctl(&u, &["--clearance", "organiser", "import", "--file", TOURNAMENT], "")
    })
    .await
    .unwrap();
    let standings = |public| pb::StandingsRequest { tournament: "open26".into(), as_of_position: None, public };
    let before = projections.get_standings(standings(false)).await.unwrap().into_inner();
    let stats_before = projections.get_role_stats(pb::RoleStatsRequest::default()).await.unwrap().into_inner();
    assert!(stats_before.json.starts_with("{\"games\":8"), "{}", stats_before.json);

    // The jury voids the end of game q1-t1 (event 96): the objectives were misread.
    let u = url.clone();
    let ruling = "{\"type\":\"jury_ruling\",\"text\":\"the objectives were misread\"}\n{\"type\":\"event_voided\",\"seq\":96,\"reason\":\"misread objectives\"}\n";
    let (at, diff, timeline, report, digest) = tokio::task::spawn_blocking(move || {
        ledgerctl(&u, &["--clearance", "jury", "--actor", "jury-anna", "append", "--stream", "game/q1-t1"], ruling);
        (
            text(&ledgerctl(&u, &["--json", "audit", "q1-t1", "--at", "95"], "")),
            text(&ledgerctl(&u, &["audit", "q1-t1", "--diff", "96", "98"], "")),
            text(&ledgerctl(&u, &["audit", "q1-t1", "--timeline"], "")),
            text(&ledgerctl(&u, &["audit", "q1-t1", "--report"], "")),
            text(&ledgerctl(&u, &["--json", "digest", "--stream", "game/q1-t1"], "")),
        )
    })
    .await
    .unwrap();

    // Every projection honours the void: the game is open again.
    let sheet =
        projections.get_score_sheet(pb::ScoreSheetRequest { game: "q1-t1".into(), as_of_seq: None }).await.unwrap();
    let sheet: serde_json::Value = serde_json::from_str(&sheet.into_inner().json).unwrap();
    assert_eq!(sheet["status"], "in_progress", "{sheet}");
    let after = projections.get_standings(standings(false)).await.unwrap().into_inner();
    assert_ne!(after.json, before.json);
    let after: serde_json::Value = serde_json::from_str(&after.json).unwrap();
    assert!(after["pending_games"].as_array().unwrap().contains(&serde_json::json!("q1-t1")), "{after}");
    let stats_after = projections.get_role_stats(pb::RoleStatsRequest::default()).await.unwrap().into_inner();
    assert!(stats_after.json.starts_with("{\"games\":7"), "{}", stats_after.json);
    // As of a point before the void, the game had ended.
    let then =
        projections.get_score_sheet(pb::ScoreSheetRequest { game: "q1-t1".into(), as_of_seq: Some(96) }).await.unwrap();
    assert!(then.into_inner().json.contains("\"status\":\"ended\""));

    // The audit at event 95, the difference the void made, the timeline and the report.
    let point: serde_json::Value = serde_json::from_str(at.trim()).unwrap();
    assert_eq!(point["seq"], 95);
    assert_eq!(point["state"]["turn"], 12);
    assert!(diff.contains("state.ended: {\"outcome\":\"allied_victory\",\"turn\":12} → none"), "{diff}");
    let struck = timeline.lines().find(|l| l.starts_with("#96 ")).unwrap();
    assert!(struck.contains("~~game_ended"), "{struck}");
    assert!(
        struck.contains("[VOIDED by #98: misread objectives; ruling #97: the objectives were misread]"),
        "{struck}"
    );
    let digest: serde_json::Value = serde_json::from_str(digest.trim()).unwrap();
    assert!(report.contains("| cai |") && report.contains("the objectives were misread"), "{report}");
    assert!(report.contains(digest["digest"].as_str().unwrap()), "the report carries the chain digest");
    assert!(report.contains(digest["head_hash"].as_str().unwrap()));
    server.stop().await;
}

#[test]
fn the_audit_steps_forward_and_back_from_stdin() {
    let export =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/cafe2019-worked-example.jsonl"))
            .unwrap();
    // An audit offline reads an export; make one with envelopes from the example.
    let mut prev = ledger::envelope::GENESIS;
    let stream = ledger::StreamId::game("worked").unwrap();
    let lines: Vec<String> = ledger::check::parse_lines(&export)
        .unwrap()
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let seq = i as u64 + 1;
            let draft = ledger::envelope::Draft {
                stream: stream.clone(),
                seq,
                position: seq,
                event_id: format!("e{seq}"),
                recorded_at_ms: 1_795_305_109_253,
                actor: "table".into(),
            };
            let record = ledger::Recorded::seal(draft, prev, line.event);
            prev = record.envelope.hash;
            record.to_json().to_string()
        })
        .collect();
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), lines.join("\n")).unwrap();
    let out = ledgerctl(
        "http://127.0.0.1:9",
        &["audit", "worked", "--file", file.path().to_str().unwrap(), "--step", "--at", "2"],
        "n\np\np\ng 160\nq\n",
    );
    let shown = text(&out);
    let headers: Vec<&str> = shown.lines().filter(|l| l.starts_with("After event #")).collect();
    assert_eq!(headers.len(), 5, "{shown}");
    assert!(headers[0].starts_with("After event #2 "));
    assert!(headers[1].starts_with("After event #3 "));
    assert!(headers[2].starts_with("After event #2 "));
    assert!(headers[3].starts_with("After event #1 "));
    assert!(headers[4].starts_with("After event #160 "));
    assert!(shown.contains("frederick         12.1"), "the last point has the final sheet");
}
