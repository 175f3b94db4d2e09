//! The benchmark in miniature, as CI runs it: every system through every workload with tiny
//! counts, the ledger in this process (a release `ledgerd` need not exist), and checks that
//! the numbers are real — every acknowledged event stored, every replayed event read back in
//! order, every rate and ratio finite.
//!
//! Outside CI a missing PostgreSQL or nats-server >= 2.11 skips that system with a loud line;
//! under `CI=true` the nats-server 2.15 that `.ci/run` installs must be there.

use clap::Parser;
use ledger_bench::procs::parse_version;
use ledger_bench::{run, Args};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smoke_run_measures_every_available_system() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("results.json");
    let args = Args::parse_from([
        "ledger-bench".as_ref(),
        "--smoke".as_ref(),
        "--ledger-in-process".as_ref(),
        "--json-out".as_ref(),
        json.as_os_str(),
        "--work-dir".as_ref(),
        dir.path().as_os_str(),
    ]);
    let report = run(args).await.unwrap();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");

    for s in report.systems.iter().filter(|s| !s.available) {
        eprintln!("\n!!!!!!!! smoke test: {} SKIPPED: {}\n", s.name, s.skipped.as_deref().unwrap_or("?"));
    }
    let system = |name: &str| report.systems.iter().find(|s| s.name == name).unwrap();
    assert!(system("ledger").available, "the in-process ledger always runs");
    if ci {
        let js = system("jetstream-fsync");
        assert!(js.available, "CI installs nats-server 2.15 (.ci/run): {:?}", js.skipped);
        let version = parse_version(js.version.as_deref().unwrap_or_default());
        assert!(version >= Some((2, 15, 0)), "CI runs nats-server 2.15, found {:?}", js.version);
    }
    if let Some(js) = report.systems.iter().find(|s| s.name == "jetstream-fsync" && s.available) {
        // The server's own /varz, not the config file we wrote: it really syncs every write.
        let reported = &js.durability["reported_by_server"];
        assert_eq!(reported["sync_always"], serde_json::Value::Bool(true), "{reported}");
    }
    assert!(report.errors.is_empty(), "errors: {:#?}", report.errors);

    let counts = &report.counts;
    for s in report.systems.iter().filter(|s| s.available) {
        assert!(s.appended > 0, "{}: nothing appended", s.name);
        assert_eq!(s.appended, s.stored, "{}: acknowledged events ≠ stored events", s.name);
        assert_eq!(s.read_back, counts.replay_events, "{}: replay read back", s.name);
        assert!(s.bytes_per_event.is_some_and(|b| b.is_finite() && b > 0.0), "{}: bytes per event", s.name);
        let workloads: Vec<&str> =
            report.results.iter().filter(|m| m.system == s.name).map(|m| m.workload.as_str()).collect();
        for w in ["unary_1", "unary_64", "pipelined", "batch_100", "table", "replay"] {
            assert!(workloads.contains(&w), "{}: no {w} result", s.name);
        }
    }
    for m in &report.results {
        if m.note.as_deref().is_some_and(|n| n.starts_with("n/a")) {
            assert!(m.events_per_s.is_none(), "{}/{}: n/a but a number", m.system, m.workload);
            continue;
        }
        assert!(m.error.is_none(), "{}/{}: {:?}", m.system, m.workload, m.error);
        assert!(m.events > 0, "{}/{}: no events", m.system, m.workload);
        let eps = m.events_per_s.unwrap();
        assert!(eps.is_finite() && eps > 0.0, "{}/{}: {eps} events/s", m.system, m.workload);
        let ratio = m.ratio.unwrap_or_else(|| panic!("{}/{}: no ratio", m.system, m.workload));
        assert!(ratio.is_finite() && ratio > 0.0, "{}/{}: ratio {ratio}", m.system, m.workload);
        if !m.workload.starts_with("replay") {
            let l = m.latency.unwrap_or_else(|| panic!("{}/{}: no latencies", m.system, m.workload));
            assert!(
                l.p50_ms > 0.0 && l.p50_ms <= l.p99_ms && l.p99_ms <= l.max_ms,
                "{}/{}: {l:?}",
                m.system,
                m.workload
            );
        }
    }
    // The ledger also replays with a message per event, beside its pages.
    assert!(report.results.iter().any(|m| m.system == "ledger" && m.workload == "replay_read"));
    let table = &report.results.iter().find(|m| m.system == "ledger" && m.workload == "table").unwrap();
    let expected = (counts.table_rate * counts.table_secs).round();
    assert!((table.events as f64 - expected).abs() <= 1.0, "the table schedule ran {} events", table.events);

    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(written["results"].as_array().unwrap().len(), report.results.len());
    assert_eq!(written["systems"].as_array().unwrap().len(), report.systems.len());
}
