//! What a run found: the JSON written to `--json-out` and the printed table.

use crate::stats::Summary;
use serde::Serialize;
use std::fmt::Write as _;

/// Everything one run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// `smoke` or `full`.
    pub mode: String,
    pub cores: usize,
    /// `/proc/loadavg` before and after: a busy machine shows here (its other work competes
    /// with every system alike, but the absolute numbers suffer).
    pub load_before: String,
    pub load_after: String,
    pub counts: crate::Counts,
    pub systems: Vec<SystemReport>,
    pub results: Vec<Measurement>,
    /// Every failure of an available system, also printed as it happened.
    pub errors: Vec<String>,
}

/// One system: whether it ran, what it is, what it promised, what it holds.
#[derive(Debug, Serialize)]
pub struct SystemReport {
    /// `ledger`, `postgresql`, `jetstream-fsync` or `jetstream-nofsync`.
    pub name: String,
    pub label: String,
    pub available: bool,
    /// Why the system was skipped (no numbers are reported for it then).
    pub skipped: Option<String>,
    pub version: Option<String>,
    /// What an acknowledgement meant, as the system was configured and as it reported it.
    pub durability: serde_json::Value,
    /// Events the system acknowledged to the bench, over all its instances (fills included).
    pub appended: u64,
    /// Events the system itself counted at the end of its instances.
    pub stored: u64,
    /// Events the replay read back, in order, each checked.
    pub read_back: u64,
    /// Disk use of the instance that held the most events, and that count.
    pub bytes_on_disk: Option<u64>,
    pub events_on_disk: u64,
    pub bytes_per_event: Option<f64>,
    /// Peak RSS (`VmHWM`) of the server process the bench started, over its instances.
    pub peak_rss_bytes: Option<u64>,
    /// ledger ÷ this, for bytes per event and peak RSS.
    pub ratio_bytes_per_event: Option<f64>,
    pub ratio_peak_rss: Option<f64>,
    pub notes: Vec<String>,
}

/// One workload on one system.
#[derive(Debug, Serialize)]
pub struct Measurement {
    /// A stable key: `unary_1`, `unary_64`, `pipelined`, `batch_100`, `table`, `replay`,
    /// `preloaded_<N>`.
    pub workload: String,
    /// What it was, for people.
    pub label: String,
    pub system: String,
    pub events: u64,
    pub seconds: Option<f64>,
    pub events_per_s: Option<f64>,
    /// Per operation: one append (unary, batch, table), one request (pipelined); none for replay.
    pub latency: Option<Summary>,
    /// ledger ÷ this: of events/s, except for `table` (fixed rate), where it is of p99 latency.
    pub ratio: Option<f64>,
    pub ratio_of: &'static str,
    pub note: Option<String>,
    pub error: Option<String>,
}

/// `1234567.4` → `1,234,567`.
pub fn thousands(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

impl Report {
    /// ledger ÷ each peer, workload by workload, and for disk and memory.
    pub fn compute_ratios(&mut self) {
        let ledger_results: Vec<(String, Option<f64>, Option<f64>)> = self
            .results
            .iter()
            .filter(|m| m.system == "ledger")
            .map(|m| (m.workload.clone(), m.events_per_s, m.latency.map(|l| l.p99_ms)))
            .collect();
        for m in &mut self.results {
            let Some((_, eps, p99)) = ledger_results.iter().find(|(w, _, _)| *w == m.workload) else { continue };
            m.ratio = if m.workload == "table" {
                m.ratio_of = "p99 latency";
                match (p99, m.latency.map(|l| l.p99_ms)) {
                    (Some(a), Some(b)) if b > 0.0 => Some(a / b),
                    _ => None,
                }
            } else {
                match (eps, m.events_per_s) {
                    (Some(a), Some(b)) if b > 0.0 => Some(a / b),
                    _ => None,
                }
            };
        }
        let ledger = self.systems.iter().find(|s| s.name == "ledger" && s.available);
        let (bpe, rss) = ledger.map_or((None, None), |l| (l.bytes_per_event, l.peak_rss_bytes));
        for s in &mut self.systems {
            s.ratio_bytes_per_event = match (bpe, s.bytes_per_event) {
                (Some(a), Some(b)) if b > 0.0 => Some(a / b),
                _ => None,
            };
            s.ratio_peak_rss = match (rss, s.peak_rss_bytes) {
                (Some(a), Some(b)) if b > 0 => Some(a as f64 / b as f64),
                _ => None,
            };
        }
    }

    /// The human-readable table.
    pub fn table(&self) -> String {
        let mut rows: Vec<[String; 6]> = vec![[
            "workload".into(),
            "system".into(),
            "events/s".into(),
            "p50 ms".into(),
            "p99 ms".into(),
            "ledger ÷ this".into(),
        ]];
        let mut workloads: Vec<&str> = Vec::new();
        for m in &self.results {
            if !workloads.contains(&m.workload.as_str()) {
                workloads.push(&m.workload);
            }
        }
        for w in workloads {
            for m in self.results.iter().filter(|m| m.workload == w) {
                let (p50, p99) = m.latency.map_or(("-".into(), "-".into()), |l| (ms(l.p50_ms), ms(l.p99_ms)));
                let eps = match (&m.error, m.events_per_s) {
                    (Some(_), _) => "FAILED".into(),
                    (None, Some(v)) => thousands(v),
                    (None, None) => "n/a".into(),
                };
                let ratio = m.ratio.map_or("-".into(), |r| {
                    if m.ratio_of == "events/s" {
                        format!("{r:.2}×")
                    } else {
                        format!("{r:.2}× (p99)")
                    }
                });
                rows.push([m.label.clone(), m.system.clone(), eps, p50, p99, ratio]);
            }
        }
        let mut out = render(&rows);
        out.push_str(
            "ledger ÷ this: of events/s (above 1: the ledger is faster); \
             (p99): of p99 latency at a fixed rate (above 1: the ledger is slower)\n",
        );
        let mut res: Vec<[String; 6]> = vec![[
            "system".into(),
            "bytes/event on disk".into(),
            "÷".into(),
            "peak RSS MiB".into(),
            "÷".into(),
            "acked = stored".into(),
        ]];
        for s in self.systems.iter().filter(|s| s.available) {
            res.push([
                s.name.clone(),
                s.bytes_per_event.map_or("-".into(), |b| format!("{b:.0}")),
                s.ratio_bytes_per_event.map_or("-".into(), |r| format!("{r:.2}×")),
                s.peak_rss_bytes.map_or("-".into(), |b| format!("{:.0}", b as f64 / 1048576.0)),
                s.ratio_peak_rss.map_or("-".into(), |r| format!("{r:.2}×")),
                format!("{} = {}{}", s.appended, s.stored, if s.appended == s.stored { "" } else { "  MISMATCH" }),
            ]);
        }
        out.push('\n');
        out.push_str(&render(&res));
        for s in &self.systems {
            let _ = match &s.skipped {
                Some(why) => writeln!(out, "SKIPPED {}: {why}", s.name),
                None => writeln!(out, "{}: {} — {}", s.name, s.version.as_deref().unwrap_or("?"), s.label),
            };
        }
        out
    }
}

fn render(rows: &[[String; 6]]) -> String {
    let mut widths = [0usize; 6];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                let pad = w - cell.chars().count();
                if c < 2 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join(" | "));
        if i == 0 {
            let _ = writeln!(out, "{}", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("-|-"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(1234567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(0.0), "0");
    }
}
