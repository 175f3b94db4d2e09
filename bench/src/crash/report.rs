//! The figures of a crash run: one line per cycle while it runs, a summary at the end, and the
//! same as JSON for docs/RELIABILITY.md.

use super::check::{DiskCheck, ReadCheck, Resolved};
use serde::Serialize;
use std::path::PathBuf;

/// One `kill -9` and the restart after it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CycleReport {
    pub cycle: u32,
    /// The drawn delay from the start of the load to the kill.
    pub kill_after_ms: u64,
    /// How long the load really ran (the kill waits for a first acknowledgement).
    pub load_ms: u64,
    /// Appends and events acknowledged under load in this cycle.
    pub appends: u64,
    pub events: u64,
    /// Shared-stream appends that lost their race (`ABORTED`) and were tried again.
    pub races_lost: u64,
    pub killed_running: bool,
    pub kill_signal: Option<i32>,
    /// `--power-cut`: what the cut after the kill dropped.
    pub power_cut: Option<String>,
    /// Appends sent and never answered when the daemon died.
    pub in_flight: u64,
    pub disk: DiskCheck,
    pub restart_ms: u64,
    pub resolved: Resolved,
    pub read: ReadCheck,
    /// Time spent checking: the copy and its verification, the retries, the read-back.
    pub checks_ms: u64,
    /// Every check of the cycle ran and passed.
    pub passed: bool,
}

impl CycleReport {
    pub fn line(&self) -> String {
        let r = &self.resolved;
        let line = format!(
            "cycle {:>3}: kill -9 after {:>5} ms ({}), {:>6} events in {:>6} appends acknowledged, {:>4} in flight \
             → {} stored before the crash, {} appended by the retry, {} superseded; restart {} ms; \
             {} events read back, lost {}, duplicates {}, chains ok: {} (checks {} ms)",
            self.cycle,
            self.load_ms,
            match (self.killed_running, self.kill_signal) {
                (true, Some(9)) => "running, SIGKILL".to_owned(),
                (running, signal) => format!("running {running}, signal {signal:?}"),
            },
            self.events,
            self.appends,
            self.in_flight,
            r.committed,
            r.appended,
            r.superseded,
            self.restart_ms,
            self.read.events,
            self.disk.lost + self.read.lost,
            self.read.duplicates,
            self.disk.broken == 0 && self.read.broken_chains == 0,
            self.checks_ms,
        );
        match &self.power_cut {
            Some(cut) => format!("{line}; power cut: {cut}"),
            None => line,
        }
    }
}

/// A whole run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CrashReport {
    pub seed: u64,
    pub ledgerd: String,
    pub unary_writers: usize,
    pub pipelined_writers: usize,
    pub in_flight: usize,
    pub cycles_planned: u32,
    pub cycles: Vec<CycleReport>,
    /// Events in the log at the end, every one acknowledged (under load or to a retry).
    pub events_stored: u64,
    pub streams: usize,
    /// The data directory's size on disk at the end.
    pub data_bytes: u64,
    /// How the last daemon ended on SIGTERM.
    pub final_exit: Option<String>,
    pub wall_secs: f64,
    /// Where the data and ledgerd's logs are, when kept (always after a failure).
    pub kept: Option<PathBuf>,
    pub failures: Vec<String>,
}

impl CrashReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.cycles.len() == self.cycles_planned as usize
    }

    /// Cycles whose kill hit a running daemon under load and after which every check passed.
    pub fn cycles_survived(&self) -> usize {
        self.cycles.iter().filter(|c| c.passed).count()
    }

    /// Appends sent and never answered when the daemon died, over all cycles.
    pub fn in_flight(&self) -> u64 {
        self.cycles.iter().map(|c| c.in_flight).sum()
    }

    pub fn events_acknowledged_under_load(&self) -> u64 {
        self.cycles.iter().map(|c| c.events).sum()
    }

    pub fn appends_acknowledged_under_load(&self) -> u64 {
        self.cycles.iter().map(|c| c.appends).sum()
    }

    pub fn lost(&self) -> u64 {
        self.cycles.iter().map(|c| c.disk.lost + c.read.lost).sum()
    }

    pub fn duplicates(&self) -> u64 {
        self.cycles.iter().map(|c| c.read.duplicates).sum()
    }

    pub fn unexpected(&self) -> u64 {
        self.cycles.iter().map(|c| c.read.unexpected).sum()
    }

    pub fn resolved(&self) -> Resolved {
        let mut total = Resolved::default();
        for c in &self.cycles {
            total.add(c.resolved);
        }
        total
    }

    pub fn load_secs(&self) -> f64 {
        self.cycles.iter().map(|c| c.load_ms as f64 / 1000.0).sum()
    }

    pub fn summary(&self) -> String {
        let r = self.resolved();
        let load = self.load_secs().max(1e-9);
        let mut text = format!(
            "ledger-crash {}: seed {}, {} unary + {} pipelined writers (≤{} in flight each)\n\
             cycles survived:          {} of {} planned (kill -9 of a running ledgerd under load, restart, checks)\n\
             events acknowledged:      {} under load ({} appends), {} stored in {} streams at the end ({:.0} MiB)\n\
             events lost:              {}\n\
             duplicates:               {} (and {} events stored that nobody acknowledged)\n\
             in flight at the kills:   {} appends, retried by id after the restart: {} had been stored \
             (duplicate), {} appended once, {} superseded on a shared stream\n\
             throughput under load:    {:.0} appends/s, {:.0} events/s ({:.1} s of load)\n\
             time:                     {:.1} s in all; the last ledgerd on SIGTERM: {}",
            if self.passed() { "PASSED" } else { "FAILED" },
            self.seed,
            self.unary_writers,
            self.pipelined_writers,
            self.in_flight,
            self.cycles_survived(),
            self.cycles_planned,
            self.events_acknowledged_under_load(),
            self.appends_acknowledged_under_load(),
            self.events_stored,
            self.streams,
            self.data_bytes as f64 / (1024.0 * 1024.0),
            self.lost(),
            self.duplicates(),
            self.unexpected(),
            self.in_flight(),
            r.committed,
            r.appended,
            r.superseded,
            self.appends_acknowledged_under_load() as f64 / load,
            self.events_acknowledged_under_load() as f64 / load,
            self.load_secs(),
            self.wall_secs,
            self.final_exit.as_deref().unwrap_or("not reached"),
        );
        for failure in &self.failures {
            text.push_str(&format!("\nFAILURE: {failure}"));
        }
        if let Some(dir) = &self.kept {
            text.push_str(&format!("\ndata and ledgerd logs kept in {}", dir.display()));
        }
        if !self.passed() {
            text.push_str(&format!("\nrerun: ledger-crash --seed {} (same flags)", self.seed));
        }
        text
    }
}
