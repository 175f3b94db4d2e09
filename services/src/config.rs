//! The daemon's validated configuration (flags and environment are parsed in `main`).

use std::net::SocketAddr;
use std::path::PathBuf;

/// Where `ledgerd` keeps its log and where it listens.
#[derive(Debug, Clone)]
pub struct Config {
    /// The sled log's directory.
    pub data_dir: PathBuf,
    pub listen: SocketAddr,
    /// Where to serve Prometheus metrics; `None`: not at all.
    pub metrics_listen: Option<SocketAddr>,
    /// Token → identity file; `None` runs open (headers trusted).
    pub auth_file: Option<PathBuf>,
    /// Allow running open on an address other than loopback (anyone who reaches it may claim
    /// the jury's clearance).
    pub insecure_open: bool,
    /// Publish every committed event to NATS JetStream; `None`: no fan-out.
    pub nats: Option<crate::nats::NatsOptions>,
    /// Connections, idle timeout, subscribers.
    pub limits: crate::server::Limits,
    /// Serve gRPC over TLS; `None`: plaintext.
    pub tls: Option<crate::server::TlsFiles>,
}
