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
        let log = Arc::new(
            Log::open_sled_with(dir.path(), Arc::new(ledger_house::cross_check::TournamentChecks::default())).unwrap(),
        );
        Self::serve(log, auth, options, Some(dir)).await
    }

    /// A server on the JetStream log at `url` (a nats-server 2.12 or newer).
    pub async fn start_on_jetstream(url: &str, config: JetStreamConfig) -> TestServer {
        let url = url.to_owned();
        let log = tokio::task::spawn_blocking(move || {
            let storage = JetStreamStorage::open(async_nats::connect(url), config).unwrap();
            Log::open_jetstream(storage, Arc::new(ledger_house::cross_check::TournamentChecks::default())).unwrap()
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

/// What a probe of [`eventually`] gives: the value once the awaited thing has happened, else
/// `None`, or `Err` saying why not yet (the last one is named when the wait times out).
pub(crate) trait Probe {
    type Value;
    fn ready(self) -> Result<Self::Value, Option<String>>;
}

impl<T> Probe for Option<T> {
    type Value = T;
    fn ready(self) -> Result<T, Option<String>> {
        self.ok_or(None)
    }
}

impl<T, E: std::fmt::Display> Probe for Result<T, E> {
    type Value = T;
    fn ready(self) -> Result<T, Option<String>> {
        self.map_err(|why| Some(why.to_string()))
    }
}

/// How often a waiting test looks again.
const POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// How long a wait set at `limit` on an idle machine may take on this one now. The limits were
/// set on an idle 2-core machine; a contributor's laptop building beside the tests (or CI on a
/// busy host) is slower by about its load average over its cores, so a wait stretches by that
/// factor (at least 1, at most 8; read from `/proc/loadavg` at the start of each wait). A wait
/// ends as soon as its thing happens, so the stretch costs nothing when all is well: it only
/// lets a loaded machine finish what an idle one does within `limit`. Waits whose length *is*
/// the assertion (a timeout ledgerd must keep) do not use it.
pub(crate) fn patience(limit: std::time::Duration) -> std::time::Duration {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().and_then(|first| first.parse::<f64>().ok()))
        .unwrap_or(0.0);
    let stretch = (load / f64::from(u32::try_from(cores).unwrap_or(u32::MAX))).clamp(1.0, 8.0);
    limit.mul_f64(stretch)
}

/// The failure of a wait: what was awaited, for how long, and the probe's last word.
fn timed_out(what: &str, waited: std::time::Duration, last: Option<String>) -> ! {
    match last {
        Some(why) => panic!("timed out after {waited:?} waiting for {what} (last: {why})"),
        None => panic!("timed out after {waited:?} waiting for {what}"),
    }
}

/// Polls `probe` until it gives a value, failing after `limit`: the one way the tests wait for
/// something to happen (never a fixed sleep).
pub(crate) async fn eventually<P, F, Fut>(what: &str, limit: std::time::Duration, mut probe: F) -> P::Value
where
    P: Probe,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = P>,
{
    let limit = patience(limit);
    let deadline = std::time::Instant::now() + limit;
    loop {
        let last = match probe().await.ready() {
            Ok(value) => return value,
            Err(last) => last,
        };
        if std::time::Instant::now() >= deadline {
            timed_out(what, limit, last);
        }
        tokio::time::sleep(POLL).await;
    }
}

/// [`eventually`] for code outside the runtime (it blocks the thread between looks).
pub(crate) fn eventually_blocking<P: Probe>(
    what: &str,
    limit: std::time::Duration,
    mut probe: impl FnMut() -> P,
) -> P::Value {
    let limit = patience(limit);
    let deadline = std::time::Instant::now() + limit;
    loop {
        let last = match probe().ready() {
            Ok(value) => return value,
            Err(last) => last,
        };
        if std::time::Instant::now() >= deadline {
            timed_out(what, limit, last);
        }
        std::thread::sleep(POLL);
    }
}

#[tokio::test]
#[should_panic(expected = "waiting for a thing that never happens (last: not yet)")]
async fn a_wait_that_times_out_names_what_it_waited_for_and_why_not() {
    let limit = std::time::Duration::from_millis(50);
    eventually("a thing that never happens", limit, || std::future::ready(Err::<(), _>("not yet"))).await;
}

#[test]
#[should_panic(expected = "waiting for a thing that never happens")]
fn a_blocking_wait_times_out_too() {
    eventually_blocking("a thing that never happens", std::time::Duration::from_millis(50), || None::<()>);
}

/// A TLS client (rustls, ring) that trusts only `root`: ledgerd's HTTPS pages in the tests.
pub(crate) fn tls_client_trusting(root: rustls::pki_types::CertificateDer<'static>) -> tokio_rustls::TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(root).unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio_rustls::TlsConnector::from(std::sync::Arc::new(config))
}

/// A program the test needs, found on `PATH`; `None` (the test skips, loudly) when it is missing
/// outside CI, and a failure under `CI=true`, where a missing one must not pass as a skip.
pub(crate) fn required_tool(name: &str, install: &str, test: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file());
    if found.is_none() {
        let message = format!("\n\n*** {test} SKIPPED: no {name} ({install}) ***\n");
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true {name} is required");
        eprintln!("{message}");
    }
    found
}
