//! `ledgerd`: the Tournament Ledger daemon. Flags and environment → [`Config`] → [`run`].

use clap::Parser;
use ledger_services::config::Config;
use ledger_services::server::run;
use std::net::SocketAddr;
use std::path::PathBuf;

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
    /// Log filter, e.g. `info` or `ledger_services=debug`.
    #[arg(long, env = "LEDGER_LOG", default_value = "info")]
    log: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::try_new(&args.log)?).init();
    let config = Config {
        data_dir: args.data_dir,
        listen: args.listen,
        auth_file: args.auth_file,
        metrics_listen: args.metrics_listen,
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
