//! Checkpoints and proofs end to end (issue 26), with the real ledgerd and ledgerctl: a proof
//! file checked offline, and each tampering caught by a proof against a checkpoint signed before.
//!
//! How tampering is simulated: a "rewritten history" is a second data directory copied from the
//! first while ledgerd was stopped (so both share the past exactly), then given another
//! continuation under the same signing key, as an organiser restoring a backup and recording
//! again would. The client or witness that kept a checkpoint of the first history is then shown
//! the second. An edited tree file is the tree's own bytes changed on disk.

use crate::daemon::Daemon;
use crate::support::{eventually, run_ledgerctl};
use ledger_proto::v1 as pb;
use ledger_proto::v1::proofs_client::ProofsClient;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tonic::transport::Channel;

/// A signing key made by `ledgerctl new-signing-key`, and its printed public key.
fn new_key(dir: &Path, name: &str) -> (PathBuf, String) {
    let path = dir.join(format!("{}.key", name.replace('/', "_")));
    let out = run_ledgerctl(&["new-signing-key", "--name", name, "--out", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (path, String::from_utf8(out.stdout).unwrap().trim().to_owned())
}

fn ledgerd(data_dir: &Path, key: &Path) -> Daemon {
    Daemon::spawn_with(data_dir, &["--signing-key", key.to_str().unwrap(), "--checkpoint-interval", "1"])
}

/// Appends JSON lines to a stream as the jury, through ledgerctl.
fn append(daemon: &Daemon, stream: &str, lines: &[serde_json::Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let server = format!("http://{}", daemon.addr());
    let out = run_ledgerctl(&["--server", &server, "--clearance", "jury", "append", "--stream", stream], &text);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn started() -> serde_json::Value {
    json!({"type": "game_started", "at_ms": 0, "ruleset": "wm2015"})
}

fn call(reason: &str) -> serde_json::Value {
    json!({"type": "jury_called", "reason": reason})
}

async fn proofs_client(daemon: &Daemon) -> ProofsClient<Channel> {
    daemon.connect().await;
    ProofsClient::connect(format!("http://{}", daemon.addr())).await.unwrap()
}

/// The first checkpoint holding at least `size` records (waits for the keeper: bounded).
async fn checkpoint(client: &mut ProofsClient<Channel>, size: u64) -> pb::SignedCheckpoint {
    eventually(&format!("a checkpoint of {size} records"), Duration::from_secs(20), || {
        let mut client = client.clone();
        async move { client.get_checkpoint(pb::GetCheckpointRequest { at_least_size: size }).await.ok() }
    })
    .await
    .into_inner()
}

fn ledgerctl_at(daemon: &Daemon, args: &[&str]) -> std::process::Output {
    let server = format!("http://{}", daemon.addr());
    let mut all = vec!["--server", server.as_str()];
    all.extend_from_slice(args);
    run_ledgerctl(&all, "")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `prove` writes a proof file of a stream against a checkpoint; `verify-proof` checks it
/// offline (the ledgerd stopped) with only the public key; an edited record fails it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proof_file_is_checked_offline_and_an_edited_record_fails_it() {
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let daemon = ledgerd(&dir.path().join("data"), &key);
    append(&daemon, "game/q1-t1", &[started(), call("a dispute"), call("another")]);
    append(&daemon, "game/q1-t2", &[started()]);
    append(&daemon, "game/q1-t1", &[call("late")]);
    let mut client = proofs_client(&daemon).await;
    let signed = checkpoint(&mut client, 5).await;
    let out = ledgerctl_at(&daemon, &["checkpoint", "--at-least", "5"]);
    assert_eq!(text(&out.stdout), signed.note, "ledgerctl checkpoint prints the note as signed");
    let note = dir.path().join("checkpoint.txt");
    std::fs::write(&note, &out.stdout).unwrap();

    let out = ledgerctl_at(&daemon, &["prove", "--stream", "game/q1-t1", "--checkpoint", note.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let proof = dir.path().join("proof.json");
    std::fs::write(&proof, &out.stdout).unwrap();
    drop(daemon);

    let verify = |file: &Path| run_ledgerctl(&["verify-proof", file.to_str().unwrap(), "--key", &public], "");
    let out = verify(&proof);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(
            "verified: events 1–4 of game/q1-t1, from its first event: all 4 it had as of the checkpoint; each is in the log"
        ),
        "{}",
        text(&out.stdout)
    );

    let mut bundle: serde_json::Value = serde_json::from_slice(&std::fs::read(&proof).unwrap()).unwrap();
    bundle["events"][1]["record"]["event"]["reason"] = json!("no dispute at all");
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, bundle.to_string()).unwrap();
    let out = verify(&edited);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("game/q1-t1 event 2 (position 2) was altered"), "{}", text(&out.stderr));

    // A file that leaves an event out, or shows one twice, lies by omission: refused with its seq.
    let tampered = |change: &dyn Fn(&mut Vec<serde_json::Value>), name: &str| {
        let mut bundle: serde_json::Value = serde_json::from_slice(&std::fs::read(&proof).unwrap()).unwrap();
        change(bundle["events"].as_array_mut().unwrap());
        let file = dir.path().join(name);
        std::fs::write(&file, bundle.to_string()).unwrap();
        let out = verify(&file);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stdout));
        text(&out.stderr)
    };
    let dropped = tampered(&|events| drop(events.remove(1)), "dropped.json");
    assert!(dropped.contains("game/q1-t1 event 2 missing between events 1 and 3"), "{dropped}");
    let repeated = tampered(&|events| events.insert(2, events[1].clone()), "repeated.json");
    assert!(repeated.contains("game/q1-t1 event 2 appears twice"), "{repeated}");
    let swapped = tampered(&|events| events.swap(1, 2), "swapped.json");
    assert!(swapped.contains("game/q1-t1 event 2 missing between events 1 and 3"), "{swapped}");

    // Another key (a forged checkpoint) is refused before any event is looked at.
    let (_, stranger) = new_key(dir.path(), "ledger.test/open26-forger");
    let out = run_ledgerctl(&["verify-proof", proof.to_str().unwrap(), "--key", &stranger], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not the ledger's signed checkpoint"), "{}", text(&out.stderr));
}

/// A history rewritten after a checkpoint (a dropped stream, an edited record, a truncated
/// tail, all in one other continuation) and shown to a client: its consistency proof and its
/// inclusion proofs fail against the checkpoint signed before; witnesses who saw the two
/// histories each raise the alarm.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_history_fails_against_the_checkpoint_signed_before_and_witnesses_alarm() {
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let (data_a, data_b) = (dir.path().join("a"), dir.path().join("b"));
    let daemon = ledgerd(&data_a, &key);
    append(&daemon, "game/q1-t1", &[started(), call("first")]);
    append(&daemon, "game/q1-t2", &[started()]);
    let mut client = proofs_client(&daemon).await;
    let past = checkpoint(&mut client, 3).await;
    drop(daemon); // kill -9: the copy is what a backup of a stopped ledgerd holds
    copy_dir(&data_a, &data_b);

    // The true history goes on: game q1-t2 gets events, q1-t1 one more.
    let daemon_a = ledgerd(&data_a, &key);
    append(&daemon_a, "game/q1-t2", &[call("t2 dispute"), call("t2 ruling asked")]);
    append(&daemon_a, "game/q1-t1", &[call("honest")]);
    let mut client_a = proofs_client(&daemon_a).await;
    let true_checkpoint = checkpoint(&mut client_a, 6).await;

    // The rewritten one: q1-t2's events dropped, q1-t1's last record edited, a shorter tail.
    let daemon_b = ledgerd(&data_b, &key);
    append(&daemon_b, "game/q1-t1", &[call("edited")]);
    let mut client_b = proofs_client(&daemon_b).await;
    let rewritten = checkpoint(&mut client_b, 4).await;
    assert_eq!(rewritten.tree_size, 4);

    // Both are validly signed by the same key: the signature alone does not tell them apart.
    let key_parsed = ledger_proof::VerifierKey::parse(&public).unwrap();
    for note in [&true_checkpoint.note, &rewritten.note] {
        ledger_proof::Checkpoint::open(note, &key_parsed, &[]).unwrap();
    }
    // The past checkpoint (size 3) is in both; each extends it.
    for client in [&mut client_a, &mut client_b] {
        let proof = consistency(client, past.tree_size, 0).await;
        let latest = client.get_checkpoint(pb::GetCheckpointRequest::default()).await.unwrap().into_inner();
        ledger_proof::verify_consistency(
            past.tree_size,
            latest.tree_size,
            &hash(&past.root),
            &hash(&latest.root),
            &proof,
        )
        .unwrap();
    }
    // A client who kept the true checkpoint (6) is shown the rewritten log: the truncated tail
    // (4 < 6) has no consistency proof to it, in either direction.
    let shrunk = client_b.get_consistency_proof(pb::ConsistencyProofRequest { old_size: 6, new_size: 4 }).await;
    assert_eq!(shrunk.unwrap_err().code(), tonic::Code::InvalidArgument);
    let beyond = client_b.get_consistency_proof(pb::ConsistencyProofRequest { old_size: 4, new_size: 6 }).await;
    assert_eq!(beyond.unwrap_err().code(), tonic::Code::OutOfRange);
    // Once the rewritten log grows past 6, the proof it gives does not lead to the true root.
    append(&daemon_b, "game/q1-t1", &[call("more"), call("and more"), call("and yet more")]);
    let grown = checkpoint(&mut client_b, 7).await;
    let proof = consistency(&mut client_b, 6, grown.tree_size).await;
    let checked =
        ledger_proof::verify_consistency(6, grown.tree_size, &hash(&true_checkpoint.root), &hash(&grown.root), &proof);
    assert!(checked.is_err(), "a rewritten log proved consistent with the true checkpoint");

    // The edited record's proof against the true checkpoint fails offline; the dropped stream
    // q1-t2 has no events to prove in the rewritten log past its start.
    let note = dir.path().join("true-checkpoint.txt");
    std::fs::write(&note, &true_checkpoint.note).unwrap();
    let out = ledgerctl_at(&daemon_b, &["prove", "--stream", "game/q1-t1", "--checkpoint", note.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let forged = dir.path().join("forged.json");
    std::fs::write(&forged, &out.stdout).unwrap();
    let out = run_ledgerctl(&["verify-proof", forged.to_str().unwrap(), "--key", &public], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("is not in the log of the checkpoint of 6 events"), "{}", text(&out.stderr));
    let out = ledgerctl_at(
        &daemon_b,
        &["prove", "--stream", "game/q1-t2", "--seq", "2", "--checkpoint", note.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("game/q1-t2 has no event 2"), "{}", text(&out.stderr));

    // Two witnesses, each shown one history, cosign it; shown the other, each raises the alarm.
    let (witness_key, _) = new_key(dir.path(), "witness.test/club");
    let witness = |daemon: &Daemon, state: &str| {
        let state = dir.path().join(state);
        let args = ["witness", "--key", &public, "--witness-key", witness_key.to_str().unwrap(), "--once"];
        let mut args = args.to_vec();
        args.extend(["--state", state.to_str().unwrap()]);
        ledgerctl_at(daemon, &args)
    };
    for (daemon, state) in [(&daemon_a, "one.json"), (&daemon_b, "two.json")] {
        let out = witness(daemon, state);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("— witness.test/club "), "a cosignature: {}", text(&out.stdout));
        assert!(text(&out.stdout).contains("— ledger.test/open26 "), "the log's signature: {}", text(&out.stdout));
    }
    for (daemon, state) in [(&daemon_b, "one.json"), (&daemon_a, "two.json")] {
        let out = witness(daemon, state);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
        assert!(text(&out.stderr).contains("WITNESS ALARM: "), "{}", text(&out.stderr));
    }
}

/// An edited tree file (a leaf in the middle, which the first and last leaf checks miss) is
/// found against the checkpoint signed before and rebuilt from the log: the checkpoints that
/// follow extend the old ones and proofs hold again. A ledgerd without a key serves no proofs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_tree_file_is_rebuilt_from_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let data = dir.path().join("data");
    let daemon = ledgerd(&data, &key);
    append(&daemon, "game/g", &[started(), call("1"), call("2"), call("3"), call("4")]);
    let mut client = proofs_client(&daemon).await;
    let before = checkpoint(&mut client, 5).await;
    let (witness_key, _) = new_key(dir.path(), "witness.test/club");
    let state = dir.path().join("witness.json");
    let witness = |daemon: &Daemon| {
        let args = ["witness", "--key", &public, "--witness-key", witness_key.to_str().unwrap(), "--once", "--state"];
        let mut args = args.to_vec();
        args.push(state.to_str().unwrap());
        ledgerctl_at(daemon, &args)
    };
    assert!(witness(&daemon).status.success());
    drop(daemon);

    let leaves = data.join("proofs/tree/level-00");
    let mut bytes = std::fs::read(&leaves).unwrap();
    assert_eq!(bytes.len(), 5 * 32);
    bytes[2 * 32] ^= 1;
    std::fs::write(&leaves, bytes).unwrap();

    let daemon = ledgerd(&data, &key);
    append(&daemon, "game/g", &[call("5")]);
    let mut client = proofs_client(&daemon).await;
    let after = checkpoint(&mut client, 6).await;
    let proof = consistency(&mut client, before.tree_size, after.tree_size).await;
    ledger_proof::verify_consistency(5, after.tree_size, &hash(&before.root), &hash(&after.root), &proof).unwrap();
    let out = witness(&daemon);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The proof of the edited leaf's neighbour (which holds the edited leaf) holds again: the
    // tree was rebuilt from the log.
    let record = crate::daemon::read_all(&mut daemon.connect().await, "game/g").await.remove(3);
    let asked = pb::InclusionProofRequest { position: 4, tree_size: after.tree_size, ..Default::default() };
    let proof = client.get_inclusion_proof(asked).await.unwrap().into_inner();
    let proof: Vec<ledger_proof::Hash> = proof.hashes.iter().map(|h| hash(h)).collect();
    let leaf = ledger_proof::leaf_hash(&record.envelope.hash);
    ledger_proof::verify_inclusion(3, after.tree_size, &leaf, &proof, &hash(&after.root)).unwrap();
    drop(daemon);

    let open = Daemon::spawn(&dir.path().join("open"));
    let mut client = proofs_client(&open).await;
    let refused = client.get_checkpoint(pb::GetCheckpointRequest::default()).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
    assert!(refused.message().contains("--signing-key"), "{}", refused.message());
}

async fn consistency(client: &mut ProofsClient<Channel>, old_size: u64, new_size: u64) -> Vec<ledger_proof::Hash> {
    let proof = client.get_consistency_proof(pb::ConsistencyProofRequest { old_size, new_size }).await.unwrap();
    proof.into_inner().hashes.iter().map(|h| hash(h)).collect()
}

fn hash(bytes: &[u8]) -> ledger_proof::Hash {
    bytes.try_into().unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A round's checkpoint is signed at exactly the round's last event: the `game_ended` of the last
/// of its games (here round 1 of a four-player draw is one game), whatever comes after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_is_signed_at_its_last_game_end() {
    use ledger::{Event, Ruleset};
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    // No checkpoint by the clock during the test: only the start's and the round's.
    let daemon = Daemon::spawn_with(
        &dir.path().join("data"),
        &["--signing-key", key.to_str().unwrap(), "--checkpoint-interval", "3600", "--http-listen", "127.0.0.1:0"],
    );
    let tournament = ledger::testing::simple_tournament(Ruleset::Cafe2019, 4);
    let drawn = tournament.iter().find_map(|e| match e {
        Event::QualifyingDrawn { games, .. } => Some(games.clone()),
        _ => None,
    });
    let first = drawn.unwrap().into_iter().filter(|g| g.round == 1).map(|g| g.game).collect::<Vec<_>>();
    assert_eq!(first.len(), 1, "four players play one game a round");
    let game = (1..50u32)
        .map(|seed| {
            ledger::testing::simulate_game(
                Ruleset::Cafe2019,
                &(0..3000u32).map(|i| i.wrapping_mul(seed * 7_919 + 1) % 1_000_003).collect::<Vec<_>>(),
            )
        })
        .find(|events| matches!(events.last(), Some(Event::GameEnded { .. })))
        .expect("a simulated game that ends");
    let lines = |events: &[Event]| events.iter().map(ledger::event::to_canonical_json).collect::<Vec<_>>();
    append(&daemon, "tournament/t", &lines(&tournament));
    append(&daemon, &format!("game/{}", first[0]), &lines(&game));
    let round_end = u64::try_from(tournament.len() + game.len()).unwrap();
    append(&daemon, "game/other", &[started()]);
    let mut client = proofs_client(&daemon).await;
    let signed = checkpoint(&mut client, round_end).await;
    assert_eq!(signed.tree_size, round_end, "the round's checkpoint ends at its last game_ended");
    assert_eq!(signed.reason, "end of round 1 of tournament/t");

    // The jury's report carries the game's proof against that checkpoint, checkable offline.
    let out = ledgerctl_at(&daemon, &["audit", &first[0], "--report"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let section = report.split("## In the ledger's signed log").nth(1).expect("the report's proof section");
    assert!(
        section.contains(&format!("checkpoint of {round_end} events (end of round 1 of tournament/t)")),
        "{section}"
    );
    let json = section.split("```json\n").nth(1).and_then(|rest| rest.split("\n```").next()).unwrap();
    let proof = dir.path().join("report-proof.json");
    std::fs::write(&proof, json).unwrap();
    // The report's proof is the whole game (issue 43): every event and the game's head.
    assert!(section.contains(&format!("Every event of game/{}, 1 to {}", first[0], game.len())), "{section}");
    let out = run_ledgerctl(&["verify-proof", "--whole", proof.to_str().unwrap(), "--key", &public], "");
    assert!(out.status.success(), "{}", text(&out.stderr));

    // The jury's page shows the same proof, in the reader's language, and hands over the file;
    // the Markdown report downloaded from the page ends as `ledgerctl audit --report` does.
    let page = page_at(&daemon, &format!("/jury/{}", first[0]), "es").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let lead = page.split("id=\"proof-lead\">").nth(1).and_then(|rest| rest.split('<').next()).expect("the proof");
    assert!(lead.contains(&format!("punto de control firmado del ledger de {round_end} eventos")), "{lead}");
    // The download is the whole game (issue 43): the file `ledgerctl prove` writes against the
    // round's checkpoint, every event and the game's head.
    let file = page_at(&daemon, &format!("/jury/{}/proof.json", first[0]), "es").await;
    let body = file.split_once("\r\n\r\n").unwrap().1;
    let bundle: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(bundle["checkpoint"], serde_json::from_str::<serde_json::Value>(json).unwrap()["checkpoint"]);
    let note = dir.path().join("round.txt");
    std::fs::write(&note, bundle["checkpoint"].as_str().unwrap()).unwrap();
    let stream = format!("game/{}", first[0]);
    let out = ledgerctl_at(&daemon, &["prove", "--stream", &stream, "--checkpoint", note.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), body, "the page's download is the file ledgerctl prove writes");
    let from_page = dir.path().join("page-proof.json");
    std::fs::write(&from_page, body).unwrap();
    let out = run_ledgerctl(&["verify-proof", "--whole", from_page.to_str().unwrap(), "--key", &public], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let markdown = page_at(&daemon, &format!("/jury/{}/report.md", first[0]), "en").await;
    let from_web = markdown.split("## In the ledger's signed log").nth(1).expect("the web report's proof section");
    assert_eq!(from_web.trim_end(), section.trim_end(), "the same proof section as ledgerctl's");
    // A game no checkpoint holds yet says so.
    let pending = page_at(&daemon, "/jury/other", "en").await;
    assert!(pending.contains("id=\"proof-none\""), "{pending}");

    // The board shows the latest checkpoint as text and as a QR code that reads back as the note.
    let page = board_page(&daemon, "t").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let section = page.split("<section class=\"checkpoint\">").nth(1).expect("the board's checkpoint section");
    assert!(section.contains("Signed checkpoint of the log"), "{section}");
    assert!(section.contains(&format!("ledger.test/open26\n{round_end}\n")), "the note as text: {section}");
    assert!(section.contains("<svg"), "the note as a QR code: {section}");
}

/// Each checkpoint goes out on NATS (`ledger.checkpoint.v1`) beside the fan-out, which keeps
/// publishing every event: the checkpoints' subject is outside the fan-out stream's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkpoints_are_published_on_nats_beside_the_fan_out() {
    use crate::fanout::{nats_server_binary, NatsServer};
    use tokio_stream::StreamExt;
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, &dir.path().join("nats"));
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let client = async_nats::connect(nats.url()).await.unwrap();
    let mut checkpoints = client.subscribe(ledger_daemon::proofs::publish::SUBJECT).await.unwrap();
    client.flush().await.unwrap();
    let args = ["--signing-key", key.to_str().unwrap(), "--checkpoint-interval", "1", "--nats-url", &nats.url()];
    let daemon = Daemon::spawn_with(&dir.path().join("data"), &args);
    append(&daemon, "game/g", &[started(), call("1")]);
    let key = ledger_proof::VerifierKey::parse(&public).unwrap();
    let size = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let message = checkpoints.next().await.expect("the subscription lives");
            let note = std::str::from_utf8(&message.payload).unwrap();
            let opened = ledger_proof::Checkpoint::open(note, &key, &[]).expect("a checkpoint signed by the key");
            let header = message.headers.as_ref().and_then(|h| h.get(ledger_daemon::proofs::publish::SIZE_HEADER));
            assert_eq!(header.map(|v| v.as_str().to_owned()), Some(opened.checkpoint.size.to_string()));
            if opened.checkpoint.size == 2 {
                return opened.checkpoint.size;
            }
        }
    })
    .await
    .expect("the checkpoint of both events on NATS within 20 s");
    assert_eq!(size, 2);
    let js = async_nats::jetstream::new(client);
    let events = eventually("the fan-out to publish both events", Duration::from_secs(20), || {
        let js = js.clone();
        async move {
            let mut stream = js.get_stream("LEDGER").await.ok()?;
            let held = stream.info().await.ok()?.state.messages;
            (held == 2).then_some(held)
        }
    })
    .await;
    assert_eq!(events, 2, "only the events are in the fan-out's stream");
}

/// On JetStream every ledgerd follows the one shared log in its order, so two ledgerd with the
/// same key keep the same tree: their proofs are the same hashes, and a witness that cosigned
/// one's checkpoint finds the other's consistent with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ledgerd_on_jetstream_keep_the_same_tree() {
    use crate::fanout::{nats_server_binary, NatsServer};
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, &dir.path().join("nats"));
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let url = nats.url();
    let args = ["--backend", "jetstream", "--nats-url", &url, "--signing-key", key.to_str().unwrap()];
    let both: Vec<Daemon> = ["a", "b"]
        .iter()
        .map(|name| {
            let mut args = args.to_vec();
            args.extend(["--checkpoint-interval", "1"]);
            Daemon::spawn_with(&dir.path().join(name), &args)
        })
        .collect();
    append(&both[0], "game/a", &[started(), call("a1")]);
    append(&both[1], "game/b", &[started(), call("b1")]);
    append(&both[0], "game/b", &[call("b2 via a")]);
    append(&both[1], "game/a", &[call("a2 via b")]);
    let mut clients = Vec::new();
    for daemon in &both {
        let mut client = proofs_client(daemon).await;
        assert_eq!(checkpoint(&mut client, 6).await.tree_size, 6);
        clients.push(client);
    }
    let mut proofs = Vec::new();
    for client in &mut clients {
        let inclusion = pb::InclusionProofRequest { position: 3, tree_size: 6, ..Default::default() };
        proofs.push((
            consistency(client, 2, 6).await,
            client.get_inclusion_proof(inclusion).await.unwrap().into_inner().hashes,
        ));
    }
    assert_eq!(proofs[0], proofs[1], "the same tree on both ledgerd");
    let (witness_key, _) = new_key(dir.path(), "witness.test/club");
    let state = dir.path().join("witness.json");
    for daemon in &both {
        let args = ["witness", "--key", &public, "--witness-key", witness_key.to_str().unwrap(), "--once", "--state"];
        let mut args = args.to_vec();
        args.push(state.to_str().unwrap());
        let out = ledgerctl_at(daemon, &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
}

/// The access table's rows for proofs: checkpoints and consistency proofs are for everyone (the
/// public gets past the access check to the missing key here), an inclusion proof is a read of
/// its stream's kind, or of the whole log when asked by position.
#[tokio::test]
async fn proofs_follow_the_access_table() {
    use ledger_house::auth::{token_digest, Auth, Identity, Role};
    let table = Identity::new("table-1", Role::Table);
    let auth = Auth::Tokens(std::collections::HashMap::from([(token_digest("table-secret"), table)]).into());
    let server = crate::support::TestServer::start_with_auth(auth).await;
    let channel = Channel::from_shared(format!("http://{}", server.addr)).unwrap().connect().await.unwrap();
    let mut client = ProofsClient::new(channel);
    let public = client.get_checkpoint(with(None, pb::GetCheckpointRequest::default())).await.unwrap_err();
    assert_eq!(public.code(), tonic::Code::FailedPrecondition, "{}", public.message());
    let asked = pb::ConsistencyProofRequest { old_size: 1, new_size: 2 };
    let public = client.get_consistency_proof(with(None, asked)).await.unwrap_err();
    assert_eq!(public.code(), tonic::Code::FailedPrecondition, "{}", public.message());
    let game = pb::InclusionProofRequest { stream: "game/g".into(), seq: 1, ..Default::default() };
    let public = client.get_inclusion_proof(with(None, game.clone())).await.unwrap_err();
    assert_eq!(public.code(), tonic::Code::Unauthenticated);
    let table = client.get_inclusion_proof(with(Some("table-secret"), game)).await.unwrap_err();
    assert_eq!(table.code(), tonic::Code::FailedPrecondition, "a table may prove a game's events");
    let by_position = pb::InclusionProofRequest { position: 1, ..Default::default() };
    let table = client.get_inclusion_proof(with(Some("table-secret"), by_position)).await.unwrap_err();
    assert_eq!(table.code(), tonic::Code::PermissionDenied);
    assert_eq!(table.message(), "reading the whole log is for organiser, jury; table-1 is cleared as table");
    server.stop().await;
}

/// `message` with a bearer token, or as the public.
fn with<T>(token: Option<&str>, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Some(token) = token {
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    request
}

/// A witness hands its cosignature back (`witness --publish`): ledgerd keeps it when it knows the
/// witness's key, serves the cosigned note, and the board names the witness; an unknown witness's
/// cosignature is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_witness_cosignature_is_handed_back_and_shown_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = new_key(dir.path(), "ledger.test/open26");
    let (witness_key, witness_public) = new_key(dir.path(), "witness.test/club");
    let (stranger_key, _) = new_key(dir.path(), "witness.test/stranger");
    let args = [
        "--signing-key",
        key.to_str().unwrap(),
        "--checkpoint-interval",
        "1",
        "--witness",
        &witness_public,
        "--http-listen",
        "127.0.0.1:0",
    ];
    let daemon = Daemon::spawn_with(&dir.path().join("data"), &args);
    append(&daemon, "tournament/t", &[json!({"type": "tournament_created", "name": "T", "ruleset": "cafe2019"})]);
    let mut client = proofs_client(&daemon).await;
    checkpoint(&mut client, 1).await;
    let witness = |key: &Path, state: &str| {
        let state = dir.path().join(state);
        let args = ["witness", "--key", &public, "--witness-key", key.to_str().unwrap(), "--once", "--publish"];
        let mut args = args.to_vec();
        args.extend(["--state", state.to_str().unwrap()]);
        ledgerctl_at(&daemon, &args)
    };
    let out = witness(&witness_key, "club.json");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let refused = witness(&stranger_key, "stranger.json");
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stdout));
    let said = text(&refused.stderr);
    assert!(
        said.contains(
            "the ledger did not keep the cosignature: INVALID_ARGUMENT: witness.test/stranger is not a witness"
        ),
        "{said}"
    );
    assert!(!said.contains("ALARM"), "{said}");

    let latest = client.get_checkpoint(pb::GetCheckpointRequest::default()).await.unwrap().into_inner();
    assert_eq!(latest.cosigned_by, ["witness.test/club"]);
    let keys = [ledger_proof::VerifierKey::parse(&witness_public).unwrap()];
    let opened =
        ledger_proof::Checkpoint::open(&latest.note, &ledger_proof::VerifierKey::parse(&public).unwrap(), &keys);
    assert_eq!(opened.unwrap().cosigned_by, keys);

    let page = board_page(&daemon, "t").await;
    assert!(page.contains("cosigned by the witnesses witness.test/club"), "{page}");
    assert!(page.contains("— witness.test/club "), "the cosigned note: {page}");

    // Kept on disk: after a restart (a kill) the cosigned note is served again.
    drop(daemon);
    let daemon = Daemon::spawn_with(&dir.path().join("data"), &args);
    let mut client = proofs_client(&daemon).await;
    let again = client.get_checkpoint(pb::GetCheckpointRequest::default()).await.unwrap().into_inner();
    assert_eq!(
        (again.note, again.cosigned_by),
        (latest.note, latest.cosigned_by),
        "the cosignature outlives a restart"
    );
}

/// The board page of `tournament`, in English, as a browser gets it (status line included).
async fn board_page(daemon: &Daemon, tournament: &str) -> String {
    page_at(daemon, &format!("/board/{tournament}"), "en").await
}

/// A page of ledgerd's, as the raw HTTP answer, in `lang`.
async fn page_at(daemon: &Daemon, path: &str, lang: &str) -> String {
    let (http, path, lang) = (daemon.announced("http").to_owned(), path.to_owned(), lang.to_owned());
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&http).unwrap();
        // On an open ledgerd the jury signs in by naming itself (the sign-in form's cookies).
        let jury = format!("ledger_actor={}; ledger_clearance=jury", hex::encode("anna"));
        write!(stream, "GET {path} HTTP/1.1\r\nHost: ledgerd\r\nAccept-Language: {lang}\r\nCookie: {jury}\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut page = String::new();
        stream.read_to_string(&mut page).unwrap();
        page
    })
    .await
    .unwrap()
}
