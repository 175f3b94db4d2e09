//! Prometheus metrics at `GET /metrics` on their own address (`--metrics-listen`): what the
//! sequencer has done (appends acknowledged and refused, events and group commits, time in
//! durable writes) and where the log stands.

use crate::limits::ServerStats;
use crate::nats::fanout::FanoutStatus;
use ledger_store::Log;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;

/// The metrics as Prometheus text, read from the log (and the NATS fan-out) at this moment.
pub fn render(log: &Log, fanout: Option<&FanoutStatus>, server: &ServerStats) -> String {
    let stats = log.stats();
    let mut registry = Registry::with_prefix("ledger");
    let counter = |value: u64| ConstCounter::new(value);
    registry.register(
        "appends_acknowledged",
        "Appends answered OK, retries included",
        counter(stats.appends_acknowledged),
    );
    registry.register("appends_refused", "Appends refused by a rule", counter(stats.appends_refused));
    registry.register(
        "appends_raced",
        "Appends decided again because another ledgerd appended to their stream first (JetStream backend)",
        counter(stats.appends_raced),
    );
    registry.register("events_committed", "Events written durably", counter(stats.events_committed));
    registry.register(
        "records_read",
        "Records handed to readers (stream and log reads, records found by event id)",
        counter(stats.records_read),
    );
    registry.register(
        "group_commits",
        "Durable writes, each shared by a group of appends",
        counter(stats.groups_committed),
    );
    registry.register(
        "commit_failures",
        "Durable writes that failed (nothing acknowledged)",
        counter(stats.commit_failures),
    );
    #[allow(clippy::cast_precision_loss)] // seconds for a dashboard, not a score
    let seconds = stats.commit_nanos as f64 / 1e9;
    registry.register("commit_seconds", "Time spent in durable writes", ConstCounter::new(seconds));
    let position = log.last_position().ok().and_then(|p| i64::try_from(p).ok()).unwrap_or(-1);
    registry.register(
        "log_position",
        "Global position of the newest event (-1: unreadable)",
        ConstGauge::new(position),
    );
    let streams = log.streams().map(|s| i64::try_from(s.len()).unwrap_or(i64::MAX)).unwrap_or(-1);
    registry.register("streams", "Streams in the log (-1: unreadable)", ConstGauge::new(streams));
    registry.register(
        "records_damaged",
        "Stored records found failing their checksums (served as DATA_LOSS; `ledgerctl repair` takes them back)",
        ConstGauge::new(i64::try_from(log.damaged_records()).unwrap_or(i64::MAX)),
    );
    let gauge = |value: u64| ConstGauge::new(i64::try_from(value).unwrap_or(i64::MAX));
    let get = ServerStats::get;
    for (prefix, port, flag) in
        [("", &server.grpc, "--max-connections"), ("http_", &server.http, "--http-max-connections")]
    {
        let which = if prefix.is_empty() { "gRPC" } else { "Web pages'" };
        registry.register(
            format!("{prefix}connections_open"),
            format!("{which} client connections open now"),
            gauge(get(&port.open)),
        );
        registry.register(
            format!("{prefix}connections_accepted"),
            format!("{which} client connections admitted within {flag}"),
            counter(get(&port.accepted)),
        );
        registry.register(
            format!("{prefix}connections_evicted"),
            format!("{which} connections closed, longest-idle first, to admit a new one at {flag}"),
            counter(get(&port.evicted)),
        );
        registry.register(
            format!("{prefix}connections_shed"),
            format!("{which} new connections closed on arrival: at {flag}, and none closed in time to make room"),
            counter(get(&port.shed)),
        );
        registry.register(
            format!("{prefix}connections_idle_closed"),
            format!("{which} connections closed after nothing was sent or received for their idle timeout"),
            counter(get(&port.idle_closed)),
        );
    }
    registry.register(
        "http_header_timeouts",
        "Web pages' connections closed because a request's head did not arrive within --http-header-timeout-secs",
        counter(get(&server.http_header_timeouts)),
    );
    registry.register("subscribers_open", "Live subscriptions now", gauge(get(&server.subscribers_open)));
    registry.register(
        "subscribers_refused",
        "Subscriptions refused because the caller's share of --max-subscribers was taken",
        counter(get(&server.subscribers_refused)),
    );
    registry.register(
        "subscribers_cut_off",
        "Subscriptions ended because they took no event for --subscriber-stall",
        counter(get(&server.subscribers_cut_off)),
    );
    if let Some(fanout) = fanout {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let (waiting, seconds) = fanout.lag(log, now_ms);
        registry.register(
            "nats_connected",
            "1 while the NATS fan-out is connected to JetStream",
            ConstGauge::new(i64::from(fanout.is_connected())),
        );
        registry.register(
            "nats_published_position",
            "Global position of the last event JetStream acknowledged",
            ConstGauge::new(i64::try_from(fanout.published()).unwrap_or(i64::MAX)),
        );
        registry.register(
            "nats_outbox_events",
            "Committed events not yet acknowledged by JetStream",
            ConstGauge::new(i64::try_from(waiting).unwrap_or(i64::MAX)),
        );
        registry.register(
            "nats_outbox_seconds",
            "How long the oldest event not yet in JetStream has waited",
            ConstGauge::new(seconds),
        );
    }
    let mut text = String::new();
    encode(&mut text, &registry).expect("writing to a String cannot fail");
    text
}

/// Serves `/metrics` until `shutdown`.
///
/// # Errors
/// The HTTP server fails.
pub async fn serve(
    log: Arc<Log>,
    fanout: Option<Arc<FanoutStatus>>,
    server: Arc<ServerStats>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let (log, fanout, server) = (Arc::clone(&log), fanout.clone(), Arc::clone(&server));
            async move {
                let text = render(&log, fanout.as_deref(), &server);
                ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], text)
            }
        }),
    );
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await
}
