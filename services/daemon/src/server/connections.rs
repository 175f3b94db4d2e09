//! Accepting connections within [`Limits`]: at most `max_connections` open at once (the rest
//! are closed on arrival and counted), and none held open by a silent peer for longer than
//! `idle_timeout`. Accept errors such as running out of file descriptors are logged and
//! waited out instead of spinning.

use crate::limits::{Limits, ServerStats};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;
use tokio_stream::wrappers::ReceiverStream;

/// At most one "shedding" warning per this long; the metric counts every one.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// The connections the server gets: accepted within the limits, each holding its slot.
pub(super) fn incoming(
    listener: TcpListener,
    limits: Limits,
    stats: Arc<ServerStats>,
) -> ReceiverStream<io::Result<Connection>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        let slots = Arc::new(Semaphore::new(limits.max_connections));
        let mut last_warning: Option<Instant> = None;
        let mut shed_since_warning = 0u64;
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
                    tracing::warn!(%error, "cannot accept a connection; retrying in 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                drop(stream);
                ServerStats::add(&stats.connections_shed, 1);
                shed_since_warning += 1;
                if last_warning.is_none_or(|at| at.elapsed() >= WARN_EVERY) {
                    tracing::warn!(
                        max_connections = limits.max_connections,
                        shed = shed_since_warning,
                        "connection limit reached: closing new connections (--max-connections)"
                    );
                    last_warning = Some(Instant::now());
                    shed_since_warning = 0;
                }
                continue;
            };
            let _ = stream.set_nodelay(true);
            ServerStats::add(&stats.connections_accepted, 1);
            ServerStats::add(&stats.connections_open, 1);
            let connection = Connection::new(stream, slot, limits.idle_timeout, Arc::clone(&stats));
            if tx.send(Ok(connection)).await.is_err() {
                return;
            }
        }
    });
    ReceiverStream::new(rx)
}

/// An accepted connection: its slot is freed when it closes, and it fails with `TimedOut`
/// once its peer has sent nothing for a whole idle period. The timer is not touched on every
/// read (that would put a timer update on every request): a read only marks the period
/// active, and when the timer fires an active period starts a new one. So a silent peer is
/// closed after one to two idle timeouts.
pub struct Connection {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
    idle_timeout: Duration,
    idle: Pin<Box<Sleep>>,
    /// The peer sent something in the current period.
    active: bool,
    stats: Arc<ServerStats>,
}

impl Connection {
    fn new(stream: TcpStream, slot: OwnedSemaphorePermit, idle_timeout: Duration, stats: Arc<ServerStats>) -> Self {
        let idle = Box::pin(tokio::time::sleep(idle_timeout));
        Connection { stream, _slot: slot, idle_timeout, idle, active: false, stats }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        ServerStats::sub(&self.stats.connections_open, 1);
    }
}

impl AsyncRead for Connection {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        match read {
            Poll::Ready(Ok(())) if buf.filled().len() > before => self.active = true,
            Poll::Ready(_) => {}
            Poll::Pending => {
                while self.idle.as_mut().poll(cx).is_ready() {
                    if !std::mem::take(&mut self.active) {
                        ServerStats::add(&self.stats.connections_idle_closed, 1);
                        tracing::debug!("closing a connection that sent nothing for {:?}", self.idle_timeout);
                        return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the peer sent nothing")));
                    }
                    let deadline = tokio::time::Instant::now() + self.idle_timeout;
                    self.idle.as_mut().reset(deadline);
                }
            }
        }
        read
    }
}

impl AsyncWrite for Connection {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
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

impl tonic::transport::server::Connected for Connection {
    type ConnectInfo = tonic::transport::server::TcpConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.stream.connect_info()
    }
}
