//! The web pages' port: the pages' router served over HTTP/1 by hyper on the connections the
//! port's [`Gate`](super::connections::Gate) admits (its limit, eviction and idle timeout, as on
//! gRPC), with hyper's header-read timeout: a request's head must arrive within
//! `--http-header-timeout-secs`, so a slowloris that trickles its headers is closed. With a
//! certificate (`--tls-cert`) the port speaks HTTPS (issue 34): the TLS handshake too must end
//! within that time.

use super::connections::Connection;
use crate::limits::{HttpLimits, ServerStats};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::sync::Arc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// Serves `router` on the admitted `incoming` connections until `shutdown`, then lets the
/// requests in flight finish (live pages end with ledgerd's stop signal).
pub(super) async fn serve(
    router: axum::Router,
    mut incoming: ReceiverStream<io::Result<Connection>>,
    limits: HttpLimits,
    tls: Option<Arc<rustls::ServerConfig>>,
    stats: Arc<ServerStats>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    let mut http1 = hyper::server::conn::http1::Builder::new();
    http1.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout).keep_alive(true);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let connection = tokio::select! {
            () = &mut shutdown => break,
            next = incoming.next() => match next {
                Some(Ok(connection)) => connection,
                Some(Err(_)) => continue,
                None => break,
            },
        };
        // Every request learns its connection: the peer's address and the live streams it
        // carries (a live page's slot marks it, so the gate does not evict it: issue 42).
        let carrier = connection.carrier();
        let service = TowerToHyperService::new(tower::ServiceExt::map_request(
            router.clone(),
            move |mut request: axum::extract::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(carrier.clone());
                request
            },
        ));
        let (stats, http1, watcher) = (Arc::clone(&stats), http1.clone(), graceful.watcher());
        let tls = tls.clone();
        let handshake_timeout = limits.header_timeout;
        tokio::spawn(async move {
            let served = match tls {
                None => watcher.watch(http1.serve_connection(TokioIo::new(connection), service)).await,
                Some(acceptor) => match tokio::time::timeout(handshake_timeout, acceptor.accept(connection)).await {
                    Ok(Ok(secured)) => watcher.watch(http1.serve_connection(TokioIo::new(secured), service)).await,
                    Ok(Err(error)) => return tracing::debug!(%error, "a TLS handshake failed"),
                    Err(_) => {
                        ServerStats::add(&stats.http_header_timeouts, 1);
                        return tracing::debug!("a TLS handshake took too long");
                    }
                },
            };
            if let Err(error) = served {
                if error.is_timeout() {
                    ServerStats::add(&stats.http_header_timeouts, 1);
                }
                tracing::debug!(%error, "an HTTP connection ended");
            }
        });
    }
    drop(incoming);
    graceful.shutdown().await;
}
