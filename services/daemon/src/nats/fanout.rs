//! The publisher: every committed event, in global position order, to one JetStream stream.
//!
//! Where to start is read from JetStream itself: its last message carries the ledger position it
//! holds (`Ledger-Position`), so after a NATS outage or a `kill -9` of ledgerd the publisher
//! resumes right after it, and no event is published twice even past JetStream's duplicate
//! window. Each publish names the message id it must follow (`Nats-Expected-Last-Msg-Id`), so a
//! lost publish can never be overtaken by the next one: order holds per ledger stream and for the
//! whole log. The event id is the `Nats-Msg-Id`, so a publish retried within the window is
//! deduplicated by JetStream too.
//!
//! Appends never wait for this task. While NATS is away it retries every second, logs the outage
//! once, and [`FanoutStatus`] says how far behind it is (metrics and `grpc.health`).

use super::{subject, NatsOptions};
use async_nats::jetstream::{self, message::PublishMessage};
use ledger::envelope::Hash;
use ledger::Recorded;
use ledger_store::{Filter, Log};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Headers every message carries besides `Nats-Msg-Id` (the event id): the envelope, so a
/// consumer can check the chain without asking the ledger.
pub mod header {
    pub const STREAM: &str = "Ledger-Stream";
    pub const SEQ: &str = "Ledger-Seq";
    pub const POSITION: &str = "Ledger-Position";
    pub const TYPE: &str = "Ledger-Event-Type";
    pub const ACTOR: &str = "Ledger-Actor";
    pub const RECORDED_AT_MS: &str = "Ledger-Recorded-At-Ms";
    pub const PREV_HASH: &str = "Ledger-Prev-Hash";
    pub const HASH: &str = "Ledger-Hash";
}

/// Publishes in flight before their acknowledgements are awaited.
const IN_FLIGHT: usize = 512;

/// How far the fan-out has come, for metrics and health.
#[derive(Debug, Default)]
pub struct FanoutStatus {
    /// The last global position JetStream acknowledged (0: none yet known).
    published: AtomicU64,
    connected: AtomicBool,
    /// Turns true while connected and publishing, false while NATS is away.
    serving: watch::Sender<bool>,
}

impl FanoutStatus {
    pub fn published(&self) -> u64 {
        self.published.load(Ordering::Acquire)
    }

    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::Acquire)
    }

    /// Follows the serving state (for `grpc.health`).
    pub fn watch(&self) -> watch::Receiver<bool> {
        self.serving.subscribe()
    }

    fn set_connected(&self, connected: bool) {
        self.connected.store(connected, Ordering::Release);
        self.serving.send_replace(connected);
    }

    fn set_published(&self, position: u64) {
        self.published.fetch_max(position, Ordering::AcqRel);
    }

    /// Events committed but not yet in JetStream, and how long the oldest of them has waited.
    pub fn lag(&self, log: &Log, now_ms: u64) -> (u64, f64) {
        let last = log.last_position().unwrap_or(0);
        let published = self.published();
        let waiting = last.saturating_sub(published);
        let oldest = match log.read_all(published + 1, 1) {
            Ok(page) => page.first().map(|r| r.envelope.recorded_at_ms),
            Err(_) => None,
        };
        #[allow(clippy::cast_precision_loss)] // seconds for a dashboard
        let seconds = oldest.map_or(0.0, |at| now_ms.saturating_sub(at) as f64 / 1000.0);
        (waiting, if waiting == 0 { 0.0 } else { seconds })
    }
}

/// Why a publishing session ended.
#[derive(Debug, thiserror::Error)]
enum SessionError {
    #[error("{0}")]
    Nats(String),
    #[error("the JetStream stream holds events of another ledger: {0}")]
    Foreign(String),
    #[error("the log failed: {0}")]
    Log(#[from] ledger_store::StoreError),
}

fn nats(e: impl std::fmt::Display) -> SessionError {
    SessionError::Nats(e.to_string())
}

/// Publishes until `stop` turns true. Never returns early: an outage is waited out.
pub async fn run(log: Arc<Log>, options: NatsOptions, status: Arc<FanoutStatus>, mut stop: watch::Receiver<bool>) {
    let mut outage: Option<String> = None;
    loop {
        let ended = tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            ended = session(&log, &options, &status, &mut outage) => ended,
        };
        status.set_connected(false);
        match ended {
            Err(SessionError::Foreign(why)) => {
                tracing::error!(stream = %options.stream, "NATS fan-out stopped: {why}; use another --nats-stream");
                let _ = stop.wait_for(|s| *s).await;
                return;
            }
            Err(error) => {
                let error = error.to_string();
                if outage.is_none() {
                    let waiting = log.last_position().unwrap_or(0).saturating_sub(status.published());
                    tracing::warn!(%error, waiting, "NATS fan-out paused; appends go on and events wait in the log");
                }
                outage = Some(error);
            }
            Ok(()) => {}
        }
        tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

/// One connection: resume after JetStream's last message, then publish as events commit.
async fn session(
    log: &Arc<Log>,
    options: &NatsOptions,
    status: &FanoutStatus,
    outage: &mut Option<String>,
) -> Result<(), SessionError> {
    let client = options.connect().await.map_err(nats)?;
    let js = jetstream::new(client);
    let mut stream = js
        .get_or_create_stream(jetstream::stream::Config {
            name: options.stream.clone(),
            subjects: vec![subject::ALL.into()],
            storage: jetstream::stream::StorageType::File,
            ..Default::default()
        })
        .await
        .map_err(nats)?;
    let last_sequence = stream.info().await.map_err(nats)?.state.last_sequence;
    let mut last_id = None;
    let mut next = 1;
    if last_sequence > 0 {
        let last = stream.get_raw_message(last_sequence).await.map_err(nats)?;
        let position = last
            .headers
            .get(header::POSITION)
            .and_then(|v| v.as_str().parse::<u64>().ok())
            .ok_or_else(|| SessionError::Foreign(format!("message {last_sequence} has no {}", header::POSITION)))?;
        let id = last.headers.get(async_nats::header::NATS_MESSAGE_ID).map(|v| v.as_str().to_owned());
        let ours = log.read_all(position, 1)?.into_iter().next().filter(|r| r.envelope.position == position);
        if ours.as_ref().map(|r| &r.envelope.event_id) != id.as_ref() {
            return Err(SessionError::Foreign(format!(
                "its last message (position {position}, id {}) is not this ledger's event at that position",
                id.as_deref().unwrap_or("none")
            )));
        }
        status.set_published(position);
        last_id = id;
        next = position + 1;
    }
    status.set_connected(true);
    if let Some(error) = outage.take() {
        tracing::info!(after = %error, from_position = next, "NATS fan-out resumed");
    } else {
        tracing::info!(stream = %options.stream, from_position = next, "NATS fan-out publishing");
    }
    let mut events = log.subscribe(Filter::All, next);
    while let Some(first) = events.recv().await {
        // Everything already committed goes out together; acks are awaited per batch.
        let mut batch = vec![first?];
        while batch.len() < IN_FLIGHT {
            match events.try_recv() {
                Ok(record) => batch.push(record?),
                Err(_) => break,
            }
        }
        let mut acks = Vec::with_capacity(batch.len());
        for record in &batch {
            let publish = message(record, last_id.as_deref());
            acks.push(js.send_publish(subject::of(record), publish).await.map_err(nats)?);
            last_id = Some(record.envelope.event_id.clone());
        }
        for (ack, record) in acks.into_iter().zip(&batch) {
            // On any failure (a publish before this one was lost: `WrongLastMessageId`, a
            // timeout, a broken connection) the session ends and the next one resumes from
            // JetStream's last message.
            ack.await.map_err(nats)?;
            status.set_published(record.envelope.position);
        }
    }
    Err(SessionError::Nats("the log's subscription ended".into()))
}

/// The message for one record: its JSON line as payload, its envelope in headers.
fn message(record: &Recorded, after: Option<&str>) -> PublishMessage {
    let e = &record.envelope;
    let hex = |h: &Hash| hex::encode(h);
    let publish = PublishMessage::build()
        .payload(record.to_json().to_string().into())
        .message_id(&e.event_id)
        .header(header::STREAM, e.stream.to_string().as_str())
        .header(header::SEQ, e.seq.to_string().as_str())
        .header(header::POSITION, e.position.to_string().as_str())
        .header(header::TYPE, record.event.type_name())
        .header(header::ACTOR, e.actor.as_str())
        .header(header::RECORDED_AT_MS, e.recorded_at_ms.to_string().as_str())
        .header(header::PREV_HASH, hex(&e.prev_hash).as_str())
        .header(header::HASH, hex(&e.hash).as_str());
    match after {
        Some(id) => publish.expected_last_message_id(id),
        None => publish.expected_last_sequence(0),
    }
}
