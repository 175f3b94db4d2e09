//! `ledgerctl` as a user runs it: offline checks with line numbers and exit codes, and an
//! append / read round trip against a real server.

use crate::support::{run_ledgerctl as ledgerctl, TestServer};
use ledger_proto::v1 as pb;

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
            let tc = ledgerctl(&stdin, "{\"type\":\"tc_dealt\",\"nation\":\"hanover\",\"count\":1}\n");
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

/// A Ledger server that serves one record from an old log: free text with terminal escapes and
/// line breaks, recorded before the ledger refused them; and, like an old ledgerd, no
/// `ReadPages`.
struct OldLog(pb::RecordedEvent);

type Records = std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<pb::RecordedEvent, tonic::Status>> + Send>>;

#[tonic::async_trait]
impl pb::ledger_server::Ledger for OldLog {
    async fn append(
        &self,
        _: tonic::Request<pb::AppendRequest>,
    ) -> Result<tonic::Response<pb::AppendResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("read only"))
    }
    type AppendStreamStream =
        std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<pb::AppendStreamResponse, tonic::Status>> + Send>>;
    async fn append_stream(
        &self,
        _: tonic::Request<tonic::Streaming<pb::AppendRequest>>,
    ) -> Result<tonic::Response<Self::AppendStreamStream>, tonic::Status> {
        Err(tonic::Status::unimplemented("read only"))
    }
    type ReadStream = Records;
    async fn read(&self, _: tonic::Request<pb::ReadRequest>) -> Result<tonic::Response<Records>, tonic::Status> {
        Ok(tonic::Response::new(Box::pin(tokio_stream::iter([Ok(self.0.clone())]))))
    }
    type ReadPagesStream =
        std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<pb::RecordedEventPage, tonic::Status>> + Send>>;
    async fn read_pages(
        &self,
        _: tonic::Request<pb::ReadRequest>,
    ) -> Result<tonic::Response<Self::ReadPagesStream>, tonic::Status> {
        // An old server: ledgerctl falls back to `Read`.
        Err(tonic::Status::unimplemented("no ReadPages before this version"))
    }
    type SubscribeStream = Records;
    async fn subscribe(
        &self,
        _: tonic::Request<pb::SubscribeRequest>,
    ) -> Result<tonic::Response<Records>, tonic::Status> {
        Err(tonic::Status::unimplemented("read only"))
    }
    async fn list_streams(
        &self,
        _: tonic::Request<pb::ListStreamsRequest>,
    ) -> Result<tonic::Response<pb::ListStreamsResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("read only"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_escapes_control_characters_so_an_old_log_cannot_forge_lines() {
    use ledger::envelope::{Draft, GENESIS};
    use ledger_proto::convert::ToProto;
    let hostile = "russia keeps 7\u{1b}[2J\u{1b}[H\r\ngame/x  #2    2026-01-01T00:00:00.000Z  jury-anna  jury_ruling text=all clear\u{9b}0m\u{7f}\t";
    let draft = Draft {
        stream: ledger::StreamId::game("old").unwrap(),
        seq: 1,
        position: 1,
        event_id: "e1".into(),
        recorded_at_ms: 0,
        actor: "jury-anna".into(),
    };
    let record = ledger::Recorded::seal(draft, GENESIS, ledger::Event::JuryRuling { text: hostile.into() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(pb::ledger_server::LedgerServer::new(OldLog(record.to_proto())))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let (shown, json) = tokio::task::spawn_blocking(move || {
        let shown = ledgerctl(&["--server", &url, "read", "--stream", "game/old"], "");
        let json = ledgerctl(&["--server", &url, "--json", "read", "--stream", "game/old"], "");
        (shown, json)
    })
    .await
    .unwrap();
    server.abort();
    assert_eq!(shown.status.code(), Some(0), "{}", text(&shown.stderr));
    let shown = text(&shown.stdout);
    assert_eq!(shown.lines().count(), 1, "one event, one line: {shown:?}");
    let line = shown.strip_suffix('\n').unwrap();
    assert!(!line.chars().any(char::is_control), "a control character reached the screen: {line:?}");
    assert!(
        line.ends_with(
            r"jury_ruling text=russia keeps 7\u{1b}[2J\u{1b}[H\r\ngame/x  #2    2026-01-01T00:00:00.000Z  jury-anna  jury_ruling text=all clear\u{9b}0m\u{7f}\t"
        ),
        "{line}"
    );
    // JSON escapes them too, and still carries the text exactly.
    let json = text(&json.stdout);
    assert_eq!(json.lines().count(), 1);
    assert!(!json.trim_end().chars().any(char::is_control), "{json:?}");
    let read = ledger::Recorded::from_json(&serde_json::from_str(json.trim_end()).unwrap()).unwrap();
    assert_eq!(read, record);
}

/// Every file under `dir` with its bytes and modification time, and every directory.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Option<Vec<u8>>, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(next) = pending.pop() {
        let meta = std::fs::metadata(&next).unwrap();
        if meta.is_dir() {
            out.push((next.clone(), None, meta.modified().unwrap()));
            pending.extend(std::fs::read_dir(&next).unwrap().map(|e| e.unwrap().path()));
        } else {
            out.push((next.clone(), Some(std::fs::read(&next).unwrap()), meta.modified().unwrap()));
        }
    }
    out.sort();
    out
}

fn set_mode(path: &std::path::Path, file: u32, dir: u32) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(path).unwrap() {
        let entry = entry.unwrap().path();
        if entry.is_dir() {
            set_mode(&entry, file, dir);
        } else {
            std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(file)).unwrap();
        }
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(dir)).unwrap();
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap().path();
        let target = to.join(entry.file_name().unwrap());
        if entry.is_dir() {
            copy_dir(&entry, &target);
        } else {
            std::fs::copy(&entry, &target).unwrap();
        }
    }
}

/// The jury verifies evidence: a read-only copy of a stopped daemon's directory. Verifying
/// must succeed and leave every byte and every modification time as it was (the tests run as
/// root, which chmod does not stop, so the bytes are compared rather than trusting a refusal).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_reads_a_read_only_copy_without_writing_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = std::sync::Arc::new(ledger_store::Log::open_sled(&data).unwrap());
    let game = crate::support::events(&ledger::testing::started_game(Some(ledger::Ruleset::Cafe2023), 3));
    let request = ledger_store::AppendRequest {
        stream: ledger::StreamId::game("evidence").unwrap(),
        events: game
            .into_iter()
            .enumerate()
            .map(|(i, event)| ledger_store::ProposedEvent { event_id: format!("e{i}"), event })
            .collect(),
        expected_version: None,
        actor: "table-1".into(),
        clearance: ledger::access::Clearance::Table,
    };
    log.append(request).await.unwrap();
    // A log in use is not copied half-written: its daemon holds sled's lock.
    let path = data.to_str().unwrap().to_owned();
    let busy = tokio::task::spawn_blocking(move || ledgerctl(&["verify", "--data-dir", &path], "")).await.unwrap();
    assert_eq!(busy.status.code(), Some(2), "{}", text(&busy.stdout));
    assert!(text(&busy.stderr).contains("is ledgerd running on it?"), "{}", text(&busy.stderr));
    let closing = std::sync::Arc::clone(&log);
    tokio::task::spawn_blocking(move || closing.close()).await.unwrap();
    drop(log);

    let evidence = dir.path().join("evidence");
    copy_dir(&data, &evidence);
    set_mode(&evidence, 0o444, 0o555);
    let before = snapshot(&evidence);
    assert!(before.iter().any(|(path, _, _)| path.ends_with("db")), "a sled log: {before:?}");
    let path = evidence.to_str().unwrap().to_owned();
    let out =
        tokio::task::spawn_blocking(move || ledgerctl(&["--json", "verify", "--data-dir", &path], "")).await.unwrap();
    let after = snapshot(&evidence);
    set_mode(&evidence, 0o644, 0o755);

    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let verdict: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(
        (verdict["stream"].as_str(), verdict["verified"].as_u64(), verdict["ok"].as_bool()),
        (Some("game/evidence"), Some(4), Some(true))
    );
    assert_eq!(
        before.len(),
        after.len(),
        "files appeared or vanished: {:?}",
        after.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (was, is) in before.iter().zip(&after) {
        assert_eq!(was.0, is.0, "files appeared or vanished");
        assert!(was.1 == is.1, "{} changed", was.0.display());
        assert_eq!(was.2, is.2, "{} was written to", was.0.display());
    }
}

/// A game of `n` lines: its start, then jury calls (a table may call the jury any number of
/// times), with `bad` (if any) replaced by a turn that skips ahead, which the rules refuse.
fn long_game(n: usize, bad: Option<usize>) -> String {
    let mut text = String::from("{\"type\":\"game_started\",\"at_ms\":0,\"ruleset\":\"cafe2023\"}\n");
    for line in 2..=n {
        if Some(line) == bad {
            text.push_str("{\"type\":\"turn_started\",\"turn\":5,\"at_ms\":1000}\n");
        } else {
            // Every tenth reason repeats an earlier one: identical lines are still distinct events.
            text.push_str(&format!("{{\"type\":\"jury_called\",\"reason\":\"question {}\"}}\n", line % 500));
        }
    }
    text
}

/// Issue 10.4: a file longer than one batch, refused at a line, stores nothing; a partial run
/// followed by the corrected file appends exactly what is missing; a file whose history differs
/// from what is stored is refused before anything is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_or_retried_long_file_appends_exactly_what_is_missing() {
    let mut server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let bad = write("bad.jsonl", &long_game(2_500, Some(1_700)));
    let prefix = write("prefix.jsonl", &long_game(1_500, None));
    let good = write("good.jsonl", &long_game(2_500, None));
    let forked = write("forked.jsonl", &long_game(2_500, None).replacen("question 100\"", "question 100, again\"", 1));
    let run = |path: &str| {
        let url = url.clone();
        let path = path.to_owned();
        async move {
            tokio::task::spawn_blocking(move || {
                let out = ledgerctl(&["--server", &url, "append", "--stream", "game/long", "--file", &path], "");
                (out.status.code(), text(&out.stdout), text(&out.stderr))
            })
            .await
            .unwrap()
        }
    };
    let (code, _, stderr) = run(&bad).await;
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr.trim(),
        "line 1700: FAILED_PRECONDITION: turn_started 5 skips a turn: turn 1 comes next; nothing was stored"
    );
    assert_eq!(server.version("game/long").await, 0);
    // An interrupted run stored the first 1,500 lines; the corrected file adds the other 1,000.
    assert_eq!(run(&prefix).await.0, Some(0));
    let (code, stdout, stderr) = run(&bad).await;
    assert_eq!((code, stderr.trim().ends_with("; nothing was stored")), (Some(1), true), "{stdout}{stderr}");
    let (code, stdout, stderr) = run(&good).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("appended 1000 events to game/long: seq 1501–2500")
            && stdout.trim_end().ends_with("(1500 lines before them were already stored)"),
        "{stdout}"
    );
    assert_eq!(server.version("game/long").await, 2_500);
    let (code, stdout, _) = run(&good).await;
    assert_eq!((code, stdout.trim()), (Some(0), "game/long: these 2500 events were already appended; nothing new"));
    // A file that differs from the stored history at line 100 is refused; nothing is stored.
    let (code, _, stderr) = run(&forked).await;
    assert_eq!(code, Some(1));
    assert!(stderr.starts_with("line 100 is not in game/long, but line 101 after it is stored as seq 101"), "{stderr}");
    assert_eq!(server.version("game/long").await, 2_500);
    let stored = server.read("game/long").await;
    let mut ids: Vec<&str> = stored.iter().map(|r| r.envelope.as_ref().unwrap().event_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2_500, "every line stored once");
    server.stop().await;
}

/// A misspelled ruleset, stage, role or clearance is refused by the command line itself, before
/// anything reaches ledgerd: exit 2, the valid values listed, nothing appended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelled_name_is_refused_with_the_valid_values_and_nothing_is_appended() {
    let mut server = TestServer::start().await;
    let url = format!("http://{}", server.addr);
    let schedule = "tournament schedule --tournament wm26 --game q1-t1 --round 1 --table 1 --frederick a \
                    --elisabeth b --maria-theresa c --pompadour d";
    // A command line, its typo, and the valid values the refusal lists.
    let typos = [
        (
            "--clearance organiser tournament create --id wm26 --name WM --ruleset wm2051".to_owned(),
            "wm2051",
            "[possible values: wm2015, cafe2019, cafe2023]",
        ),
        (
            "--clearance judge tournament create --id wm26 --name WM --ruleset wm2015".to_owned(),
            "judge",
            "[possible values: public, analyst, table, organiser, jury]",
        ),
        (
            format!("--clearance organiser {schedule} --stage semifinal"),
            "semifinal",
            "[possible values: qualifying, final]",
        ),
        (
            "--clearance organiser tournament final choose --tournament wm26 --player a --role fritz".to_owned(),
            "fritz",
            "[possible values: frederick, elisabeth, maria_theresa, pompadour]",
        ),
        (
            "new-token --actor jury-1 --clearance public".to_owned(),
            "public",
            "[possible values: analyst, table, organiser, jury]",
        ),
    ];
    let run = move |line: String| {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = ["--server", &url].into_iter().chain(line.split_whitespace()).collect();
            ledgerctl(&args, "")
        })
    };
    for (line, typo, valid) in typos {
        let out = run(line.clone()).await.unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {stderr}");
        assert!(stderr.contains(&format!("invalid value '{typo}'")) && stderr.contains(valid), "{line}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{line}");
    }
    let listed = server.client.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await.unwrap();
    assert!(listed.into_inner().streams.is_empty(), "nothing was appended");
    // Spelled right, the same command is recorded.
    let line = "--clearance organiser tournament create --id wm26 --name WM --ruleset wm2015";
    let created = run(line.to_owned()).await.unwrap();
    assert_eq!(created.status.code(), Some(0), "{}", text(&created.stderr));
    assert_eq!(server.version("tournament/wm26").await, 1);
    server.stop().await;
}

/// Issue 24: a derived Andes event in a file given to `append` is refused with the ledger's own
/// reason, exit 1, nothing stored; `import` of an export (which holds them) restores the match,
/// checking each derived line against what the ledger derives, and refuses an export whose
/// derived lines were changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn append_refuses_a_derived_line_and_import_checks_an_exports_derived_lines() {
    use ledger::event::to_canonical_json;
    let mut origin = TestServer::start().await;
    let mut copy = TestServer::start().await;
    let full: Vec<ledger::Event> =
        ledger::andes::testing::seeded_match(0, 60).into_iter().map(ledger::Event::Andes).collect();
    let first_derived = 1 + full.iter().position(ledger::Event::is_derived).expect("the match captures or attacks");
    let jsonl = |events: &[&ledger::Event]| -> String {
        events.iter().map(|e| to_canonical_json(e).to_string() + "\n").collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.display().to_string()
    };
    let with_derived = write("with-derived.jsonl", &jsonl(&full.iter().collect::<Vec<_>>()));
    let moves = write("moves.jsonl", &jsonl(&full.iter().filter(|e| !e.is_derived()).collect::<Vec<_>>()));
    let ctl = |url: String, args: Vec<String>| {
        tokio::task::spawn_blocking(move || {
            let mut all = vec!["--server".to_owned(), url, "--clearance".into(), "organiser".into()];
            all.extend(args);
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            let out = ledgerctl(&all, "");
            (out.status.code(), text(&out.stdout), text(&out.stderr))
        })
    };
    let args = |line: &str| line.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let (url, copy_url) = (format!("http://{}", origin.addr), format!("http://{}", copy.addr));

    // `append` of the whole match, derived events included: refused at the first derived line.
    let (code, stdout, stderr) =
        ctl(url.clone(), args(&format!("append --stream andes/m1 --file {with_derived}"))).await.unwrap();
    let derived_name = full[first_derived - 1].type_name();
    assert_eq!((code, stdout.as_str()), (Some(1), ""), "{stderr}");
    assert_eq!(
        stderr.trim(),
        format!(
            "line {first_derived}: INVALID_ARGUMENT: {derived_name} is derived by the ledger from the move that causes \
             it and appended right after it; append the move_played alone; nothing was stored"
        )
    );
    assert_eq!(origin.version("andes/m1").await, 0, "nothing was stored");
    // The moves alone: the ledger derives the rest.
    let (code, stdout, stderr) =
        ctl(url.clone(), args(&format!("append --stream andes/m1 --file {moves}"))).await.unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("the ledger derived"), "{stdout}");
    let stored_events = |records: Vec<pb::RecordedEvent>| -> Vec<ledger::Event> {
        use ledger_proto::convert::FromProto;
        records.into_iter().map(|r| ledger::Event::from_proto(r.event.unwrap()).unwrap()).collect()
    };
    assert_eq!(stored_events(origin.read("andes/m1").await), full);

    // The export holds the derived events; `import` restores the match from it, twice idempotently.
    let (code, exported, stderr) = ctl(url.clone(), args("export --stream andes/m1")).await.unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(exported.lines().any(|l| l.contains(&format!("\"type\":\"{derived_name}\""))), "{exported}");
    let export = write("export.jsonl", &exported);
    // A changed export: the first derived line dropped, or a derived line that no move causes.
    let lines: Vec<&str> = exported.lines().collect();
    let dropped: String =
        lines.iter().enumerate().filter(|(i, _)| i + 1 != first_derived).map(|(_, l)| format!("{l}\n")).collect();
    let dropped = write("dropped.jsonl", &dropped);
    let orphan = write("orphan.jsonl", &format!("{}\n", lines[first_derived - 1]));
    for (file, refusal) in [
        (&dropped, format!("line {}: ", first_derived - 1)),
        (&orphan, format!("line 1: {derived_name} follows no move in the file")),
    ] {
        let (code, _, stderr) = ctl(copy_url.clone(), args(&format!("import --file {file}"))).await.unwrap();
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.starts_with(&refusal) && stderr.trim_end().ends_with("nothing was stored"), "{stderr}");
        assert!(
            file == &orphan || stderr.contains(&format!("where the ledger derives {derived_name}")),
            "the refusal names what the ledger derives: {stderr}"
        );
        assert_eq!(copy.version("andes/m1").await, 0, "nothing was stored");
    }
    for _ in 0..2 {
        let (code, _, stderr) = ctl(copy_url.clone(), args(&format!("import --file {export}"))).await.unwrap();
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(stored_events(copy.read("andes/m1").await), full, "the copy is the match, derived events in place");
    }
    // Stored already, the export's derived lines are checked against what the copy stored.
    let (code, _, stderr) = ctl(copy_url.clone(), args(&format!("import --file {dropped}"))).await.unwrap();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(&format!("where the ledger derived {derived_name}")), "{stderr}");
    origin.stop().await;
    copy.stop().await;
}
