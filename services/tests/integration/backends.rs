//! The two backends behave alike: the core of the gRPC suite (refusals, retries, expected
//! versions, batches, pipelining, subscriptions) runs on sled and on JetStream. Then what only
//! the JetStream log must hold: restarts that keep every id (past JetStream's duplicate
//! window), two real ledgerd racing for the same games, and a three-node cluster losing a node
//! under load.
//!
//! JetStream tests start their own nats-server (2.12 or newer) on free loopback ports; without
//! one they skip loudly, except under `CI=true`, where they fail.

use crate::daemon::{read_all, Daemon};
use crate::fanout::{nats_server_binary, NatsServer};
use crate::support::{append, events, eventually, TestServer};
use ledger::envelope::verify_chain;
use ledger::{Event, Recorded, Ruleset};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_proto::v1::projections_client::ProjectionsClient;
use ledger_store::jetstream::{JetStreamConfig, JetStreamStorage};
use std::collections::HashMap;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::Code;

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sled() {
                crate::grpc::$name(crate::support::TestServer::start().await).await;
            }

            #[tokio::test]
            async fn jetstream() {
                let Some(binary) = crate::fanout::nats_server_binary() else { return };
                let dir = tempfile::tempdir().unwrap();
                let nats = crate::fanout::NatsServer::start(&binary, dir.path());
                let server = crate::support::TestServer::start_on_jetstream(&nats.url(), Default::default()).await;
                crate::grpc::$name(server).await;
            }
        }
    )*};
}

on_both_backends!(
    every_refusal_of_the_rule_book_is_refused_with_its_reason_and_appends_nothing,
    a_retried_append_returns_the_first_result_and_appends_nothing,
    two_writers_with_the_same_expected_version_one_wins_one_is_aborted,
    a_batch_with_one_bad_event_names_it_and_appends_nothing,
    pipelined_appends_are_acknowledged_in_order_and_a_refusal_does_not_end_the_stream,
    subscribe_passes_from_stored_to_live_events_without_gap_or_duplicate,
    read_pages_gives_the_events_of_read_many_to_a_message,
);

/// A stream read back is one unbroken chain, seqs 1, 2, 3 …
fn assert_one_chain(records: &[Recorded]) {
    for (idx, record) in records.iter().enumerate() {
        assert_eq!(record.envelope.seq, idx as u64 + 1, "no gap, no fork");
    }
    verify_chain(records).expect("the chain verifies");
}

#[tokio::test]
async fn a_restarted_ledgerd_on_jetstream_continues_the_chain_and_knows_every_id_past_the_duplicate_window() {
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, dir.path());
    let config = JetStreamConfig { duplicate_window: Duration::from_secs(1), ..JetStreamConfig::default() };
    let game = events(&ledger::testing::started_game(Some(Ruleset::Wm2015), 3));

    let mut first = TestServer::start_on_jetstream(&nats.url(), config.clone()).await;
    let stored = first.client.append(append("game/g", &game, "g-", None)).await.unwrap().into_inner();
    assert!(jetstream_remembers(&nats.url(), "g-0").await, "JetStream knows the id just stored");
    first.stop().await;
    // Past JetStream's own duplicate window: only the ledger's id index can tell a retry now.
    eventually("JetStream to forget the stored ids", Duration::from_secs(10), || async {
        (!jetstream_remembers(&nats.url(), "g-0").await).then_some(())
    })
    .await;

    let mut second = TestServer::start_on_jetstream(&nats.url(), config).await;
    let retry = second.client.append(append("game/g", &game, "g-", None)).await.unwrap().into_inner();
    assert!(retry.duplicate, "the retry is recognised after a restart and past the window");
    assert_eq!(
        (retry.first_seq, retry.last_seq, &retry.head_hash),
        (stored.first_seq, stored.last_seq, &stored.head_hash)
    );
    assert_eq!((retry.first_position, retry.last_position), (stored.first_position, stored.last_position));
    let next = Event::TcDealt { nation: ledger::Nation::Prussia, count: 2 };
    let more = second.client.append(append("game/g", &[next], "n-", Some(4))).await.unwrap().into_inner();
    assert_eq!((more.first_seq, more.first_position), (5, 5));
    let records: Vec<Recorded> = second
        .read("game/g")
        .await
        .into_iter()
        .map(|e| ledger_proto::convert::FromProto::from_proto(e).unwrap())
        .collect();
    assert_one_chain(&records);
    second.stop().await;
}

/// Whether JetStream still holds `event_id` in its duplicate window. The probe is an atomic
/// batch that can never be stored: its first message carries the id, its commit expects a last
/// sequence its subject does not have. JetStream refuses it for the duplicate id while it
/// remembers the id, and for the wrong last sequence once it has forgotten it (nats-server 2.15
/// checks a lone message's expected sequence before its id, so a single publish cannot tell).
async fn jetstream_remembers(url: &str, event_id: &str) -> bool {
    use async_nats::header::{
        NATS_BATCH_COMMIT, NATS_BATCH_COMMIT_FINAL, NATS_BATCH_ID, NATS_BATCH_SEQUENCE,
        NATS_EXPECTED_LAST_SUBJECT_SEQUENCE, NATS_MESSAGE_ID,
    };
    let client = async_nats::connect(url).await.unwrap();
    let subject = ledger_store::jetstream::subject(&ledger::StreamId::parse("game/duplicate-window-probe").unwrap());
    let batch = client.new_inbox();
    let mut first = async_nats::HeaderMap::new();
    first.insert(NATS_MESSAGE_ID, event_id);
    first.insert(NATS_EXPECTED_LAST_SUBJECT_SEQUENCE, "0");
    first.insert(NATS_BATCH_ID, batch.as_str());
    first.insert(NATS_BATCH_SEQUENCE, "1");
    client.publish_with_headers(subject.clone(), first, "probe".into()).await.unwrap();
    let mut commit = async_nats::HeaderMap::new();
    commit.insert(NATS_EXPECTED_LAST_SUBJECT_SEQUENCE, u32::MAX.to_string().as_str());
    commit.insert(NATS_BATCH_ID, batch.as_str());
    commit.insert(NATS_BATCH_SEQUENCE, "2");
    commit.insert(NATS_BATCH_COMMIT, NATS_BATCH_COMMIT_FINAL);
    let js = async_nats::jetstream::new(client);
    let ack = js.publish_with_headers(subject, commit, "probe".into()).await.unwrap().await;
    match ack {
        Ok(ack) => panic!("the probe was stored at {}", ack.sequence),
        Err(e) if e.to_string().contains("duplicate message id") => true,
        Err(e) if e.to_string().contains("wrong last sequence") => false,
        Err(e) => panic!("the probe of JetStream's duplicate window failed: {e}"),
    }
}

/// The turn a game stream expects next: its version (after `game_started`, turn 1 at version 1).
async fn version(client: &mut LedgerClient<Channel>, stream: &str) -> u64 {
    let listed = client.list_streams(pb::ListStreamsRequest { prefix: stream.into() }).await.unwrap();
    listed.into_inner().streams.iter().find(|s| s.stream == stream).map_or(0, |s| s.version)
}

/// Appends the next event of `game` (turns 1 to 23, then action stages:
/// `ledger::testing::play_event_at`) over and over, `n` acknowledged in all: racing writers get
/// refusals (the event was taken) or ABORTED, and try again. Returns (event id, seq) of each
/// acknowledged append, and how many attempts lost a race.
async fn race(mut client: LedgerClient<Channel>, game: String, writer: usize, n: usize) -> (Vec<(String, u64)>, usize) {
    let mut acknowledged = Vec::new();
    let mut lost = 0;
    let mut attempt = 0;
    while acknowledged.len() < n {
        attempt += 1;
        let event = ledger::testing::play_event_at(version(&mut client, &game).await);
        let id = format!("w{writer}-{attempt}");
        let request = pb::AppendRequest {
            stream: game.clone(),
            events: vec![pb::ProposedEvent {
                event_id: id.clone(),
                event: Some(ledger_proto::convert::ToProto::to_proto(&event)),
            }],
            expected_version: None,
        };
        match client.append(request).await {
            Ok(ok) => acknowledged.push((id, ok.into_inner().first_seq)),
            Err(status) => {
                assert!(
                    matches!(status.code(), Code::FailedPrecondition | Code::Aborted),
                    "a raced append gets a normal refusal or ABORTED, not {status:?}"
                );
                lost += 1;
            }
        }
    }
    (acknowledged, lost)
}

#[tokio::test]
async fn two_ledgerd_racing_on_one_jetstream_never_fork_and_lose_no_acknowledged_event() {
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, &dir.path().join("nats"));
    let url = nats.url();
    let args = ["--backend", "jetstream", "--nats-url", url.as_str()];
    let daemons = [Daemon::spawn_with(&dir.path().join("a"), &args), Daemon::spawn_with(&dir.path().join("b"), &args)];
    let mut clients = Vec::new();
    for daemon in &daemons {
        clients.push(daemon.connect().await);
    }
    let games = ["game/r1", "game/r2"];
    for game in games {
        let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
        clients[0].append(append(game, &[start], &format!("{game}-start-"), None)).await.unwrap();
    }
    // Two writers per daemon per game, each wanting 15 events acknowledged.
    let mut writers = tokio::task::JoinSet::new();
    let mut writer = 0;
    for game in games {
        for client in &clients {
            for _ in 0..2 {
                writer += 1;
                let (client, game, w) = (client.clone(), game.to_owned(), writer);
                writers.spawn(async move { (game.clone(), race(client, game, w, 15).await) });
            }
        }
    }
    let mut acknowledged: HashMap<String, Vec<(String, u64)>> = HashMap::new();
    let mut lost = 0;
    while let Some(done) = writers.join_next().await {
        let (game, (acks, lost_here)) = done.unwrap();
        acknowledged.entry(game).or_default().extend(acks);
        lost += lost_here;
    }
    assert!(lost > 0, "the writers raced: some lost a turn to another");
    for game in games {
        // Both daemons read the same single chain.
        let a = read_all(&mut clients[0], game).await;
        let b = read_all(&mut clients[1], game).await;
        assert_eq!(a, b, "{game}: one history, whichever ledgerd is asked");
        assert_one_chain(&a);
        assert_eq!(a.len(), 1 + 4 * 15, "{game}: every acknowledged append once, nothing else");
        let by_id: HashMap<&str, &Recorded> = a.iter().map(|r| (r.envelope.event_id.as_str(), r)).collect();
        for (id, seq) in &acknowledged[game] {
            assert_eq!(
                by_id.get(id.as_str()).map(|r| r.envelope.seq),
                Some(*seq),
                "{game}: {id} stored as acknowledged"
            );
        }
        for (idx, record) in a.iter().enumerate().skip(1) {
            assert_eq!(record.event, ledger::testing::play_event_at(idx as u64), "the rules held");
        }
    }
}

/// What one ledgerd answers for a game, the tournament and the analysts.
async fn projections_of(addr: &str) -> Result<[String; 3], tonic::Status> {
    let mut client = ProjectionsClient::connect(format!("http://{addr}")).await.unwrap();
    let sheet = pb::ScoreSheetRequest { game: "q1-t1".into(), as_of_seq: None };
    let standings = pb::StandingsRequest { tournament: "open26".into(), as_of_position: None, public: false };
    let stats = pb::RoleStatsRequest::default();
    Ok([
        client.get_score_sheet(sheet).await?.into_inner().json,
        client.get_standings(standings).await?.into_inner().json,
        client.get_role_stats(stats).await?.into_inner().json,
    ])
}

#[tokio::test]
async fn a_ledgerd_that_wrote_nothing_projects_the_games_another_ledgerd_scheduled() {
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, &dir.path().join("nats"));
    let url = nats.url();
    let args = ["--backend", "jetstream", "--nats-url", url.as_str()];
    let writer = Daemon::spawn_with(&dir.path().join("a"), &args);
    let reader = Daemon::spawn_with(&dir.path().join("b"), &args);
    writer.connect().await;
    reader.connect().await;
    // The reader is running before the tournament exists: it learns the schedule by following.
    let server = format!("http://{}", writer.addr());
    let tournament = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    let imported = tokio::task::spawn_blocking(move || {
        crate::support::run_ledgerctl(
            &["--server", &server, "--clearance", "organiser", "import", "--file", tournament],
            "",
        )
    })
    .await
    .unwrap();
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let written = projections_of(writer.addr()).await.expect("the writer projects what it wrote");
    assert!(written[0].contains("\"ruleset\":\"cafe2023\""), "the game takes its tournament's ruleset");
    eventually("the reader to catch up with the writer's tournament", Duration::from_secs(20), || async {
        projections_of(reader.addr()).await.ok().filter(|read| *read == written)
    })
    .await;
}

/// `deploy/nats-cluster/cluster.sh` run by a test: its own data directory and free ports; the
/// cluster is stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    base: u16,
    binary: std::path::PathBuf,
}

impl Cluster {
    fn start(binary: &std::path::Path) -> Cluster {
        let free = |port: u16| std::net::TcpListener::bind(("127.0.0.1", port)).is_ok();
        let seed = u16::try_from(std::process::id() % 2000).unwrap();
        let base = (0..200)
            .map(|k| 30_000 + (seed + k * 97) % 30_000)
            .find(|&base| [0, 1, 2, 10, 11, 12, 20, 21, 22].iter().all(|offset| free(base + offset)))
            .expect("nine free loopback ports");
        let cluster = Cluster { dir: tempfile::tempdir().unwrap(), base, binary: binary.to_owned() };
        cluster.run(&["start"]);
        cluster
    }

    fn run(&self, args: &[&str]) -> String {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/nats-cluster/cluster.sh");
        let output = std::process::Command::new("bash")
            .arg(script)
            .args(args)
            .env("NATS_CLUSTER_DIR", self.dir.path())
            .env("NATS_CLUSTER_PORT", self.base.to_string())
            .env("NATS_SERVER", &self.binary)
            .output()
            .unwrap();
        assert!(output.status.success(), "cluster.sh {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.run(&["stop"]);
    }
}

/// Appends event after event to `game` (turns 1 to 23, then action stages:
/// `ledger::testing::play_event_at`) until `stop`, retrying an unanswered append with the same
/// event id (as a table client would); returns (event id, seq) of every acknowledged event.
async fn keep_playing(
    client: LedgerClient<Channel>,
    game: String,
    stop: Arc<AtomicBool>,
    played: Arc<AtomicUsize>,
) -> Vec<(String, u64)> {
    let mut acknowledged = Vec::new();
    let mut n = 1;
    while !stop.load(SeqCst) {
        let event = ledger::testing::play_event_at(n);
        let request = append(&game, &[event], &format!("{game}-{n}-"), None);
        let mut tries = 0;
        let first_seq = eventually(&format!("{game}: event {n} to be answered"), Duration::from_secs(60), || {
            let (mut client, request) = (client.clone(), request.clone());
            tries += 1;
            let (game, tries) = (&game, tries);
            async move {
                let status = match client.append(request).await {
                    Ok(ok) => return Ok(ok.into_inner().first_seq),
                    Err(status) => status,
                };
                assert_ne!(status.code(), Code::FailedPrecondition, "{game}: {status:?}");
                if tries == 1 {
                    eprintln!("{game}: event {n} not answered ({status:?}); retrying it");
                }
                Err(format!("{status:?}"))
            }
        })
        .await;
        acknowledged.push((format!("{game}-{n}-0"), first_seq));
        played.fetch_add(1, SeqCst);
        n += 1;
    }
    acknowledged
}

/// Waits (bounded: 60 s) until the writers have had `n` more events acknowledged between them.
async fn until_played(played: &AtomicUsize, n: usize, while_what: &str) {
    let target = played.load(SeqCst) + n;
    eventually(&format!("{n} more events {while_what}"), Duration::from_secs(60), || {
        let so_far = played.load(SeqCst);
        std::future::ready(if so_far >= target { Ok(()) } else { Err(format!("{so_far} of {target} events")) })
    })
    .await;
}

/// The node (1, 2 or 3) leading the log's JetStream stream.
async fn stream_leader(urls: &str) -> String {
    let servers: Vec<&str> = urls.split(',').collect();
    let js = async_nats::jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
    let info = js.get_stream("LEDGER_LOG").await.unwrap().info().await.unwrap().clone();
    let leader = info.cluster.and_then(|c| c.leader).expect("an R3 stream has a leader");
    leader.trim_start_matches('n').to_owned()
}

#[tokio::test]
async fn a_three_node_cluster_losing_a_node_under_load_loses_no_acknowledged_event() {
    let Some(binary) = nats_server_binary() else { return };
    let cluster = Cluster::start(&binary);
    let urls = cluster.run(&["urls"]);
    let dir = tempfile::tempdir().unwrap();
    let args = ["--backend", "jetstream", "--nats-url", urls.as_str(), "--jetstream-replicas", "3"];
    let daemon = Daemon::spawn_with(dir.path(), &args);
    let mut client = daemon.connect().await;
    let games = ["game/c1", "game/c2", "game/c3"];
    for game in games {
        let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
        client.append(append(game, &[start], &format!("{game}-start-"), None)).await.unwrap();
    }
    let (stop, played) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let writers: Vec<_> = games
        .iter()
        .map(|game| {
            let (stop, played) = (Arc::clone(&stop), Arc::clone(&played));
            tokio::spawn(keep_playing(client.clone(), (*game).to_owned(), stop, played))
        })
        .collect();
    // Under load, the node leading the log's stream (the one every append goes through) dies:
    // the other two elect a new leader and the games go on; then it comes back and rejoins.
    until_played(&played, 30, "before the node's loss").await;
    let leader = stream_leader(&urls).await;
    cluster.run(&["stop-node", &leader]);
    until_played(&played, 30, "with the leading node down").await;
    cluster.run(&["start-node", &leader]);
    until_played(&played, 30, "after the node came back").await;
    stop.store(true, SeqCst);
    for (game, writer) in games.iter().zip(writers) {
        let acknowledged = writer.await.unwrap();
        eprintln!("{game}: {} events acknowledged across the node's loss", acknowledged.len());
        assert!(acknowledged.len() > 5, "{game}: the writer made progress ({})", acknowledged.len());
        let stored = read_all(&mut client, game).await;
        assert_one_chain(&stored);
        assert_eq!(stored.len(), 1 + acknowledged.len(), "{game}: every acknowledged turn once, nothing else");
        for (idx, (id, seq)) in acknowledged.iter().enumerate() {
            let record = &stored[usize::try_from(*seq).unwrap() - 1];
            assert_eq!((&record.envelope.event_id, *seq), (id, idx as u64 + 2), "{game}: in order, as acknowledged");
        }
    }
}

/// `event` sealed as `seq` of `stream` on `prev`, as a writer hands it to the backend.
fn sealed(stream: &ledger::StreamId, seq: u64, prev: ledger::Hash, id: String, event: Event) -> ledger_store::Sealed {
    let draft = ledger::envelope::Draft {
        stream: stream.clone(),
        seq,
        position: 0,
        event_id: id,
        recorded_at_ms: 0,
        actor: "t".into(),
    };
    let record = Recorded::seal(draft, prev, event);
    let bytes = ledger::envelope::encode_record(&record);
    ledger_store::Sealed { record: std::sync::Arc::new(record), bytes }
}

/// A commit of `turn_started 1` to each stream, each on the given head (version 1 after
/// `game_started`).
fn commit_of(heads: &[(ledger::StreamId, ledger::Hash)], id: &str) -> ledger_store::Commit {
    let turn = Event::TurnStarted { turn: 1, at_ms: None };
    let records =
        heads.iter().map(|(stream, head)| sealed(stream, 2, *head, format!("{id}-{stream}"), turn.clone())).collect();
    ledger_store::Commit { records, heads: Vec::new() }
}

#[tokio::test]
async fn a_group_batch_that_lost_one_stream_stores_the_others_and_names_the_raced_one() {
    use ledger_store::{Reader, Storage};
    let Some(binary) = nats_server_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let nats = NatsServer::start(&binary, dir.path());
    let url = nats.url();
    let (a, b) = tokio::task::spawn_blocking(move || {
        let open = || JetStreamStorage::open(async_nats::connect(url.clone()), JetStreamConfig::default()).unwrap();
        (open(), open())
    })
    .await
    .unwrap();
    let games: Vec<ledger::StreamId> = (0..10).map(|g| ledger::StreamId::game(&format!("b{g}")).unwrap()).collect();
    let written = tokio::task::spawn_blocking(move || {
        // Ten started games, written through `a`.
        let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
        let starts: Vec<ledger_store::Sealed> = games
            .iter()
            .map(|stream| sealed(stream, 1, ledger::envelope::GENESIS, format!("start-{stream}"), start.clone()))
            .collect();
        let heads: Vec<(ledger::StreamId, ledger::Hash)> =
            starts.iter().map(|s| (s.record.envelope.stream.clone(), s.record.envelope.hash)).collect();
        let stored = a.write(&ledger_store::Commit { records: starts, heads: Vec::new() }).unwrap();
        assert!(stored.conflicts.is_empty());
        assert_eq!(stored.positions, Some((1..=10).collect()), "one batch of ten, in order");
        // `a` wins game b3; then `b`, which decided on version 1 everywhere, writes all ten.
        a.write(&commit_of(&heads[3..4], "a")).unwrap();
        let written = b.write(&commit_of(&heads, "b")).unwrap();
        let mut read = Vec::new();
        for (stream, _) in &heads {
            read.push(b.read_stream(stream, 1, 10).unwrap());
        }
        (written, read)
    })
    .await
    .unwrap();
    let (written, read) = written;
    assert_eq!(written.conflicts, [ledger::StreamId::game("b3").unwrap()], "only the raced stream");
    let positions = written.positions.expect("JetStream assigns positions");
    for (g, stream) in read.iter().enumerate() {
        assert_one_chain(stream);
        assert_eq!(stream.len(), 2, "b{g}: started and one turn, never two");
        let expected_id = if g == 3 { "a-game/b3".to_owned() } else { format!("b-game/b{g}") };
        assert_eq!(stream[1].envelope.event_id, expected_id);
        if g != 3 {
            assert_eq!(stream[1].envelope.position, positions[g], "b{g}: the position the write reported");
        }
    }
}
