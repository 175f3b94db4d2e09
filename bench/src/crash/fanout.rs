//! The NATS fan-out under the crash load (`--fanout`): ledgerd publishes every committed event to
//! a JetStream stream; its outbox is the log itself (after a restart it resumes after
//! JetStream's last message). The nats-server runs beside the machine that crashes, as a
//! consumer elsewhere would: its store is never on the power-cut file system, and it is never
//! killed, so it runs with its default sync (its own durability is not what is tested here;
//! with `sync_interval: always` the fan-out fell seconds behind a cycle's load).
//!
//! After every restart [`Fanout::check`] waits until JetStream holds as many events as were
//! acknowledged and reads what arrived since the last check: message `k` must be the event at
//! global position `k`, with the id, stream and seq the ledger acknowledged, its payload's hash
//! must recompute and chain on the previous message of its stream. So every acknowledged event
//! is there once, in order, with no gap, and nothing is there that the ledger did not
//! acknowledge (an event published and then lost by a cut would be).

use super::events::event_of;
use super::model::Model;
use crate::jetstream::{context, find_fsync_server, JsInstance};
use anyhow::{anyhow, Context as _, Result};
use async_nats::jetstream::consumer::pull::OrderedConfig;
use async_nats::jetstream::consumer::DeliverPolicy;
use ledger::envelope::GENESIS;
use ledger::{Hash, Recorded};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio_stream::StreamExt;

/// The JetStream stream ledgerd publishes to (`--nats-stream`).
const STREAM: &str = "LEDGER";

/// How long the fan-out may take to publish what was acknowledged, after a restart.
const CATCH_UP: Duration = Duration::from_secs(60);

/// At most this many problems are described; the counts cover all of them.
const MAX_PROBLEMS: usize = 20;

/// The nats-server of a run and what has been checked of its stream so far.
pub struct Fanout {
    nats: JsInstance,
    /// JetStream sequences 1…`checked` were checked (they cannot change: JetStream is not cut).
    checked: u64,
    /// Each ledger stream's last hash in JetStream, for the chain across checks.
    heads: HashMap<String, Hash>,
}

/// What one check found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FanoutCheck {
    /// Messages in the JetStream stream.
    pub messages: u64,
    /// Messages read and checked this time.
    pub checked: u64,
    /// From the start of the check until JetStream held every acknowledged event.
    pub caught_up_ms: u64,
    /// Acknowledged events missing from JetStream, or another event in their place.
    pub lost: u64,
    /// Messages beyond the acknowledged events: published, never acknowledged.
    pub unexpected: u64,
    pub problems: Vec<String>,
}

impl FanoutCheck {
    pub fn passed(&self) -> bool {
        self.lost == 0 && self.unexpected == 0 && self.problems.is_empty()
    }

    fn problem(&mut self, text: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
    }
}

impl Fanout {
    /// Starts a nats-server (2.11 or newer: `given`, else `.ci/venv/bin`, else `PATH`) with its
    /// store under `work`.
    ///
    /// # Errors
    /// No suitable nats-server, or it did not start.
    pub async fn start(given: Option<&Path>, work: &Path) -> Result<Fanout> {
        let binary = find_fsync_server(given, &crate::workspace_root()).await?;
        let nats = JsInstance::start(&binary, false, work).await.context("starting nats-server for the fan-out")?;
        println!("fan-out: {} at {}", binary.version, nats.url);
        Ok(Fanout { nats, checked: 0, heads: HashMap::new() })
    }

    /// ledgerd's flags to publish here.
    pub fn ledgerd_args(&self) -> Vec<String> {
        vec!["--nats-url".into(), self.nats.url.clone(), "--nats-stream".into(), STREAM.into()]
    }

    /// Waits (up to a minute) until JetStream holds every acknowledged event, then checks what
    /// arrived since the last check.
    ///
    /// # Errors
    /// NATS could not be asked (a problem of the check, not of the ledger).
    pub async fn check(&mut self, model: &Model) -> Result<FanoutCheck> {
        let started = Instant::now();
        let mut check = FanoutCheck::default();
        let js = context(&self.nats.url).await?;
        let acknowledged = model.total();
        let state = loop {
            // ledgerd creates the stream when it first connects.
            let state = match js.get_stream(STREAM).await {
                Ok(mut stream) => Some(stream.info().await.map_err(|e| anyhow!("{e}"))?.state.clone()),
                Err(_) => None,
            };
            let last = state.as_ref().map_or(0, |s| s.last_sequence);
            if last >= acknowledged || started.elapsed() > CATCH_UP {
                break state;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        check.caught_up_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (last, messages, first) = state.map_or((0, 0, 0), |s| (s.last_sequence, s.messages, s.first_sequence));
        check.messages = messages;
        if last < acknowledged {
            check.lost += acknowledged - last;
            check.problem(format!(
                "JetStream holds {last} events {} s after the restart, {acknowledged} were acknowledged",
                CATCH_UP.as_secs()
            ));
        }
        if last > acknowledged {
            check.unexpected += last - acknowledged;
            check.problem(format!("JetStream holds {last} events, only {acknowledged} were acknowledged"));
        }
        if messages != last || (messages > 0 && first != 1) {
            check.problem(format!("JetStream's sequences {first}…{last} hold {messages} messages: a gap"));
        }
        if last > self.checked {
            self.read(&js, last, model, &mut check).await?;
        }
        Ok(check)
    }

    /// Reads and checks messages `checked + 1 ..= last`.
    async fn read(
        &mut self,
        js: &async_nats::jetstream::Context,
        last: u64,
        model: &Model,
        check: &mut FanoutCheck,
    ) -> Result<()> {
        let consumer = js
            .get_stream(STREAM)
            .await
            .map_err(|e| anyhow!("{e}"))?
            .create_consumer(OrderedConfig {
                deliver_policy: DeliverPolicy::ByStartSequence { start_sequence: self.checked + 1 },
                ..Default::default()
            })
            .await
            .map_err(|e| anyhow!("creating the ordered consumer: {e}"))?;
        let mut messages = consumer.messages().await.map_err(|e| anyhow!("{e}"))?;
        while self.checked < last {
            let message = tokio::time::timeout(Duration::from_secs(30), messages.next())
                .await
                .with_context(|| format!("no message for 30 s after sequence {}", self.checked))?
                .context("the ordered consumer ended")?
                .map_err(|e| anyhow!("{e}"))?;
            let sequence = message.info().map_err(|e| anyhow!("{e}"))?.stream_sequence;
            let msg_id = message.headers.as_ref().and_then(|h| h.get(async_nats::header::NATS_MESSAGE_ID));
            let msg_id = msg_id.map(|v| v.as_str().to_owned()).unwrap_or_default();
            let record = serde_json::from_slice(&message.payload)
                .map_err(|e| e.to_string())
                .and_then(|json| Recorded::from_json(&json));
            self.checked = sequence;
            check.checked += 1;
            match record {
                Ok(record) => compare(&mut self.heads, sequence, &msg_id, &record, model, check),
                Err(e) => {
                    check.lost += 1;
                    check.problem(format!("JetStream sequence {sequence}: the payload does not decode: {e}"));
                }
            }
        }
        Ok(())
    }

    /// Stops the nats-server.
    ///
    /// # Errors
    /// It could not be stopped.
    pub async fn stop(self) -> Result<()> {
        self.nats.stop().await
    }
}

/// Message `sequence` must be the acknowledged event at that position, on its stream's chain
/// (`heads`: each stream's last hash in JetStream so far).
fn compare(
    heads: &mut HashMap<String, Hash>,
    sequence: u64,
    msg_id: &str,
    record: &Recorded,
    model: &Model,
    check: &mut FanoutCheck,
) {
    let e = &record.envelope;
    let stream = e.stream.to_string();
    let Some((acked_stream, seq, entry)) = model.at_position(sequence) else {
        check.unexpected += 1;
        check.problem(format!(
            "JetStream sequence {sequence}: {stream} seq {} ({}), never acknowledged",
            e.seq, e.event_id
        ));
        return;
    };
    let as_acked = acked_stream == stream
        && seq == e.seq
        && entry.event_id == e.event_id
        && msg_id == e.event_id
        && e.position == sequence
        && record.event == event_of(&stream, seq);
    if !as_acked {
        check.lost += 1;
        check.problem(format!(
                "JetStream sequence {sequence}: {stream} seq {} ({}, message id {msg_id}, position {}) where {acked_stream} \
                 seq {seq} ({}) was acknowledged",
                e.seq, e.event_id, e.position, entry.event_id
            ));
    }
    let prev = heads.get(&stream).copied().unwrap_or(GENESIS);
    if e.prev_hash != prev || record.recomputed_hash() != e.hash {
        check.problem(format!("JetStream sequence {sequence}: {stream} seq {}: the chain breaks", e.seq));
    }
    heads.insert(stream, e.hash);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crash::append::Ack;
    use crate::crash::events::{event_at, own_event_id};
    use ledger::envelope::Draft;
    use ledger::StreamId;

    const STREAM: &str = "game/crash-u0-0";

    /// Seqs 1…n of one stream at positions 1…n, and a model that acknowledged them.
    fn stream_of(n: u64) -> (Vec<Recorded>, Model) {
        let (mut prev, mut model) = (GENESIS, Model::default());
        let records = (1..=n)
            .map(|seq| {
                let event_id = own_event_id(STREAM, seq);
                model.record(&Ack { stream: STREAM.into(), seq, event_id: event_id.clone(), position: seq }).unwrap();
                let stream = StreamId::parse(STREAM).unwrap();
                let draft = Draft { stream, seq, position: seq, event_id, recorded_at_ms: 0, actor: "t".into() };
                let record = Recorded::seal(draft, prev, event_at(seq));
                prev = record.envelope.hash;
                record
            })
            .collect();
        (records, model)
    }

    /// Checks `messages` as JetStream sequences 1, 2, 3 …
    fn check(messages: &[&Recorded], model: &Model) -> FanoutCheck {
        let (mut heads, mut check) = (HashMap::new(), FanoutCheck::default());
        for (sequence, record) in (1u64..).zip(messages) {
            compare(&mut heads, sequence, &record.envelope.event_id, record, model, &mut check);
        }
        check
    }

    #[test]
    fn each_message_must_be_the_acknowledged_event_at_its_position_on_its_chain() {
        let (records, model) = stream_of(3);
        let [a, b, c] = [&records[0], &records[1], &records[2]];
        assert!(check(&[a, b, c], &model).passed());

        let skipped = check(&[a, c], &model);
        assert_eq!(skipped.lost, 1, "{:?}", skipped.problems);
        assert!(skipped.problems.iter().any(|p| p.contains("the chain breaks")), "{:?}", skipped.problems);

        let doubled = check(&[a, a, b, c], &model);
        assert_eq!((doubled.lost, doubled.unexpected), (2, 1), "{:?}", doubled.problems);

        let (more, _) = stream_of(4);
        let unacknowledged = check(&[a, b, c, &more[3]], &model);
        assert_eq!((unacknowledged.lost, unacknowledged.unexpected), (0, 1), "{:?}", unacknowledged.problems);
    }
}
