//! Accepting connections on one port within its [`Gate`]: at most `max` open at once, the
//! longest-idle one closed to admit a new client at the limit (evicted, counted, logged at most
//! every 10 s; one whose peer never sent a byte goes before any that has), and none held open for longer than the idle timeout by a peer with which no
//! byte goes either way. Accept errors such as running out of file descriptors are logged and
//! waited out instead of spinning. The gRPC and the web pages' ports both accept here.
//!
//! A connection carrying a live stream (a `Subscribe`, a live page: each holds a slot of its
//! caller's share, `ledger_house::shares`) is never evicted for a newcomer (issue 42): a flood
//! of new connections, pings or slow handshakes is always idler or newer than nothing, so it
//! evicted established streams before; now the newcomer is shed when only carriers are left.
//! The handlers learn their connection through its [`Carrier`] (tonic's connect info, the web
//! router's request extension).

use crate::limits::{PortStats, ServerStats};
use ledger_house::shares::Carrier;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};
use tokio_stream::wrappers::ReceiverStream;

/// At most one "evicting" warning per this long; the metrics count every one.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// How long a newcomer waits for the connection evicted for it to close; past it the newcomer
/// is shed instead.
const ROOM_WAIT: Duration = Duration::from_secs(1);

/// Which port a gate keeps: where its counters are and which flag sets its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Port {
    Grpc,
    Http,
}

impl Port {
    fn stats(self, stats: &ServerStats) -> &PortStats {
        match self {
            Port::Grpc => &stats.grpc,
            Port::Http => &stats.http,
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Port::Grpc => "--max-connections",
            Port::Http => "--http-max-connections",
        }
    }
}

/// One port's connections: their slots, and when each last sent or received a byte, so that
/// the longest-idle one can be closed for a newcomer.
pub(crate) struct Gate {
    port: Port,
    max: usize,
    idle_timeout: Duration,
    slots: Arc<Semaphore>,
    open: Mutex<HashMap<u64, Held>>,
    next_id: AtomicU64,
    /// Activity times are milliseconds since this.
    epoch: Instant,
    stats: Arc<ServerStats>,
}

/// What the gate keeps of an open connection: its activity and the way to close it.
struct Held {
    activity: Arc<Activity>,
    evict: oneshot::Sender<()>,
}

/// When a connection last sent or received a byte, whether its peer ever sent one, and how many
/// live streams it carries.
#[derive(Default)]
struct Activity {
    /// Milliseconds since the gate's epoch.
    last_ms: AtomicU64,
    heard: AtomicBool,
    streams: Arc<AtomicU32>,
}

impl Activity {
    /// The order of eviction: never heard from first, then idle longest.
    fn eviction_key(&self) -> (bool, u64) {
        (self.heard.load(Ordering::Relaxed), self.last_ms.load(Ordering::Relaxed))
    }

    /// Carries a live stream: not to be evicted.
    fn carries(&self) -> bool {
        self.streams.load(Ordering::Relaxed) > 0
    }
}

impl Gate {
    pub(crate) fn new(port: Port, max: usize, idle_timeout: Duration, stats: Arc<ServerStats>) -> Arc<Gate> {
        Arc::new(Gate {
            port,
            max,
            idle_timeout,
            slots: Arc::new(Semaphore::new(max)),
            open: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            epoch: Instant::now(),
            stats,
        })
    }

    fn stats(&self) -> &PortStats {
        self.port.stats(&self.stats)
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Held>> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Closes the connection idle longest, one whose peer never sent a byte before any other
    /// (the oldest on a tie), and never one carrying a live stream: `false` when none is left.
    fn evict_longest_idle(&self) -> bool {
        let mut open = self.held();
        let candidates = open.iter().filter(|(_, held)| !held.activity.carries());
        let longest = candidates.min_by_key(|(id, held)| (held.activity.eviction_key(), **id));
        let Some(id) = longest.map(|(id, _)| *id) else { return false };
        if let Some(held) = open.remove(&id) {
            let _ = held.evict.send(());
        }
        true
    }

    /// A slot for a newcomer: a free one, or the one the longest-idle connection frees.
    async fn admit(self: &Arc<Self>, warning: &mut Warning) -> Option<OwnedSemaphorePermit> {
        if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
            return Some(slot);
        }
        if self.evict_longest_idle() {
            ServerStats::add(&self.stats().evicted, 1);
            warning.evicted(self);
        }
        match tokio::time::timeout(ROOM_WAIT, Arc::clone(&self.slots).acquire_owned()).await {
            Ok(Ok(slot)) => Some(slot),
            _ => None,
        }
    }

    fn accepted(self: &Arc<Self>, stream: TcpStream, slot: OwnedSemaphorePermit) -> Connection {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity {
            last_ms: AtomicU64::new(self.now_ms()),
            heard: AtomicBool::new(false),
            streams: Arc::default(),
        });
        let (evict, evicted) = oneshot::channel();
        self.held().insert(id, Held { activity: Arc::clone(&activity), evict });
        ServerStats::add(&self.stats().accepted, 1);
        ServerStats::add(&self.stats().open, 1);
        let idle = Box::pin(tokio::time::sleep(self.idle_timeout));
        Connection {
            stream,
            _slot: slot,
            id,
            gate: Arc::clone(self),
            activity,
            heard: false,
            evicted,
            idle,
            ended: None,
        }
    }
}

/// The "connection limit reached" warning, at most once per [`WARN_EVERY`].
#[derive(Default)]
struct Warning {
    last: Option<Instant>,
    evicted_since: u64,
}

impl Warning {
    fn evicted(&mut self, gate: &Gate) {
        self.evicted_since += 1;
        if self.last.is_none_or(|at| at.elapsed() >= WARN_EVERY) {
            tracing::warn!(
                port = ?gate.port,
                max_connections = gate.max,
                evicted = self.evicted_since,
                "connection limit reached: closing the longest-idle connections to admit new ones ({})",
                gate.port.flag()
            );
            self.last = Some(Instant::now());
            self.evicted_since = 0;
        }
    }
}

/// The connections a server gets from `listener`: admitted by `gate`, each holding its slot.
pub(super) fn incoming(listener: TcpListener, gate: Arc<Gate>) -> ReceiverStream<io::Result<Connection>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        let mut warning = Warning::default();
        loop {
            let accepted = tokio::select! {
                () = tx.closed() => return,
                accepted = listener.accept() => accepted,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // EMFILE and friends: the listener stays readable, so retrying at once
                    // would spin a core. Wait for connections to close.
                    tracing::warn!(%error, port = ?gate.port, "cannot accept a connection; retrying in 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Some(slot) = gate.admit(&mut warning).await else {
                drop(stream);
                ServerStats::add(&gate.stats().shed, 1);
                continue;
            };
            let _ = stream.set_nodelay(true);
            if tx.send(Ok(gate.accepted(stream, slot))).await.is_err() {
                return;
            }
        }
    });
    ReceiverStream::new(rx)
}

/// An admitted connection: its slot is freed when it closes. It fails with `TimedOut` once no
/// byte went either way for a whole idle timeout, and with `ConnectionAborted` once its gate
/// evicted it. Every read or write that moves a byte stamps the time; the idle timer, when it
/// fires, compares with that stamp and sleeps again if the connection was active meanwhile.
pub struct Connection {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
    id: u64,
    gate: Arc<Gate>,
    activity: Arc<Activity>,
    /// `activity.heard`, known here without an atomic load.
    heard: bool,
    evicted: oneshot::Receiver<()>,
    idle: Pin<Box<Sleep>>,
    /// Why the connection ended, once it has: every later read or write fails the same way.
    ended: Option<io::ErrorKind>,
}

impl Connection {
    fn touch(&self) {
        self.activity.last_ms.store(self.gate.now_ms(), Ordering::Relaxed);
    }

    fn heard_from(&mut self) {
        self.touch();
        if !self.heard {
            self.heard = true;
            self.activity.heard.store(true, Ordering::Relaxed);
        }
    }

    /// An eviction, or an idle timeout that has run out: the error to end the connection with.
    fn poll_closed(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        if let Some(kind) = self.ended {
            return Some(io::Error::new(kind, "the connection was closed by its limits"));
        }
        let closed = self.poll_limits(cx);
        self.ended = closed.as_ref().map(io::Error::kind);
        closed
    }

    fn poll_limits(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        if Pin::new(&mut self.evicted).poll(cx).is_ready() {
            tracing::debug!(port = ?self.gate.port, "closing the longest-idle connection to admit a new one");
            return Some(io::Error::new(io::ErrorKind::ConnectionAborted, "evicted for a new connection"));
        }
        while self.idle.as_mut().poll(cx).is_ready() {
            let idle_since = self.gate.epoch + Duration::from_millis(self.activity.last_ms.load(Ordering::Relaxed));
            let deadline = idle_since + self.gate.idle_timeout;
            if deadline <= Instant::now() {
                ServerStats::add(&self.gate.stats().idle_closed, 1);
                tracing::debug!(port = ?self.gate.port, "closing a connection idle for {:?}", self.gate.idle_timeout);
                return Some(io::Error::new(io::ErrorKind::TimedOut, "nothing sent or received"));
            }
            self.idle.as_mut().reset(deadline);
        }
        None
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.gate.held().remove(&self.id);
        ServerStats::sub(&self.gate.stats().open, 1);
    }
}

impl AsyncRead for Connection {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        match read {
            Poll::Ready(Ok(())) if buf.filled().len() > before => self.heard_from(),
            Poll::Ready(_) => {}
            Poll::Pending => {
                if let Some(error) = self.poll_closed(cx) {
                    return Poll::Ready(Err(error));
                }
            }
        }
        read
    }
}

impl Connection {
    /// A write's outcome, with the activity stamped, or the connection closed while it waits.
    fn wrote(&mut self, cx: &mut Context<'_>, written: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match written {
            Poll::Ready(Ok(n)) if n > 0 => self.touch(),
            Poll::Ready(_) => {}
            Poll::Pending => {
                if let Some(error) = self.poll_closed(cx) {
                    return Poll::Ready(Err(error));
                }
            }
        }
        written
    }
}

impl AsyncWrite for Connection {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(cx, written)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl Connection {
    /// The peer's address and the count of live streams this connection carries, for the
    /// handlers of its requests.
    pub(crate) fn carrier(&self) -> Carrier {
        Carrier::new(self.stream.peer_addr().ok().map(|addr| addr.ip()), Arc::clone(&self.activity.streams))
    }
}

impl tonic::transport::server::Connected for Connection {
    type ConnectInfo = Carrier;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.carrier()
    }
}
