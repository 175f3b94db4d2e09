//! `ledgerd`: the Tournament Ledger daemon. Flags and environment → [`Config`] → [`run`].

use clap::Parser;
use ledger_services::config::Config;
use ledger_services::nats::NatsOptions;
use ledger_services::server::run;
use std::net::SocketAddr;
use std::path::PathBuf;

/// mimalloc, not glibc's malloc: the writer and the readers allocate many small, short-lived
/// values from several threads, where glibc's arenas showed at a fifth of the time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The Tournament Ledger daemon: a durable, validated, hash-chained event log over gRPC.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Directory of the embedded sled log.
    #[arg(long, env = "LEDGER_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// Address the gRPC server listens on.
    #[arg(long, env = "LEDGER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Serve Prometheus metrics at http://ADDR/metrics (off when not given).
    #[arg(long, env = "LEDGER_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// JSON file mapping token digests to actors and clearances; without it ledgerd runs open.
    #[arg(long, env = "LEDGER_AUTH_FILE")]
    auth_file: Option<PathBuf>,
    /// Run open (headers trusted) even on a non-loopback address: for a closed, trusted network
    /// only.
    #[arg(long, env = "LEDGER_INSECURE_OPEN")]
    insecure_open: bool,
    #[command(flatten)]
    nats: NatsArgs,
    /// Log filter, e.g. `info` or `ledger_services=debug`.
    #[arg(long, env = "LEDGER_LOG", default_value = "info")]
    log: String,
}

/// Publishing every committed event to NATS JetStream (off without `--nats-url`).
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
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::try_new(&args.log)?).init();
    let config = Config {
        data_dir: args.data_dir,
        listen: args.listen,
        auth_file: args.auth_file,
        insecure_open: args.insecure_open,
        metrics_listen: args.metrics_listen,
        nats: args.nats.options(),
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
