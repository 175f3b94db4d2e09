//! [`Log`]: the handle the daemon holds. Appends go to the sequencer thread and come back once
//! durable; reads go straight to the backend.

use crate::append::{AppendRequest, Appended};
use crate::cross_check::{CrossCheck, NoCrossCheck};
use crate::error::{AppendError, StoreError};
use crate::handover::Job;
use crate::schedule::Schedule;
use crate::sequencer::{Sequencer, WriterConfig};
use crate::sled::SledStorage;
use crate::stats::{LogStats, StatsSnapshot};
use crate::storage::{Reader, Storage, StoredPage, StreamInfo};
use crate::syncer::Syncer;
use ledger::{Folded, Recorded, StreamId};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::{broadcast, oneshot};

/// How many committed events a slow live subscriber may fall behind before it re-reads them
/// from storage.
const LIVE_BUFFER: usize = 4096;

/// The largest seq or position a read or a subscription may start from (2^62): no log reaches
/// it (at a million events a second, in 146,000 years), and below it a cursor plus a page never
/// overflows. Past it a read holds nothing; the gRPC edge answers `OUT_OF_RANGE` first.
pub const MAX_CURSOR: u64 = 1 << 62;

/// An open event log.
pub struct Log {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    /// The sequencer and the sync thread.
    writers: Mutex<Vec<JoinHandle<()>>>,
    reader: Arc<dyn Reader>,
    /// The write side's lookups that need no stream read: a record by its event id (the id
    /// index) and a stream's head with its snapshot. They see written groups before they are
    /// durable, so what they answer is filtered to the durable (see [`Log::find_event_ids`]).
    lookups: Arc<dyn Storage>,
    committed: broadcast::Sender<Arc<Recorded>>,
    backend: &'static str,
    stats: Arc<LogStats>,
    schedule: Arc<Schedule>,
}

fn wall_clock_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

impl Log {
    /// Opens the embedded sled log in `dir`, creating it if needed.
    ///
    /// # Errors
    /// The directory or the database cannot be opened.
    pub fn open_sled(dir: &Path) -> Result<Log, StoreError> {
        Self::open_sled_with(dir, Arc::new(NoCrossCheck))
    }

    /// Opens the sled log with rules across streams.
    ///
    /// # Errors
    /// The directory or the database cannot be opened.
    pub fn open_sled_with(dir: &Path, cross_check: Arc<dyn CrossCheck>) -> Result<Log, StoreError> {
        let storage = SledStorage::open(dir)?;
        let tournaments = storage.tournament_streams()?;
        Log::start(storage.clone(), storage, &tournaments, "sled", cross_check, WriterConfig::default())
    }

    /// Opens the log on NATS JetStream (see [`crate::jetstream`]), shared with every other
    /// ledgerd on the same JetStream stream.
    ///
    /// # Errors
    /// NATS cannot be reached or the stream cannot be read.
    #[cfg(feature = "jetstream")]
    pub fn open_jetstream(
        storage: crate::jetstream::JetStreamStorage,
        cross_check: Arc<dyn CrossCheck>,
    ) -> Result<Log, StoreError> {
        let tournaments = storage.tournament_streams()?;
        Log::start(storage.clone(), storage, &tournaments, "jetstream", cross_check, WriterConfig::default())
    }

    /// Starts the writer (the sequencer and the sync thread) over any backend.
    ///
    /// # Errors
    /// The backend cannot be read.
    pub fn start<S: Storage, R: Reader>(
        storage: S,
        reader: R,
        tournaments: &[StreamId],
        backend: &'static str,
        cross_check: Arc<dyn CrossCheck>,
        config: WriterConfig,
    ) -> Result<Log, StoreError> {
        let (committed, _) = broadcast::channel(LIVE_BUFFER);
        let stats = Arc::new(LogStats::default());
        let storage = Arc::new(storage);
        let lookups: Arc<dyn Storage> = Arc::clone(&storage) as Arc<dyn Storage>;
        let schedule = storage.schedule();
        // The writer runs at most this many written groups ahead of the last sync.
        let (to_sync, written) = mpsc::sync_channel(4);
        let mut sequencer = Sequencer::new(
            Arc::clone(&storage),
            config,
            wall_clock_ms,
            cross_check,
            Arc::clone(&stats),
            Arc::clone(&schedule),
            to_sync,
        )?;
        sequencer.index_tournaments(tournaments)?;
        // A backend that follows its log publishes every writer's events itself.
        let publish = (!storage.feed_subscribers(&committed)).then(|| committed.clone());
        let syncer = Syncer { storage, committed: publish, stats: Arc::clone(&stats), stopped: None };
        let (jobs, inbox) = mpsc::channel();
        let writers = vec![
            std::thread::Builder::new().name("ledger-sequencer".into()).spawn(move || sequencer.run(inbox))?,
            std::thread::Builder::new().name("ledger-sync".into()).spawn(move || syncer.run(written))?,
        ];
        Ok(Log {
            jobs: Mutex::new(Some(jobs)),
            writers: Mutex::new(writers),
            reader: Arc::new(reader),
            lookups,
            committed,
            backend,
            stats,
            schedule,
        })
    }

    /// What the sequencer has done since the log was opened.
    pub fn stats(&self) -> StatsSnapshot {
        self.stats.snapshot()
    }

    /// Turns true when a failed write or sync has stopped the log (it then refuses every append
    /// until restarted).
    pub fn watch_stopped(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stats.watch_stopped()
    }

    /// How many stored records are known to be damaged (see [`Reader::damaged`]), for health
    /// and metrics.
    pub fn damaged_records(&self) -> u64 {
        self.reader.damaged()
    }

    /// The backend's name, for logs and metrics.
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// Appends atomically; returns once the events are durable (or were already stored).
    ///
    /// # Errors
    /// A rule refused the append (nothing appended), or the backend failed (nothing
    /// acknowledged), or the log is closing.
    pub async fn append(&self, request: AppendRequest) -> Result<Appended, AppendError> {
        self.submit(request)?.await
    }

    /// Queues an append now and returns its answer to await later: appends submitted one after
    /// the other reach the sequencer in that order, so a client may pipeline them.
    ///
    /// # Errors
    /// The log is closing.
    pub fn submit(&self, request: AppendRequest) -> Result<Pending, StoreError> {
        let sender = self.jobs.lock().expect("not poisoned").clone().ok_or(StoreError::Closed)?;
        let (reply, answer) = oneshot::channel();
        sender.send(Job { request, reply, attempts: 0 }).map_err(|_| StoreError::Closed)?;
        Ok(Pending(answer))
    }

    /// A read from past [`MAX_CURSOR`] holds nothing (and asks the backend nothing).
    ///
    /// # Errors
    /// The backend failed.
    pub fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        if from_seq > MAX_CURSOR {
            return Ok(Vec::new());
        }
        let records = self.reader.read_stream(stream, from_seq, limit)?;
        self.stats.read(records.len());
        Ok(records)
    }

    /// A read from past [`MAX_CURSOR`] holds nothing.
    ///
    /// # Errors
    /// The backend failed.
    pub fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        if from_position > MAX_CURSOR {
            return Ok(Vec::new());
        }
        let records = self.reader.read_all(from_position, limit)?;
        self.stats.read(records.len());
        Ok(records)
    }

    /// [`Log::read_stream`] in the stored encoding, copied without decoding where the backend
    /// can (see [`Reader::read_stream_stored`]).
    ///
    /// # Errors
    /// The backend failed.
    pub fn read_stream_stored(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<StoredPage, StoreError> {
        if from_seq > MAX_CURSOR {
            return Ok(StoredPage::default());
        }
        let page = self.reader.read_stream_stored(stream, from_seq, limit)?;
        self.stats.read(page.count);
        Ok(page)
    }

    /// [`Log::read_all`] in the stored encoding.
    ///
    /// # Errors
    /// The backend failed.
    pub fn read_all_stored(&self, from_position: u64, limit: usize) -> Result<StoredPage, StoreError> {
        if from_position > MAX_CURSOR {
            return Ok(StoredPage::default());
        }
        let page = self.reader.read_all_stored(from_position, limit)?;
        self.stats.read(page.count);
        Ok(page)
    }

    /// The durable records of `stream` stored under any of `event_ids`, in the order asked,
    /// found through the event-id index the writer keeps for idempotency: a client that resends
    /// what it may have stored already learns which of it is, without reading the stream (the
    /// table page's queue). Ids stored in another stream, or not yet durable, are not found.
    ///
    /// # Errors
    /// The backend failed.
    pub fn find_event_ids(&self, stream: &StreamId, event_ids: &[&str]) -> Result<Vec<Recorded>, StoreError> {
        let durable = self.reader.last_position()?;
        let mut found = Vec::new();
        for id in event_ids.iter().filter(|id| !id.is_empty()) {
            if let Some(record) = self.lookups.find_event_id(id)? {
                if record.envelope.stream == *stream && record.envelope.position <= durable {
                    found.push(record);
                }
            }
        }
        self.stats.read(found.len());
        Ok(found)
    }

    /// `stream`'s folded state as its last commit stored it (its snapshot, read with its head):
    /// its version and what its rules wait for, without reading its events. An empty stream's
    /// is a fresh state (with no scheduled ruleset: it predicts versions, not a game's rules).
    /// `None` when the snapshot is missing or of another version of the rules: replay then.
    /// It may be a commit ahead of the durable records.
    ///
    /// # Errors
    /// The backend failed.
    pub fn stream_folded(&self, stream: &StreamId) -> Result<Option<Folded>, StoreError> {
        let Some(head) = self.lookups.load_head(stream)? else { return Ok(Some(Folded::new(stream, None))) };
        let fold = head.snapshot.as_deref().and_then(crate::snapshot::decode);
        Ok(fold.filter(|fold| fold.version() == head.version))
    }

    /// # Errors
    /// The backend failed.
    pub fn last_position(&self) -> Result<u64, StoreError> {
        self.reader.last_position()
    }

    /// # Errors
    /// The backend failed.
    pub fn streams(&self) -> Result<Vec<StreamInfo>, StoreError> {
        self.reader.streams()
    }

    /// The tournament streams that scheduled `game` (a game id), as the writer knows them: none
    /// for a stand-alone game. A game's projections read these and nothing else of the log.
    /// On a log shared with other writers, a game the schedule does not know yet may have been
    /// scheduled a moment ago elsewhere: then every tournament stream is listed from storage.
    ///
    /// # Errors
    /// The backend failed.
    pub fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, StoreError> {
        let known = self.schedule.tournaments_of(game);
        if !known.is_empty() || self.schedule.is_complete() {
            return Ok(known);
        }
        let listed = self.reader.streams()?.into_iter().map(|info| info.stream);
        Ok(listed.filter(|stream| stream.kind() == ledger::StreamKind::Tournament).collect())
    }

    /// Where `game` is played: each tournament that scheduled it with the table, as the writer
    /// knows it (in memory; on a shared log, what another writer scheduled a moment ago may be
    /// missing). Who may record where asks it on every append.
    pub fn tables_of(&self, game: &str) -> Vec<(StreamId, u32)> {
        self.schedule.tables_of(game)
    }

    /// Every tournament stream, as the writer knows them, in stream order.
    pub fn tournaments(&self) -> Vec<StreamId> {
        self.schedule.tournaments()
    }

    /// Every event committed from now on, in commit order.
    pub fn committed(&self) -> broadcast::Receiver<Arc<Recorded>> {
        self.committed.subscribe()
    }

    /// Stops taking appends, lets the writer finish (and sync) the ones in flight, and waits.
    /// Blocking: call it from `spawn_blocking` in async code.
    pub fn close(&self) {
        self.jobs.lock().expect("not poisoned").take();
        for writer in self.writers.lock().expect("not poisoned").drain(..) {
            if writer.join().is_err() {
                tracing::error!("a writer thread panicked");
            }
        }
    }
}

/// The answer to a submitted append.
pub struct Pending(oneshot::Receiver<Result<Appended, AppendError>>);

impl std::future::Future for Pending {
    type Output = Result<Appended, AppendError>;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0)
            .poll(cx)
            .map(|answer| answer.unwrap_or(Err(AppendError::Storage(StoreError::Closed))))
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        self.close();
    }
}
