//! The follower: one ordered consumer over the whole JetStream log, from its first message,
//! for as long as the ledgerd runs.
//!
//! Every event it takes in goes into the event-id index (so a retry is recognised whichever
//! writer stored the original, and however long ago). Events stored after the log was opened
//! also go to the writer's list of changed streams, to the readers' schedule (which tournament
//! scheduled which game, [`crate::Schedule`]) and to this ledgerd's subscribers, in log order,
//! whichever writer appended them.

use super::{record_of, stream_of, Shared, SUBJECTS};
use async_nats::jetstream::consumer::pull::OrderedConfig;
use async_nats::jetstream::consumer::DeliverPolicy;
use async_nats::jetstream::stream;
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::StreamExt;

/// Follows the log from its start; `opened_at` is its last sequence when it was opened (events
/// up to it are history, not news).
pub(super) async fn run(stream: stream::Stream, shared: Arc<Shared>, opened_at: u64) {
    let mut next = 1;
    let mut failing = false;
    loop {
        match follow(&stream, &shared, opened_at, &mut next).await {
            Ok(()) => return,
            Err(error) => {
                if !failing {
                    tracing::warn!(%error, next, "following the JetStream log paused; retrying");
                }
                failing = true;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

async fn follow(stream: &stream::Stream, shared: &Shared, opened_at: u64, next: &mut u64) -> Result<(), String> {
    let consumer = stream
        .create_consumer(OrderedConfig {
            filter_subject: SUBJECTS.into(),
            deliver_policy: DeliverPolicy::ByStartSequence { start_sequence: *next },
            ..Default::default()
        })
        .await
        .map_err(|e| e.to_string())?;
    let mut messages = consumer.messages().await.map_err(|e| e.to_string())?;
    while let Some(message) = messages.next().await {
        let message = message.map_err(|e| e.to_string())?;
        let sequence = message.info().map_err(|e| e.to_string())?.stream_sequence;
        let record = match record_of(&message.payload, sequence) {
            Ok(record) => record,
            Err(error) => {
                tracing::error!(%error, subject = %message.subject, "a message in the ledger's JetStream stream is not a ledger record");
                *next = sequence + 1;
                shared.followed.send_replace(sequence);
                continue;
            }
        };
        let envelope = &record.envelope;
        shared.ids.lock().expect("not poisoned").insert(crate::storage::id_hash(&envelope.event_id), sequence);
        if stream_of(&message.subject).as_ref() == Some(&envelope.stream) {
            shared.mark(&envelope.stream, envelope.seq, sequence);
        }
        if sequence > opened_at {
            let mut changed = shared.changed.lock().expect("not poisoned");
            let newest = changed.entry(envelope.stream.clone()).or_insert(0);
            *newest = (*newest).max(envelope.seq);
            drop(changed);
            shared.schedule.observe(&record);
            if let Some(committed) = shared.committed.get() {
                let _ = committed.send(Arc::new(record));
            }
        }
        *next = sequence + 1;
        shared.followed.send_replace(sequence);
    }
    Err("the ordered consumer ended".into())
}
