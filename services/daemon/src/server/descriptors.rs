//! Open-file descriptors at start: raise the soft `RLIMIT_NOFILE` to the hard limit, and keep
//! `--max-connections` below what the process can really open.
//!
//! A shell's usual soft limit is 1,024 while ledgerd's default is 4,096 connections: idle
//! connections then use up every descriptor, `accept` fails with `EMFILE`, and every new client
//! is locked out (the connection limit never sheds, since it is never reached). Many servers
//! raise the soft limit to the hard one at start; what is left over after a reserve for the
//! daemon's own files bounds the connections.

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
    /// The connection limit chosen: `min(configured, soft - RESERVED)`, at least 1.
    pub max_connections: usize,
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

/// The connection limit that fits a soft open-file limit of `soft`.
pub fn connections_within(configured: usize, soft: u64) -> usize {
    let available = usize::try_from(soft.saturating_sub(RESERVED)).unwrap_or(usize::MAX);
    configured.min(available).max(1)
}

/// Raises the soft limit, fits `configured` connections within it, and logs what was chosen
/// (a warning when the configured limit had to be lowered).
pub fn fit_connections(configured: usize) -> DescriptorBudget {
    let (soft_before, soft) = raise_soft_limit();
    let max_connections = connections_within(configured, soft);
    if max_connections < configured {
        tracing::warn!(
            soft_before,
            soft,
            reserved = RESERVED,
            configured,
            max_connections,
            "--max-connections lowered to fit the open-file limit (raise the hard limit: ulimit -Hn, LimitNOFILE)"
        );
    } else {
        tracing::info!(soft_before, soft, reserved = RESERVED, max_connections, "open-file limit and connections");
    }
    DescriptorBudget { soft_before, soft, max_connections }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_keep_the_reserve_free() {
        assert_eq!(connections_within(4_096, 1_024), 1_024 - 256);
        assert_eq!(connections_within(4_096, 65_536), 4_096);
        assert_eq!(connections_within(100, 1_024), 100);
        assert_eq!(connections_within(4_096, 100), 1, "never zero: one connection is still tried");
        assert_eq!(connections_within(4_096, u64::MAX), 4_096);
    }

    #[test]
    fn the_soft_limit_reaches_the_hard_one() {
        let (_, soft) = raise_soft_limit();
        let hard = getrlimit(Resource::Nofile).maximum.unwrap_or(NR_OPEN_DEFAULT);
        assert_eq!(getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX), soft);
        assert!(soft == hard || hard == NR_OPEN_DEFAULT, "soft {soft}, hard {hard}");
    }
}
