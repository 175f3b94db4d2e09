//! The gRPC server: the Ledger service with server reflection and grpc.health.v1, started on a
//! listener the caller binds (tests use `127.0.0.1:0`) and stopped by a shutdown future.
//!
//! Shutdown order: stop accepting and end live subscriptions, let in-flight requests finish,
//! then close the log so the sequencer commits what it holds.

mod connections;
pub mod descriptors;
pub mod grpc_tls;
mod http;
mod ledger_service;
mod projections_service;
mod proofs_service;
mod redirect;

pub use crate::limits::{HttpLimits, Limits, PortStats, ServerStats};
pub use crate::tls::TlsFiles;
pub use ledger_service::LedgerService;
pub use projections_service::ProjectionsService;
pub use proofs_service::ProofsService;

use crate::config::{Backend, Config};
use crate::nats::fanout::FanoutStatus;
use connections::{Gate, Port};
use ledger_proto::v1::ledger_server::LedgerServer;
use ledger_proto::v1::projections_server::ProjectionsServer;
use ledger_proto::v1::proofs_server::ProofsServer;
use ledger_store::jetstream::JetStreamStorage;
use ledger_store::{Log, StoreError};
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// Why the daemon could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot open the log: {0}")]
    Log(#[from] StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: std::net::SocketAddr, source: std::io::Error },
    #[error("the gRPC server failed: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[error(transparent)]
    Auth(#[from] ledger_house::auth::AuthFileError),
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsError),
    #[error(transparent)]
    LocalCa(#[from] crate::local_ca::LocalCaError),
    #[error("reflection setup failed: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("a write to the log failed, so the log stopped; restart ledgerd to reload what is on disk")]
    LogStopped,
    #[error("cannot listen for SIGHUP, which reloads the auth file: {0}")]
    Hangup(std::io::Error),
    #[error(
        "refusing to run open on {0}: without tokens anyone who reaches it may claim the jury's clearance; \
         make the first organiser's code (`ledgerd organiser`), give --auth-file, listen on a loopback address, \
         or pass --insecure-open"
    )]
    OpenOnNetwork(std::net::SocketAddr),
    #[error("--backend jetstream needs --nats-url")]
    NoNats,
    #[error("{0}")]
    SigningKey(String),
    #[error("cannot open the proof tree in {dir}: {source}")]
    Proofs { dir: std::path::PathBuf, source: std::io::Error },
    #[error("{0}")]
    Https(&'static str),
    #[error("cannot read or make the key of the players' links in {0}: {1}")]
    PlayerLinks(std::path::PathBuf, std::io::Error),
}

/// Opens the configured backend's log with the tournament's rules across streams.
async fn open_log(config: &Config) -> Result<Log, ServeError> {
    let cross_check = Arc::new(ledger_house::cross_check::TournamentChecks { limits: config.stream_limits });
    match &config.backend {
        Backend::Sled => Ok(Log::open_sled_with(&config.data_dir, cross_check)?),
        Backend::JetStream(js) => {
            let nats = config.nats.clone().ok_or(ServeError::NoNats)?;
            let js = js.clone();
            // Opening reads every stored event id: off the async workers.
            let opened = tokio::task::spawn_blocking(move || {
                let storage = JetStreamStorage::open(async move { nats.connect().await }, js)?;
                Log::open_jetstream(storage, cross_check)
            })
            .await
            .map_err(|e| StoreError::Io(format!("opening the JetStream log panicked: {e}")))?;
            Ok(opened?)
        }
    }
}

/// The signing key and the proof tree, when `--signing-key` is given (in `<data dir>/proofs`).
async fn open_proofs(config: &Config) -> Result<Option<Arc<crate::proofs::Proofs>>, ServeError> {
    let Some(path) = config.signing_key.clone() else {
        tracing::info!("no --signing-key: no checkpoints are signed and no proofs are served");
        return Ok(None);
    };
    let key = ledger_house::proofs::read_signing_key(&path).map_err(ServeError::SigningKey)?;
    let witnesses = config
        .witnesses
        .iter()
        .map(|w| ledger_proof::VerifierKey::parse(w).map_err(|e| ServeError::SigningKey(format!("--witness {w}: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = config.data_dir.join("proofs");
    tracing::info!(verifier = %key.verifier(), "signing checkpoints");
    let opened = tokio::task::spawn_blocking(move || crate::proofs::Proofs::open(&dir, key).map_err(|e| (dir, e)))
        .await
        .map_err(|e| ServeError::SigningKey(format!("opening the proof tree panicked: {e}")))?;
    let proofs = opened.map_err(|(dir, source)| ServeError::Proofs { dir, source })?;
    Ok(Some(Arc::new(proofs.with_witnesses(witnesses))))
}

/// Says on standard output where a listener is bound, one line each, `ledgerd listening: grpc
/// 127.0.0.1:50051` (the gRPC line last): with `--listen 127.0.0.1:0` the port is the kernel's
/// choice, and scripts and tests read it here instead of racing for a free port.
/// A seq or position a request starts from: past [`ledger_store::MAX_CURSOR`] no log holds
/// anything, and arithmetic on it could overflow, so it is refused at the edge.
///
/// # Errors
/// `OUT_OF_RANGE` naming the field.
pub(crate) fn cursor(field: &str, value: u64) -> Result<u64, ledger_house::error::Error> {
    if value > ledger_store::MAX_CURSOR {
        return Err(ledger_house::error::Error::OutOfRange(format!(
            "{field} {value} is past any seq or position a log can reach (at most {})",
            ledger_store::MAX_CURSOR
        )));
    }
    Ok(value)
}

fn announce(what: &str, addr: std::net::SocketAddr) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "ledgerd listening: {what} {addr}");
    let _ = out.flush();
}

/// Opens the log, binds the address and serves until `shutdown` completes.
///
/// # Errors
/// The log cannot be opened, the address cannot be bound, or the server fails.
pub async fn run(config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), ServeError> {
    // Tokens from the auth file and those ledgerd keeps in its data directory (the console's,
    // `ledgerd organiser`'s): with either, ledgerd runs with tokens.
    let kept = ledger_house::auth::KeptStore::in_dir(&config.data_dir);
    let auth = match ledger_house::auth::Auth::of_daemon(config.auth_file.as_deref(), kept)? {
        Some(auth) => auth.with_quotas(ledger_house::auth::Quotas::per_minute(
            config.table_quota.events_per_minute,
            config.table_quota.bytes_per_minute,
        )),
        None if !config.listen.ip().is_loopback() && !config.insecure_open => {
            return Err(ServeError::OpenOnNetwork(config.listen));
        }
        // The web pages let a browser choose the jury's clearance in open mode, too.
        None if config.http_listen.is_some_and(|a| !a.ip().is_loopback()) && !config.insecure_open => {
            return Err(ServeError::OpenOnNetwork(config.http_listen.unwrap_or(config.listen)));
        }
        None => {
            tracing::warn!(
                "no --auth-file and no kept tokens: running open, trusting the x-ledger-actor and x-ledger-clearance headers"
            );
            ledger_house::auth::Auth::Open
        }
    };
    check_https(&config)?;
    let log = Arc::new(open_log(&config).await?);
    let proofs = open_proofs(&config).await?;
    let listener =
        TcpListener::bind(config.listen).await.map_err(|source| ServeError::Bind { addr: config.listen, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: config.listen, source })?;
    match &config.backend {
        Backend::Sled => {
            tracing::info!(%addr, data_dir = %config.data_dir.display(), backend = log.backend(), "ledgerd listening")
        }
        Backend::JetStream(js) => {
            tracing::info!(%addr, stream = %js.stream, backend = log.backend(), "ledgerd listening")
        }
    }
    // One shutdown signal, seen by the gRPC server and the metrics server alike: the operator's,
    // or a failed write, after which the daemon reports NOT_SERVING and exits with an error so
    // that a supervisor (systemd's Restart=on-failure) restarts it and the log reloads from disk.
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut log_stopped = log.watch_stopped();
    let failed = tokio::spawn(async move {
        let failed = tokio::select! {
            () = shutdown => false,
            _ = log_stopped.wait_for(|stopped| *stopped) => true,
        };
        if failed {
            tracing::error!("a write to the log failed: shutting down so that a restart reloads the log");
        }
        let _ = stop_tx.send(true);
        failed
    });
    let stopped = |mut rx: watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    // The NATS fan-out runs beside the server; appends never wait for it. On the JetStream
    // backend the log itself is on JetStream: nothing to fan out.
    let fan_out = matches!(config.backend, Backend::Sled);
    let fanout = config.nats.clone().filter(|_| fan_out).map(|options| {
        let status = Arc::new(FanoutStatus::default());
        let task =
            tokio::spawn(crate::nats::fanout::run(Arc::clone(&log), options, Arc::clone(&status), stop_rx.clone()));
        (status, task)
    });
    let fanout_status = fanout.as_ref().map(|(status, _)| Arc::clone(status));
    // The tree keeper follows the log beside the server, off the append path (crate::proofs).
    let keeper = proofs.as_ref().map(|proofs| {
        let (proofs, log, stop) = (Arc::clone(proofs), Arc::clone(&log), stop_rx.clone());
        tokio::spawn(crate::proofs::keeper::run(proofs, log, config.checkpoint_interval, stop))
    });
    // The season's read models follow the log beside the server (crate::readmodels).
    let read_models = {
        let (dir, rebuild, opened) = (config.data_dir.clone(), config.rebuild_read_models, Arc::clone(&log));
        let kept = tokio::task::spawn_blocking(move || crate::readmodels::load(&dir, &opened, rebuild))
            .await
            .unwrap_or_else(|_| ledger_house::readmodels::Kept::new());
        Arc::new(ledger_house::readmodels::ReadModels::new(kept))
    };
    let models_keeper = tokio::spawn(crate::readmodels::run(
        Arc::clone(&read_models),
        Arc::clone(&log),
        config.data_dir.clone(),
        stop_rx.clone(),
    ));
    let checkpoints_out = proofs
        .as_ref()
        .zip(config.nats.clone())
        .map(|(proofs, options)| tokio::spawn(crate::proofs::publish::run(options, proofs.watch(), stop_rx.clone())));
    let stats = Arc::new(ServerStats::default());
    let metrics = match config.metrics_listen {
        Some(addr) => {
            let listener = TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })?;
            let local = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
            tracing::info!(addr = %local, "metrics at /metrics");
            announce("metrics", local);
            let (log, stop) = (Arc::clone(&log), stopped(stop_rx.clone()));
            let (fanout, stats) = (fanout_status.clone(), Arc::clone(&stats));
            Some(tokio::spawn(async move {
                if let Err(error) = crate::metrics::serve(log, fanout, stats, listener, stop).await {
                    tracing::error!(%error, "the metrics server failed");
                }
            }))
        }
        None => None,
    };
    let auth = Arc::new(auth);
    // A hall without internet: ledgerd's own root, made once, signs the pages' certificate.
    let hall_root = match (&config.local_ca, config.http_listen) {
        (Some(local_ca), Some(_)) => {
            let (local_ca, data_dir) = (local_ca.clone(), config.data_dir.clone());
            let prepared = tokio::task::spawn_blocking(move || {
                crate::local_ca::prepare(&local_ca, &data_dir, std::time::SystemTime::now())
            })
            .await
            .map_err(|e| {
                ServeError::Https(if e.is_panic() { "the local CA panicked" } else { "the local CA stopped" })
            })?;
            Some(prepared?)
        }
        _ => None,
    };
    // One certificate for both ports: the `--tls-cert` files, read again on SIGHUP with the
    // auth file, the one ACME keeps in the data directory (none until the first is issued), or
    // the one the hall's own root signed.
    let web_certificate = match (&config.tls, &config.acme) {
        (Some(files), _) => Some(crate::tls::WebCertificate::load(files)?),
        (None, Some(_)) => {
            Some(crate::tls::WebCertificate::load_or_await(&crate::acme::AcmeConfig::files(&config.data_dir)))
        }
        (None, None) if hall_root.is_some() => {
            Some(crate::tls::WebCertificate::load(&crate::local_ca::LocalCaConfig::files(&config.data_dir))?)
        }
        _ => None,
    };
    // The plain-HTTP port is bound before the pages are built: the trust sheet names its port.
    let redirect_listener = match (config.http_redirect_listen, config.http_listen) {
        (Some(addr), Some(_)) => {
            let listener = TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })?;
            let local = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
            Some((listener, local))
        }
        _ => None,
    };
    // gRPC speaks TLS with it too; ACME's or the hall root's certificate only where gRPC listens
    // beyond loopback: on loopback only this machine's own ledgerctl calls, and the certificate
    // names the venue's hosts, not 127.0.0.1, so plaintext stays (`--tls-cert` files always mean
    // TLS, as before).
    let client_ca = config.tls.as_ref().and_then(|files| files.client_ca.as_deref());
    let grpc_certificate =
        web_certificate.as_ref().filter(|_| config.tls.is_some() || !config.listen.ip().is_loopback());
    let tls = grpc_certificate.map(|certificate| grpc_tls::server_config(certificate, client_ca)).transpose()?;
    reload_on_hangup(Arc::clone(&auth), web_certificate.clone(), stop_rx.clone())?;
    let mut hall_trust = None;
    let mut web = match config.http_listen {
        Some(addr) => {
            // The pages speak HTTPS with the same certificate (no client certificates there).
            let listener = TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })?;
            let local = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
            let scheme = if web_certificate.is_some() { "https" } else { "http" };
            tracing::info!(addr = %local, "web pages at {scheme}://{local}/");
            announce("http", local);
            hall_trust = hall_root.as_ref().zip(config.local_ca.as_ref()).zip(redirect_listener.as_ref()).map(
                |((root, local_ca), (_, plain))| ledger_web::trust::HallTrust {
                    root_der: root.der.clone(),
                    root_name: root.name.clone(),
                    hosts: local_ca.hosts(),
                    plain_port: plain.port(),
                    https_port: local.port(),
                    limited_to: root.limited_to.clone(),
                },
            );
            // In a hall with its own root, the plain port serves the reading pages too, so that
            // a phone that installed nothing opens a player's card, the pairings and the board.
            let plain_reading = hall_trust.as_ref().map(|trust| trust.plain_port);
            let state = ledger_web::WebState::new(Arc::clone(&log), Arc::clone(&auth), stop_rx.clone())
                .over_https(web_certificate.is_some())
                .with_hall_trust(hall_trust.clone())
                .with_public_origin(config.public_origin.clone())
                .with_plain_reading(plain_reading)
                .with_proofs(proofs.clone().map(|p| p as Arc<dyn crate::proofs::LatestCheckpoint>))
                .with_read_models(Arc::clone(&read_models))
                .with_player_links(
                    ledger_house::player_links::PlayerLinks::load_or_create(&config.data_dir)
                        .map_err(|e| ServeError::PlayerLinks(config.data_dir.clone(), e))?,
                );
            let stop = stopped(stop_rx.clone());
            let limits = config.limits.http;
            let gate = Gate::new(Port::Http, limits.max_connections, limits.idle_timeout, Arc::clone(&stats));
            let incoming = connections::incoming(listener, gate);
            let tls = web_certificate.as_ref().map(crate::tls::WebCertificate::server_config);
            let reading = plain_reading.map(|_| ledger_web::reading_router(state.clone()));
            let web =
                tokio::spawn(http::serve(ledger_web::router(state), incoming, limits, tls, Arc::clone(&stats), stop));
            Some((web, local.port(), reading))
        }
        None => None,
    };
    let redirect = match (redirect_listener, &mut web) {
        (Some((listener, local)), Some((_, https_port, reading))) => {
            tracing::info!(addr = %local, "plain HTTP at http://{local}/ redirected to HTTPS");
            announce("http-redirect", local);
            let challenges = crate::acme::Challenges::default();
            let domains = match (&config.acme, &config.local_ca) {
                (Some(acme), _) => acme.domains.clone(),
                (None, Some(local_ca)) => local_ca.hosts(),
                (None, None) => Vec::new(),
            };
            let mut router = redirect::router(redirect::Redirect {
                https_port: *https_port,
                domains,
                challenges: challenges.clone(),
            });
            // A tablet downloads the hall's root here, before it can trust HTTPS.
            if let Some(trust) = hall_trust {
                router = router.merge(ledger_web::trust::plain_router(trust));
            }
            // And, in such a hall, a player's page, the pairings and the board (read-only,
            // public, no cookie read): what a phone opens from a printed link.
            if let Some(reading) = reading.take() {
                router = router.merge(reading);
            }
            // A redirect is one short answer: a few connections at a time are plenty, and the
            // descriptors counted for the pages' port are not spent twice.
            let limits =
                HttpLimits { max_connections: config.limits.http.max_connections.min(64), ..config.limits.http };
            let gate = Gate::new(Port::Http, limits.max_connections, limits.idle_timeout, Arc::clone(&stats));
            let incoming = connections::incoming(listener, gate);
            let stop = stopped(stop_rx.clone());
            let served = tokio::spawn(http::serve(router, incoming, limits, None, Arc::clone(&stats), stop));
            Some((served, challenges))
        }
        _ => None,
    };
    // ACME answers its challenges on the plain-HTTP port: started once that port is bound.
    let acme = match (&config.acme, &web_certificate, &redirect) {
        (Some(acme), Some(certificate), Some((_, challenges))) => Some(tokio::spawn(crate::acme::keep(
            acme.clone(),
            config.data_dir.clone(),
            Arc::clone(certificate),
            challenges.clone(),
            stop_rx.clone(),
        ))),
        _ => None,
    };
    // The hall's own root signs the pages' certificate again before it runs out.
    let local_ca = match (&config.local_ca, &web_certificate, &hall_root) {
        (Some(local_ca), Some(certificate), Some(_)) => Some(tokio::spawn(crate::local_ca::keep(
            local_ca.clone(),
            config.data_dir.clone(),
            Arc::clone(certificate),
            stop_rx.clone(),
        ))),
        _ => None,
    };
    let web = web.map(|(web, _, _)| web);
    let redirect = redirect.map(|(served, _)| served);
    let options = ServeOptions {
        fanout: fanout_status,
        limits: config.limits,
        tls,
        stats,
        proofs,
        read_models: Some(read_models),
    };
    // Last: once this line is out, every listener is bound.
    announce("grpc", addr);
    serve_with(Arc::clone(&log), auth, listener, stopped(stop_rx), options).await?;
    if let Some(metrics) = metrics {
        metrics.await.ok();
    }
    for task in web.into_iter().chain(redirect).chain(acme).chain(local_ca) {
        task.await.ok();
    }
    if let Some((_, task)) = fanout {
        task.await.ok();
    }
    for task in keeper.into_iter().chain(checkpoints_out).chain([models_keeper]) {
        task.await.ok();
    }
    tokio::task::spawn_blocking(move || log.close()).await.ok();
    if failed.await.unwrap_or(false) {
        return Err(ServeError::LogStopped);
    }
    tracing::info!("ledgerd stopped; the log is closed");
    Ok(())
}

/// The pages' HTTPS flags that only work together: ACME needs the pages' port and the
/// plain-HTTP port (its HTTP-01 challenges) and is the pages' only certificate; the local CA
/// needs both ports too (the tablets download its root over plain HTTP) and is the only
/// certificate as well; the redirect needs a certificate to redirect to.
fn check_https(config: &Config) -> Result<(), ServeError> {
    if config.local_ca.is_some() {
        if config.tls.is_some() || config.acme.is_some() {
            return Err(ServeError::Https("give one of --tls-cert, --acme-domain and --tls-local-ca"));
        }
        if config.http_listen.is_none() || config.http_redirect_listen.is_none() {
            return Err(ServeError::Https(
                "--tls-local-ca needs --http-listen (the HTTPS pages) and --http-redirect-listen (plain HTTP, where the tablets download the hall's root before they can trust HTTPS)",
            ));
        }
    }
    if config.acme.is_some() {
        if config.tls.is_some() {
            return Err(ServeError::Https("give either --tls-cert or --acme-domain, not both"));
        }
        if config.http_listen.is_none() || config.http_redirect_listen.is_none() {
            return Err(ServeError::Https(
                "--acme-domain needs --http-listen (the HTTPS pages) and --http-redirect-listen (port 80, where the authority checks the name)",
            ));
        }
    }
    if config.http_redirect_listen.is_some()
        && (config.http_listen.is_none()
            || (config.tls.is_none() && config.acme.is_none() && config.local_ca.is_none()))
    {
        return Err(ServeError::Https(
            "--http-redirect-listen needs --http-listen and a certificate (--tls-cert, --acme-domain or --tls-local-ca) to redirect to",
        ));
    }
    Ok(())
}

/// Reads the auth file and the kept tokens again on every SIGHUP, so that tokens added to the
/// file (`ledgerctl tournament tables`) or to the store by another process (`ledgerd organiser`)
/// are admitted without a restart; an unusable file keeps the tokens known before.
/// The handler is installed before ledgerd announces its gRPC listener (the line scripts wait
/// for): from then on a SIGHUP never kills it.
fn reload_on_hangup(
    auth: Arc<ledger_house::auth::Auth>,
    certificate: Option<Arc<crate::tls::WebCertificate>>,
    mut stop: watch::Receiver<bool>,
) -> Result<(), ServeError> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut hangup = signal(SignalKind::hangup()).map_err(ServeError::Hangup)?;
    tokio::spawn(async move {
        loop {
            tokio::select! {
                received = hangup.recv() => if received.is_none() { break },
                _ = stop.wait_for(|stop| *stop) => break,
            }
            if let Some(certificate) = &certificate {
                match certificate.reload() {
                    Ok(()) => tracing::info!("SIGHUP: the pages' certificate read again"),
                    Err(error) => tracing::error!(%error, "SIGHUP: the pages keep their certificate"),
                }
            }
            match &*auth {
                ledger_house::auth::Auth::Open => {
                    tracing::warn!("SIGHUP: ledgerd runs open, there are no tokens to reload")
                }
                tokens => match tokens.reload() {
                    Ok(tokens) => tracing::info!(tokens, "SIGHUP: the auth file and the kept tokens read again"),
                    Err(error) => {
                        tracing::error!(%error, "SIGHUP: the tokens were not read again; the tokens known before stay")
                    }
                },
            }
        }
    });
    Ok(())
}

/// The `grpc.health` service name of the NATS fan-out: SERVING while events reach JetStream,
/// NOT_SERVING while NATS is away (appends go on; the metrics say how far behind it is).
pub const FANOUT_HEALTH: &str = "tournament_ledger.v1.Fanout";

/// The `grpc.health` service name of the stored records: SERVING while every record read or
/// scrubbed matches its checksum, NOT_SERVING once one does not (reads and appends go on;
/// `ledger_records_damaged` counts them, and `ledgerctl repair` takes them back from a copy).
pub const RECORDS_HEALTH: &str = "tournament_ledger.v1.Records";

/// Keeps [`RECORDS_HEALTH`] up to date: damage is found by the scrub at start and by readers.
fn watch_damage(health: &tonic_health::server::HealthReporter, log: &Arc<Log>) {
    let (health, log) = (health.clone(), Arc::downgrade(log));
    tokio::spawn(async move {
        let mut reported = None;
        while let Some(log) = log.upgrade() {
            let damaged = log.damaged_records() > 0;
            drop(log);
            if reported != Some(damaged) {
                let status = if damaged {
                    tonic_health::ServingStatus::NotServing
                } else {
                    tonic_health::ServingStatus::Serving
                };
                health.set_service_status(RECORDS_HEALTH, status).await;
                reported = Some(damaged);
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    });
}

/// Serves the Ledger service, reflection and health on `listener` until `shutdown`.
///
/// # Errors
/// The server fails.
pub async fn serve(
    log: Arc<Log>,
    auth: Arc<ledger_house::auth::Auth>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    serve_with(log, auth, listener, shutdown, ServeOptions::default()).await
}

/// What [`serve_with`] needs beyond the log: limits, TLS, and the fan-out to report on.
#[derive(Default)]
pub struct ServeOptions {
    /// The NATS fan-out, reported under [`FANOUT_HEALTH`].
    pub fanout: Option<Arc<FanoutStatus>>,
    pub limits: Limits,
    /// gRPC over TLS ([`grpc_tls::server_config`]); `None`: plaintext.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Where the limits count what they did (shared with `/metrics`).
    pub stats: Arc<ServerStats>,
    /// The tree and checkpoints the Proofs service serves; `None`: it answers FAILED_PRECONDITION.
    pub proofs: Option<Arc<crate::proofs::Proofs>>,
    /// The season's read models the Projections service answers from; `None`: it replays.
    pub read_models: Option<Arc<ledger_house::readmodels::ReadModels>>,
}

/// [`serve`], with limits, TLS and the NATS fan-out's health.
///
/// # Errors
/// The server fails.
pub async fn serve_with(
    log: Arc<Log>,
    auth: Arc<ledger_house::auth::Auth>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    options: ServeOptions,
) -> Result<(), ServeError> {
    let ServeOptions { fanout, limits, tls, stats, proofs, read_models } = options;
    let (stopping_tx, stopping) = watch::channel(false);
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<LedgerServer<LedgerService>>().await;
    health.set_serving::<ProjectionsServer<ProjectionsService>>().await;
    health.set_serving::<ProofsServer<ProofsService>>().await;
    if let Some(fanout) = fanout {
        let (health, mut serving) = (health.clone(), fanout.watch());
        tokio::spawn(async move {
            loop {
                let status = if *serving.borrow_and_update() {
                    tonic_health::ServingStatus::Serving
                } else {
                    tonic_health::ServingStatus::NotServing
                };
                health.set_service_status(FANOUT_HEALTH, status).await;
                if serving.changed().await.is_err() {
                    break;
                }
            }
        });
    }
    watch_damage(&health, &log);
    // v1 and v1alpha: grpcurl speaks v1, while Python's grpcio reflection client, grpc_cli and
    // many other tools still speak only v1alpha.
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(ledger_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let (reflection_v1, reflection_v1alpha) = (reflection().build_v1()?, reflection().build_v1alpha()?);
    let projections = ProjectionsService::new(Arc::clone(&log), Arc::clone(&auth), read_models);
    let proofs = ProofsService::new(Arc::clone(&log), Arc::clone(&auth), proofs);
    let service = LedgerService::new(log, auth, stopping, limits, Arc::clone(&stats));
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: no new requests, ending subscriptions");
        health.set_not_serving::<LedgerServer<LedgerService>>().await;
        health.set_not_serving::<ProjectionsServer<ProjectionsService>>().await;
        health.set_not_serving::<ProofsServer<ProofsService>>().await;
        health.set_service_status("", tonic_health::ServingStatus::NotServing).await;
        let _ = stopping_tx.send(true);
    };
    let router = tonic::transport::Server::builder()
        .tcp_nodelay(true)
        .http2_keepalive_interval(Some(limits.keepalive_interval()))
        .http2_keepalive_timeout(Some(limits.keepalive_interval()))
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(LedgerServer::new(service))
        .add_service(ProjectionsServer::new(projections))
        .add_service(ProofsServer::new(proofs));
    let incoming =
        connections::incoming(listener, Gate::new(Port::Grpc, limits.max_connections, limits.idle_timeout, stats));
    match tls {
        None => router.serve_with_incoming_shutdown(incoming, signal).await?,
        Some(tls) => router.serve_with_incoming_shutdown(grpc_tls::secured(incoming, tls), signal).await?,
    }
    Ok(())
}
