//! The figures of a crash run: one line per cycle while it runs, a summary at the end, and the
//! same as JSON for docs/RELIABILITY.md.

use super::check::{DiskCheck, ReadCheck, Resolved};
use super::fanout::FanoutCheck;
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
    /// `--power-cut`: the kind of cut (`all`, `subset`, `torn`) and what it dropped.
    pub cut_kind: Option<String>,
    pub power_cut: Option<String>,
    /// Appends sent and never answered when the daemon died.
    pub in_flight: u64,
    pub disk: DiskCheck,
    pub restart_ms: u64,
    pub resolved: Resolved,
    pub read: ReadCheck,
    /// What the store said at the restart (indexing again, a torn tail cut off), and any warning.
    pub ledgerd_said: Vec<String>,
    /// `--fanout`: what JetStream held after the restart.
    pub fanout: Option<FanoutCheck>,
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
             {} events read back, lost {}, duplicates {}, chains ok: {}, tournament games scheduled first: {}{} (checks {} ms)",
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
            self.read.tournament_games,
            self.fanout
                .as_ref()
                .map(|f| format!(", JetStream {} events ({} new) in order, {} ms to catch up", f.messages, f.checked, f.caught_up_ms))
                .unwrap_or_default(),
            self.checks_ms,
        );
        let line = match &self.power_cut {
            Some(cut) => format!("{line}; power cut: {cut}"),
            None => line,
        };
        if self.ledgerd_said.is_empty() {
            line
        } else {
            format!("{line}; ledgerd said: {}", self.ledgerd_said.join("; "))
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
    pub tournaments: usize,
    pub in_flight: usize,
    pub cycles_planned: u32,
    pub cycles: Vec<CycleReport>,
    /// Events in the log at the end, every one acknowledged (under load or to a retry).
    pub events_stored: u64,
    pub streams: usize,
    /// The data directory's size on disk at the end.
    pub data_bytes: u64,
    /// `--fanout`: messages in the JetStream stream at the end.
    pub fanout_messages: Option<u64>,
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

    /// Restarts from spawn to the first answer, in ms: (median, max).
    pub fn restart_ms(&self) -> (u64, u64) {
        let mut times: Vec<u64> = self.cycles.iter().filter(|c| c.passed).map(|c| c.restart_ms).collect();
        times.sort_unstable();
        (times.get(times.len() / 2).copied().unwrap_or(0), times.last().copied().unwrap_or(0))
    }

    /// Power cuts by kind, e.g. `16 all, 12 subset, 12 torn`.
    pub fn cuts(&self) -> String {
        let count = |kind: &str| self.cycles.iter().filter(|c| c.cut_kind.as_deref() == Some(kind)).count();
        ["all", "subset", "torn"].iter().map(|k| format!("{} {k}", count(k))).collect::<Vec<_>>().join(", ")
    }

    /// Restarts after which the store said it indexed again, cut a torn tail off or rebuilt its
    /// index from the records file.
    pub fn restarts_with_recovery(&self) -> usize {
        let recovering =
            |said: &String| said.contains("unindexed") || said.contains("cut off") || said.contains("rebuil");
        self.cycles.iter().filter(|c| c.ledgerd_said.iter().any(recovering)).count()
    }

    pub fn load_secs(&self) -> f64 {
        self.cycles.iter().map(|c| c.load_ms as f64 / 1000.0).sum()
    }

    pub fn summary(&self) -> String {
        let r = self.resolved();
        let load = self.load_secs().max(1e-9);
        let (restart_p50, restart_max) = self.restart_ms();
        let mut text = format!(
            "ledger-crash {}: seed {}, {} unary + {} pipelined writers (≤{} in flight each), {} tournaments\n\
             cycles survived:          {} of {} planned (kill -9 of a running ledgerd under load, restart, checks)\n\
             events acknowledged:      {} under load ({} appends), {} stored in {} streams at the end ({:.0} MiB)\n\
             events lost:              {}\n\
             duplicates:               {} (and {} events stored that nobody acknowledged)\n\
             in flight at the kills:   {} appends, retried by id after the restart: {} had been stored \
             (duplicate), {} appended once, {} superseded on a shared stream\n\
             restart:                  p50 {restart_p50} ms, max {restart_max} ms (spawn to first answer); the store \
             said it indexed again, cut a torn tail or rebuilt the index after {} of them\n\
             throughput under load:    {:.0} appends/s, {:.0} events/s ({:.1} s of load)\n\
             time:                     {:.1} s in all; the last ledgerd on SIGTERM: {}",
            if self.passed() { "PASSED" } else { "FAILED" },
            self.seed,
            self.unary_writers,
            self.pipelined_writers,
            self.in_flight,
            self.tournaments,
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
            self.restarts_with_recovery(),
            self.appends_acknowledged_under_load() as f64 / load,
            self.events_acknowledged_under_load() as f64 / load,
            self.load_secs(),
            self.wall_secs,
            self.final_exit.as_deref().unwrap_or("not reached"),
        );
        if self.cycles.iter().any(|c| c.cut_kind.is_some()) {
            text.push_str(&format!("\npower cuts:               {}", self.cuts()));
        }
        if let Some(messages) = self.fanout_messages {
            text.push_str(&format!(
                "\nNATS fan-out:             {messages} events in JetStream at the end, each acknowledged event once, in order"
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(restart_ms: u64, cut: &str, said: &str) -> CycleReport {
        CycleReport {
            restart_ms,
            cut_kind: Some(cut.to_owned()),
            ledgerd_said: vec![said.to_owned()],
            passed: true,
            ..CycleReport::default()
        }
    }

    #[test]
    fn restarts_cuts_and_recoveries_are_summed_up() {
        let report = CrashReport {
            cycles: vec![
                cycle(300, "all", "INFO indexed the records a stop left unindexed (n_frames=3)"),
                cycle(100, "torn", "WARN the index could not be used: it is rebuilt from the records file"),
                cycle(200, "torn", "INFO the records file checks (bytes=10)"),
            ],
            ..CrashReport::default()
        };
        assert_eq!(report.restart_ms(), (200, 300));
        assert_eq!(report.cuts(), "1 all, 0 subset, 2 torn");
        assert_eq!(report.restarts_with_recovery(), 2);
    }
}
