//! The Ledger gRPC service: append (unary and pipelined), read, subscribe, list streams.

use crate::limits::{Limits, ServerStats};
use ledger::rejection::quote;
use ledger::stream::MAX_NAME_BYTES;
use ledger::StreamId;
use ledger_house::auth::{Access, Auth};
use ledger_house::error::{refusal_of, Error};
use ledger_house::shares::{claim_of, Carrier, Shares};
use ledger_proto::convert::{append_from_proto, appended_to_proto, record_into_proto, stream_info_to_proto, ToProto};
use ledger_proto::v1 as pb;
use ledger_store::{Filter, Log, Pending, StoreError};
use prost::bytes::{Bytes, BytesMut};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch, OwnedSemaphorePermit, Semaphore};
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
/// Pages of one read being read at once, on blocking threads, while earlier ones are sent.
const READS_AHEAD: usize = 2;

/// The most encoded bytes one `ReadPages` message carries: well under the 4 MiB a gRPC client
/// decodes by default, and enough to amortise a message's cost over hundreds of events.
const MAX_PAGE_BYTES: usize = 1024 * 1024;

type EventStream = Pin<Box<dyn Stream<Item = Result<pb::RecordedEvent, Status>> + Send>>;
type PageStream = Pin<Box<dyn Stream<Item = Result<pb::RecordedEventPage, Status>> + Send>>;
type AppendAnswers = Pin<Box<dyn Stream<Item = Result<pb::AppendStreamResponse, Status>> + Send>>;

/// The service over one open log.
#[derive(Clone)]
pub struct LedgerService {
    log: Arc<Log>,
    auth: Arc<Auth>,
    /// Turns true when the daemon shuts down: live subscriptions end then.
    stopping: watch::Receiver<bool>,
    /// The live subscriptions' slots, shared out by class and client (issue 42).
    subscribers: Shares,
    limits: Limits,
    stats: Arc<ServerStats>,
}

impl LedgerService {
    pub fn new(
        log: Arc<Log>,
        auth: Arc<Auth>,
        stopping: watch::Receiver<bool>,
        limits: Limits,
        stats: Arc<ServerStats>,
    ) -> Self {
        let subscribers = Shares::split(limits.max_subscribers);
        LedgerService { log, auth, stopping, subscribers, limits, stats }
    }
}

/// Where a read's records go: one message per event (`Read`), or one per page (`ReadPages`),
/// the page holding messages or the stored encoding.
enum Delivery {
    Events(mpsc::Sender<Result<pb::RecordedEvent, Status>>),
    Pages(mpsc::Sender<Result<pb::RecordedEventPage, Status>>),
    Stored(mpsc::Sender<Result<pb::RecordedEventPage, Status>>),
}

/// A read of the backend, made ready for the wire on the blocking thread that read it.
enum Ready {
    Events(Vec<pb::RecordedEvent>),
    /// Pages of encoded events (see [`encode_pages`] and [`encode_stored_pages`]).
    Pages(Vec<Bytes>),
}

/// One page read: how many records, the seq (or position) of the last, and the wire form.
type Read = (usize, Option<u64>, Ready);

impl Delivery {
    /// Reads one page of `stream` (the whole log when `None`) and makes it ready for the wire:
    /// on a blocking thread, off the async workers. Stored pages are copied, never decoded.
    fn read(&self, log: &Log, stream: Option<&StreamId>, from: u64, limit: usize) -> Result<Read, StoreError> {
        let messages = match self {
            Delivery::Stored(_) => {
                let page = match stream {
                    Some(stream) => log.read_stream_stored(stream, from, limit),
                    None => log.read_all_stored(from, limit),
                }?;
                return Ok((page.count, page.last, Ready::Pages(encode_stored_pages(&page.run)?)));
            }
            Delivery::Events(_) => false,
            Delivery::Pages(_) => true,
        };
        let records = match stream {
            Some(stream) => log.read_stream(stream, from, limit),
            None => log.read_all(from, limit),
        }?;
        // A stream's pages go by seq, the whole log's by position.
        let last = records.last().map(|r| if stream.is_some() { r.envelope.seq } else { r.envelope.position });
        let count = records.len();
        let protos = records.into_iter().map(record_into_proto);
        let ready = if messages { Ready::Pages(encode_pages(protos)) } else { Ready::Events(protos.collect()) };
        Ok((count, last, ready))
    }

    /// Sends what [`Delivery::read`] made; false once the client has gone.
    async fn send(&self, ready: Ready) -> bool {
        match (self, ready) {
            (Delivery::Events(tx), Ready::Events(events)) => {
                for event in events {
                    if tx.send(Ok(event)).await.is_err() {
                        return false;
                    }
                }
            }
            (Delivery::Pages(tx) | Delivery::Stored(tx), Ready::Pages(pages)) => {
                for page in pages {
                    if tx.send(Ok(pb::RecordedEventPage::from_encoded(page))).await.is_err() {
                        return false;
                    }
                }
            }
            _ => unreachable!("prepared by the same delivery"),
        }
        true
    }

    /// Ends the read with `status`; a client that has gone is not told.
    async fn fail(&self, status: Status) {
        let told = match self {
            Delivery::Events(tx) => tx.send(Err(status)).await.is_ok(),
            Delivery::Pages(tx) | Delivery::Stored(tx) => tx.send(Err(status)).await.is_ok(),
        };
        if !told {
            tracing::debug!("the reader had gone before its read failed");
        }
    }
}

impl LedgerService {
    /// Checks a read and starts it: each page is one blocking read of the backend, off the
    /// async workers, converted (and encoded) there once and handed to `delivery` (a message
    /// per event, or per page of at most [`MAX_PAGE_BYTES`]).
    fn start_read(&self, request: Request<pb::ReadRequest>, delivery: Delivery) -> Result<(), Status> {
        let (metadata, request) = (request.metadata().clone(), request.into_inner());
        // An empty stream reads the whole log in global position order (exports, imports).
        let stream = match request.stream.as_str() {
            "" => None,
            name => Some(StreamId::parse(name).map_err(Error::from)?),
        };
        self.auth.authorize(&metadata, read_access(stream.as_ref()))?;
        super::cursor("from_seq", request.from_seq)?;
        let mut remaining = request.limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
        let log = Arc::clone(&self.log);
        let delivery = Arc::new(delivery);
        tokio::spawn(async move {
            // Pages are read ahead, READS_AHEAD at once on blocking threads: a page starts
            // where the one before it should end (seqs and positions are consecutive), and a
            // guess that turns out wrong (a short page, a gap) is dropped and read again.
            let mut reads = std::collections::VecDeque::new();
            let (mut next, mut unplanned) = (request.from_seq.max(1), remaining);
            loop {
                while reads.len() < READS_AHEAD && unplanned > 0 {
                    let limit = READ_PAGE.min(unplanned);
                    let (reader, which, reading) = (Arc::clone(&log), stream.clone(), Arc::clone(&delivery));
                    let from = next;
                    let read = tokio::task::spawn_blocking(move || reading.read(&reader, which.as_ref(), from, limit));
                    reads.push_back((from, limit, read));
                    next = next.saturating_add(limit as u64);
                    unplanned -= limit;
                }
                let Some((from, limit, read)) = reads.pop_front() else { break };
                let page = read.await.unwrap_or_else(|_| Err(ledger_store::StoreError::Io("a read panicked".into())));
                let (count, last, ready) = match page {
                    Ok((0, _, _)) => break,
                    Ok(page) => page,
                    Err(error) => {
                        // The intact events before a damaged one are delivered, then its error.
                        if let Some(intact) = intact_before(&error, stream.is_some(), from) {
                            let (reader, which, reading) = (Arc::clone(&log), stream.clone(), Arc::clone(&delivery));
                            let read = tokio::task::spawn_blocking(move || {
                                reading.read(&reader, which.as_ref(), from, intact)
                            });
                            if let Ok(Ok((_, _, ready))) = read.await {
                                if !delivery.send(ready).await {
                                    return;
                                }
                            }
                        }
                        delivery.fail(Error::from(error).into()).await;
                        break;
                    }
                };
                remaining -= count;
                let after = last.map_or(next, |last| last + 1);
                if count < limit || reads.front().is_some_and(|(from, _, _)| *from != after) {
                    // Read on from where this page really ended (what was read ahead is dropped).
                    reads.clear();
                    (next, unplanned) = (after, remaining);
                }
                if !delivery.send(ready).await {
                    return;
                }
            }
        });
        Ok(())
    }
}

/// How many events a page read from `from` holds before the damaged one that failed it (`None`
/// when the failure is no damage, or the damaged event is the first): a stream's reads count by
/// seq, the whole log's by position.
fn intact_before(error: &StoreError, by_seq: bool, from: u64) -> Option<usize> {
    let StoreError::Damaged(damage) = error else { return None };
    let at = if by_seq { damage.event.as_ref()?.1 } else { damage.position };
    usize::try_from(at.checked_sub(from)?).ok().filter(|&n| n > 0)
}

/// Cuts a run of stored records into pages of at most [`MAX_PAGE_BYTES`] (a record larger
/// than that goes alone), each the body of one `RecordedEventPage` with the run in field 2.
fn encode_stored_pages(run: &[u8]) -> Result<Vec<Bytes>, StoreError> {
    let mut pages = Vec::new();
    let (mut start, mut end) = (0, 0);
    let mut cut = |start: usize, end: usize| {
        let mut page = BytesMut::with_capacity(pb::RecordedEventPage::encoded_stored_len(end - start));
        pb::RecordedEventPage::encode_stored(&run[start..end], &mut page);
        pages.push(page.freeze());
    };
    for span in ledger::envelope::stored_spans(run) {
        // Each record's length prefix (4 bytes) goes with it.
        let (_, record_end) = span.map_err(StoreError::Corrupt)?;
        if end > start && pb::RecordedEventPage::encoded_stored_len(record_end - start) > MAX_PAGE_BYTES {
            cut(start, end);
            start = end;
        }
        end = record_end;
    }
    if end > start {
        cut(start, end);
    }
    Ok(pages)
}

/// Encodes records into pages of at most [`MAX_PAGE_BYTES`] (one record alone may be larger:
/// it still goes, alone), each the body of one `RecordedEventPage`: every record's length is
/// computed once, and each page's buffer is allocated once, at its size.
fn encode_pages(records: impl Iterator<Item = pb::RecordedEvent>) -> Vec<Bytes> {
    use prost::Message;
    let records: Vec<(usize, pb::RecordedEvent)> = records.map(|r| (r.encoded_len(), r)).collect();
    let mut pages = Vec::new();
    let mut rest = records.as_slice();
    while !rest.is_empty() {
        let mut bytes = 0;
        let taken = rest
            .iter()
            .take_while(|(len, _)| {
                let entry = pb::RecordedEventPage::encoded_event_len(*len);
                let fits = bytes == 0 || bytes + entry <= MAX_PAGE_BYTES;
                if fits {
                    bytes += entry;
                }
                fits
            })
            .count();
        let mut page = BytesMut::with_capacity(bytes);
        for (len, record) in &rest[..taken] {
            pb::RecordedEventPage::encode_event(record, *len, &mut page);
        }
        pages.push(page.freeze());
        rest = &rest[taken..];
    }
    pages
}

/// Events buffered per subscriber between the log and its connection.
const SUBSCRIBER_BUFFER: usize = 64;

/// A subscription's events, ended by the cut-off status as soon as it is given (events still
/// buffered here are dropped; the subscriber resumes after the last event it received).
struct CutOff {
    events: ReceiverStream<Result<pb::RecordedEvent, Status>>,
    cut_off: Option<oneshot::Receiver<Status>>,
}

impl Stream for CutOff {
    type Item = Result<pb::RecordedEvent, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if let Some(cut_off) = self.cut_off.as_mut() {
            match Pin::new(cut_off).poll(cx) {
                Poll::Ready(Ok(status)) => {
                    self.cut_off = None;
                    self.events.close();
                    return Poll::Ready(Some(Err(status)));
                }
                Poll::Ready(Err(_)) => self.cut_off = None,
                Poll::Pending => {}
            }
        }
        Pin::new(&mut self.events).poll_next(cx)
    }
}

/// The connection a request came on, as the port's gate lends it (plain or after TLS); none
/// for a server embedded on connections of its own.
fn carrier_of(extensions: &tonic::Extensions) -> Option<Carrier> {
    let plain = extensions.get::<Carrier>();
    let secured = || extensions.get::<tonic::transport::server::TlsConnectInfo<Carrier>>().map(|tls| tls.get_ref());
    plain.or_else(secured).cloned()
}

/// Reading one stream needs the right to its kind; reading the whole log, more.
fn read_access(stream: Option<&StreamId>) -> Access {
    stream.map_or(Access::ReadLog, |s| Access::ReadStream(s.kind()))
}

fn error_answer(status: &Status) -> pb::AppendStreamResponse {
    let (event, refusal) = refusal_of(status);
    pb::AppendStreamResponse {
        result: Some(pb::append_stream_response::Result::Error(pb::AppendError {
            code: status.code() as i32,
            message: status.message().to_owned(),
            event,
            refusal,
        })),
    }
}

#[tonic::async_trait]
impl pb::ledger_server::Ledger for LedgerService {
    #[tracing::instrument(skip_all, fields(stream = %quote(&request.get_ref().stream), n_events = request.get_ref().events.len()))]
    async fn append(&self, request: Request<pb::AppendRequest>) -> Result<Response<pb::AppendResponse>, Status> {
        let recorder = self.auth.recorder(request.metadata())?;
        let bytes = prost::Message::encoded_len(request.get_ref());
        let append =
            append_from_proto(request.into_inner(), recorder.actor.clone(), recorder.clearance).map_err(Error::from)?;
        recorder.may_write(&append.stream, &*self.log)?;
        let n_events = append.events.len();
        recorder.take(n_events, bytes)?;
        let appended = self.log.append(append).await.map_err(|e| {
            tracing::debug!(error = %e, "append refused");
            // Nothing was recorded: nothing is spent (issue 42).
            recorder.give_back(n_events, bytes);
            Error::from(e)
        })?;
        Ok(Response::new(appended_to_proto(&appended)))
    }

    type AppendStreamStream = AppendAnswers;

    async fn append_stream(
        &self,
        request: Request<Streaming<pb::AppendRequest>>,
    ) -> Result<Response<Self::AppendStreamStream>, Status> {
        let recorder = self.auth.recorder(request.metadata())?;
        let mut inbound = request.into_inner();
        let log = Arc::clone(&self.log);
        // Submitting in arrival order keeps pipelined appends to one stream in order; the
        // answers are awaited in the same order.
        // With each append, what it took from the sender's allowance, given back if refused.
        type Submitted = (Result<Pending, Status>, Option<OwnedSemaphorePermit>, (usize, usize));
        let (pending_tx, mut pending_rx) = mpsc::channel::<Submitted>(IN_FLIGHT);
        let budget = Arc::new(Semaphore::new(IN_FLIGHT_EVENTS as usize));
        let mut stopping = self.stopping.clone();
        let giver = recorder.clone();
        tokio::spawn(async move {
            // A shutdown ends the inbound side: appends already submitted are still answered.
            loop {
                let message = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => break,
                    message = inbound.next() => message,
                };
                let Some(message) = message else { break };
                let mut permit = None;
                let mut taken = (0, 0);
                let submitted = match message.map(|proto| {
                    let bytes = prost::Message::encoded_len(&proto);
                    let append = append_from_proto(proto, recorder.actor.clone(), recorder.clearance)
                        .map_err(|r| Status::from(Error::from(r)))?;
                    recorder.may_write(&append.stream, &*log).map_err(Status::from)?;
                    recorder.take(append.events.len(), bytes).map_err(Status::from)?;
                    Ok((append, bytes))
                }) {
                    Err(status) | Ok(Err(status)) => Err(status),
                    Ok(Ok((append, bytes))) => {
                        taken = (append.events.len(), bytes);
                        let n_events = u32::try_from(append.events.len()).unwrap_or(u32::MAX).min(IN_FLIGHT_EVENTS);
                        permit = Arc::clone(&budget).acquire_many_owned(n_events).await.ok();
                        log.submit(append).map_err(|e| Status::from(Error::from(e)))
                    }
                };
                if submitted.is_err() {
                    recorder.give_back(taken.0, taken.1);
                    taken = (0, 0);
                }
                if pending_tx.send((submitted, permit, taken)).await.is_err() {
                    break;
                }
            }
        });
        let (answers_tx, answers_rx) = mpsc::channel(IN_FLIGHT);
        tokio::spawn(async move {
            while let Some((submitted, permit, (n_events, bytes))) = pending_rx.recv().await {
                let answer = match submitted {
                    Ok(pending) => match pending.await {
                        Ok(appended) => pb::AppendStreamResponse {
                            result: Some(pb::append_stream_response::Result::Ok(appended_to_proto(&appended))),
                        },
                        Err(error) => {
                            giver.give_back(n_events, bytes);
                            error_answer(&Error::from(error).into())
                        }
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
        let (tx, rx) = mpsc::channel(READ_PAGE);
        self.start_read(request, Delivery::Events(tx))?;
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    type ReadPagesStream = PageStream;

    async fn read_pages(&self, request: Request<pb::ReadRequest>) -> Result<Response<Self::ReadPagesStream>, Status> {
        let (tx, rx) = mpsc::channel(2);
        let delivery = match pb::PageEncoding::try_from(request.get_ref().encoding) {
            Ok(pb::PageEncoding::Messages) => Delivery::Pages(tx),
            Ok(pb::PageEncoding::StoredV1) => Delivery::Stored(tx),
            Err(_) => {
                return Err(Error::InvalidArgument(format!(
                    "unknown page encoding {}: this ledgerd sends PAGE_ENCODING_MESSAGES (0) or \
                     PAGE_ENCODING_STORED_V1 (1)",
                    request.get_ref().encoding
                ))
                .into())
            }
        };
        self.start_read(request, delivery)?;
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    type SubscribeStream = EventStream;

    async fn subscribe(
        &self,
        request: Request<pb::SubscribeRequest>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        let carrier = carrier_of(request.extensions());
        let (metadata, request) = (request.metadata().clone(), request.into_inner());
        let stream = match request.stream.as_str() {
            "" => None,
            name => Some(StreamId::parse(name).map_err(Error::from)?),
        };
        let who = self.auth.authorize(&metadata, read_access(stream.as_ref()))?;
        let filter = stream.map_or(Filter::All, Filter::Stream);
        super::cursor("from", request.from)?;
        let peer = carrier.as_ref().and_then(|c| c.peer);
        let (class, client) = claim_of(matches!(*self.auth, Auth::Open), &metadata, Some(&who), peer);
        let slot = match self.subscribers.take(class, &client, carrier.as_ref()) {
            Ok(slot) => slot,
            Err(refused) => {
                ServerStats::add(&self.stats.subscribers_refused, 1);
                tracing::warn!(%refused, "subscription refused: its share is taken");
                return Err(Error::ResourceExhausted(format!(
                    "no more subscriptions now: {refused} (--max-subscribers {}: {}); try again later",
                    self.limits.max_subscribers,
                    self.subscribers.describe()
                ))
                .into());
            }
        };
        let mut source = self.log.subscribe(filter, request.from);
        let mut stopping = self.stopping.clone();
        let (tx, rx) = mpsc::channel(SUBSCRIBER_BUFFER);
        let (cut_off, cut_off_rx) = oneshot::channel();
        let (stall, stats) = (self.limits.subscriber_stall, Arc::clone(&self.stats));
        ServerStats::add(&stats.subscribers_open, 1);
        tokio::spawn(async move {
            let _slot = slot;
            let mut delivered = 0u64;
            loop {
                // A subscriber that hangs up frees its slot at once, not at the next event.
                let item = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => break,
                    () = tx.closed() => break,
                    item = source.recv() => item,
                };
                let Some(item) = item else { break };
                // A subscriber that takes nothing for `stall` while events wait is cut off, so a
                // stopped scoreboard holds no slot and no buffers.
                let permit = tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => break,
                    permit = tokio::time::timeout(stall, tx.reserve()) => permit,
                };
                match permit {
                    Ok(Ok(permit)) => {
                        permit.send(item.map(|record| record.to_proto()).map_err(|e| Error::from(e).into()))
                    }
                    Ok(Err(_closed)) => break,
                    Err(_stalled) => {
                        ServerStats::add(&stats.subscribers_cut_off, 1);
                        tracing::warn!(delivered, "cutting off a subscriber that took no event for {stall:?}");
                        let cut = Error::ResourceExhausted(format!(
                            "subscription cut off: it took no event for {} s while events waited; \
                             subscribe again from the event after the last one received",
                            stall.as_secs_f64()
                        ));
                        if cut_off.send(cut.into()).is_err() {
                            tracing::debug!("the cut-off subscriber had already gone");
                        }
                        break;
                    }
                }
                delivered += 1;
            }
            ServerStats::sub(&stats.subscribers_open, 1);
        });
        Ok(Response::new(Box::pin(CutOff { events: ReceiverStream::new(rx), cut_off: Some(cut_off_rx) })))
    }

    async fn list_streams(
        &self,
        request: Request<pb::ListStreamsRequest>,
    ) -> Result<Response<pb::ListStreamsResponse>, Status> {
        self.auth.authorize(request.metadata(), Access::ListStreams)?;
        let prefix = request.into_inner().prefix;
        if prefix.len() > MAX_NAME_BYTES {
            return Err(Error::InvalidArgument(format!(
                "prefix `{}` is {} bytes long; a stream name is at most {MAX_NAME_BYTES} bytes",
                quote(&prefix),
                prefix.len()
            ))
            .into());
        }
        let streams = self.log.streams().map_err(Error::from)?;
        let last_position = self.log.last_position().map_err(Error::from)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id_bytes: usize) -> pb::RecordedEvent {
        pb::RecordedEvent {
            envelope: Some(pb::Envelope { event_id: "x".repeat(id_bytes), ..Default::default() }),
            event: None,
        }
    }

    #[test]
    fn pages_stay_under_the_byte_limit_and_keep_every_record_in_order() {
        use prost::Message;
        let decode = |pages: &[Bytes]| -> Vec<Vec<pb::RecordedEvent>> {
            pages.iter().map(|p| pb::RecordedEventPage::decode(p.clone()).unwrap().events).collect()
        };
        let records: Vec<pb::RecordedEvent> = (0..40).map(|i| record(60_000 + i)).collect();
        let pages = encode_pages(records.clone().into_iter());
        assert!(pages.len() > 1, "40 records of 60 kB need several pages");
        for page in &pages {
            assert!(page.len() <= MAX_PAGE_BYTES, "{} bytes in a page", page.len());
        }
        assert_eq!(decode(&pages).concat(), records);
        // Each page is the same bytes as the generated encoding of its events.
        for (page, events) in pages.iter().zip(decode(&pages)) {
            let as_messages = pb::RecordedEventPage { events, ..Default::default() }.encode_to_vec();
            assert_eq!(page.as_ref(), as_messages.as_slice());
        }
        // One record larger than a page still goes, alone.
        let pages = encode_pages([record(10), record(MAX_PAGE_BYTES + 1), record(10)].into_iter());
        assert_eq!(decode(&pages).iter().map(Vec::len).collect::<Vec<_>>(), [1, 1, 1]);
        assert!(encode_pages(std::iter::empty()).is_empty());
    }

    #[test]
    fn stored_pages_stay_under_the_byte_limit_and_keep_every_record_whole_and_in_order() {
        use prost::Message;
        let records: Vec<Vec<u8>> = (0..40).map(|i| vec![u8::try_from(i).unwrap(); 60_000 + i]).collect();
        let mut run = Vec::new();
        for record in &records {
            ledger::envelope::push_stored(&mut run, record);
        }
        let pages = encode_stored_pages(&run).unwrap();
        assert!(pages.len() > 1, "40 records of 60 kB need several pages");
        let mut back = Vec::new();
        for page in &pages {
            assert!(page.len() <= MAX_PAGE_BYTES, "{} bytes in a page", page.len());
            let page = pb::RecordedEventPage::decode(page.clone()).unwrap();
            assert!(page.events.is_empty());
            back.extend(ledger::envelope::stored_records(&page.stored).map(|r| r.unwrap().to_vec()));
        }
        assert_eq!(back, records);
        // One record larger than a page still goes, alone; a damaged run is an error, not a page.
        let mut run = Vec::new();
        for len in [10, MAX_PAGE_BYTES + 1, 10] {
            ledger::envelope::push_stored(&mut run, &vec![7; len]);
        }
        assert_eq!(encode_stored_pages(&run).unwrap().len(), 3);
        assert!(encode_stored_pages(&run[..run.len() - 1]).is_err());
        assert!(encode_stored_pages(&[]).unwrap().is_empty());
    }
}
