//! A real server on a free loopback port over a fresh sled log (or a JetStream log), and small
//! request helpers.

use ledger::Event;
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_store::jetstream::{JetStreamConfig, JetStreamStorage};
use ledger_store::Log;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tonic::transport::Channel;

pub struct TestServer {
    pub addr: SocketAddr,
    pub client: LedgerClient<Channel>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    _dir: Option<tempfile::TempDir>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with_auth(ledger_house::auth::Auth::Open).await
    }

    pub async fn start_with_auth(auth: ledger_house::auth::Auth) -> TestServer {
        Self::start_with_options(auth, ledger_daemon::server::ServeOptions::default()).await
    }

    /// A server with the given limits (and stats to watch them by).
    pub async fn start_with_options(
        auth: ledger_house::auth::Auth,
        options: ledger_daemon::server::ServeOptions,
    ) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let log =
            Arc::new(Log::open_sled_with(dir.path(), Arc::new(ledger_house::cross_check::TournamentChecks)).unwrap());
        Self::serve(log, auth, options, Some(dir)).await
    }

    /// A server on the JetStream log at `url` (a nats-server 2.12 or newer).
    pub async fn start_on_jetstream(url: &str, config: JetStreamConfig) -> TestServer {
        let url = url.to_owned();
        let log = tokio::task::spawn_blocking(move || {
            let storage = JetStreamStorage::open(async_nats::connect(url), config).unwrap();
            Log::open_jetstream(storage, Arc::new(ledger_house::cross_check::TournamentChecks)).unwrap()
        })
        .await
        .unwrap();
        let options = ledger_daemon::server::ServeOptions::default();
        Self::serve(Arc::new(log), ledger_house::auth::Auth::Open, options, None).await
    }

    async fn serve(
        log: Arc<Log>,
        auth: ledger_house::auth::Auth,
        options: ledger_daemon::server::ServeOptions,
        dir: Option<tempfile::TempDir>,
    ) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            ledger_daemon::server::serve_with(
                log,
                Arc::new(auth),
                listener,
                async {
                    stopped.await.ok();
                },
                options,
            )
            .await
            .unwrap();
        });
        let client = LedgerClient::connect(format!("http://{addr}")).await.unwrap();
        TestServer { addr, client, stop: Some(stop), task: Some(task), _dir: dir }
    }

    /// Stops the server and waits until it has stopped.
    pub async fn stop(mut self) {
        self.stop.take().unwrap().send(()).unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(10), self.task.take().unwrap())
            .await
            .expect("the server stops within 10 s")
            .unwrap();
    }

    /// The stream's version as the server reports it (0 when it does not exist).
    pub async fn version(&mut self, stream: &str) -> u64 {
        let listed = self.client.list_streams(pb::ListStreamsRequest { prefix: stream.into() }).await.unwrap();
        listed.into_inner().streams.iter().find(|s| s.stream == stream).map_or(0, |s| s.version)
    }

    pub async fn read(&mut self, stream: &str) -> Vec<pb::RecordedEvent> {
        use tokio_stream::StreamExt;
        let request = pb::ReadRequest { stream: stream.into(), from_seq: 1, limit: None, ..Default::default() };
        let events = self.client.read(request).await.unwrap().into_inner();
        events.map(Result::unwrap).collect().await
    }
}

pub fn append(stream: &str, events: &[Event], id_prefix: &str, expected_version: Option<u64>) -> pb::AppendRequest {
    pb::AppendRequest {
        stream: stream.into(),
        events: events
            .iter()
            .enumerate()
            .map(|(i, e)| pb::ProposedEvent {
                event_id: if id_prefix.is_empty() { String::new() } else { format!("{id_prefix}{i}") },
                event: Some(e.to_proto()),
            })
            .collect(),
        expected_version,
    }
}

pub fn events(values: &[serde_json::Value]) -> Vec<Event> {
    values.iter().map(|v| ledger::event::from_canonical_json(v).unwrap()).collect()
}

/// Runs the real `ledgerctl` with `stdin` as its input.
pub fn run_ledgerctl(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ledgerctl"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Polls `probe` until it gives a value, failing after `limit`: the one way the tests wait for
/// something to happen (never a fixed sleep).
pub(crate) async fn eventually<T, F, Fut>(what: &str, limit: std::time::Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(value) = probe().await {
            return value;
        }
        assert!(std::time::Instant::now() < deadline, "timed out after {limit:?} waiting for {what}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
