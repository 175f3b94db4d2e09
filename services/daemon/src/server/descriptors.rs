//! Open-file descriptors at start: raise the soft `RLIMIT_NOFILE` to the hard limit, and keep
//! the connections of both ports (`--max-connections` for gRPC, `--http-max-connections` for
//! the web pages) together below what the process can really open.
//!
//! A shell's usual soft limit is 1,024 while ledgerd's default is 4,096 connections: idle
//! connections then use up every descriptor, `accept` fails with `EMFILE`, and every new client
//! is locked out (the connection limit never sheds, since it is never reached). Many servers
//! raise the soft limit to the hard one at start; what is left over after a reserve for the
//! daemon's own files bounds the connections. It is one budget for both ports: when their
//! limits add up to more, each is lowered in proportion, so that neither port's clients can take
//! the descriptors the other's (or ledgerd's own files) need.

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

/// Descriptors kept back from the connection limit for ledgerd's own use: standard streams,
/// the runtime's epoll and wake-up descriptors, the records file and sled's files (its
/// configuration, database and blob files, and a snapshot or export being written), the NATS
/// connection, the gRPC, metrics and web listeners, and the web pages' connections, which the
/// gRPC connection limit does not count. 256 is several times what these take at once.
pub const RESERVED: u64 = 256;

/// Linux's default `fs.nr_open`: the most a soft limit may be when the hard one is "unlimited".
const NR_OPEN_DEFAULT: u64 = 1 << 20;

/// What [`fit_connections`] found and chose, for the one log line at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptorBudget {
    /// The soft limit found at start.
    pub soft_before: u64,
    /// The soft limit now (the hard limit, unless raising it failed).
    pub soft: u64,
    /// The gRPC connection limit chosen ([`connections_within`]).
    pub max_connections: usize,
    /// The web pages' connection limit chosen; `None` without `--http-listen`.
    pub http_max_connections: Option<usize>,
}

/// Raises this process's soft open-file limit as far as the hard limit allows; returns the
/// soft limit before and after. A failure to raise it leaves the old one (and is logged).
pub fn raise_soft_limit() -> (u64, u64) {
    let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
    let before = current.unwrap_or(u64::MAX);
    let target = maximum.unwrap_or(NR_OPEN_DEFAULT);
    if before >= target {
        return (before, before);
    }
    match setrlimit(Resource::Nofile, Rlimit { current: Some(target), maximum }) {
        Ok(()) => (before, target),
        Err(error) => {
            tracing::warn!(%error, soft = before, hard = target, "cannot raise the open-file soft limit");
            (before, before)
        }
    }
}

/// The gRPC and (when the web pages are served) HTTP connection limits that fit a soft
/// open-file limit of `soft` together: as configured when they do, else both lowered in
/// proportion to what they asked for, each at least 1.
pub fn connections_within(grpc: usize, http: Option<usize>, soft: u64) -> (usize, Option<usize>) {
    let available = usize::try_from(soft.saturating_sub(RESERVED)).unwrap_or(usize::MAX);
    let asked = grpc.saturating_add(http.unwrap_or(0));
    if asked <= available {
        return (grpc.max(1), http.map(|h| h.max(1)));
    }
    let Some(http) = http else { return (available.max(1), None) };
    // grpc * available / asked, in u128: no overflow, rounded down.
    let share = u128::try_from(grpc).unwrap_or(u128::MAX) * u128::try_from(available).unwrap_or(u128::MAX)
        / u128::try_from(asked).unwrap_or(u128::MAX).max(1);
    let grpc_fit = usize::try_from(share).unwrap_or(usize::MAX).max(1);
    let http_fit = available.saturating_sub(grpc_fit).min(http).max(1);
    (grpc_fit, Some(http_fit))
}

/// Raises the soft limit, fits the configured connections of both ports within it, and logs
/// what was chosen (a warning when a configured limit had to be lowered).
pub fn fit_connections(grpc: usize, http: Option<usize>) -> DescriptorBudget {
    let (soft_before, soft) = raise_soft_limit();
    let (max_connections, http_max_connections) = connections_within(grpc, http, soft);
    if max_connections < grpc || http_max_connections < http {
        tracing::warn!(
            soft_before,
            soft,
            reserved = RESERVED,
            grpc,
            http,
            max_connections,
            http_max_connections,
            "--max-connections and --http-max-connections lowered to fit the open-file limit together \
             (raise the hard limit: ulimit -Hn, LimitNOFILE)"
        );
    } else {
        tracing::info!(
            soft_before,
            soft,
            reserved = RESERVED,
            max_connections,
            http_max_connections,
            "open-file limit and connections"
        );
    }
    DescriptorBudget { soft_before, soft, max_connections, http_max_connections }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_keep_the_reserve_free() {
        assert_eq!(connections_within(4_096, None, 1_024), (1_024 - 256, None));
        assert_eq!(connections_within(4_096, None, 65_536), (4_096, None));
        assert_eq!(connections_within(100, None, 1_024), (100, None));
        assert_eq!(connections_within(4_096, None, 100), (1, None), "never zero: one connection is still tried");
        assert_eq!(connections_within(4_096, None, u64::MAX), (4_096, None));
    }

    #[test]
    fn both_ports_share_one_budget() {
        assert_eq!(connections_within(4_096, Some(4_096), 65_536), (4_096, Some(4_096)));
        assert_eq!(connections_within(4_096, Some(4_096), 700), (222, Some(222)), "half each of 700 - 256");
        assert_eq!(connections_within(3_000, Some(1_000), 1_256), (750, Some(250)), "in proportion");
        assert_eq!(connections_within(100, Some(4_096), 1_024), (18, Some(750)));
        assert_eq!(connections_within(4_096, Some(4_096), 100), (1, Some(1)));
        assert_eq!(connections_within(4_096, Some(4_096), u64::MAX), (4_096, Some(4_096)));
        let (grpc, http) = connections_within(5_000, Some(7_000), 10_000);
        assert!(grpc + http.unwrap() <= 10_000 - 256);
    }

    #[test]
    fn the_soft_limit_reaches_the_hard_one() {
        let (_, soft) = raise_soft_limit();
        let hard = getrlimit(Resource::Nofile).maximum.unwrap_or(NR_OPEN_DEFAULT);
        assert_eq!(getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX), soft);
        assert!(soft == hard || hard == NR_OPEN_DEFAULT, "soft {soft}, hard {hard}");
    }
}
