//! Issue 42, item 4, established clients stay: for 40 s an HTTP/2 ping flood on the gRPC port
//! and a flood of slow TLS handshakes on the HTTPS pages' port, each from new connections that
//! keep both ports at their limit (16 here), so that every newcomer evicts someone. Before, the
//! one evicted was the quietest: a table's `Subscribe` waiting for the next turn (cut after
//! 1.3 s in the probe) and its live page. Now a connection carrying a live stream is never
//! evicted: the flooders evict each other, and the table's subscription and live page still
//! follow the game after the floods. Bounded loops, loopback only.

use crate::daemon::Daemon;
use crate::hostile::as_holder;
use crate::support::{append, events, tls_client_trusting};
use ledger_house::auth::file::entry;
use ledger_house::auth::Role;
use ledger_proto::v1 as pb;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;

const ORGANISER: &str = "organiser-secret";
const TABLE: &str = "table-1-secret";
const FLOOD: Duration = Duration::from_secs(40);
/// Connections each flood keeps open at once: more than either port admits.
const FLOODERS: usize = 24;

/// HTTP/2's client preface and an empty SETTINGS frame.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";
/// A PING frame: length 8, type 6, no flags, stream 0, eight bytes of data.
const PING: &[u8] = b"\x00\x00\x08\x06\x00\x00\x00\x00\x00flooding";
/// The first bytes of a TLS ClientHello record, sent one at a time.
const HELLO: &[u8] = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03slowly, so slowly, a handshake";

/// One ping flooder: pings every 2 ms until its connection is closed or the flood ends.
async fn ping_flooder(addr: String, until: Instant) {
    let Ok(stream) = tokio::net::TcpStream::connect(&addr).await else { return };
    let (mut read, mut write) = stream.into_split();
    let drain = tokio::spawn(async move {
        let mut sink = vec![0u8; 4096];
        while matches!(read.read(&mut sink).await, Ok(n) if n > 0) {}
    });
    if write.write_all(PREFACE).await.is_ok() {
        while Instant::now() < until && !drain.is_finished() {
            if write.write_all(PING).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    drain.abort();
}

/// One slow handshake: a byte of a ClientHello every 300 ms until closed or the flood ends.
async fn slow_tls_flooder(addr: String, until: Instant) {
    let Ok(mut stream) = tokio::net::TcpStream::connect(&addr).await else { return };
    for byte in HELLO.iter().cycle() {
        if Instant::now() >= until || stream.write_all(&[*byte]).await.is_err() {
            return;
        }
        let mut answer = [0u8; 64];
        tokio::select! {
            read = stream.read(&mut answer) => if !matches!(read, Ok(n) if n > 0) { return },
            () = tokio::time::sleep(Duration::from_millis(300)) => {}
        }
    }
}

/// Keeps `FLOODERS` of `flooder` running until `until`.
async fn flood<F, Fut>(addr: String, until: Instant, flooder: F)
where
    F: Fn(String, Instant) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let mut running = tokio::task::JoinSet::new();
    while Instant::now() < until {
        while running.len() < FLOODERS {
            running.spawn(flooder(addr.clone(), until));
        }
        let _ = tokio::time::timeout(Duration::from_millis(200), running.join_next()).await;
    }
    running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tables_subscribe_and_live_page_outlast_a_ping_flood_and_a_slow_tls_flood() {
    let dir = tempfile::tempdir().unwrap();
    let auth_file = dir.path().join("auth.json");
    let tokens = json!({"tokens": [entry(ORGANISER, "olga", Role::Organiser), entry(TABLE, "table-1", Role::Table)]});
    std::fs::write(&auth_file, tokens.to_string()).unwrap();
    let data = dir.path().join("data");
    #[rustfmt::skip]
    let flags = [
        "--auth-file", auth_file.to_str().unwrap(), "--metrics-listen", "127.0.0.1:0",
        "--http-listen", "127.0.0.1:0", "--http-redirect-listen", "127.0.0.1:0", "--tls-local-ca", "127.0.0.1",
        "--max-connections", "16", "--http-max-connections", "16",
    ];
    let daemon = Daemon::spawn_with(&data, &flags);
    let mut grpc = daemon.connect().await;
    let start = events(&[json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"})]);
    grpc.append(as_holder(append("game/g", &start, "start-", None), ORGANISER)).await.unwrap();

    // The table's subscription, on its own connection.
    let table_channel =
        tonic::transport::Channel::from_shared(format!("http://{}", daemon.addr())).unwrap().connect().await.unwrap();
    let mut table = ledger_proto::v1::ledger_client::LedgerClient::new(table_channel);
    let request = pb::SubscribeRequest { stream: "game/g".into(), from: 1 };
    let mut subscription = table.subscribe(as_holder(request, TABLE)).await.unwrap().into_inner();
    assert_eq!(subscription.next().await.unwrap().unwrap().envelope.unwrap().seq, 1);

    // The table's live page, over HTTPS with the hall's root.
    use rustls::pki_types::pem::PemObject;
    let root = rustls::pki_types::CertificateDer::from_pem_file(data.join("local-ca/root.pem")).unwrap();
    let https = daemon.announced("http").to_owned();
    let tcp = tokio::net::TcpStream::connect(&https).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let mut live = tls_client_trusting(root).connect(name, tcp).await.unwrap();
    let request = format!(
        "GET /table/g/live HTTP/1.1\r\nHost: {https}\r\nCookie: __Host-{}={}\r\nAccept: text/event-stream\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(TABLE)
    );
    live.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut chunk = [0u8; 1024];
        let n = tokio::time::timeout(Duration::from_secs(5), live.read(&mut chunk)).await.unwrap().unwrap();
        assert!(n > 0, "the live page closed: {}", String::from_utf8_lossy(&head));
        head.extend_from_slice(&chunk[..n]);
    }
    assert!(head.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&head));

    // The table's appends go on its own connection, as a tablet's would.
    let quiet = crate::hostile_shares::append_p50(&mut table, TABLE, "game/g", 21).await;
    // Both floods at once, for 40 s.
    let until = Instant::now() + FLOOD;
    let pings = tokio::spawn(flood(daemon.addr().to_owned(), until, ping_flooder));
    let handshakes = tokio::spawn(flood(https.clone(), until, slow_tls_flooder));
    tokio::time::sleep(Duration::from_secs(5)).await;
    let during = crate::hostile_shares::append_p50(&mut table, TABLE, "game/g", 21).await;
    pings.await.unwrap();
    handshakes.await.unwrap();
    assert!(daemon.metric("ledger_connections_evicted_total") > 0, "the ping flood filled the gRPC port");
    assert!(daemon.metric("ledger_http_connections_evicted_total") > 0, "the slow handshakes filled the pages' port");
    eprintln!("append p50 of a table (gRPC): {quiet:?} quiet, {during:?} during the ping and slow-TLS floods");

    // The next turn reaches the table's subscription and its live page.
    let turn = events(&[json!({"type": "turn_started", "turn": 1})]);
    table.append(as_holder(append("game/g", &turn, "turn-", None), TABLE)).await.unwrap();
    let next = tokio::time::timeout(Duration::from_secs(5), subscription.next()).await.expect("the turn within 5 s");
    let next = next.expect("the subscription is open").expect("not cut off");
    assert!(next.envelope.unwrap().seq > 1);
    let mut said = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !String::from_utf8_lossy(&said).contains("event: version") {
        let mut chunk = [0u8; 4096];
        let n =
            tokio::time::timeout_at(deadline, live.read(&mut chunk)).await.expect("the turn on the page within 5 s");
        let n = n.expect("the live page is open");
        assert!(n > 0, "the live page was closed");
        said.extend_from_slice(&chunk[..n]);
    }
}
