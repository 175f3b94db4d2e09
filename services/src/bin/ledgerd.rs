//! `ledgerd`: the Tournament Ledger daemon. Flags and environment → [`Config`] → [`run`].

use clap::Parser;
use ledger_daemon::config::{Backend, Config, JetStreamConfig, StreamLimits, TableQuota};
use ledger_daemon::nats::NatsOptions;
use ledger_daemon::server::{descriptors, run, HttpLimits, Limits, TlsFiles};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The Tournament Ledger daemon: a durable, validated, hash-chained event log over gRPC.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Where the log is: `sled` (embedded, in --data-dir) or `jetstream` (NATS JetStream at
    /// --nats-url, shared by every ledgerd on the same --jetstream-stream).
    #[arg(long, env = "LEDGER_BACKEND", value_enum, default_value_t = BackendArg::Sled)]
    backend: BackendArg,
    /// The JetStream stream holding the log (`--backend jetstream`; created if missing).
    #[arg(long, env = "LEDGER_JETSTREAM_STREAM", default_value = "LEDGER_LOG")]
    jetstream_stream: String,
    /// Its replicas when ledgerd creates it: 1 on one server, 3 in a three-node cluster.
    #[arg(long, env = "LEDGER_JETSTREAM_REPLICAS", default_value_t = 1)]
    jetstream_replicas: usize,
    /// Directory of the embedded sled log, and of the tokens ledgerd keeps (`tokens.json`).
    #[arg(long, env = "LEDGER_DATA_DIR", default_value = "./data", global = true)]
    data_dir: PathBuf,
    /// Address the gRPC server listens on.
    #[arg(long, env = "LEDGER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Serve Prometheus metrics at http://ADDR/metrics (off when not given).
    #[arg(long, env = "LEDGER_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// Serve the web pages (the table's clock, the standings board, the jury's replay, the
    /// analysts' charts) at http://ADDR/ (off when not given).
    #[arg(long, env = "LEDGER_HTTP_LISTEN")]
    http_listen: Option<SocketAddr>,
    /// JSON file mapping token digests to actors and clearances; without it ledgerd runs open.
    #[arg(long, env = "LEDGER_AUTH_FILE")]
    auth_file: Option<PathBuf>,
    /// Run open (headers trusted) even on a non-loopback address: for a closed, trusted network
    /// only.
    #[arg(long, env = "LEDGER_INSECURE_OPEN")]
    insecure_open: bool,
    /// The most events a game or an Andes match may hold (a tournament four times as many);
    /// past it every event is refused with RESOURCE_EXHAUSTED. A played game holds a few hundred.
    #[arg(long, env = "LEDGER_MAX_STREAM_EVENTS", default_value_t = StreamLimits::default().game)]
    max_stream_events: u64,
    /// With an auth file: the events a table's code may record a minute (in one burst or
    /// spread); more are refused with RESOURCE_EXHAUSTED until the minute refills.
    #[arg(long, env = "LEDGER_TABLE_EVENTS_PER_MINUTE", default_value_t = TableQuota::default().events_per_minute)]
    table_events_per_minute: std::num::NonZeroU32,
    /// With an auth file: the bytes of events a table's code may record a minute.
    #[arg(long, env = "LEDGER_TABLE_BYTES_PER_MINUTE", default_value_t = TableQuota::default().bytes_per_minute)]
    table_bytes_per_minute: std::num::NonZeroU32,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    tls: TlsArgs,
    #[command(flatten)]
    acme: AcmeArgs,
    #[command(flatten)]
    nats: NatsArgs,
    /// Sign checkpoints of the log's Merkle tree with this key (`ledgerctl new-signing-key`), and
    /// serve proofs against them; without it, neither.
    #[arg(long, env = "LEDGER_SIGNING_KEY")]
    signing_key: Option<PathBuf>,
    /// Sign a checkpoint at least this often (seconds) while the log grows; also at each round's
    /// end.
    #[arg(long, env = "LEDGER_CHECKPOINT_INTERVAL", default_value_t = 10)]
    checkpoint_interval: u64,
    /// A witness's public key (`ledgerctl witness --publish` hands its cosignatures back); the
    /// board shows them. Repeat it, or separate keys with commas in the environment.
    #[arg(long = "witness", env = "LEDGER_WITNESSES", value_delimiter = ',')]
    witnesses: Vec<String>,
    /// Rebuild the season's read models (the season list, the jury's desk, statistics, ratings)
    /// from the log at this start instead of resuming from `<data dir>/read-models.bin`.
    #[arg(long)]
    rebuild_read_models: bool,
    /// Log filter, e.g. `info` or `ledger_daemon=debug`.
    #[arg(long, env = "LEDGER_LOG", default_value = "info")]
    log: String,
}

/// What else ledgerd does than serve.
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Makes an organiser's code, kept in --data-dir, and prints its sign-in link; then starts
    /// nothing. A ledgerd started afterwards runs with tokens and admits it; one already running
    /// admits it on SIGHUP.
    Organiser {
        /// The address browsers reach ledgerd's web pages at, e.g. `https://ledger.local:8443`.
        #[arg(long)]
        url: String,
        /// The organiser's name, recorded as the actor of what they record.
        #[arg(long, default_value = "organiser")]
        name: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum BackendArg {
    Sled,
    Jetstream,
}

/// What callers may hold (see `Limits`).
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// Open gRPC connections at most; at the limit the longest-idle one is closed to admit a
    /// new one (counted in the metrics). With --http-max-connections, lowered at start to fit
    /// the open-file soft limit (raised to the hard one) less 256.
    #[arg(long, env = "LEDGER_MAX_CONNECTIONS", default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Close a gRPC connection on which nothing is sent or received (not even a keepalive ping
    /// and its answer) for this many seconds.
    #[arg(long, env = "LEDGER_IDLE_TIMEOUT_SECS", default_value_t = Limits::default().idle_timeout.as_secs())]
    idle_timeout_secs: u64,
    /// Live subscriptions at most, shared out: half for the public (a quarter of that per
    /// address), an eighth for organisers, jury and analysts (64 each), the rest for the tables
    /// (16 per device); one more than a caller's share is refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "LEDGER_MAX_SUBSCRIBERS", default_value_t = Limits::default().max_subscribers)]
    max_subscribers: usize,
    /// Cut off a subscriber that takes no event for this many seconds while events wait.
    #[arg(long, env = "LEDGER_SUBSCRIBER_STALL_SECS", default_value_t = Limits::default().subscriber_stall.as_secs())]
    subscriber_stall_secs: u64,
    /// Open connections to the web pages (--http-listen) at most; at the limit the longest-idle
    /// one is closed to admit a new one. Shares the open-file budget with --max-connections.
    #[arg(long, env = "LEDGER_HTTP_MAX_CONNECTIONS", default_value_t = HttpLimits::default().max_connections)]
    http_max_connections: usize,
    /// Close a web connection whose request's head (line and headers) has not arrived this many
    /// seconds after ledgerd began to wait for it (also the wait for a kept-alive connection's
    /// next request).
    #[arg(long, env = "LEDGER_HTTP_HEADER_TIMEOUT_SECS", default_value_t = HttpLimits::default().header_timeout.as_secs())]
    http_header_timeout_secs: u64,
    /// Close a web connection on which nothing is sent or received for this many seconds (a
    /// live page gets a keep-alive comment every 15 s).
    #[arg(long, env = "LEDGER_HTTP_IDLE_TIMEOUT_SECS", default_value_t = HttpLimits::default().idle_timeout.as_secs())]
    http_idle_timeout_secs: u64,
}

impl LimitArgs {
    fn limits(&self) -> anyhow::Result<Limits> {
        anyhow::ensure!(self.max_connections > 0, "--max-connections must be at least 1");
        anyhow::ensure!(self.idle_timeout_secs >= 3, "--idle-timeout-secs must be at least 3");
        anyhow::ensure!(self.subscriber_stall_secs > 0, "--subscriber-stall-secs must be at least 1");
        anyhow::ensure!(self.http_max_connections > 0, "--http-max-connections must be at least 1");
        anyhow::ensure!(self.http_header_timeout_secs > 0, "--http-header-timeout-secs must be at least 1");
        anyhow::ensure!(self.http_idle_timeout_secs >= 20, "--http-idle-timeout-secs must be at least 20 (live pages)");
        Ok(Limits {
            max_connections: self.max_connections,
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            max_subscribers: self.max_subscribers,
            subscriber_stall: Duration::from_secs(self.subscriber_stall_secs),
            http: HttpLimits {
                max_connections: self.http_max_connections,
                header_timeout: Duration::from_secs(self.http_header_timeout_secs),
                idle_timeout: Duration::from_secs(self.http_idle_timeout_secs),
            },
        })
    }
}

/// gRPC and the pages over TLS (plaintext without `--tls-cert` or `--acme-domain`); the files
/// are read again on SIGHUP.
#[derive(Debug, clap::Args)]
struct TlsArgs {
    /// The server's certificate chain (PEM).
    #[arg(long, env = "LEDGER_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, env = "LEDGER_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Require client certificates signed by this CA (PEM).
    #[arg(long, env = "LEDGER_TLS_CLIENT_CA", requires = "tls_cert")]
    tls_client_ca: Option<PathBuf>,
}

impl TlsArgs {
    fn files(self) -> Option<TlsFiles> {
        Some(TlsFiles { cert: self.tls_cert?, key: self.tls_key?, client_ca: self.tls_client_ca })
    }
}

/// The certificate by ACME (RFC 8555) for the pages and gRPC, and plain HTTP redirected to HTTPS.
#[derive(Debug, clap::Args)]
struct AcmeArgs {
    /// Obtain and renew the certificate of the pages and gRPC by ACME for this name (repeatable); the name must
    /// reach this ledgerd on port 80 (HTTP-01). Kept in <data dir>/acme/. Needs --http-listen and
    /// --http-redirect-listen.
    #[arg(long, env = "LEDGER_ACME_DOMAIN", value_delimiter = ',', conflicts_with = "tls_cert")]
    acme_domain: Vec<String>,
    /// The certificate authority's ACME directory. Let's Encrypt's staging, for a rehearsal:
    /// https://acme-staging-v02.api.letsencrypt.org/directory
    #[arg(long, env = "LEDGER_ACME_DIRECTORY", default_value = ledger_daemon::acme::LETS_ENCRYPT)]
    acme_directory: String,
    /// An address the authority may write to about the certificates (mailto:…; repeatable).
    #[arg(long, env = "LEDGER_ACME_CONTACT", value_delimiter = ',')]
    acme_contact: Vec<String>,
    /// Trust this root (PEM) for the authority's own HTTPS instead of the system's: a test CA.
    #[arg(long, env = "LEDGER_ACME_CA_ROOT")]
    acme_ca_root: Option<PathBuf>,
    /// A hall without internet: make ledgerd's own root once (kept in <data dir>/local-ca/) and
    /// serve the pages with a certificate it signs for these names and addresses of this
    /// machine (repeatable, or comma-separated; the first names the root). Each tablet installs
    /// the root from the printed /hall/trust page. Needs --http-listen and --http-redirect-listen.
    #[arg(long, env = "LEDGER_TLS_LOCAL_CA", value_delimiter = ',', conflicts_with_all = ["tls_cert", "acme_domain"])]
    tls_local_ca: Vec<String>,
    /// Answer plain HTTP here (e.g. 0.0.0.0:80) with a redirect to the pages' HTTPS port, and
    /// ACME's HTTP-01 challenges (with --tls-local-ca, the hall's root and its trust page).
    #[arg(long, env = "LEDGER_HTTP_REDIRECT_LISTEN")]
    http_redirect_listen: Option<SocketAddr>,
    /// Behind a proxy: the origin people reach the pages by (https://hall.example:8443), which
    /// every printed link and QR code starts with. Without it, links name the scheme, host and
    /// port ledgerd serves the pages on (a proxy's X-Forwarded-Proto is never read).
    #[arg(long, env = "LEDGER_PUBLIC_ORIGIN", value_parser = ledger_daemon::config::public_origin)]
    public_origin: Option<String>,
}

impl AcmeArgs {
    fn config(&self) -> anyhow::Result<Option<ledger_daemon::acme::AcmeConfig>> {
        if self.acme_domain.is_empty() {
            return Ok(None);
        }
        let config = ledger_daemon::acme::AcmeConfig::new(
            self.acme_domain.clone(),
            self.acme_directory.clone(),
            self.acme_contact.clone(),
            self.acme_ca_root.clone(),
        )?;
        Ok(Some(config))
    }

    fn local_ca(&self) -> anyhow::Result<Option<ledger_daemon::local_ca::LocalCaConfig>> {
        if self.tls_local_ca.is_empty() {
            return Ok(None);
        }
        Ok(Some(ledger_daemon::local_ca::LocalCaConfig::new(self.tls_local_ca.clone())?))
    }
}

/// NATS: the JetStream backend's server, or (on sled) where every committed event is published
/// (off without `--nats-url`).
#[derive(Debug, clap::Args)]
struct NatsArgs {
    /// NATS server(s), e.g. `nats://127.0.0.1:4222` (comma-separated for a cluster).
    #[arg(long, env = "LEDGER_NATS_URL")]
    nats_url: Option<String>,
    /// The JetStream stream the events go to (created if missing, subjects `ledger.v1.>`).
    #[arg(long, env = "LEDGER_NATS_STREAM", default_value = "LEDGER")]
    nats_stream: String,
    /// A NATS `.creds` file (JWT and NKey seed).
    #[arg(long, env = "LEDGER_NATS_CREDS")]
    nats_creds: Option<PathBuf>,
    #[arg(long, env = "LEDGER_NATS_USER", requires = "nats_password")]
    nats_user: Option<String>,
    #[arg(long, env = "LEDGER_NATS_PASSWORD", requires = "nats_user", hide_env_values = true)]
    nats_password: Option<String>,
    #[arg(long, env = "LEDGER_NATS_TOKEN", hide_env_values = true)]
    nats_token: Option<String>,
    /// Require TLS (implied by the TLS files below).
    #[arg(long, env = "LEDGER_NATS_TLS")]
    nats_tls: bool,
    /// CA certificate (PEM) that signed the NATS server's certificate.
    #[arg(long, env = "LEDGER_NATS_TLS_CA")]
    nats_tls_ca: Option<PathBuf>,
    /// Client certificate (PEM), for servers that verify clients.
    #[arg(long, env = "LEDGER_NATS_TLS_CERT", requires = "nats_tls_key")]
    nats_tls_cert: Option<PathBuf>,
    #[arg(long, env = "LEDGER_NATS_TLS_KEY", requires = "nats_tls_cert")]
    nats_tls_key: Option<PathBuf>,
}

impl NatsArgs {
    fn options(self) -> Option<NatsOptions> {
        let url = self.nats_url?;
        Some(NatsOptions {
            stream: self.nats_stream,
            creds: self.nats_creds,
            user: self.nats_user,
            password: self.nats_password,
            token: self.nats_token,
            tls: self.nats_tls,
            tls_ca: self.nats_tls_ca,
            tls_cert: self.nats_tls_cert,
            tls_key: self.nats_tls_key,
            ..NatsOptions::new(url)
        })
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(Command::Organiser { url, name }) = &args.command {
        let link = ledger_daemon::organiser::first_organiser(&args.data_dir, url, name)
            .map_err(|error| anyhow::anyhow!("{}", error.text()))?;
        println!("{name}'s organiser code is kept in {}.", args.data_dir.display());
        println!("Open this link to sign in (it is the code: keep it to yourself): {link}");
        println!("A ledgerd already running admits it once told: kill -HUP <its pid>.");
        return Ok(());
    }
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::try_new(&args.log)?).init();
    anyhow::ensure!(
        args.backend == BackendArg::Sled || args.nats.nats_url.is_some(),
        "--backend jetstream needs --nats-url (the NATS server or cluster holding the log)"
    );
    let backend = match args.backend {
        BackendArg::Sled => Backend::Sled,
        BackendArg::Jetstream => Backend::JetStream(JetStreamConfig {
            stream: args.jetstream_stream,
            replicas: args.jetstream_replicas,
            ..JetStreamConfig::default()
        }),
    };
    anyhow::ensure!(args.checkpoint_interval > 0, "--checkpoint-interval must be at least 1 second");
    let mut limits = args.limits.limits()?;
    let http_max = args.http_listen.map(|_| limits.http.max_connections);
    let budget = descriptors::fit_connections(limits.max_connections, http_max);
    limits.max_connections = budget.max_connections;
    limits.http.max_connections = budget.http_max_connections.unwrap_or(limits.http.max_connections);
    let config = Config {
        backend,
        stream_limits: StreamLimits::of_games(args.max_stream_events),
        table_quota: TableQuota {
            events_per_minute: args.table_events_per_minute,
            bytes_per_minute: args.table_bytes_per_minute,
        },
        data_dir: args.data_dir,
        listen: args.listen,
        auth_file: args.auth_file,
        insecure_open: args.insecure_open,
        metrics_listen: args.metrics_listen,
        http_listen: args.http_listen,
        nats: args.nats.options(),
        limits,
        tls: args.tls.files(),
        acme: args.acme.config()?,
        local_ca: args.acme.local_ca()?,
        http_redirect_listen: args.acme.http_redirect_listen,
        public_origin: args.acme.public_origin,
        signing_key: args.signing_key,
        checkpoint_interval: Duration::from_secs(args.checkpoint_interval),
        rebuild_read_models: args.rebuild_read_models,
        witnesses: args.witnesses,
    };
    run(config, shutdown_signal()?).await?;
    Ok(())
}

/// Completes on SIGINT or SIGTERM. The handlers are installed before the server starts, so
/// a signal that arrives early is not lost.
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => tracing::info!("SIGINT received"),
            _ = terminate.recv() => tracing::info!("SIGTERM received"),
        }
    })
}
