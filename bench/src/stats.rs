//! Per-operation latencies and their percentiles.
//!
//! A sorted `Vec` of nanoseconds rather than a histogram crate: the runs record at most a few
//! million operations, exact percentiles cost one sort, and the dependency list stays short.

use serde::Serialize;
use std::time::Duration;

/// Every recorded duration of one workload, in nanoseconds.
#[derive(Debug, Default, Clone)]
pub struct Latencies(Vec<u64>);

/// The percentiles a report prints, in milliseconds.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latencies {
    pub fn record(&mut self, took: Duration) {
        self.0.push(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX));
    }

    pub fn merge(&mut self, other: Latencies) {
        self.0.extend(other.0);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Nearest-rank percentiles; `None` when nothing was recorded.
    pub fn summary(mut self) -> Option<Summary> {
        if self.0.is_empty() {
            return None;
        }
        self.0.sort_unstable();
        let n = self.0.len();
        // Nearest rank: the smallest value with at least that share of all values at or below it.
        let rank = |per_mille: usize| -> f64 { self.0[(per_mille * n).div_ceil(1000).max(1) - 1] as f64 / 1e6 };
        Some(Summary { count: n as u64, p50_ms: rank(500), p99_ms: rank(990), max_ms: self.0[n - 1] as f64 / 1e6 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut l = Latencies::default();
        for ms in 1..=100u64 {
            l.record(Duration::from_millis(ms));
        }
        let s = l.summary().unwrap();
        assert_eq!(s.count, 100);
        assert!((s.p50_ms - 50.0).abs() < 1e-9);
        assert!((s.p99_ms - 99.0).abs() < 1e-9);
        assert!((s.max_ms - 100.0).abs() < 1e-9);
        assert!(Latencies::default().summary().is_none());
    }
}
