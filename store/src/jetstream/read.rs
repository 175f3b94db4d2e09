//! Reading the JetStream log in pages: a short-lived pull consumer per page, started at the
//! page's first JetStream sequence, that takes what is stored and stops.
//!
//! A ledger stream's seq is not a JetStream sequence: a page of a stream starts at the nearest
//! mark the log remembers for it (its last read, written or followed event), or at its first
//! message.

use super::{nats_error, patiently, record_of, subject, JetStreamStorage, SUBJECTS};
use crate::error::StoreError;
use async_nats::jetstream::consumer::{pull, AckPolicy, DeliverPolicy};
use async_nats::jetstream::stream;
use ledger::{Recorded, StreamId};
use std::time::Duration;
use tokio_stream::StreamExt;

/// At most this many messages per pull request.
const FETCH: usize = 1024;

/// Up to `limit` messages of `filter` from JetStream sequence `from` on, as records.
pub(super) async fn fetch(
    stream: stream::Stream,
    filter: String,
    from: u64,
    limit: usize,
) -> Result<Vec<Recorded>, StoreError> {
    let consumer = stream
        .create_consumer(pull::Config {
            filter_subject: filter,
            deliver_policy: DeliverPolicy::ByStartSequence { start_sequence: from.max(1) },
            ack_policy: AckPolicy::None,
            inactive_threshold: Duration::from_secs(30),
            memory_storage: true,
            num_replicas: 1,
            ..Default::default()
        })
        .await
        .map_err(|e| nats_error("reader")(&e))?;
    let mut records = Vec::with_capacity(limit.min(FETCH));
    while records.len() < limit {
        let want = (limit - records.len()).min(FETCH);
        let mut batch = consumer.fetch().max_messages(want).messages().await.map_err(|e| nats_error("read")(&e))?;
        let mut got = 0;
        while let Some(message) = batch.next().await {
            let message = message.map_err(|e| nats_error("read")(&e))?;
            let sequence = message.info().map_err(|e| nats_error("read")(&e))?.stream_sequence;
            records.push(record_of(&message.payload, sequence)?);
            got += 1;
        }
        if got < want {
            break;
        }
    }
    let name = consumer.cached_info().name.clone();
    tokio::spawn(async move {
        let _ = stream.delete_consumer(&name).await;
    });
    Ok(records)
}

/// [`fetch`], patiently.
fn page(storage: &JetStreamStorage, filter: String, from: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
    let (stream, give_up) = (storage.inner.stream.clone(), storage.inner.config.give_up);
    storage.block(async move { patiently(give_up, || fetch(stream.clone(), filter.clone(), from, limit)).await })
}

pub(super) fn read_all(
    storage: &JetStreamStorage,
    from_position: u64,
    limit: usize,
) -> Result<Vec<Recorded>, StoreError> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    page(storage, SUBJECTS.into(), from_position, limit)
}

pub(super) fn read_stream(
    storage: &JetStreamStorage,
    stream: &StreamId,
    from_seq: u64,
    limit: usize,
) -> Result<Vec<Recorded>, StoreError> {
    let from_seq = from_seq.max(1);
    if limit == 0 {
        return Ok(Vec::new());
    }
    // Start at the mark if it is at or before the first seq wanted, else at the beginning.
    let start = match storage.inner.shared.marked(stream) {
        Some((seq, sequence)) if seq == from_seq => sequence,
        Some((seq, sequence)) if seq < from_seq => sequence + 1,
        _ => 1,
    };
    let mut records: Vec<Recorded> = Vec::new();
    let mut next = start;
    loop {
        let page = page(storage, subject(stream), next, FETCH)?;
        let Some(last) = page.last() else { break };
        next = last.envelope.position + 1;
        let full = page.len() == FETCH;
        records.extend(page.into_iter().filter(|r| r.envelope.seq >= from_seq).take(limit - records.len()));
        if records.len() >= limit || !full {
            break;
        }
    }
    if let Some(last) = records.last() {
        // The next page of a paged read starts here.
        storage
            .inner
            .shared
            .marks
            .lock()
            .expect("not poisoned")
            .put(stream.clone(), (last.envelope.seq, last.envelope.position));
    }
    Ok(records)
}

/// Every subject of the log that holds messages.
pub(super) fn subjects(storage: &JetStreamStorage) -> Result<Vec<String>, StoreError> {
    let (stream, give_up) = (storage.inner.stream.clone(), storage.inner.config.give_up);
    storage.block(async move {
        patiently(give_up, || async {
            let mut info = stream.info_with_subjects(SUBJECTS).await.map_err(|e| nats_error("stream info")(&e))?;
            let mut subjects = Vec::new();
            while let Some(entry) = info.next().await {
                let (subject, _count) = entry.map_err(|e| nats_error("stream info")(&e))?;
                subjects.push(subject);
            }
            Ok(subjects)
        })
        .await
    })
}
