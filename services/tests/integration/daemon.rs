//! The real `ledgerd` binary: `kill -9` in the middle of appends loses no acknowledged event
//! and leaves no half-written one; SIGTERM shuts down cleanly.

use crate::support::{append, eventually};
use ledger::envelope::verify_chain;
use ledger::{Event, Recorded, Ruleset};
use ledger_proto::convert::FromProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

pub(crate) struct Daemon {
    pub(crate) child: Child,
    addr: String,
    /// Every address ledgerd announced (`grpc`, `metrics`, `http`).
    announced: std::collections::HashMap<String, String>,
}

impl Daemon {
    pub(crate) fn spawn(data_dir: &Path) -> Daemon {
        Self::spawn_with(data_dir, &[])
    }

    /// Starts ledgerd on `127.0.0.1:0` (and any `… 127.0.0.1:0` listener in `extra`) and reads
    /// the addresses it bound from its standard output.
    pub(crate) fn spawn_with(data_dir: &Path, extra: &[&str]) -> Daemon {
        let child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["--data-dir", data_dir.to_str().unwrap(), "--listen", "127.0.0.1:0", "--log", "warn"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Self::announced_by(child)
    }

    /// Waits (bounded: 60 s) for a started ledgerd to say where it listens.
    pub(crate) fn announced_by(mut child: Child) -> Daemon {
        use std::io::BufRead;
        let stdout = child.stdout.take().expect("ledgerd's stdout is piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some((what, addr)) = line.strip_prefix("ledgerd listening: ").and_then(|l| l.split_once(' ')) {
                    let _ = tx.send((what.to_owned(), addr.to_owned()));
                }
            }
        });
        let mut announced = std::collections::HashMap::new();
        while !announced.contains_key("grpc") {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok((what, addr)) => {
                    announced.insert(what, addr);
                }
                Err(_) => panic!("ledgerd did not say where it listens within 60 s (or exited)"),
            }
        }
        let addr = announced["grpc"].clone();
        Daemon { child, addr, announced }
    }

    pub(crate) fn addr(&self) -> &str {
        &self.addr
    }

    /// Where ledgerd said a listener is bound (`metrics`, `http`).
    pub(crate) fn announced(&self, what: &str) -> &str {
        self.announced.get(what).unwrap_or_else(|| panic!("ledgerd announced no {what} listener"))
    }

    /// What `/metrics` says now (ledgerd started with `--metrics-listen 127.0.0.1:0`).
    pub(crate) fn metrics(&self) -> String {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(self.announced("metrics")).unwrap();
        write!(stream, "GET /metrics HTTP/1.1\r\nHost: ledgerd\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    }

    /// One value on `/metrics`: the line `name value` (a counter's name ends in `_total`).
    pub(crate) fn metric(&self, name: &str) -> u64 {
        let text = self.metrics();
        let value = text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' '));
        value.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no {name} on /metrics:\n{text}"))
    }

    /// Connects once the daemon answers its health check (bounded: 20 s).
    pub(crate) async fn connect(&self) -> LedgerClient<Channel> {
        eventually(&format!("ledgerd to come up at {}", self.addr), Duration::from_secs(20), || async {
            let channel = Channel::from_shared(format!("http://{}", self.addr)).unwrap().connect().await.ok()?;
            let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
            let request = tonic_health::pb::HealthCheckRequest { service: String::new() };
            health.check(request).await.ok().map(|_| LedgerClient::new(channel))
        })
        .await
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) async fn read_all(client: &mut LedgerClient<Channel>, stream: &str) -> Vec<Recorded> {
    let request = pb::ReadRequest { stream: stream.into(), from_seq: 1, limit: None, ..Default::default() };
    let events = client.read(request).await.unwrap().into_inner();
    events.map(|e| Recorded::from_proto(e.unwrap()).unwrap()).collect().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_appends_loses_no_acknowledged_event() {
    let dir = tempfile::tempdir().unwrap();
    let mut daemon = Daemon::spawn(dir.path());
    let client = daemon.connect().await;
    let n_tables = 4;
    // Each table appends its game's events one at a time (turns 1 to 23, then action stages:
    // `ledger::testing::play_event_at`) and remembers what was acknowledged.
    let mut writers = Vec::new();
    for table in 0..n_tables {
        let mut client = client.clone();
        writers.push(tokio::spawn(async move {
            let stream = format!("game/crash-{table}");
            let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
            client.append(append(&stream, &[start], &format!("{stream}-start"), None)).await.unwrap();
            let mut acknowledged = 1u64;
            for n in 1..=100_000u64 {
                let event = ledger::testing::play_event_at(n);
                match client.append(append(&stream, &[event], &format!("{stream}-event-{n}-"), None)).await {
                    Ok(ok) => {
                        acknowledged = ok.into_inner().last_seq;
                    }
                    Err(_) => break,
                }
            }
            (stream, acknowledged)
        }));
    }
    // Let the tables write for a while, then pull the plug.
    eventually("the tables to have 400 events acknowledged", Duration::from_secs(20), || {
        let mut probe = client.clone();
        async move {
            let streams = probe.list_streams(pb::ListStreamsRequest::default()).await.unwrap().into_inner().streams;
            let written = streams.iter().map(|s| s.version).sum::<u64>();
            if written >= 400 {
                Ok(())
            } else {
                Err(format!("{written} written"))
            }
        }
    })
    .await;
    daemon.child.kill().unwrap();
    daemon.child.wait().unwrap();
    let mut acknowledged = Vec::new();
    for writer in writers {
        acknowledged.push(writer.await.unwrap());
    }
    let restarted = Daemon::spawn(dir.path());
    let mut client = restarted.connect().await;
    for (stream, last_acknowledged) in acknowledged {
        let records = read_all(&mut client, &stream).await;
        assert!(
            records.len() as u64 >= last_acknowledged,
            "{stream}: {} stored < {last_acknowledged} acknowledged",
            records.len()
        );
        verify_chain(&records).unwrap_or_else(|b| panic!("{stream}: chain breaks at {}: {}", b.seq, b.reason));
        // The rules resume where the stream stopped.
        let event = ledger::testing::play_event_at(records.len() as u64);
        client
            .append(append(&stream, &[event], &format!("{stream}-after-restart"), Some(records.len() as u64)))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn sigterm_stops_the_daemon_cleanly_even_with_a_live_subscription_and_an_open_append_stream() {
    let dir = tempfile::tempdir().unwrap();
    let mut daemon = Daemon::spawn(dir.path());
    let mut client = daemon.connect().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None };
    client.append(append("game/t", &[start], "", None)).await.unwrap();
    let mut live =
        client.subscribe(pb::SubscribeRequest { stream: "game/t".into(), from: 1 }).await.unwrap().into_inner();
    assert!(live.next().await.unwrap().is_ok());
    // A table's AppendStream left open, idle, after one append.
    let (tablet, requests) = tokio::sync::mpsc::channel(4);
    tablet.send(append("game/t", &[Event::TurnStarted { turn: 1, at_ms: None }], "t1", None)).await.unwrap();
    let mut answers =
        client.append_stream(tokio_stream::wrappers::ReceiverStream::new(requests)).await.unwrap().into_inner();
    assert!(answers.next().await.unwrap().is_ok());
    let pid = daemon.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = eventually("ledgerd to stop after SIGTERM", Duration::from_secs(10), || {
        std::future::ready(daemon.child.try_wait().unwrap())
    })
    .await;
    assert!(status.success(), "{status}");
    drop(tablet);
}

#[tokio::test]
async fn metrics_count_what_the_sequencer_did() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn_with(dir.path(), &["--metrics-listen", "127.0.0.1:0"]);
    let metrics_addr = daemon.announced("metrics").to_owned();
    let mut client = daemon.connect().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None };
    let turns = [start, Event::TurnStarted { turn: 1, at_ms: None }, Event::TurnStarted { turn: 2, at_ms: None }];
    client.append(append("game/m", &turns, "m", None)).await.unwrap();
    client.append(append("game/m", &[Event::TurnStarted { turn: 9, at_ms: None }], "bad", None)).await.unwrap_err();
    let text = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&metrics_addr).unwrap();
        write!(stream, "GET /metrics HTTP/1.1\r\nHost: ledgerd\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    })
    .await
    .unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    for line in [
        "ledger_events_committed_total 3",
        "ledger_appends_acknowledged_total 1",
        "ledger_appends_refused_total 1",
        "ledger_group_commits_total 1",
        "ledger_log_position 3",
        "ledger_streams 1",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
    }
}

/// A disk that fills up (here: a file-size limit, with SIGXFSZ ignored so that the write fails
/// with EFBIG): the failed write stops the log, ledgerd reports NOT_SERVING and exits with an
/// error, so a supervisor restarts it; every acknowledged event is there after the restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_makes_ledgerd_exit_with_an_error_so_it_is_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 12288; exec {} --data-dir {} --listen 127.0.0.1:0 --log error",
        env!("CARGO_BIN_EXE_ledgerd"),
        dir.path().display()
    );
    let child = Command::new("sh").args(["-c", &script]).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut daemon = Daemon::announced_by(child);
    let mut client = daemon.connect().await;
    let reason = "x".repeat(1900);
    let mut acknowledged = 0u64;
    let mut events = vec![Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None }];
    let failed = loop {
        events.extend((0..200).map(|_| Event::JuryCalled { reason: reason.clone() }));
        let request = append("game/full-disk", &events, &format!("b{acknowledged}-"), None);
        match client.append(request).await {
            Ok(answer) => acknowledged = answer.into_inner().last_seq,
            Err(status) => break status,
        }
        events.clear();
        assert!(acknowledged < 20_000, "the file-size limit never stopped the log");
    };
    assert!(failed.message().contains("storage failed") || failed.message().contains("stopped"), "{failed:?}");
    // The daemon goes down on its own, with an error status.
    let status = eventually("ledgerd to exit after its log stopped", Duration::from_secs(20), || {
        std::future::ready(daemon.child.try_wait().unwrap())
    })
    .await;
    assert!(!status.success(), "ledgerd must exit with an error, got {status}");
    // Restarted (without the limit), it holds every acknowledged event, and nothing half-written.
    let daemon = Daemon::spawn(dir.path());
    let mut client = daemon.connect().await;
    let records = read_all(&mut client, "game/full-disk").await;
    assert!(records.len() as u64 >= acknowledged, "{} stored, {acknowledged} acknowledged", records.len());
    verify_chain(&records).unwrap();
}

/// Open mode trusts whatever clearance a client claims: on a non-loopback address ledgerd
/// refuses to start that way unless told `--insecure-open`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_mode_on_a_network_address_needs_insecure_open() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "0.0.0.0:0";
    let data_dir = dir.path().to_str().unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["--data-dir", data_dir, "--listen", listen, "--log", "error"])
        .env_remove("LEDGER_AUTH_FILE")
        .env_remove("LEDGER_INSECURE_OPEN")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("refusing to run open on 0.0.0.0"), "{stderr}");
    // With the flag it starts and serves on every address, loopback included.
    let child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["--data-dir", data_dir, "--listen", listen, "--log", "error", "--insecure-open"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let daemon = Daemon::announced_by(child);
    let port = daemon.addr().strip_prefix("0.0.0.0:").expect("it says where it listens");
    let mut client = LedgerClient::connect(format!("http://127.0.0.1:{port}")).await.unwrap();
    client.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await.unwrap();
}
