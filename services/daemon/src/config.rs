//! The daemon's validated configuration (flags and environment are parsed in `main`).

use std::net::SocketAddr;
use std::path::PathBuf;

pub use ledger_store::jetstream::JetStreamConfig;
/// `--public-origin` checked: `http(s)://host[:port]`, nothing after it.
pub use ledger_web::links::public_origin;

/// Which log ledgerd writes to.
#[derive(Debug, Clone)]
pub enum Backend {
    /// The embedded sled log in `data_dir`: the default, nothing else to run.
    Sled,
    /// A JetStream stream (reached with `nats`), shared with every ledgerd on the same stream.
    JetStream(JetStreamConfig),
}

/// What a table's code may record a minute (`--table-events-per-minute`,
/// `--table-bytes-per-minute`): see `ledger_house::auth::quota`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableQuota {
    pub events_per_minute: std::num::NonZeroU32,
    pub bytes_per_minute: std::num::NonZeroU32,
}

impl Default for TableQuota {
    /// 1,200 events and 2 MiB a minute.
    fn default() -> Self {
        TableQuota {
            events_per_minute: std::num::NonZeroU32::new(1_200).expect("not 0"),
            bytes_per_minute: std::num::NonZeroU32::new(2 << 20).expect("not 0"),
        }
    }
}

/// The most events a stream may hold, as `--max-stream-events` sets it.
pub use ledger_house::cross_check::StreamLimits;

/// Where `ledgerd` keeps its log and where it listens.
#[derive(Debug, Clone)]
pub struct Config {
    pub backend: Backend,
    /// The sled log's directory.
    pub data_dir: PathBuf,
    pub listen: SocketAddr,
    /// Where to serve Prometheus metrics; `None`: not at all.
    pub metrics_listen: Option<SocketAddr>,
    /// Where to serve the web pages (table, board, jury, analysts); `None`: not at all.
    pub http_listen: Option<SocketAddr>,
    /// Token → identity file; `None` runs open (headers trusted).
    pub auth_file: Option<PathBuf>,
    /// Allow running open on an address other than loopback (anyone who reaches it may claim
    /// the jury's clearance).
    pub insecure_open: bool,
    /// NATS: where the JetStream backend's log is, or where the sled backend publishes every
    /// committed event (the fan-out); `None`: no NATS.
    pub nats: Option<crate::nats::NatsOptions>,
    /// Connections, idle timeout, subscribers.
    pub limits: crate::limits::Limits,
    /// The most events a stream may hold (`--max-stream-events`).
    pub stream_limits: StreamLimits,
    /// What a table's code may record a minute, with an auth file.
    pub table_quota: TableQuota,
    /// Serve gRPC over TLS; `None`: plaintext.
    pub tls: Option<crate::tls::TlsFiles>,
    /// The pages' certificate by ACME (`--acme-domain`), kept in `<data_dir>/acme/`; needs
    /// `http_listen` and `http_redirect_listen` (HTTP-01), and no `tls` (one certificate source).
    pub acme: Option<crate::acme::AcmeConfig>,
    /// The pages' certificate from ledgerd's own root (`--tls-local-ca`), kept in
    /// `<data_dir>/local-ca/`, for a hall without internet; needs `http_listen` and
    /// `http_redirect_listen` (where the tablets download the root), and no `tls` or `acme`.
    pub local_ca: Option<crate::local_ca::LocalCaConfig>,
    /// Plain HTTP answered with a redirect to the pages' HTTPS port (and ACME's HTTP-01
    /// challenges); needs a certificate for the pages.
    pub http_redirect_listen: Option<SocketAddr>,
    /// The origin people reach the pages by behind a proxy (`--public-origin`,
    /// `https://hall.example:8443`): every printed link starts with it. `None`: links name the
    /// scheme, host and port ledgerd serves the request on.
    pub public_origin: Option<String>,
    /// The key checkpoints are signed with (`ledgerctl new-signing-key`); `None`: no checkpoints
    /// and no proofs.
    pub signing_key: Option<PathBuf>,
    /// A checkpoint at least this often while the log grows (and at each round's end).
    pub checkpoint_interval: std::time::Duration,
    /// The witnesses whose cosignatures ledgerd keeps and shows (their public keys).
    pub witnesses: Vec<String>,
    /// Rebuild the season's read models from the log at start (`--rebuild-read-models`).
    pub rebuild_read_models: bool,
}
