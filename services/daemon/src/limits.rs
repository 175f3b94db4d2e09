//! The daemon's bounds on what callers may hold, and the counters that show them at work.
//!
//! A ledger at a tournament hall must keep serving its tables when something misbehaves: a
//! flood of idle connections, a thousand forgotten subscriptions, a scoreboard that stops
//! reading. Each is bounded here; what is shed or cut off is counted for `/metrics` and logged.
//!
//! Beside `config` and `metrics`, not inside `server`: both name these types and `server::run`
//! uses both, so the imports point one way.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How much the daemon lets its callers hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Open gRPC connections; at the limit the longest-idle one is closed to admit a new one
    /// (evicted). ledgerd fits it and the web port's limit together below the process's
    /// open-file limit at start (see `descriptors`; deploy/ sets `LimitNOFILE=65536`).
    pub max_connections: usize,
    /// A connection that sends nothing for this long is closed. Live HTTP/2 clients answer the
    /// server's keepalive pings (every third of this), so only dead or silent peers hit it.
    pub idle_timeout: Duration,
    /// Live subscriptions, shared out by class and client (`ledger_house::shares`, issue 42);
    /// one more than a caller's share is refused with RESOURCE_EXHAUSTED.
    pub max_subscribers: usize,
    /// A subscriber that takes no event for this long, while events wait for it, is cut off
    /// with RESOURCE_EXHAUSTED (it may resubscribe from where it stopped).
    pub subscriber_stall: Duration,
    /// The web pages' port (`--http-listen`).
    pub http: HttpLimits,
}

/// What the web pages' port lets its clients hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// Open HTTP connections; at the limit the longest-idle one is evicted, as on gRPC.
    pub max_connections: usize,
    /// A request's head (request line and headers) must have arrived this long after ledgerd
    /// starts waiting for it: on a new connection, and between the requests of a kept-alive
    /// one (so this is also how long a kept-alive connection waits for its next request).
    /// Hyper's own `header_read_timeout`: a slowloris sending a byte a second is closed.
    pub header_timeout: Duration,
    /// A connection that neither sends nor receives a byte for this long is closed: a reader
    /// that stopped reading its answer or its live page. A live page receives a keep-alive
    /// comment every 15 s, so one a browser reads is never idle.
    pub idle_timeout: Duration,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            max_connections: 4_096,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 4_096,
            idle_timeout: Duration::from_secs(60),
            max_subscribers: 2_048,
            subscriber_stall: Duration::from_secs(30),
            http: HttpLimits::default(),
        }
    }
}

impl Limits {
    /// The interval of the server's HTTP/2 keepalive pings.
    pub fn keepalive_interval(&self) -> Duration {
        self.idle_timeout / 3
    }
}

/// What the limits did, for `/metrics`.
#[derive(Debug, Default)]
pub struct ServerStats {
    /// The gRPC port's connections.
    pub grpc: PortStats,
    /// The web pages' connections.
    pub http: PortStats,
    /// HTTP connections closed because a request's head did not arrive within
    /// `--http-header-timeout-secs`.
    pub http_header_timeouts: AtomicU64,
    pub subscribers_open: AtomicU64,
    pub subscribers_refused: AtomicU64,
    pub subscribers_cut_off: AtomicU64,
}

/// One port's connections: held, admitted, and closed by its limits.
#[derive(Debug, Default)]
pub struct PortStats {
    pub open: AtomicU64,
    pub accepted: AtomicU64,
    /// Closed to admit a new connection at the limit: one whose peer never sent a byte first,
    /// then the longest idle.
    pub evicted: AtomicU64,
    /// New connections closed on arrival: at the limit, and no connection closed in time to
    /// make room.
    pub shed: AtomicU64,
    /// Closed after neither side sent a byte for the idle timeout.
    pub idle_closed: AtomicU64,
}

impl ServerStats {
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn sub(counter: &AtomicU64, n: u64) {
        counter.fetch_sub(n, Ordering::Relaxed);
    }
}
