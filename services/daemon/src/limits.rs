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
    /// Open connections; more are accepted and closed at once (shed). ledgerd fits it below
    /// the process's open-file limit at start (see `descriptors`; deploy/ sets
    /// `LimitNOFILE=65536`).
    pub max_connections: usize,
    /// A connection that sends nothing for this long is closed. Live HTTP/2 clients answer the
    /// server's keepalive pings (every third of this), so only dead or silent peers hit it.
    pub idle_timeout: Duration,
    /// Live subscriptions; one more is refused with RESOURCE_EXHAUSTED.
    pub max_subscribers: usize,
    /// A subscriber that takes no event for this long, while events wait for it, is cut off
    /// with RESOURCE_EXHAUSTED (it may resubscribe from where it stopped).
    pub subscriber_stall: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 4_096,
            idle_timeout: Duration::from_secs(60),
            max_subscribers: 2_048,
            subscriber_stall: Duration::from_secs(30),
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
    pub connections_open: AtomicU64,
    pub connections_accepted: AtomicU64,
    pub connections_shed: AtomicU64,
    pub connections_idle_closed: AtomicU64,
    pub subscribers_open: AtomicU64,
    pub subscribers_refused: AtomicU64,
    pub subscribers_cut_off: AtomicU64,
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
