//! `ledgerd`: the Tournament Ledger daemon. Flags and environment → [`Config`] → [`run`].

use clap::Parser;
use ledger_services::config::Config;
use ledger_services::server::run;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The Tournament Ledger daemon: a durable, validated, hash-chained event log over gRPC.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Directory of the embedded sled log.
    #[arg(long, env = "LEDGER_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// Address the gRPC server listens on.
    #[arg(long, env = "LEDGER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Log filter, e.g. `info` or `ledger_services=debug`.
    #[arg(long, env = "LEDGER_LOG", default_value = "info")]
    log: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::try_new(&args.log)?).init();
    let config = Config { data_dir: args.data_dir, listen: args.listen };
    run(config, shutdown_signal()).await?;
    Ok(())
}

/// Completes on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
        tokio::select! {
            _ = interrupt => {},
            _ = terminate.recv() => {},
        }
    }
    #[cfg(not(unix))]
    interrupt.await.ok();
    tracing::info!("signal received");
}
