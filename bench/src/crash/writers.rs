//! The load a crash interrupts: unary appenders (`Append`, one answer awaited at a time, on their
//! own streams and on shared streams with expected versions) and pipelined appenders
//! (`AppendStream`, many appends in flight on one connection).
//!
//! A writer runs until its connection breaks. It reports every event the ledger acknowledged
//! and every append that was sent (or about to be) but never answered: those may or may not be
//! stored, and are retried by id after the restart ([`super::check::resolve`]).

use super::append::{acks_of, with_identity, Ack, Attempt};
use super::events::own_event_id;
use super::rng::Rng;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Status};

/// What every writer of one cycle shares with the one who kills the daemon.
#[derive(Debug, Clone)]
pub struct Cycle {
    pub url: String,
    pub cycle: u32,
    /// Set just before the SIGKILL: a broken connection before it is a failure, after it the
    /// expected end of the load.
    pub killed: Arc<AtomicBool>,
    /// Events acknowledged in this cycle so far.
    pub acked_events: Arc<AtomicU64>,
}

/// How big the appends are.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Events in one append: 1 most of the time, else up to this many (one atomic append).
    pub max_batch: u64,
    /// One unary append in this many goes to a shared stream.
    pub shared_one_in: u64,
    /// Unanswered appends a pipelined writer keeps on its connection.
    pub in_flight: usize,
}

/// A writer's own streams and the next seq of each: nobody else appends to them.
#[derive(Debug, Clone)]
pub struct OwnStreams {
    pub names: Vec<String>,
    pub next_seq: Vec<u64>,
}

impl OwnStreams {
    /// The next append to a randomly chosen stream, `next_seq` not yet advanced.
    fn next_attempt(&self, rng: &mut Rng, max_batch: u64) -> (usize, Attempt) {
        let idx = usize::try_from(rng.between(0, self.names.len() as u64 - 1)).unwrap_or(0);
        let n_events = if rng.one_in(4) { rng.between(2, max_batch.max(2)) } else { 1 };
        let (stream, first_seq) = (&self.names[idx], self.next_seq[idx]);
        let event_ids = (first_seq..first_seq + n_events).map(|seq| own_event_id(stream, seq)).collect();
        (idx, Attempt { stream: stream.clone(), first_seq, event_ids, expected_version: None })
    }
}

/// A stream all unary writers race on, and the version this writer last knew it at.
#[derive(Debug, Clone)]
pub struct SharedStream {
    pub name: String,
    pub version: u64,
}

/// What a writer did in one cycle.
#[derive(Debug, Default)]
pub struct Outcome {
    pub writer: String,
    /// Appends acknowledged.
    pub appends: u64,
    pub acks: Vec<Ack>,
    /// Sent or about to be sent, never answered, in the order they were sent.
    pub unknown: Vec<Attempt>,
    /// Races lost on a shared stream (`ABORTED`, then re-read and tried again).
    pub races_lost: u64,
    /// A refusal, an answer that breaks a promise, or a connection lost while the daemon ran.
    pub failure: Option<String>,
}

impl Outcome {
    /// A writer's outcome and its connection, or no connection and the failure noted.
    pub(super) async fn connected(writer: &str, cycle: &Cycle) -> (Outcome, Option<LedgerClient<Channel>>) {
        let mut out = Outcome { writer: writer.to_owned(), ..Outcome::default() };
        match connect(&cycle.url).await {
            Ok(client) => (out, Some(client)),
            Err(e) => {
                out.failure = Some(format!("{writer}: {e}"));
                (out, None)
            }
        }
    }

    pub(super) fn acknowledged(&mut self, cycle: &Cycle, acks: Vec<Ack>) {
        self.appends += 1;
        cycle.acked_events.fetch_add(acks.len() as u64, Ordering::Relaxed);
        self.acks.extend(acks);
    }

    /// An append ended in an error: after the kill that is the load's end and the append's fate
    /// is unknown; a refusal, or any error while the daemon still ran, fails the run.
    pub(super) fn ended(&mut self, cycle: &Cycle, attempt: Option<Attempt>, status: &Status) {
        let refused = matches!(
            status.code(),
            Code::InvalidArgument
                | Code::FailedPrecondition
                | Code::AlreadyExists
                | Code::PermissionDenied
                | Code::NotFound
                | Code::OutOfRange
                | Code::Unauthenticated
                | Code::Aborted
                | Code::Unimplemented
        );
        let what = attempt.as_ref().map_or_else(|| "the append stream".to_owned(), Attempt::describe);
        if refused {
            self.failure = Some(format!("{}: {what} refused: {:?} {}", self.writer, status.code(), status.message()));
        } else if !cycle.killed.load(Ordering::SeqCst) {
            self.failure = Some(format!(
                "{}: {what}: the connection failed while ledgerd was running: {:?} {}",
                self.writer,
                status.code(),
                status.message()
            ));
        } else {
            self.unknown.extend(attempt);
        }
    }
}

async fn connect(url: &str) -> Result<LedgerClient<Channel>, String> {
    LedgerClient::connect(url.to_owned()).await.map_err(|e| format!("cannot connect to {url}: {e}"))
}

/// A stream's version as the ledger lists it (0 if it has none yet).
pub async fn version_of(client: &mut LedgerClient<Channel>, stream: &str) -> Result<u64, Status> {
    let listed = client.list_streams(pb::ListStreamsRequest { prefix: stream.to_owned() }).await?.into_inner();
    Ok(listed.streams.iter().find(|s| s.stream == stream).map_or(0, |s| s.version))
}

/// Appends one at a time, each answer awaited: mostly to its own streams, sometimes to a shared
/// one with the version it last saw (losing the race is `ABORTED`: re-read and go on).
pub async fn unary(
    name: String,
    cycle: Cycle,
    mut own: OwnStreams,
    mut shared: Vec<SharedStream>,
    shape: Shape,
    mut rng: Rng,
) -> Outcome {
    let (mut out, client) = Outcome::connected(&name, &cycle).await;
    let Some(mut client) = client else { return out };
    let mut n_shared = 0u64;
    loop {
        let to_shared = !shared.is_empty() && rng.one_in(shape.shared_one_in);
        let (idx, attempt) = if to_shared {
            let idx = usize::try_from(rng.between(0, shared.len() as u64 - 1)).unwrap_or(0);
            let stream = &shared[idx];
            n_shared += 1;
            // Unique in the whole run: a lost race is retried as a new event with a new id.
            let id = format!("{}#{name}-c{}-{n_shared}", stream.name, cycle.cycle);
            let attempt = Attempt {
                stream: stream.name.clone(),
                first_seq: stream.version + 1,
                event_ids: vec![id],
                expected_version: Some(stream.version),
            };
            (idx, attempt)
        } else {
            own.next_attempt(&mut rng, shape.max_batch)
        };
        match client.append(with_identity(attempt.request(), &name)).await {
            Ok(answer) => match acks_of(&attempt, &answer.into_inner(), false) {
                Ok(acks) => {
                    if to_shared {
                        shared[idx].version = attempt.last_seq();
                    } else {
                        own.next_seq[idx] = attempt.last_seq() + 1;
                    }
                    out.acknowledged(&cycle, acks);
                }
                Err(e) => {
                    out.failure = Some(format!("{name}: {e}"));
                    break;
                }
            },
            Err(status) if to_shared && status.code() == Code::Aborted => {
                out.races_lost += 1;
                match version_of(&mut client, &attempt.stream).await {
                    Ok(version) => shared[idx].version = version,
                    Err(status) => {
                        // Refused, so not stored: nothing is in flight.
                        out.ended(&cycle, None, &status);
                        break;
                    }
                }
            }
            Err(status) => {
                out.ended(&cycle, Some(attempt), &status);
                break;
            }
        }
    }
    out
}

/// `AppendStream` with up to `shape.in_flight` appends unanswered, to its own streams. Answers
/// come in request order, so the n-th answer belongs to the n-th append sent.
pub async fn pipelined(name: String, cycle: Cycle, mut own: OwnStreams, shape: Shape, mut rng: Rng) -> Outcome {
    let (mut out, client) = Outcome::connected(&name, &cycle).await;
    let Some(mut client) = client else { return out };
    let (requests_tx, requests_rx) = mpsc::channel::<pb::AppendRequest>(shape.in_flight);
    // Every append is noted here before it is handed to the connection: whatever is still here
    // when the connection breaks may have reached the ledger.
    let (sent_tx, mut sent_rx) = mpsc::unbounded_channel::<Attempt>();
    let permits = Arc::new(Semaphore::new(shape.in_flight));
    let sender = {
        let permits = Arc::clone(&permits);
        tokio::spawn(async move {
            while let Ok(permit) = permits.acquire().await {
                permit.forget();
                let (idx, attempt) = own.next_attempt(&mut rng, shape.max_batch);
                own.next_seq[idx] = attempt.last_seq() + 1;
                let request = attempt.request();
                if sent_tx.send(attempt).is_err() || requests_tx.send(request).await.is_err() {
                    break;
                }
            }
        })
    };
    match client.append_stream(with_identity(ReceiverStream::new(requests_rx), &name)).await {
        Err(status) => out.ended(&cycle, None, &status),
        Ok(answers) => {
            let mut answers = answers.into_inner();
            loop {
                let answer = match answers.message().await {
                    Ok(Some(answer)) => answer,
                    Ok(None) => {
                        let status = Status::unavailable("ledgerd ended the append stream");
                        out.ended(&cycle, None, &status);
                        break;
                    }
                    Err(status) => {
                        out.ended(&cycle, None, &status);
                        break;
                    }
                };
                let Some(attempt) = sent_rx.recv().await else {
                    out.failure = Some(format!("{name}: an answer without an append"));
                    break;
                };
                permits.add_permits(1);
                let result = match answer.result {
                    Some(pb::append_stream_response::Result::Ok(ok)) => acks_of(&attempt, &ok, false),
                    Some(pb::append_stream_response::Result::Error(e)) => {
                        Err(format!("{} refused: {:?} {}", attempt.describe(), Code::from(e.code), e.message))
                    }
                    None => Err(format!("{}: an empty answer", attempt.describe())),
                };
                match result {
                    Ok(acks) => out.acknowledged(&cycle, acks),
                    Err(e) => {
                        out.failure = Some(format!("{name}: {e}"));
                        break;
                    }
                }
            }
        }
    }
    // The sender stops on closed permits; if the connection stopped taking requests it may be
    // waiting to hand one over, so it is stopped outright. What it noted stays in `sent_rx`.
    permits.close();
    sender.abort();
    let _ = sender.await;
    while let Ok(attempt) = sent_rx.try_recv() {
        out.unknown.push(attempt);
    }
    out
}
