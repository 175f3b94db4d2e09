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
pub async fn open_loop(target: &Target, prefix: &str, rate: f64, games: usize, secs: f64) -> Result<Run> {
    let total = (0u64..).take_while(|k| (*k as f64) < rate * secs).count() as u64;
    let (ready, go) = (Arc::new(Barrier::new(games + 1)), Arc::new(Barrier::new(games + 1)));
    let t0 = Arc::new(tokio::sync::OnceCell::<Instant>::new());
    let mut tasks = Vec::with_capacity(games);
    for g in 0..games {
        let (target, ready, go, t0, stream) =
            (target.clone(), Arc::clone(&ready), Arc::clone(&go), Arc::clone(&t0), format!("{prefix}-g{g}"));
        tasks.push(tokio::spawn(async move {
            let writer = target.writer(g).await;
            ready.wait().await;
            go.wait().await;
            let mut writer = writer?;
            let t0 = *t0.get().ok_or_else(|| anyhow::anyhow!("no start time"))?;
            let mut latencies = Latencies::default();
            let mut seq = 1;
            let mut k = g as u64;
            while k < total {
                let due = t0 + Duration::from_secs_f64(k as f64 / rate);
                tokio::time::sleep_until(due.into()).await;
                writer.append(&stream, seq, 1).await?;
                latencies.record(due.elapsed());
                seq += 1;
                k += games as u64;
            }
            anyhow::Ok(latencies)
        }));
    }
    // Everyone connected: start the schedule a moment from now.
    ready.wait().await;
    t0.set(Instant::now() + Duration::from_millis(20)).map_err(|_| anyhow::anyhow!("start time set twice"))?;
    go.wait().await;
    let started = *t0.get().ok_or_else(|| anyhow::anyhow!("no start time"))?;
    let latencies = join_all(tasks).await?;
    Ok(Run { events: total, took: started.elapsed(), latencies })
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
