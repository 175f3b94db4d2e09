//! Bit rot on the real binaries: one flipped bit in a stopped ledgerd's records file costs the
//! one event it hits (every other event is served, the damaged one is DATA_LOSS naming where
//! it lies, health and metrics say so, appends go on), and `ledgerctl repair` takes damaged
//! events back from a copy: an export (holding only another game here, it repairs that game's
//! event and says what it left), then the JetStream stream ledgerd's NATS fan-out filled.

use crate::daemon::{read_all, Daemon};
use crate::fanout::{nats_server_binary, NatsServer};
use crate::support::{append, eventually, run_ledgerctl};
use ledger::{Event, Recorded, Ruleset};
use ledger_proto::convert::FromProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

/// Stops ledgerd as a supervisor would (SIGTERM) and waits for it to exit cleanly.
async fn stop(mut daemon: Daemon) {
    let pid = daemon.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status =
        eventually("ledgerd to stop", Duration::from_secs(20), || std::future::ready(daemon.child.try_wait().unwrap()))
            .await;
    assert!(status.success(), "{status}");
}

/// What a `Read` of the whole stream delivers: the events, then the error that ended it, if any.
async fn read_until_error(client: &mut LedgerClient<Channel>, stream: &str) -> (Vec<Recorded>, Option<tonic::Status>) {
    let request = pb::ReadRequest { stream: stream.into(), from_seq: 1, limit: None, ..Default::default() };
    let mut events = client.read(request).await.unwrap().into_inner();
    let mut records = Vec::new();
    while let Some(event) = events.next().await {
        match event {
            Ok(event) => records.push(Recorded::from_proto(event).unwrap()),
            Err(status) => return (records, Some(status)),
        }
    }
    (records, None)
}

async fn records_health(daemon: &Daemon) -> i32 {
    let channel = Channel::from_shared(format!("http://{}", daemon.addr())).unwrap().connect().await.unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let service = ledger_daemon::server::RECORDS_HEALTH.to_owned();
    health.check(tonic_health::pb::HealthCheckRequest { service }).await.map(|r| r.into_inner().status).unwrap_or(-1)
}

/// Flips one bit inside the only stored copy of `marker` in the records file.
fn flip_a_bit_in(data: &Path, marker: &[u8]) {
    let file = data.join(ledger_store::sled::RECORDS_FILE);
    let mut bytes = std::fs::read(&file).unwrap();
    let places: Vec<usize> =
        bytes.windows(marker.len()).enumerate().filter(|(_, w)| *w == marker).map(|(i, _)| i).collect();
    assert_eq!(places.len(), 1, "the marker is stored once");
    bytes[places[0] + 2] ^= 0x08;
    std::fs::write(&file, bytes).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flipped_bit_costs_one_event_and_ledgerctl_repair_takes_it_back_from_jetstream() {
    let Some(binary) = nats_server_binary() else { return };
    let (nats_dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let nats = NatsServer::start(&binary, nats_dir.path());
    let with = ["--nats-url", &nats.url(), "--metrics-listen", "127.0.0.1:0"];
    let daemon = Daemon::spawn_with(data.path(), &with);
    let mut client = daemon.connect().await;
    for game in ["a", "b"] {
        let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
        client.append(append(&format!("game/{game}"), &[start], &format!("{game}-start-"), None)).await.unwrap();
        // Turns 1 to 23, then action stages: a game's events past its last turn.
        for n in 1..40 {
            let event = ledger::testing::play_event_at(n);
            client
                .append(append(&format!("game/{game}"), &[event], &format!("{game}-event-{n}-"), None))
                .await
                .unwrap();
        }
    }
    let a = read_all(&mut client, "game/a").await;
    let b = read_all(&mut client, "game/b").await;
    let url = nats.url();
    eventually("JetStream to hold all 80 events", Duration::from_secs(30), || async {
        let js = async_nats::jetstream::new(async_nats::connect(&url).await.ok()?);
        let n = js.get_stream("LEDGER").await.ok()?.info().await.ok()?.state.messages;
        (n == 80).then_some(())
    })
    .await;
    let server = format!("http://{}", daemon.addr());
    let exported = run_ledgerctl(&["--server", &server, "--clearance", "jury", "export", "--stream", "game/b"], "");
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let export = data.path().parent().unwrap().join(format!("game-b-{}.jsonl", std::process::id()));
    std::fs::write(&export, &exported.stdout).unwrap();
    stop(daemon).await;

    // One bit of game a's 21st event (its event id is stored once, in it).
    flip_a_bit_in(data.path(), b"a-event-20-");
    let daemon = Daemon::spawn_with(data.path(), &with);
    let mut client = daemon.connect().await;
    let (served, error) = read_until_error(&mut client, "game/a").await;
    assert_eq!(served, a[..20], "the events before the damaged one are served unchanged");
    let error = error.expect("the damaged event is not served");
    assert_eq!(error.code(), tonic::Code::DataLoss, "{error:?}");
    let position = a[20].envelope.position;
    assert!(
        error.message().contains(&format!("event game/a #21 (position {position})")),
        "the error names the event: {}",
        error.message()
    );
    let request = pb::ReadRequest { stream: "game/a".into(), from_seq: 22, limit: None, ..Default::default() };
    let after: Vec<Recorded> = client
        .read(request)
        .await
        .unwrap()
        .into_inner()
        .map(|e| Recorded::from_proto(e.unwrap()).unwrap())
        .collect()
        .await;
    assert_eq!(after, a[21..], "and every event after it");
    assert_eq!(read_all(&mut client, "game/b").await, b, "the other game is whole");
    eventually("health to say the records are damaged", Duration::from_secs(20), || async {
        (records_health(&daemon).await == 2).then_some(())
    })
    .await;
    assert!(daemon.metrics().lines().any(|l| l == "ledger_records_damaged 1"), "{}", daemon.metrics());
    let more = ledger::testing::play_event_at(40);
    client.append(append("game/b", &[more], "b-event-40-", None)).await.expect("appends go on");
    stop(daemon).await;

    // And, the daemon stopped, one bit of game b's 11th event.
    flip_a_bit_in(data.path(), b"b-event-10-");
    let b_position = b[10].envelope.position;
    let dir = data.path().to_str().unwrap();
    let before = run_ledgerctl(&["verify", "--data-dir", dir], "");
    let said = String::from_utf8_lossy(&before.stdout);
    assert_eq!(before.status.code(), Some(1), "{said}");
    assert!(
        said.contains("game/a") && said.contains(&format!("no longer matches its checksum (position {position}")),
        "verify names the damaged event: {said}"
    );
    // An export of game b alone repairs b's event and leaves a's, saying so (exit 1).
    let partly = run_ledgerctl(&["repair", "--data-dir", dir, "--from-export", export.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&partly.stdout);
    assert_eq!(partly.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&partly.stderr));
    assert!(stdout.contains(&format!("repaired game/b #11 (position {b_position})")), "{stdout}");
    assert!(stdout.contains(&format!("left position {position} as it is: the copy does not hold it")), "{stdout}");
    std::fs::remove_file(&export).unwrap();
    let repaired = run_ledgerctl(&["repair", "--data-dir", dir, "--from-nats", &nats.url()], "");
    let stdout = String::from_utf8_lossy(&repaired.stdout);
    assert!(repaired.status.success(), "{stdout}{}", String::from_utf8_lossy(&repaired.stderr));
    assert!(stdout.contains(&format!("repaired game/a #21 (position {position})")), "{stdout}");
    let report = std::fs::read_to_string(data.path().join("repairs.jsonl")).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 2, "one line a repair: {report}");
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        (first["repaired"][0]["seq"].as_u64(), first["left"][0]["position"].as_u64()),
        (Some(11), Some(position))
    );
    let line: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(line["repaired"][0]["stream"], "game/a", "{report}");
    assert_eq!(line["repaired"][0]["seq"], 21, "{report}");

    let verified = run_ledgerctl(&["verify", "--data-dir", dir], "");
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    let daemon = Daemon::spawn_with(data.path(), &with);
    let mut client = daemon.connect().await;
    assert_eq!(read_all(&mut client, "game/a").await, a, "game a is whole again");
    assert_eq!(read_all(&mut client, "game/b").await[..40], b[..], "and game b");
    eventually("health to say the records are whole", Duration::from_secs(20), || async {
        (records_health(&daemon).await == 1).then_some(())
    })
    .await;
}

/// The copy can be another ledgerd serving the same log (here: on a copy of the data directory
/// taken before the damage): `ledgerctl --server … repair --from-ledger` reads the lost events
/// from it by position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_ledgerd_serving_the_same_log_is_a_copy_to_repair_from() {
    let (data, copy) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let daemon = Daemon::spawn(data.path());
    let mut client = daemon.connect().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    client.append(append("game/c", &[start], "c-start-", None)).await.unwrap();
    for turn in 1..12 {
        let event = Event::TurnStarted { turn, at_ms: None };
        client.append(append("game/c", &[event], &format!("c-turn-{turn}-"), None)).await.unwrap();
    }
    let c = read_all(&mut client, "game/c").await;
    stop(daemon).await;
    for entry in std::fs::read_dir(data.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, copy.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    flip_a_bit_in(data.path(), b"c-turn-5-");
    let other = Daemon::spawn(copy.path());
    let server = format!("http://{}", other.addr());
    let dir = data.path().to_str().unwrap();
    let repaired =
        run_ledgerctl(&["--server", &server, "--clearance", "jury", "repair", "--data-dir", dir, "--from-ledger"], "");
    let stdout = String::from_utf8_lossy(&repaired.stdout);
    assert!(repaired.status.success(), "{stdout}{}", String::from_utf8_lossy(&repaired.stderr));
    assert!(stdout.contains(&format!("repaired game/c #6 (position {})", c[5].envelope.position)), "{stdout}");
    let daemon = Daemon::spawn(data.path());
    let mut client = daemon.connect().await;
    assert_eq!(read_all(&mut client, "game/c").await, c, "game c is whole again");
}
