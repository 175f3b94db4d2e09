//! The sequencer and the embedded log alone, without gRPC (and with the system allocator, as
//! `ledgerd`): `cargo bench -p ledger-store --bench writer`.
//! A quick loop for work on the commit path; the side-by-side figures come from `ledger-bench`.

use ledger::access::Clearance;
use ledger::{Event, StreamId};
use ledger_store::{AppendRequest, Log, ProposedEvent};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn call(n: usize) -> Event {
    Event::JuryCalled {
        reason: format!("table {n}: a dispute about a retreat through a fortress, by rule 12.3 of the book"),
    }
}

fn request(stream: &StreamId, events: Vec<Event>, id: String) -> AppendRequest {
    AppendRequest {
        stream: stream.clone(),
        events: events
            .into_iter()
            .enumerate()
            .map(|(i, event)| ProposedEvent { event_id: format!("{id}.{i}"), event })
            .collect(),
        expected_version: None,
        actor: "bench".into(),
        clearance: Clearance::Table,
    }
}

/// `n_writers` tasks, each appending `per_writer` times `batch` events to its own game (started
/// first unless `started`).
async fn writers(log: &Arc<Log>, label: &str, n_writers: usize, per_writer: usize, batch: usize, started: bool) {
    let shared = label.contains("shared");
    if shared && !started {
        // Started before the writers race to it: a call on a game not started is refused.
        let stream = StreamId::game(&format!("{}-0", slug(label))).unwrap();
        let start = Event::GameStarted { at_ms: 0, ruleset: Some(ledger::Ruleset::Cafe2023), tournament: None };
        log.append(request(&stream, vec![start], format!("{label}-start-{}", std::process::id()))).await.unwrap();
    }
    let clock = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..n_writers {
        let log = Arc::clone(log);
        let label = label.to_owned();
        tasks.push(tokio::spawn(async move {
            // "shared" in a label: every writer appends to the same game.
            let which = if shared { 0 } else { w };
            let stream = StreamId::game(&format!("{}-{which}", slug(&label))).unwrap();
            let mut latencies = Vec::with_capacity(per_writer);
            for i in 0..per_writer {
                let mut events: Vec<Event> = (0..batch).map(|k| call(i * batch + k)).collect();
                if i == 0 && !started && !shared {
                    events[0] =
                        Event::GameStarted { at_ms: 0, ruleset: Some(ledger::Ruleset::Cafe2023), tournament: None };
                }
                let t = Instant::now();
                log.append(request(&stream, events, format!("{label}-{w}-{i}-{started}-{}", std::process::id())))
                    .await
                    .unwrap();
                latencies.push(t.elapsed());
            }
            latencies
        }));
    }
    let mut all: Vec<Duration> = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let secs = clock.elapsed().as_secs_f64();
    all.sort();
    let n_events = n_writers * per_writer * batch;
    println!(
        "{label:<28} {n_events:>8} events in {secs:>6.2} s = {:>9.0} events/s  p50 {:>7.2} ms  p99 {:>7.2} ms",
        n_events as f64 / secs,
        all[all.len() / 2].as_secs_f64() * 1e3,
        all[all.len() * 99 / 100].as_secs_f64() * 1e3
    );
}

fn slug(label: &str) -> String {
    label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

#[tokio::main]
async fn main() {
    let scale: usize = std::env::var("BENCH_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(Log::open_sled(dir.path()).unwrap());
    writers(&log, "unary, 1 writer", 1, 500 * scale, 1, false).await;
    writers(&log, "unary, 64 writers", 64, 100 * scale, 1, false).await;
    writers(&log, "batches of 100, 64 writers", 64, 10 * scale, 100, false).await;
    writers(&log, "batches of 100, 64 writers, shared", 64, 10 * scale, 100, false).await;
    println!("rss {:.0} MiB", rss_mib());
    // One long stream, then a 100-event append on it.
    writers(&log, "long stream, batches of 1000", 1, 100 * scale, 1000, false).await;
    writers(&log, "100 events on the long one", 1, 20, 100, false).await;
    println!("rss {:.0} MiB", rss_mib());
    log.close();
    drop(log);
    let started = Instant::now();
    let log = Arc::new(Log::open_sled(dir.path()).unwrap());
    println!("reopen {:.2} s, rss {:.0} MiB", started.elapsed().as_secs_f64(), rss_mib());
    let t = Instant::now();
    writers(&log, "long stream, batches of 1000", 1, 1, 100, true).await;
    println!("first append after reopen {:.1} ms, rss {:.0} MiB", t.elapsed().as_secs_f64() * 1e3, rss_mib());
    let t = Instant::now();
    let mut n = 0;
    let mut from = 1;
    loop {
        let page = log.read_all(from, 1024).unwrap();
        if page.is_empty() {
            break;
        }
        n += page.len();
        from = page.last().unwrap().envelope.position + 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!("read_all {n} events in {secs:.2} s = {:.0} events/s", n as f64 / secs);
    // The long stream in the stored encoding, a page at a time (as `ReadPages` replays it), ten
    // times over.
    let long = StreamId::game(&format!("{}-0", slug("long stream, batches of 1000"))).unwrap();
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..10 {
        let mut from = 1;
        loop {
            let page = log.read_stream_stored(&long, from, 1024).unwrap();
            if page.count == 0 {
                break;
            }
            n += page.count;
            from = page.last.unwrap() + 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!("read_stream_stored {n} events in {secs:.2} s = {:.0} events/s", n as f64 / secs);
    let size: u64 = walk(dir.path());
    println!("bytes on disk per event {:.0}", size as f64 / n as f64);
}

fn walk(path: &std::path::Path) -> u64 {
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let meta = e.metadata().unwrap();
                    if meta.is_dir() {
                        walk(&e.path())
                    } else {
                        meta.len()
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}
