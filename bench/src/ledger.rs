//! The system under test: `ledgerd`, as a separate process (the real binary, so its memory and
//! disk are its own) or in this process (for the CI smoke test, which cannot rely on a release
//! build of another package being there).

use crate::payload::{event_id, ledger_stream, proposed};
use crate::procs::{disk_usage, free_port, Server};
use crate::stats::Latencies;
use anyhow::{bail, Context, Result};
use ledger_house::auth::{Auth, ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_store::Log;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

/// How to run the ledger.
#[derive(Debug, Clone)]
pub enum LedgerMode {
    /// The `ledgerd` binary at this path.
    Process(PathBuf),
    /// `Log::open_sled` + `server::serve` inside the bench (the same code `ledgerd` runs).
    InProcess,
    /// The `ledgerd` binary on its JetStream backend, over its own nats-server (`sync_interval:
    /// always`).
    OnJetStream { ledgerd: PathBuf, nats: crate::jetstream::NatsBinary },
}

enum Host {
    Process(Box<Server>),
    InProcess { log: Arc<Log>, stop: oneshot::Sender<()>, task: tokio::task::JoinHandle<Result<()>> },
}

/// One running ledger with its own empty data directory.
pub struct LedgerInstance {
    pub url: String,
    host: Host,
    dir: tempfile::TempDir,
    /// The nats-server holding the log, on the JetStream backend.
    nats: Option<crate::jetstream::JsInstance>,
}

impl LedgerInstance {
    pub async fn start(mode: &LedgerMode, work_dir: &Path) -> Result<LedgerInstance> {
        let dir = tempfile::Builder::new().prefix("ledger-bench-ledgerd-").tempdir_in(work_dir)?;
        let data = dir.path().join("data");
        let mut nats = None;
        let (url, host) = match mode {
            LedgerMode::OnJetStream { ledgerd, nats: binary } => {
                let js = crate::jetstream::JsInstance::start(binary, true, work_dir).await?;
                let port = free_port()?;
                let args: Vec<String> = [
                    "--backend",
                    "jetstream",
                    "--nats-url",
                    &js.url,
                    "--data-dir",
                    &data.display().to_string(),
                    "--listen",
                    &format!("127.0.0.1:{port}"),
                    "--log",
                    "warn",
                ]
                .map(str::to_owned)
                .to_vec();
                let server = Server::start("ledgerd", ledgerd, &args, dir.path().join("ledgerd.log"), port).await?;
                nats = Some(js);
                (format!("http://127.0.0.1:{port}"), Host::Process(Box::new(server)))
            }
            LedgerMode::Process(binary) => {
                if !binary.is_file() {
                    bail!(
                        "no ledgerd at {} (build it: cargo build --release --bin ledgerd, or pass --ledgerd)",
                        binary.display()
                    );
                }
                let port = free_port()?;
                let args = vec![
                    "--data-dir".into(),
                    data.display().to_string(),
                    "--listen".into(),
                    format!("127.0.0.1:{port}"),
                    "--log".into(),
                    "warn".into(),
                ];
                let server = Server::start("ledgerd", binary, &args, dir.path().join("ledgerd.log"), port).await?;
                (format!("http://127.0.0.1:{port}"), Host::Process(Box::new(server)))
            }
            LedgerMode::InProcess => {
                let log = Arc::new(
                    Log::open_sled_with(
                        &data,
                        Arc::new(ledger_house::cross_check::TournamentChecks {
                            limits: ledger_house::cross_check::StreamLimits::of_games(crate::procs::UNBOUNDED_STREAM),
                        }),
                    )
                    .context("opening the in-process ledger")?,
                );
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let addr = listener.local_addr()?;
                let (stop, stopped) = oneshot::channel::<()>();
                let serving = ledger_daemon::server::serve(Arc::clone(&log), Arc::new(Auth::Open), listener, async {
                    stopped.await.ok();
                });
                let task = tokio::spawn(async move { serving.await.map_err(anyhow::Error::from) });
                (format!("http://{addr}"), Host::InProcess { log, stop, task })
            }
        };
        let instance = LedgerInstance { url, host, dir, nats };
        // The server listens before it serves: retry until a client gets through.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let answered = match instance.client().await {
                Ok(mut c) => c.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await.is_ok(),
                Err(_) => false,
            };
            if answered {
                break;
            }
            if Instant::now() > deadline {
                bail!("the ledger at {} did not answer within 30 s", instance.url);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(instance)
    }

    pub async fn client(&self) -> Result<LedgerClient<Channel>> {
        Ok(LedgerClient::connect(self.url.clone()).await?)
    }

    /// Peak RSS of `ledgerd`; `None` in process (the bench's own memory is mixed in).
    pub fn peak_rss(&self) -> Option<u64> {
        match &self.host {
            Host::Process(server) => server.peak_rss(),
            Host::InProcess { .. } => None,
        }
    }

    /// The log's bytes: sled's directory, or the JetStream store holding the log.
    pub fn disk_usage(&self) -> u64 {
        self.nats.as_ref().map_or_else(|| disk_usage(self.dir.path()), crate::jetstream::JsInstance::disk_usage)
    }

    pub async fn version(mode: &LedgerMode) -> String {
        match mode {
            LedgerMode::Process(binary) => crate::procs::version_line(binary).await.unwrap_or_else(|e| e.to_string()),
            LedgerMode::InProcess => format!("ledger-services {} (in process)", env!("CARGO_PKG_VERSION")),
            LedgerMode::OnJetStream { ledgerd, nats } => format!(
                "{} on {}",
                crate::procs::version_line(ledgerd).await.unwrap_or_else(|e| e.to_string()),
                nats.version
            ),
        }
    }

    /// Events stored in all bench streams, as the ledger itself counts them (stream versions).
    pub async fn stored(&self) -> Result<u64> {
        let listed = self.client().await?.list_streams(pb::ListStreamsRequest { prefix: "game/".into() }).await?;
        Ok(listed.into_inner().streams.iter().map(|s| s.version).sum())
    }

    pub async fn stop(self) -> Result<()> {
        let nats = self.nats;
        match self.host {
            Host::Process(server) => {
                server.stop().await?;
                match nats {
                    Some(js) => js.stop().await,
                    None => Ok(()),
                }
            }
            Host::InProcess { log, stop, task } => {
                let _ = stop.send(());
                task.await??;
                tokio::task::spawn_blocking(move || log.close()).await?;
                Ok(())
            }
        }
    }
}

/// Open mode trusts these headers; `jury_called` needs table clearance only.
fn with_identity<T>(message: T, actor: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Ok(actor) = actor.parse() {
        request.metadata_mut().insert(ACTOR_HEADER, actor);
    }
    request.metadata_mut().insert(CLEARANCE_HEADER, tonic::metadata::MetadataValue::from_static("table"));
    request
}

/// One table's client: its own connection.
pub struct LedgerWriter {
    client: LedgerClient<Channel>,
    actor: String,
}

impl LedgerWriter {
    pub async fn connect(url: &str, writer: usize) -> Result<LedgerWriter> {
        Ok(LedgerWriter { client: LedgerClient::connect(url.to_owned()).await?, actor: format!("bench-{writer}") })
    }

    /// Appends events `first_seq ..first_seq + count` of `stream` in one request (atomic).
    pub async fn append(&mut self, stream: &str, first_seq: u64, count: u64) -> Result<()> {
        let request = pb::AppendRequest {
            stream: ledger_stream(stream),
            events: (first_seq..first_seq + count).map(|seq| proposed(stream, seq)).collect(),
            expected_version: None,
        };
        let answer = self.client.append(with_identity(request, &self.actor)).await?.into_inner();
        if answer.duplicate || answer.last_seq != first_seq + count - 1 {
            bail!("{stream}: expected seq {}..={}, got {answer:?}", first_seq, first_seq + count - 1);
        }
        Ok(())
    }
}

/// `AppendStream`: appends `skip..skip + requests` of `per_request` events each over `streams`
/// streams, round robin, at most `in_flight` unanswered at once (`skip` continues an earlier
/// call on the same streams). Answers come in request order, so each
/// latency is the time from sending a request to reading its answer.
pub async fn pipelined(
    url: &str,
    prefix: &str,
    streams: u64,
    skip: u64,
    requests: u64,
    per_request: u64,
    in_flight: usize,
) -> Result<(Latencies, Duration)> {
    let mut client = LedgerClient::connect(url.to_owned()).await?;
    let (tx, rx) = mpsc::channel::<pb::AppendRequest>(in_flight);
    let (sent_tx, mut sent_rx) = mpsc::unbounded_channel::<Instant>();
    let permits = Arc::new(Semaphore::new(in_flight));
    let started = Instant::now();
    let sender = {
        let (permits, prefix) = (Arc::clone(&permits), prefix.to_owned());
        tokio::spawn(async move {
            for k in skip..skip + requests {
                permits.acquire().await?.forget();
                let stream = format!("{prefix}-s{}", k % streams);
                let first = (k / streams) * per_request + 1;
                let request = pb::AppendRequest {
                    stream: ledger_stream(&stream),
                    events: (first..first + per_request).map(|seq| proposed(&stream, seq)).collect(),
                    expected_version: None,
                };
                sent_tx.send(Instant::now())?;
                if tx.send(request).await.is_err() {
                    break;
                }
            }
            anyhow::Ok(())
        })
    };
    let mut latencies = Latencies::default();
    let mut answered = 0;
    let receiving = async {
        let mut answers =
            client.append_stream(with_identity(ReceiverStream::new(rx), "bench-pipelined")).await?.into_inner();
        while answered < requests {
            let Some(answer) = answers.message().await? else { break };
            let sent = sent_rx.recv().await.context("an answer without a request")?;
            latencies.record(sent.elapsed());
            permits.add_permits(1);
            if let Some(pb::append_stream_response::Result::Error(e)) = answer.result {
                bail!("AppendStream refused an append: {} {}", e.code, e.message);
            }
            answered += 1;
        }
        anyhow::Ok(())
    };
    let received = receiving.await;
    let took = started.elapsed();
    // Whatever happened, the sender must not wait for permits that will never come.
    permits.close();
    received?;
    sender.await??;
    if answered != requests {
        bail!("AppendStream answered {answered} of {requests} appends");
    }
    Ok((latencies, took))
}

/// Reads `count` events of `stream` back with the `Read` RPC, one message per event, as
/// [`replay`] does with pages: the two side by side show what a message per event costs.
pub async fn replay_one_by_one(url: &str, stream: &str, count: u64) -> Result<u64> {
    let mut client = LedgerClient::connect(url.to_owned()).await?;
    let mut events = client
        .read(with_identity(
            pb::ReadRequest { stream: ledger_stream(stream), from_seq: 1, limit: Some(count), ..Default::default() },
            "bench-replay",
        ))
        .await?
        .into_inner();
    let mut read = 0;
    while let Some(event) = events.message().await? {
        check_replayed(stream, &event, read + 1)?;
        read += 1;
    }
    Ok(read)
}

/// The replayed `event` is `due` of `stream`, as appended.
fn check_replayed(stream: &str, event: &pb::RecordedEvent, due: u64) -> Result<()> {
    let (seq, id) = event.envelope.as_ref().map_or((0, ""), |e| (e.seq, e.event_id.as_str()));
    if event.event.is_none() {
        bail!("{stream}: seq {seq} ({id}) arrived without its event");
    }
    check_seq(stream, seq, id, due)
}

/// The replayed event `seq` with id `id` is `due` of `stream`, as appended.
fn check_seq(stream: &str, seq: u64, id: &str, due: u64) -> Result<()> {
    if seq != due || id != event_id(stream, seq) {
        bail!("{stream}: read seq {seq} ({id}) where {due} was due");
    }
    Ok(())
}

/// Reads `count` events of `stream` back in order with the `ReadPages` RPC (server streaming,
/// many events to a message) in `encoding`, checking every seq and event id. Stored pages are
/// decoded as ledgerctl decodes them (`ledger::envelope::decode_run`), messages as any gRPC
/// client does. Returns how many were read.
pub async fn replay(url: &str, stream: &str, count: u64, encoding: pb::PageEncoding) -> Result<u64> {
    let mut client = LedgerClient::connect(url.to_owned()).await?;
    let request =
        pb::ReadRequest { stream: ledger_stream(stream), from_seq: 1, limit: Some(count), encoding: encoding.into() };
    let mut pages = client.read_pages(with_identity(request, "bench-replay")).await?.into_inner();
    let mut read = 0;
    while let Some(page) = pages.message().await? {
        for event in &page.events {
            check_replayed(stream, event, read + 1)?;
            read += 1;
        }
        for record in ledger::envelope::decode_run(&page.stored) {
            let record = record.map_err(|e| anyhow::anyhow!("{stream}: {e}"))?;
            check_seq(stream, record.envelope.seq, &record.envelope.event_id, read + 1)?;
            read += 1;
        }
    }
    Ok(read)
}
