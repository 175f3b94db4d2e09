//! The crash-consistency program in miniature, as CI runs it: three `kill -9` cycles of a real
//! ledgerd (this package's `bench-ledgerd`, ledgerd's own `main` built from the code under
//! test) under unary and pipelined appends and tournaments, each followed by a restart and the
//! full checks. The long run is `ledger-crash --cycles 100` (docs/RELIABILITY.md). The same with
//! power cuts and the NATS fan-out: the data directory on the power-cut file system, each kill
//! followed by a seeded cut that drops what no fsync covered, and JetStream checked after each
//! restart (`ledger-crash --power-cut --fanout`). And disk errors on that file system (`EIO` on
//! write or fsync, a full disk): ledgerd stops acknowledging and loses nothing.

use clap::Parser;
use ledger::envelope::verify_chain;
use ledger_bench::crash::append::{acks_of, with_identity, Attempt};
use ledger_bench::crash::check::read_stream;
use ledger_bench::crash::daemon::Daemon;
use ledger_bench::crash::events::{event_at, own_event_id};
use ledger_bench::crash::report::CrashReport;
use ledger_bench::crash::{run, CrashArgs};
use ledger_bench::jetstream::find_fsync_server;
use ledger_bench::workspace_root;
use ledger_powercut::{Cut, Faults, PowerCut};
use std::path::Path;
use std::time::{Duration, Instant};

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
            "seed {} (rerun: LEDGER_CRASH_SEED={} cargo test -p ledger-bench --test it -- crash::{test}), data in {}:\n{:#?}",
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
    assert!(report.cycles.last().unwrap().read.tournament_games > 0, "the tournaments started games");
}

/// `true` when a nats-server for the fan-out (2.11 or newer) is here; otherwise says loudly
/// that `what` is skipped and returns `false`, or fails under `CI=true`.
async fn nats_or_skip(what: &str) -> bool {
    let given = std::env::var_os("NATS_SERVER_BIN").map(std::path::PathBuf::from);
    let Err(why) = find_fsync_server(given.as_deref(), &workspace_root()).await else { return true };
    assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true and no nats-server for the fan-out: {why:#}");
    eprintln!("\n************************************************************");
    eprintln!("SKIPPED: {what}: {why:#}");
    eprintln!("************************************************************\n");
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn power_cuts_under_load_lose_no_acknowledged_event() {
    let what = "power-cut crash cycles with the NATS fan-out";
    if !ledger_powercut::available_or_skip(what) || !nats_or_skip(what).await {
        return;
    }
    let report = miniature(&["--cycles=4", "--power-cut", "--fanout"], "power_cuts").await;
    assert_eq!(report.cycles_survived(), 4);
    for cycle in &report.cycles {
        assert!(cycle.power_cut.is_some(), "cycle {}: the power was cut", cycle.cycle);
        assert!(cycle.events > 0 && cycle.read.events > 0, "cycle {}: nothing acknowledged or checked", cycle.cycle);
        let fanout = cycle.fanout.as_ref().expect("JetStream checked after the restart");
        assert_eq!(fanout.messages, cycle.read.events, "cycle {}: JetStream holds every event", cycle.cycle);
    }
    assert!(report.cycles.last().unwrap().read.tournament_games > 0, "the tournaments started games");
    assert_eq!(report.fanout_messages, Some(report.events_stored), "JetStream at the end");
    assert_eq!(report.lost(), 0);
    assert_eq!(report.duplicates(), 0);
    assert_eq!(report.unexpected(), 0);
    assert_eq!(report.final_exit.as_deref(), Some("exit status: 0"));
    assert_eq!(report.events_stored, report.cycles.last().unwrap().read.events);
}

/// How ledgerd quotes the errors the faults raise.
const EIO: &str = "Input/output error (os error 5)";
const ENOSPC: &str = "No space left on device (os error 28)";

/// Bytes of file data under `dir`, as the power-cut file system counts its use.
fn used_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                used_bytes(&entry.path())
            } else {
                entry.metadata().unwrap().len()
            }
        })
        .sum()
}

/// ledgerd on the power-cut file system: ten acknowledged appends, then `fault` (the data
/// directory in, the faults out) and one more append, which must be refused; ledgerd must exit
/// with an error saying why. The power is then cut (every unsynced change lost), the disk
/// boots without faults, and a restarted ledgerd must hold every acknowledged event exactly
/// once, not the refused one, on a chain that verifies, and go on appending.
async fn a_disk_fault_stops_acknowledging(fault: impl Fn(&Path) -> Faults, errno: &str) {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let (disk, mount) = (dir.path().join("disk"), dir.path().join("data"));
    std::fs::create_dir_all(&disk).unwrap();
    std::fs::create_dir_all(&mount).unwrap();
    let mut fs = PowerCut::mount(&disk, &mount).unwrap();
    // A data directory ledgerd creates itself: its name must survive the cut too (the store
    // syncs the parent of every directory it creates).
    let data = mount.join("ledger");
    let binary = Path::new(env!("CARGO_BIN_EXE_bench-ledgerd"));
    let daemon = Daemon::start(binary, &data, dir.path().join("ledgerd-1.log")).await.unwrap();
    let mut client = daemon.client().await.unwrap();
    let stream = "game/crash-fault-0".to_owned();
    let attempt = |first_seq: u64| Attempt {
        stream: stream.clone(),
        first_seq,
        event_ids: (first_seq..first_seq + 3).map(|seq| own_event_id(&stream, seq)).collect(),
        expected_version: None,
    };
    let mut acked = Vec::new();
    for k in 0..10 {
        let sent = attempt(1 + 3 * k);
        let answer = client.append(with_identity(sent.request(), "fault")).await.unwrap().into_inner();
        acked.extend(acks_of(&sent, &answer, false).unwrap());
    }
    fs.set_faults(fault(&data));
    let refused = attempt(31);
    let status = client.append(with_identity(refused.request(), "fault")).await.unwrap_err();
    assert!(
        status.message().contains("the log stopped after a failed write") && status.message().contains(errno),
        "the refused append must say the log stopped, and why ({errno}): {status:?}"
    );
    // ledgerd stops by itself, with an error status and the reason in its log.
    let (exit, log) = daemon.exited(Duration::from_secs(30)).await.unwrap();
    assert!(!exit.success(), "ledgerd must exit with an error after a failed write, got {exit}");
    let why = "a write to the log failed, so the log stopped; restart ledgerd to reload what is on disk";
    assert!(log.contains(why) && log.contains(errno), "ledgerd's log does not say why it stopped:\n{log}");
    // Power cut: only what an fsync covered survives; the machine boots without the fault.
    fs.cut(Cut::All).unwrap();
    fs.set_faults(Faults::default());
    fs.remount().unwrap();
    let daemon = Daemon::start(binary, &data, dir.path().join("ledgerd-2.log")).await.unwrap();
    let mut client = daemon.client().await.unwrap();
    let records = read_stream(&mut client, &stream).await.unwrap();
    let stored: Vec<(u64, &str, u64)> =
        records.iter().map(|r| (r.envelope.seq, r.envelope.event_id.as_str(), r.envelope.position)).collect();
    let expected: Vec<(u64, &str, u64)> = acked.iter().map(|a| (a.seq, a.event_id.as_str(), a.position)).collect();
    assert_eq!(stored, expected, "every acknowledged event exactly once, in order, and nothing else");
    for record in &records {
        assert_eq!(record.event, event_at(record.envelope.seq), "seq {} holds another event", record.envelope.seq);
    }
    verify_chain(&records).unwrap();
    // The refused append was not stored, so it is accepted now, as new.
    let answer = client.append(with_identity(refused.request(), "fault")).await.unwrap().into_inner();
    acks_of(&refused, &answer, false).unwrap();
    assert!(daemon.stop().await.unwrap().success());
    println!(
        "disk fault: {} events acknowledged, 0 lost, in {:?}; the refused append: {}; ledgerd's log:\n{log}",
        acked.len(),
        started.elapsed(),
        status.message()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eio_on_fsync_stops_ledgerd_and_loses_nothing_acknowledged() {
    if !ledger_powercut::available_or_skip("EIO on fsync under ledgerd") {
        return;
    }
    a_disk_fault_stops_acknowledging(|_| Faults { eio_on_fsync: true, ..Faults::default() }, EIO).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_stops_ledgerd_and_loses_nothing_acknowledged() {
    if !ledger_powercut::available_or_skip("a full disk under ledgerd") {
        return;
    }
    a_disk_fault_stops_acknowledging(
        |data| Faults { capacity: Some(used_bytes(data) + 1), ..Faults::default() },
        ENOSPC,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eio_on_write_stops_ledgerd_and_loses_nothing_acknowledged() {
    if !ledger_powercut::available_or_skip("EIO on write under ledgerd") {
        return;
    }
    a_disk_fault_stops_acknowledging(|_| Faults { eio_on_write: true, ..Faults::default() }, EIO).await;
}
