//! The Ledger gRPC service: append (unary and pipelined), read, subscribe, list streams.

use crate::auth::{Auth, Identity};
use crate::convert::{appended_to_proto, proposed_from_proto, record_into_proto, stream_info_to_proto, ToProto};
use crate::status::{from_append, from_rejection, from_store};
use ledger::rejection::quote;
use ledger::stream::MAX_NAME_BYTES;
use ledger::{Rejection, StreamId};
use ledger_proto::v1 as pb;
use ledger_store::{AppendRequest, Filter, Log, Pending};
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status, Streaming};

/// How many pipelined appends one AppendStream may have in flight…
const IN_FLIGHT: usize = 1024;
/// …and how many events: a client pipelining large batches cannot make the daemon hold more
/// than this many of its events at once (it waits for answers instead).
const IN_FLIGHT_EVENTS: u32 = 16_384;
/// Events per page when streaming reads: each page is one blocking read of the backend, off the
/// async worker threads.
const READ_PAGE: usize = 1024;

type EventStream = Pin<Box<dyn Stream<Item = Result<pb::RecordedEvent, Status>> + Send>>;
type AppendAnswers = Pin<Box<dyn Stream<Item = Result<pb::AppendStreamResponse, Status>> + Send>>;

/// The service over one open log.
#[derive(Clone)]
pub struct LedgerService {
    log: Arc<Log>,
    auth: Arc<Auth>,
    /// Turns true when the daemon shuts down: live subscriptions end then.
    stopping: watch::Receiver<bool>,
}

impl LedgerService {
    pub fn new(log: Arc<Log>, auth: Arc<Auth>, stopping: watch::Receiver<bool>) -> Self {
        LedgerService { log, auth, stopping }
    }
}

/// Turns a wire append into the domain's, refusing malformed input.
fn to_request(proto: pb::AppendRequest, who: Identity) -> Result<AppendRequest, Rejection> {
    let stream = StreamId::parse(&proto.stream)?;
    let of = proto.events.len();
    let events = proto
        .events
        .into_iter()
        .enumerate()
        .map(|(idx, e)| proposed_from_proto(e, idx + 1, of))
        .collect::<Result<_, _>>()?;
    Ok(AppendRequest {
        stream,
        events,
        expected_version: proto.expected_version,
        actor: who.actor,
        clearance: who.clearance,
    })
}

fn error_answer(status: &Status) -> pb::AppendStreamResponse {
    pb::AppendStreamResponse {
        result: Some(pb::append_stream_response::Result::Error(pb::AppendError {
            code: status.code() as i32,
            message: status.message().to_owned(),
        })),
    }
}

#[tonic::async_trait]
impl pb::ledger_server::Ledger for LedgerService {
    #[tracing::instrument(skip_all, fields(stream = %quote(&request.get_ref().stream), n_events = request.get_ref().events.len()))]
    async fn append(&self, request: Request<pb::AppendRequest>) -> Result<Response<pb::AppendResponse>, Status> {
        let who = self.auth.identify(request.metadata())?;
        let append = to_request(request.into_inner(), who).map_err(from_rejection)?;
        let appended = self.log.append(append).await.map_err(|e| {
            tracing::debug!(error = %e, "append refused");
            from_append(e)
        })?;
        Ok(Response::new(appended_to_proto(&appended)))
    }

    type AppendStreamStream = AppendAnswers;

    async fn append_stream(
        &self,
        request: Request<Streaming<pb::AppendRequest>>,
    ) -> Result<Response<Self::AppendStreamStream>, Status> {
        let who = self.auth.identify(request.metadata())?;
        let mut inbound = request.into_inner();
        let log = Arc::clone(&self.log);
        // Submitting in arrival order keeps pipelined appends to one stream in order; the
        // answers are awaited in the same order.
        type Submitted = (Result<Pending, Status>, Option<OwnedSemaphorePermit>);
        let (pending_tx, mut pending_rx) = mpsc::channel::<Submitted>(IN_FLIGHT);
        let budget = Arc::new(Semaphore::new(IN_FLIGHT_EVENTS as usize));
        let mut stopping = self.stopping.clone();
        tokio::spawn(async move {
            // A shutdown ends the inbound side: appends already submitted are still answered.
            loop {
                let message = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => break,
                    message = inbound.next() => message,
                };
                let Some(message) = message else { break };
                let mut permit = None;
                let submitted = match message.map(|proto| to_request(proto, who.clone()).map_err(from_rejection)) {
                    Err(status) | Ok(Err(status)) => Err(status),
                    Ok(Ok(append)) => {
                        let n_events = u32::try_from(append.events.len()).unwrap_or(u32::MAX).min(IN_FLIGHT_EVENTS);
                        permit = Arc::clone(&budget).acquire_many_owned(n_events).await.ok();
                        log.submit(append).map_err(from_store)
                    }
                };
                if pending_tx.send((submitted, permit)).await.is_err() {
                    break;
                }
            }
        });
        let (answers_tx, answers_rx) = mpsc::channel(IN_FLIGHT);
        tokio::spawn(async move {
            while let Some((submitted, permit)) = pending_rx.recv().await {
                let answer = match submitted {
                    Ok(pending) => match pending.await {
                        Ok(appended) => pb::AppendStreamResponse {
                            result: Some(pb::append_stream_response::Result::Ok(appended_to_proto(&appended))),
                        },
                        Err(error) => error_answer(&from_append(error)),
                    },
                    Err(status) => error_answer(&status),
                };
                drop(permit);
                if answers_tx.send(Ok(answer)).await.is_err() {
                    break;
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(answers_rx))))
    }

    type ReadStream = EventStream;

    async fn read(&self, request: Request<pb::ReadRequest>) -> Result<Response<Self::ReadStream>, Status> {
        let request = request.into_inner();
        // An empty stream reads the whole log in global position order (exports, imports).
        let stream = match request.stream.as_str() {
            "" => None,
            name => Some(StreamId::parse(name).map_err(from_rejection)?),
        };
        let mut remaining = request.limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
        let log = Arc::clone(&self.log);
        let (tx, rx) = mpsc::channel(READ_PAGE);
        tokio::spawn(async move {
            let mut next = request.from_seq.max(1);
            while remaining > 0 {
                let (reader, which) = (Arc::clone(&log), stream.clone());
                let limit = READ_PAGE.min(remaining);
                let page = tokio::task::spawn_blocking(move || match &which {
                    Some(stream) => reader.read_stream(stream, next, limit),
                    None => reader.read_all(next, limit),
                })
                .await
                .unwrap_or_else(|_| Err(ledger_store::StoreError::Io("a read panicked".into())));
                let page = match page {
                    Ok(page) if page.is_empty() => break,
                    Ok(page) => page,
                    Err(error) => {
                        tracing::error!(%error, "read failed");
                        let _ = tx.send(Err(from_store(error))).await;
                        break;
                    }
                };
                remaining -= page.len();
                for record in page {
                    next = if stream.is_some() { record.envelope.seq } else { record.envelope.position } + 1;
                    if tx.send(Ok(record_into_proto(record))).await.is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    type SubscribeStream = EventStream;

    async fn subscribe(
        &self,
        request: Request<pb::SubscribeRequest>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        let request = request.into_inner();
        let filter = if request.stream.is_empty() {
            Filter::All
        } else {
            Filter::Stream(StreamId::parse(&request.stream).map_err(from_rejection)?)
        };
        let mut source = self.log.subscribe(filter, request.from);
        let mut stopping = self.stopping.clone();
        let (tx, rx) = mpsc::channel(READ_PAGE);
        tokio::spawn(async move {
            loop {
                let item = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => break,
                    item = source.recv() => item,
                };
                let Some(item) = item else { break };
                let message = item.map(|record| record.to_proto()).map_err(from_store);
                if tx.send(message).await.is_err() {
                    break;
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn list_streams(
        &self,
        request: Request<pb::ListStreamsRequest>,
    ) -> Result<Response<pb::ListStreamsResponse>, Status> {
        let prefix = request.into_inner().prefix;
        if prefix.len() > MAX_NAME_BYTES {
            return Err(Status::invalid_argument(format!(
                "prefix `{}` is {} bytes long; a stream name is at most {MAX_NAME_BYTES} bytes",
                quote(&prefix),
                prefix.len()
            )));
        }
        let streams = self.log.streams().map_err(from_store)?;
        let last_position = self.log.last_position().map_err(from_store)?;
        Ok(Response::new(pb::ListStreamsResponse {
            streams: streams
                .iter()
                .filter(|s| s.stream.to_string().starts_with(&prefix))
                .map(stream_info_to_proto)
                .collect(),
            last_position,
        }))
    }
}
