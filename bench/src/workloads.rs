//! The workloads that are the same for every system: closed-loop writers and the open-loop
//! table schedule.

use crate::stats::Latencies;
use crate::systems::Target;
use anyhow::Result;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Barrier;

/// What one workload measured.
#[derive(Debug)]
pub struct Run {
    pub events: u64,
    pub took: Duration,
    pub latencies: Latencies,
}

/// `writers` clients, each on its own connection and its own stream `{prefix}-w{i}`, each
/// appending `appends` times `per_append` events, one append after the other (the next waits
/// for the previous acknowledgement). Connections are made before the clock starts.
pub async fn closed_loop(target: &Target, prefix: &str, writers: usize, appends: u64, per_append: u64) -> Result<Run> {
    let start = Arc::new(Barrier::new(writers + 1));
    let mut tasks = Vec::with_capacity(writers);
    for w in 0..writers {
        let (target, start, stream) = (target.clone(), Arc::clone(&start), format!("{prefix}-w{w}"));
        tasks.push(tokio::spawn(async move {
            let writer = target.writer(w).await;
            start.wait().await;
            let mut writer = writer?;
            let mut latencies = Latencies::default();
            for a in 0..appends {
                let sent = Instant::now();
                writer.append(&stream, a * per_append + 1, per_append).await?;
                latencies.record(sent.elapsed());
            }
            anyhow::Ok(latencies)
        }));
    }
    start.wait().await;
    let started = Instant::now();
    let latencies = join_all(tasks).await?;
    Ok(Run { events: writers as u64 * appends * per_append, took: started.elapsed(), latencies })
}

/// Tables at a tournament: `rate` events per second in all, spread round robin over `games`
/// game streams, for `secs` seconds, each append unary. Open loop: event k is due at
/// `k / rate` s whatever happened before, and its latency runs from when it was due, so a slow
/// append shows in the next ones of its game instead of quietly lowering the rate.
///
/// The schedule is kept by a [`pacer`] thread, not by tokio's timer: tokio rounds every
/// deadline up to its next 1 ms tick, and with the wake-up that put over a millisecond of the
/// client's own lateness into the latencies of every system alike (JetStream 2.9, which does not
/// sync: p50 0.13 ms for one writer, 1.61 ms on this schedule).
pub async fn open_loop(target: &Target, prefix: &str, rate: f64, games: usize, secs: f64) -> Result<Run> {
    let total = (0u64..).take_while(|k| (*k as f64) < rate * secs).count() as u64;
    let ready = Arc::new(Barrier::new(games + 1));
    let mut tasks = Vec::with_capacity(games);
    let mut due_tx = Vec::with_capacity(games);
    for g in 0..games {
        let (target, ready, stream) = (target.clone(), Arc::clone(&ready), format!("{prefix}-g{g}"));
        let (tx, mut due_rx) = tokio::sync::mpsc::unbounded_channel::<Instant>();
        due_tx.push(tx);
        tasks.push(tokio::spawn(async move {
            let writer = target.writer(g).await;
            ready.wait().await;
            let mut writer = writer?;
            let mut latencies = Latencies::default();
            let mut seq = 1;
            // Each game appends its events one after the other, in the order they fell due.
            while let Some(due) = due_rx.recv().await {
                writer.append(&stream, seq, 1).await?;
                latencies.record(due.elapsed());
                seq += 1;
            }
            anyhow::Ok(latencies)
        }));
    }
    // Everyone connected: start the schedule a moment from now.
    ready.wait().await;
    let t0 = Instant::now() + Duration::from_millis(20);
    let pacer = std::thread::spawn(move || pacer(t0, rate, total, &due_tx));
    let latencies = join_all(tasks).await;
    let took = t0.elapsed();
    pacer.join().map_err(|_| anyhow::anyhow!("the pacer thread panicked"))?;
    Ok(Run { events: total, took, latencies: latencies? })
}

/// Hands event k (`0..total`) to game `k % games` when it falls due, `t0 + k / rate`, sleeping
/// in between with the kernel's high-resolution timer (tens of microseconds late, not a
/// millisecond). Dropping the senders at the end tells the games the schedule is over; a game
/// that failed and left is simply skipped.
fn pacer(t0: Instant, rate: f64, total: u64, games: &[tokio::sync::mpsc::UnboundedSender<Instant>]) {
    for k in 0..total {
        let due = t0 + Duration::from_secs_f64(k as f64 / rate);
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        let _ = games[usize::try_from(k).unwrap_or(usize::MAX) % games.len()].send(due);
    }
}

/// Waits for every writer, even after one failed (none is left running into the next
/// workload), and returns all latencies or the first failure.
async fn join_all(tasks: Vec<tokio::task::JoinHandle<Result<Latencies>>>) -> Result<Latencies> {
    let mut latencies = Latencies::default();
    let mut failure = None;
    for task in tasks {
        match task.await {
            Ok(Ok(l)) => latencies.merge(l),
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(e) => failure = failure.or(Some(e.into())),
        }
    }
    failure.map_or(Ok(latencies), Err)
}
