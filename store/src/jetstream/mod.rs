//! The log on NATS JetStream, for when one machine is not enough: several ledgerd, on several
//! machines, append to one JetStream stream (replicated R3 in a cluster), each taking appends
//! for any game.
//!
//! One JetStream stream holds the ledger (`LEDGER_LOG` unless configured), one subject per
//! ledger stream: `ledger.log.<kind>.<id>` (ids escaped as in [`crate::subject`]). One message
//! per event: the stored record (`ledger::envelope::encode_record`) as payload, the event id as
//! `Nats-Msg-Id`. A ledger stream's part of a group is published as one atomic batch (ADR-50,
//! nats-server 2.12+) whose first message carries `Nats-Expected-Last-Subject-Sequence`: so a
//! stream never forks, and an append is all or nothing. The global position of an event is
//! its JetStream sequence.
//!
//! When two writers race for one stream, JetStream stores one batch and refuses the other
//! (wrong last sequence); the loser's writer reloads the stream and decides its appends again
//! ([`crate::Written::conflicts`]). Every ledgerd follows the whole JetStream stream
//! ([`follow`]): that keeps its event-id index complete (idempotency holds past JetStream's
//! duplicate window, and across writers), tells its writer which streams others changed, keeps
//! the readers' schedule up to date with the tournaments others write, and feeds its
//! subscribers every writer's events in log order.
//!
//! The storage traits are synchronous (the writer is a thread); this backend runs its NATS
//! client on a small runtime of its own and waits for it.

mod follow;
mod read;
mod write;

use crate::error::StoreError;
use crate::schedule::Schedule;
use crate::storage::{Commit, Reader, Storage, StoredHead, StreamInfo, Written};
use async_nats::jetstream::{self, stream};
use ledger::envelope::decode_record;
use ledger::{Recorded, StreamId, StreamKind};
use lru::LruCache;
use std::collections::HashMap;
use std::future::Future;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// Every subject of the log.
pub const SUBJECTS: &str = "ledger.log.>";

/// The largest atomic batch nats-server accepts (its default `max_batch_size`).
const MAX_ATOMIC_BATCH: usize = 1000;

/// The header holding a stream's folded state (hex) on the last message of each group.
const SNAPSHOT_HEADER: &str = "Ledger-Snapshot";

/// How the JetStream log is set up.
#[derive(Debug, Clone)]
pub struct JetStreamConfig {
    /// The JetStream stream's name (created if missing).
    pub stream: String,
    /// Its replicas when created: 1 on one server, 3 in a three-node cluster.
    pub replicas: usize,
    /// How long a publish may go unacknowledged (a cluster electing a leader) before the
    /// writer checks what was stored and tries again; past `give_up` the log stops.
    pub ack_timeout: Duration,
    pub give_up: Duration,
    /// JetStream's own duplicate window when the stream is created. The ledger's id index
    /// recognises retries however late they come; the window only catches a retry another
    /// ledgerd stores before its follower has seen the first.
    pub duplicate_window: Duration,
}

impl Default for JetStreamConfig {
    fn default() -> Self {
        JetStreamConfig {
            stream: "LEDGER_LOG".into(),
            replicas: 1,
            ack_timeout: Duration::from_secs(5),
            give_up: Duration::from_secs(60),
            duplicate_window: Duration::from_secs(120),
        }
    }
}

/// The subject of a ledger stream.
pub fn subject(stream: &StreamId) -> String {
    format!("ledger.log.{}.{}", stream.kind().prefix(), crate::subject::escape(stream.id()))
}

/// The ledger stream of a subject.
fn stream_of(subject: &str) -> Option<StreamId> {
    let rest = subject.strip_prefix("ledger.log.")?;
    let (kind, token) = rest.split_once('.')?;
    StreamId::parse(&format!("{kind}/{}", crate::subject::unescape(token))).ok()
}

/// A stored message back as a record, its position being its JetStream sequence.
fn record_of(payload: &[u8], sequence: u64) -> Result<Recorded, StoreError> {
    let mut record =
        decode_record(payload).map_err(|e| StoreError::Corrupt(format!("JetStream message {sequence}: {e}")))?;
    record.envelope.position = sequence;
    Ok(record)
}

fn nats_error(what: &str) -> impl Fn(&dyn std::fmt::Display) -> StoreError + '_ {
    move |e| StoreError::Io(format!("JetStream {what}: {e}"))
}

/// Runs a read until it succeeds or `give_up` has passed: while a cluster elects a leader or
/// the client reconnects to another node, JetStream answers with timeouts and "no responders"
/// for a few seconds. Damaged data is not retried.
async fn patiently<T, Fut>(give_up: Duration, mut read: impl FnMut() -> Fut) -> Result<T, StoreError>
where
    Fut: Future<Output = Result<T, StoreError>>,
{
    let started = std::time::Instant::now();
    loop {
        match read().await {
            Err(StoreError::Io(error)) if started.elapsed() < give_up => {
                tracing::debug!(%error, "a JetStream read failed; trying again");
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            done => return done,
        }
    }
}

/// The last message of a subject, from the stream's leader (a direct get may be answered by a
/// replica that is behind, and the writer must decide on the newest state).
async fn last_message(
    stream: &stream::Stream,
    subject: &str,
) -> Result<Option<jetstream::message::StreamMessage>, StoreError> {
    match stream.get_last_raw_message_by_subject(subject).await {
        Ok(message) => Ok(Some(message)),
        Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(None),
        Err(e) => Err(nats_error("read")(&e)),
    }
}

/// Every stored event id's hash → its JetStream sequence: about 20–40 bytes per event (a plain
/// map entry), with the rare second event of a hash in a side map.
#[derive(Default)]
struct IdIndex {
    first: HashMap<u64, u64>,
    more: HashMap<u64, Vec<u64>>,
}

impl IdIndex {
    fn insert(&mut self, hash: u64, sequence: u64) {
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(sequence);
            }
            std::collections::hash_map::Entry::Occupied(_) => self.more.entry(hash).or_default().push(sequence),
        }
    }

    fn get(&self, hash: u64) -> Vec<u64> {
        self.first.get(&hash).into_iter().chain(self.more.get(&hash).into_iter().flatten()).copied().collect()
    }
}

/// What the follower and the writer share.
struct Shared {
    /// Event-id hash → the JetStream sequences of the events with that hash.
    ids: Mutex<IdIndex>,
    /// The last JetStream sequence the follower has taken in.
    followed: watch::Sender<u64>,
    /// Streams appended to since the writer last asked, with their newest seq.
    changed: Mutex<HashMap<StreamId, u64>>,
    /// Where subscribers get committed events, once the log is started.
    committed: OnceLock<broadcast::Sender<Arc<Recorded>>>,
    /// The readers' schedule, fed the other writers' tournament events from the moment the
    /// follower starts (before the writer indexes the stored tournaments, so nothing falls
    /// between the two).
    schedule: Arc<Schedule>,
    /// Per stream, a recent (seq, JetStream sequence): where reads and expectations start.
    marks: Mutex<LruCache<StreamId, (u64, u64)>>,
}

impl Shared {
    fn mark(&self, stream: &StreamId, seq: u64, sequence: u64) {
        let mut marks = self.marks.lock().expect("not poisoned");
        match marks.get_mut(stream) {
            Some(mark) if mark.0 >= seq => {}
            Some(mark) => *mark = (seq, sequence),
            None => {
                marks.put(stream.clone(), (seq, sequence));
            }
        }
    }

    fn marked(&self, stream: &StreamId) -> Option<(u64, u64)> {
        self.marks.lock().expect("not poisoned").get(stream).copied()
    }
}

/// The JetStream log: both the writer's [`Storage`] and everyone's [`Reader`]. Cheap to clone.
#[derive(Clone)]
pub struct JetStreamStorage {
    inner: Arc<Inner>,
}

struct Inner {
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    handle: tokio::runtime::Handle,
    client: async_nats::Client,
    js: jetstream::Context,
    stream: stream::Stream,
    config: JetStreamConfig,
    shared: Arc<Shared>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.lock().expect("not poisoned").take() {
            runtime.shutdown_background();
        }
    }
}

impl JetStreamStorage {
    /// Connects (with `connect`, run on the backend's own runtime), creates the JetStream
    /// stream if missing, and takes in every stored event id before returning.
    ///
    /// # Errors
    /// NATS cannot be reached, the stream cannot be created, or it holds foreign messages.
    pub fn open<F, E>(connect: F, config: JetStreamConfig) -> Result<JetStreamStorage, StoreError>
    where
        F: Future<Output = Result<async_nats::Client, E>> + Send + 'static,
        E: std::fmt::Display,
    {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("ledger-jetstream")
            .enable_all()
            .build()?;
        let handle = runtime.handle().clone();
        let stream_config = config.clone();
        let (client, js, stream) = runtime.block_on(async move {
            let client = connect.await.map_err(|e| StoreError::Io(format!("connecting to NATS: {e}")))?;
            let mut js = jetstream::new(client.clone());
            js.set_timeout(stream_config.ack_timeout);
            let stream = ensure_stream(&js, &stream_config).await?;
            Ok::<_, StoreError>((client, js, stream))
        })?;
        let (followed, _) = watch::channel(0);
        let shared = Arc::new(Shared {
            ids: Mutex::new(IdIndex::default()),
            followed,
            changed: Mutex::new(HashMap::new()),
            committed: OnceLock::new(),
            schedule: Arc::new(Schedule::for_shared_log()),
            marks: Mutex::new(LruCache::new(NonZeroUsize::new(10_000).expect("not zero"))),
        });
        let storage = JetStreamStorage {
            inner: Arc::new(Inner { runtime: Mutex::new(Some(runtime)), handle, client, js, stream, config, shared }),
        };
        let last = storage.last_position()?;
        storage.inner.handle.spawn(follow::run(storage.inner.stream.clone(), Arc::clone(&storage.inner.shared), last));
        storage.wait_followed(last, Duration::from_secs(600))?;
        tracing::info!(stream = %storage.inner.config.stream, events = last, "JetStream log open: every event id indexed");
        Ok(storage)
    }

    /// The tournament streams, for the writer to learn their schedules.
    ///
    /// # Errors
    /// JetStream failed.
    pub fn tournament_streams(&self) -> Result<Vec<StreamId>, StoreError> {
        Ok(self.streams()?.into_iter().map(|s| s.stream).filter(|s| s.kind() == StreamKind::Tournament).collect())
    }

    /// Runs `future` on the backend's runtime and waits for it (from a thread that is not one
    /// of that runtime's).
    fn block<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.inner.handle.spawn(async move {
            let _ = tx.send(future.await);
        });
        rx.recv().expect("the JetStream runtime runs until the storage is dropped")
    }

    /// Waits until the follower has taken in every event up to `sequence`.
    fn wait_followed(&self, sequence: u64, patience: Duration) -> Result<(), StoreError> {
        let mut followed = self.inner.shared.followed.subscribe();
        self.block(async move {
            match tokio::time::timeout(patience, followed.wait_for(|&at| at >= sequence)).await {
                Ok(Ok(_)) => Ok(()),
                _ => Err(StoreError::Io(format!("the JetStream log was not read up to {sequence} in {patience:?}"))),
            }
        })
    }

    /// The record at a JetStream sequence, `None` if there is none.
    fn get(&self, sequence: u64) -> Result<Option<Recorded>, StoreError> {
        let (stream, give_up) = (self.inner.stream.clone(), self.inner.config.give_up);
        self.block(async move {
            patiently(give_up, || async {
                match stream.get_raw_message(sequence).await {
                    Ok(message) => record_of(&message.payload, message.sequence).map(Some),
                    Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(None),
                    Err(e) => Err(nats_error("read")(&e)),
                }
            })
            .await
        })
    }
}

async fn ensure_stream(js: &jetstream::Context, config: &JetStreamConfig) -> Result<stream::Stream, StoreError> {
    let wanted = stream::Config {
        name: config.stream.clone(),
        subjects: vec![SUBJECTS.into()],
        storage: stream::StorageType::File,
        num_replicas: config.replicas,
        allow_atomic_publish: true,
        duplicate_window: config.duplicate_window,
        ..Default::default()
    };
    match js.get_stream(&config.stream).await {
        Ok(mut stream) => {
            let info = stream.info().await.map_err(|e| nats_error("stream info")(&e))?;
            if info.config.subjects != wanted.subjects {
                return Err(StoreError::Io(format!(
                    "JetStream stream {} has subjects {:?}, not the ledger's {SUBJECTS}",
                    config.stream, info.config.subjects
                )));
            }
            if !info.config.allow_atomic_publish {
                let mut updated = info.config.clone();
                updated.allow_atomic_publish = true;
                js.update_stream(updated).await.map_err(|e| nats_error("stream update")(&e))?;
            }
            Ok(stream)
        }
        Err(_) => js.create_stream(wanted).await.map_err(|e| {
            StoreError::Io(format!(
                "creating JetStream stream {} (nats-server 2.12 or later needed): {e}",
                config.stream
            ))
        }),
    }
}

impl Storage for JetStreamStorage {
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        let Some((record, snapshot, sequence)) = self.last_of(stream)? else { return Ok(None) };
        self.inner.shared.mark(stream, record.envelope.seq, sequence);
        Ok(Some(StoredHead { version: record.envelope.seq, hash: record.envelope.hash, snapshot }))
    }

    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        let mut events = Vec::new();
        loop {
            let page = self.read_stream(stream, events.len() as u64 + 1, 4096)?;
            if page.is_empty() {
                return Ok(events);
            }
            events.extend(page);
        }
    }

    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        let hash = crate::storage::id_hash(event_id);
        let sequences = self.inner.shared.ids.lock().expect("not poisoned").get(hash);
        for sequence in sequences {
            if let Some(record) = self.get(sequence)? {
                if record.envelope.event_id == event_id {
                    return Ok(Some(record));
                }
            }
        }
        Ok(None)
    }

    fn for_each_id_hash(&self, _each: &mut dyn FnMut(u64)) -> Result<(), StoreError> {
        // Other writers add ids too: the writer asks `find_event_id` (an in-memory index) instead.
        Ok(())
    }

    fn next_position(&self) -> Result<u64, StoreError> {
        Ok(self.last_position()? + 1)
    }

    fn write(&self, commit: &Commit) -> Result<Written, StoreError> {
        write::write(self, commit)
    }

    fn sync(&self, _position: u64) -> Result<(), StoreError> {
        // A group is acknowledged by JetStream before `write` returns: stored on the stream's
        // leader (R1: fsynced per the server's `sync_interval`) or on a quorum of replicas (R3).
        Ok(())
    }

    fn max_stream_events_per_group(&self) -> Option<usize> {
        Some(MAX_ATOMIC_BATCH)
    }

    fn id_filter_is_complete(&self) -> bool {
        false
    }

    fn changed_elsewhere(&self) -> Vec<(StreamId, u64)> {
        self.inner.shared.changed.lock().expect("not poisoned").drain().collect()
    }

    fn feed_subscribers(&self, committed: &broadcast::Sender<Arc<Recorded>>) -> bool {
        let _ = self.inner.shared.committed.set(committed.clone());
        true
    }

    fn schedule(&self) -> Arc<Schedule> {
        Arc::clone(&self.inner.shared.schedule)
    }
}

/// A stream's last record, its snapshot and its JetStream sequence.
type Last = (Recorded, Option<Vec<u8>>, u64);

impl JetStreamStorage {
    /// A stream's last record, its snapshot and its JetStream sequence.
    fn last_of(&self, stream: &StreamId) -> Result<Option<Last>, StoreError> {
        let (js_stream, subject, give_up) = (self.inner.stream.clone(), subject(stream), self.inner.config.give_up);
        self.block(async move {
            let Some(message) = patiently(give_up, || last_message(&js_stream, &subject)).await? else {
                return Ok(None);
            };
            let record = record_of(&message.payload, message.sequence)?;
            let snapshot = message.headers.get(SNAPSHOT_HEADER).and_then(|value| hex::decode(value.as_str()).ok());
            Ok(Some((record, snapshot, message.sequence)))
        })
    }
}

impl Reader for JetStreamStorage {
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        read::read_stream(self, stream, from_seq, limit)
    }

    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        read::read_all(self, from_position, limit)
    }

    fn last_position(&self) -> Result<u64, StoreError> {
        let (stream, give_up) = (self.inner.stream.clone(), self.inner.config.give_up);
        self.block(async move {
            patiently(give_up, || async {
                let mut stream = stream.clone();
                stream.info().await.map(|info| info.state.last_sequence).map_err(|e| nats_error("stream info")(&e))
            })
            .await
        })
    }

    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError> {
        let subjects = read::subjects(self)?;
        let mut streams = Vec::with_capacity(subjects.len());
        for subject in subjects {
            let Some(stream) = stream_of(&subject) else { continue };
            if let Some((record, _, _)) = self.last_of(&stream)? {
                streams.push(StreamInfo { stream, version: record.envelope.seq, head_hash: record.envelope.hash });
            }
        }
        streams.sort_by(|a, b| a.stream.cmp(&b.stream));
        Ok(streams)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_index_keeps_every_event_of_a_shared_hash() {
        let mut index = IdIndex::default();
        index.insert(7, 1);
        index.insert(9, 2);
        index.insert(7, 30);
        index.insert(7, 31);
        assert_eq!(index.get(7), [1, 30, 31]);
        assert_eq!(index.get(9), [2]);
        assert!(index.get(8).is_empty());
    }

    #[test]
    fn subjects_name_their_stream() {
        for id in ["game/q1-t3", "game/wm.2026-q1", "tournament/wm-2026"] {
            let stream = StreamId::parse(id).unwrap();
            let subject = subject(&stream);
            assert_eq!(subject.split('.').count(), 4, "{subject}");
            assert_eq!(stream_of(&subject), Some(stream));
        }
        assert_eq!(stream_of("ledger.v1.game.x.turn_started"), None);
    }
}
