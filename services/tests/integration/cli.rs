//! `ledgerctl` as a user runs it: offline checks with line numbers and exit codes, and an
//! append / read round trip against a real server.

use crate::support::{run_ledgerctl as ledgerctl, TestServer};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const GAME: &str = r#"{"type":"game_started","at_ms":0}
{"type":"turn_started","turn":1,"at_ms":1000}
{"type":"tc_dealt","nation":"prussia","count":5}

{"type":"offensive_launched","set_aside_tc":8}
"#;

#[test]
fn check_names_the_first_refused_line_and_exits_1() {
    let out = ledgerctl(&["check", "--ruleset", "cafe2019"], GAME);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "line 5: FAILED_PRECONDITION: cafe2019: the tactical card set aside for the offensive must be worth at least 10, got 8"
    );
    let ok = ledgerctl(&["check", "--ruleset", "cafe2023"], GAME);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout).trim(), "ok: 4 events, the game is in turn 1");
    let json = ledgerctl(&["check", "--ruleset", "cafe2019", "--json"], GAME);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["line"], 5);
    assert_eq!(report["code"], "FAILED_PRECONDITION");
    let malformed = ledgerctl(
        &["check", "--ruleset", "wm2015"],
        "{\"type\":\"game_started\",\"at_ms\":0}\n{\"type\":\"tc_dealt\",\"nation\":\"spain\",\"count\":1}\n",
    );
    assert_eq!(malformed.status.code(), Some(1));
    assert!(
        text(&malformed.stderr).starts_with("line 2: INVALID_ARGUMENT: tc_dealt: unknown value `spain`"),
        "{}",
        text(&malformed.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn append_then_read_back_with_envelopes() {
    let server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let game = GAME.replace("\"at_ms\":0}", "\"at_ms\":0,\"ruleset\":\"cafe2023\"}");
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &game).unwrap();
    let path = file.path().to_str().unwrap().to_owned();
    let (first, again, refused, read) = tokio::task::spawn_blocking(move || {
        let args = ["--server", &url, "append", "--stream", "game/cli", "--file", &path];
        let first = ledgerctl(&args, "");
        // The same file again: the same derived ids, nothing appended twice.
        let again = ledgerctl(&args, "");
        let stdin = ["--server", &url, "append", "--stream", "game/cli"];
        // The same line piped twice is two events (each run salts its ids afresh).
        for _ in 0..2 {
            let tc = ledgerctl(&stdin, "{\"type\":\"tc_dealt\",\"nation\":\"prussia\",\"count\":7}\n");
            assert!(text(&tc.stdout).starts_with("appended 1 events"), "{}", text(&tc.stdout));
        }
        let refused = ledgerctl(&stdin, "{\"type\":\"turn_started\",\"turn\":3}\n");
        let read = ledgerctl(&["--server", &url, "--json", "read", "--stream", "game/cli"], "");
        (first, again, refused, read)
    })
    .await
    .unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(text(&first.stdout).starts_with("appended 4 events to game/cli: seq 1–4"), "{}", text(&first.stdout));
    assert!(text(&again.stdout).contains("already appended"), "{}", text(&again.stdout));
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        text(&refused.stderr).trim(),
        "line 1: FAILED_PRECONDITION: turn_started 3 skips a turn: turn 2 comes next"
    );
    let records: Vec<ledger::Recorded> = text(&read.stdout)
        .lines()
        .map(|l| ledger::Recorded::from_json(&serde_json::from_str(l).unwrap()).unwrap())
        .collect();
    assert_eq!(records.len(), 6);
    assert_eq!(records[0].envelope.actor, "ledgerctl");
    ledger::envelope::verify_chain(&records).unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_verifies_offline_and_a_changed_line_is_caught() {
    let server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let game = GAME.replace("\"at_ms\":0}", "\"at_ms\":0,\"ruleset\":\"cafe2023\"}");
    let (export, digest) = tokio::task::spawn_blocking(move || {
        assert!(ledgerctl(&["--server", &url, "append", "--stream", "game/v"], &game).status.success());
        let export = ledgerctl(&["--server", &url, "export"], "");
        let digest = ledgerctl(&["--server", &url, "--json", "digest", "--stream", "game/v"], "");
        (export, digest)
    })
    .await
    .unwrap();
    let exported = text(&export.stdout);
    let ok = ledgerctl(&["--json", "verify", "--file", "-"], &exported);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let verdict: serde_json::Value = serde_json::from_str(text(&ok.stdout).trim()).unwrap();
    let printed: serde_json::Value = serde_json::from_slice(&digest.stdout).unwrap();
    assert_eq!(verdict["digest"], printed["digest"], "the digest on the report matches the export");
    // Someone changes the tactical cards dealt in event 3.
    let tampered = exported.replacen("\"count\":5", "\"count\":6", 1);
    assert_ne!(tampered, exported);
    let broken = ledgerctl(&["verify", "--file", "-"], &tampered);
    assert_eq!(broken.status.code(), Some(1));
    assert!(
        text(&broken.stdout).contains("BROKEN at seq 3: its contents do not match its hash"),
        "{}",
        text(&broken.stdout)
    );
    server.stop().await;
}
