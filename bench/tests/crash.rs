//! The crash-consistency program in miniature, as CI runs it: three `kill -9` cycles of a real
//! ledgerd (this package's `bench-ledgerd`, ledgerd's own `main` built from the code under
//! test) under unary and pipelined appends, each followed by a restart and the full checks.
//! The long run is `ledger-crash --cycles 100` (docs/RELIABILITY.md). The same with power cuts:
//! the data directory on the power-cut file system, each kill followed by a seeded cut that
//! drops what no fsync covered (`ledger-crash --power-cut`).

use clap::Parser;
use ledger_bench::crash::report::CrashReport;
use ledger_bench::crash::{run, CrashArgs};

/// Runs the miniature (4 unary and 1 pipelined writers, kills after 300..1200 ms) with `extra`
/// flags; a failed run keeps its data and ledgerd's logs for the post-mortem and panics with the
/// line that reruns it (`test`: the test's name).
async fn miniature(extra: &[&str], test: &str) -> CrashReport {
    let dir = tempfile::tempdir().unwrap();
    let seed = std::env::var("LEDGER_CRASH_SEED").ok().map(|s| s.parse::<u64>().expect("LEDGER_CRASH_SEED"));
    let mut flags = vec![
        "ledger-crash".to_owned(),
        format!("--ledgerd={}", env!("CARGO_BIN_EXE_bench-ledgerd")),
        format!("--work-dir={}", dir.path().display()),
        "--unary-writers=4".into(),
        "--pipelined-writers=1".into(),
        "--in-flight=32".into(),
        "--streams-per-writer=2".into(),
        "--shared-streams=2".into(),
        "--kill-after-ms=300..1200".into(),
    ];
    flags.extend(extra.iter().map(|&flag| flag.to_owned()));
    flags.extend(seed.map(|s| format!("--seed={s}")));
    let report = run(CrashArgs::parse_from(flags)).await.unwrap();
    println!("{}", report.summary());
    if !report.passed() {
        let kept = dir.keep();
        panic!(
            "seed {} (rerun: LEDGER_CRASH_SEED={} cargo test -p ledger-bench --test crash -- {test}), data in {}:\n{:#?}",
            report.seed,
            report.seed,
            kept.display(),
            report.failures
        );
    }
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_under_load_loses_and_doubles_no_acknowledged_event() {
    let report = miniature(&["--cycles=3", "--shared-one-in=2"], "kill_9").await;
    assert_eq!(report.cycles.len(), 3);
    for cycle in &report.cycles {
        assert!(cycle.killed_running, "cycle {}: the kill must hit a running daemon", cycle.cycle);
        assert_eq!(cycle.kill_signal, Some(9), "cycle {}: ended by SIGKILL", cycle.cycle);
        assert!(cycle.events > 0 && cycle.appends > 0, "cycle {}: nothing acknowledged under load", cycle.cycle);
        assert!(cycle.read.events > 0 && cycle.disk.streams > 0, "cycle {}: nothing checked", cycle.cycle);
    }
    assert_eq!(report.lost(), 0);
    assert_eq!(report.duplicates(), 0);
    assert_eq!(report.unexpected(), 0);
    assert_eq!(report.cycles_survived(), 3);
    // The pipelined writer always has appends in flight when the daemon dies.
    assert!(report.resolved().total() > 0, "no append was in flight at any kill");
    assert_eq!(report.final_exit.as_deref(), Some("exit status: 0"));
    assert_eq!(report.events_stored, report.cycles.last().unwrap().read.events);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn power_cuts_under_load_lose_no_acknowledged_event() {
    if !ledger_powercut::available_or_skip("power-cut crash cycles") {
        return;
    }
    let report = miniature(&["--cycles=4", "--power-cut"], "power_cuts").await;
    assert_eq!(report.cycles_survived(), 4);
    for cycle in &report.cycles {
        assert!(cycle.power_cut.is_some(), "cycle {}: the power was cut", cycle.cycle);
        assert!(cycle.events > 0 && cycle.read.events > 0, "cycle {}: nothing acknowledged or checked", cycle.cycle);
    }
    assert_eq!(report.lost(), 0);
    assert_eq!(report.duplicates(), 0);
    assert_eq!(report.unexpected(), 0);
    assert_eq!(report.final_exit.as_deref(), Some("exit status: 0"));
    assert_eq!(report.events_stored, report.cycles.last().unwrap().read.events);
}
