//! The keeper of the season's read models (issue 44; `ledger_house::readmodels`): a task beside
//! the server that follows the log (`Log::subscribe` from the position the models reflect: the
//! stored records first, then each group as it commits), hands each batch — every record
//! waiting, up to [`BATCH`] — to `ReadModels::follow` off the async workers, and saves what is
//! kept with its position to `<data dir>/read-models.bin` (written whole to a temporary file,
//! synced, renamed: never half a file) at most every [`SAVE_EVERY`] and when ledgerd stops.
//!
//! At start it reads that file back and resumes from its position; a file of another version, a
//! damaged one, one ahead of the log (a log restored from an older copy), or `--rebuild-read-models`
//! start from nothing: the models are rebuilt by following the log from its first record.
//! Nothing here is on the append path: the writer only wakes one more subscriber.

use ledger_house::readmodels::{Kept, ReadModels};
use ledger_house::source::Entry;
use ledger_store::{Filter, Log};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The file in the data directory.
pub const FILE: &str = "read-models.bin";

/// At most this many records a batch.
const BATCH: usize = 4096;

/// What is kept is saved at most this often while the log grows.
const SAVE_EVERY: Duration = Duration::from_secs(2);

/// The models as saved in `dir`, or nothing (said why) to rebuild them from the log.
pub fn load(dir: &Path, log: &Log, rebuild: bool) -> Kept {
    let path = dir.join(FILE);
    if rebuild {
        tracing::info!("--rebuild-read-models: the read models are rebuilt from the log");
        return Kept::new();
    }
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Kept::new(),
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "cannot read the read models: rebuilding them");
            return Kept::new();
        }
    };
    let kept = match Kept::decode(&bytes) {
        Ok(kept) => kept,
        Err(why) => {
            tracing::warn!(path = %path.display(), "{why}: rebuilding the read models");
            return Kept::new();
        }
    };
    let last = log.last_position().unwrap_or(0);
    if kept.position > last {
        tracing::warn!(kept = kept.position, log = last, "the read models are ahead of the log: rebuilding them");
        return Kept::new();
    }
    tracing::info!(position = kept.position, "read models resumed");
    kept
}

/// Writes `bytes` to `dir/FILE` by an atomic replace.
///
/// # Errors
/// The file system's.
pub fn save(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(dir.join(FILE)).map_err(|e| e.error)?;
    std::fs::File::open(dir)?.sync_all()
}

/// Follows the log into `models` until `stop` turns true, then saves them.
pub async fn run(models: Arc<ReadModels>, log: Arc<Log>, dir: PathBuf, mut stop: watch::Receiver<bool>) {
    let mut saved = models.position();
    let mut last_save = Instant::now();
    'follow: loop {
        let mut feed = log.subscribe(Filter::All, models.position() + 1);
        loop {
            let first = tokio::select! {
                record = feed.recv() => record,
                _ = stop.wait_for(|stop| *stop) => break 'follow,
            };
            let Some(first) = first else { break 'follow };
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match feed.try_recv() {
                    Ok(record) => batch.push(record),
                    Err(_) => break,
                }
            }
            let entries: Result<Vec<Entry>, _> =
                batch.into_iter().map(|r| r.map(|record| Entry::from((*record).clone()))).collect();
            let followed = match entries {
                Ok(entries) => {
                    let (models, log) = (Arc::clone(&models), Arc::clone(&log));
                    tokio::task::spawn_blocking(move || models.follow(&log, &entries).map_err(|e| e.to_string()))
                        .await
                        .unwrap_or_else(|e| Err(format!("the read models' update panicked: {e}")))
                }
                Err(error) => Err(error.to_string()),
            };
            if let Err(error) = followed {
                // Nothing of the batch was taken in: follow again from the models' position.
                tracing::warn!(%error, position = models.position(), "the read models could not follow the log");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => continue 'follow,
                    _ = stop.wait_for(|stop| *stop) => break 'follow,
                }
            }
            if models.position() > saved && last_save.elapsed() >= SAVE_EVERY {
                saved = save_now(&models, &dir).await.unwrap_or(saved);
                last_save = Instant::now();
            }
        }
    }
    if models.position() > saved {
        save_now(&models, &dir).await;
    }
}

/// Saves the models off the async workers; the position saved.
async fn save_now(models: &Arc<ReadModels>, dir: &Path) -> Option<u64> {
    let (models, dir) = (Arc::clone(models), dir.to_path_buf());
    let saved = tokio::task::spawn_blocking(move || {
        let (bytes, position) = models.encode();
        save(&dir, &bytes).map(|()| position)
    })
    .await;
    match saved {
        Ok(Ok(position)) => Some(position),
        Ok(Err(error)) => {
            tracing::warn!(%error, "cannot save the read models (they are rebuilt from the log at the next start)");
            None
        }
        Err(error) => {
            tracing::warn!(%error, "saving the read models panicked");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::access::Clearance;
    use ledger::{Event, StreamId};
    use ledger_store::{AppendRequest, ProposedEvent};

    const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

    /// The example appended to `log`, a run of one stream's lines an append.
    async fn append_example(log: &Log) {
        let mut runs: Vec<(StreamId, Vec<Event>)> = Vec::new();
        for line in ledger::check::parse_lines(OPEN26).unwrap() {
            let id = StreamId::parse(line.stream.as_deref().unwrap()).unwrap();
            match runs.last_mut() {
                Some((last, events)) if *last == id => events.push(line.event),
                _ => runs.push((id, vec![line.event])),
            }
        }
        for (stream, events) in runs {
            let events = events.into_iter().map(|event| ProposedEvent { event_id: String::new(), event }).collect();
            let request = AppendRequest {
                stream,
                events,
                expected_version: None,
                actor: "test".into(),
                clearance: Clearance::Jury,
            };
            log.submit(request).unwrap().await.unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_keeper_follows_the_log_saves_at_stop_and_resumes_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(Log::open_sled(dir.path()).unwrap());
        let models = Arc::new(ReadModels::new(load(dir.path(), &log, false)));
        let (stop, stopping) = watch::channel(false);
        let keeper = tokio::spawn(run(Arc::clone(&models), Arc::clone(&log), dir.path().to_path_buf(), stopping));
        append_example(&log).await;
        let last = log.last_position().unwrap();
        let waiting = Arc::clone(&models);
        assert!(tokio::task::spawn_blocking(move || waiting.caught_up(last, Duration::from_secs(20))).await.unwrap());
        let rebuilt = Kept::rebuild(&log).unwrap();
        assert!(models.read(|kept| *kept == rebuilt), "the followed models equal a rebuild");
        assert!(models.read(|kept| ledger_house::facade::check_read_models(kept, &log)).unwrap().is_empty());
        stop.send(true).unwrap();
        keeper.await.unwrap();
        // Saved at stop: read back, they are what was kept, and a restart resumes from them.
        let resumed = load(dir.path(), &log, false);
        assert_eq!(resumed, rebuilt);
        assert_eq!(resumed.position, last);
        // Asked to rebuild, or ahead of the log, they start from nothing.
        assert_eq!(load(dir.path(), &log, true).position, 0);
        let other = tempfile::tempdir().unwrap();
        let empty = Log::open_sled(other.path()).unwrap();
        assert_eq!(load(dir.path(), &empty, false).position, 0);
        empty.close();
        log.close();
    }
}
