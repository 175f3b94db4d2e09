//! What many viewers of a tournament's live board cost the tables that record (issue 34).
//!
//! ```text
//! cargo run --release -p ledger-services --example board_viewers -- \
//!     --server http://127.0.0.1:50051 --http 127.0.0.1:8080 --pid $(pidof ledgerd) --viewers 200
//! ```
//!
//! Against a running, open ledgerd (`--http-listen`): creates a tournament of 64 players with
//! 16 games running (`bv<pid>`, each game started and in turn 1), opens `--viewers` live
//! streams of its public board (`/board/<t>/live`, as the page's script does, from the position
//! the page was rendered at), then one table appends `--events` events (55) one at a time,
//! `--interval-ms` (100) apart. Prints the appends' p50 and p99, ledgerd's CPU while they ran
//! (from /proc), how many board updates each viewer got, and how long after the last append was
//! acknowledged the last viewer had the board that shows it. Figures are in docs/BENCHMARKS.md.
//!
//! `--tls-ca <root.pem>` reaches a ledgerd started with `--tls-cert` (gRPC over TLS, its pages
//! over HTTPS) with `--server https://…`: the appends then pay TLS, which is what TLS's cost on
//! the append path is measured with; its viewers are not opened (`--viewers 0`).

use ledger::Event;
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::transport::{Certificate, Channel, ClientTlsConfig};

const TABLES: usize = 16;
const ROLES: [&str; 4] = ["frederick", "elisabeth", "maria_theresa", "pompadour"];

struct Args {
    server: String,
    http: String,
    pid: Option<u32>,
    viewers: usize,
    events: usize,
    interval: Duration,
    tls_ca: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        server: "http://127.0.0.1:50051".into(),
        http: "127.0.0.1:8080".into(),
        pid: None,
        viewers: 200,
        events: 55,
        interval: Duration::from_millis(100),
        tls_ca: None,
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let value = given.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => args.server = value,
            "--http" => args.http = value,
            "--pid" => args.pid = Some(value.parse().expect("--pid is a number")),
            "--viewers" => args.viewers = value.parse().expect("--viewers is a number"),
            "--events" => args.events = value.parse().expect("--events is a number"),
            "--interval-ms" => args.interval = Duration::from_millis(value.parse().expect("--interval-ms is a number")),
            "--tls-ca" => args.tls_ca = Some(value),
            other => panic!("unknown flag {other}"),
        }
    }
    args
}

/// ledgerd's CPU time so far (user and system), in clock ticks, from /proc.
fn cpu_ticks(pid: Option<u32>) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    // The fields after the command's closing parenthesis: utime is the 12th, stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Appends `events` to `stream` as `clearance`; the position of the last.
async fn append(
    client: &mut LedgerClient<Channel>,
    clearance: &str,
    stream: &str,
    events: &[serde_json::Value],
    id: &str,
) -> u64 {
    let events = events
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let event: Event = ledger::event::from_canonical_json(value).expect("a valid event");
            pb::ProposedEvent { event_id: format!("{stream}-{id}-{i}"), event: Some(event.to_proto()) }
        })
        .collect();
    let mut request = tonic::Request::new(pb::AppendRequest { stream: stream.into(), events, expected_version: None });
    request.metadata_mut().insert("x-ledger-clearance", clearance.parse().expect("ASCII"));
    let answer = client.append(request).await.unwrap_or_else(|status| panic!("{stream}: {status}"));
    answer.into_inner().last_position
}

/// A tournament of 64 players with 16 games running; its id.
async fn tournament(client: &mut LedgerClient<Channel>) -> String {
    let id = format!("bv{}", std::process::id());
    let stream = format!("tournament/{id}");
    let mut events =
        vec![serde_json::json!({"type": "tournament_created", "name": "Board viewers", "ruleset": "cafe2023"})];
    for n in 0..TABLES * ROLES.len() {
        events.push(serde_json::json!({
            "type": "player_registered", "player": format!("p{n}"), "name": format!("Player {n}"),
            "pseudonym": format!("Pseudonym{n}"),
        }));
    }
    for table in 0..TABLES {
        let seats: serde_json::Map<String, serde_json::Value> =
            ROLES.iter().enumerate().map(|(r, role)| ((*role).into(), format!("p{}", table * 4 + r).into())).collect();
        events.push(serde_json::json!({
            "type": "game_scheduled", "game": format!("{id}-q1-t{}", table + 1), "stage": "qualifying",
            "round": 1, "table": table + 1, "seats": seats,
        }));
    }
    append(client, "organiser", &stream, &events, "setup").await;
    for table in 0..TABLES {
        let game = format!("game/{id}-q1-t{}", table + 1);
        let start = [
            serde_json::json!({"type": "game_started", "at_ms": 0}),
            serde_json::json!({"type": "turn_started", "turn": 1, "at_ms": 600_000}),
        ];
        append(client, "table", &game, &start, "start").await;
    }
    id
}

/// What one viewer saw: each board update's arrival and its position.
type Seen = Vec<(Instant, u64)>;

/// Opens the board's page, then its live stream from where the page was rendered (as the
/// page's script does); reads the updates until `until` says stop.
async fn viewer(http: String, tournament: String, until: tokio::sync::watch::Receiver<bool>) -> Seen {
    let mut connection = TcpStream::connect(&http).await.expect("ledgerd's pages");
    let ask = format!(
        "GET /board/{tournament}/live?from={{FROM}} HTTP/1.1\r\nHost: {http}\r\nAccept-Language: en\r\nAccept: text/event-stream\r\n\r\n"
    );
    let from = page_position(&http, &tournament).await;
    connection.write_all(ask.replace("{FROM}", &from.to_string()).as_bytes()).await.expect("asked");
    let mut seen = Seen::new();
    let mut text = String::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut until = until;
    loop {
        let read = tokio::select! {
            _ = until.wait_for(|stop| *stop) => return seen,
            read = connection.read(&mut buffer) => read.expect("the stream reads"),
        };
        if read == 0 {
            return seen;
        }
        text.push_str(&String::from_utf8_lossy(&buffer[..read]));
        // Whole lines only: `event: board` then its `id: N`.
        while let Some(start) = text.find("event: board\n") {
            let rest = &text[start..];
            let Some(id_at) = rest.find("\nid: ") else { break };
            let Some(end) = rest[id_at + 5..].find('\n') else { break };
            let id = rest[id_at + 5..id_at + 5 + end].parse().expect("an id");
            seen.push((Instant::now(), id));
            text.drain(..start + id_at + 5 + end);
        }
        if text.len() > 1 << 20 {
            text.drain(..text.len() - 64);
        }
    }
}

/// The position the board's page says its live stream follows from.
async fn page_position(http: &str, tournament: &str) -> u64 {
    let page = page(http, tournament).await;
    let from = page.split_once("/live?from=").expect("the page follows the log").1;
    from[..from.find('"').expect("a quoted URL")].parse().expect("a position")
}

/// The board's page, as a browser gets it (headers included).
async fn page(http: &str, tournament: &str) -> String {
    let mut connection = TcpStream::connect(http).await.expect("ledgerd's pages");
    let ask = format!("GET /board/{tournament} HTTP/1.1\r\nHost: {http}\r\nConnection: close\r\n\r\n");
    connection.write_all(ask.as_bytes()).await.expect("asked");
    let mut page = Vec::new();
    connection.read_to_end(&mut page).await.expect("the page");
    String::from_utf8_lossy(&page).into_owned()
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let args = args();
    let mut endpoint = Channel::from_shared(args.server.clone()).expect("a URL");
    if let Some(ca) = &args.tls_ca {
        assert_eq!(args.viewers, 0, "--tls-ca measures the appends alone: --viewers 0");
        let root = Certificate::from_pem(std::fs::read(ca).expect("the --tls-ca file"));
        endpoint = endpoint.tls_config(ClientTlsConfig::new().ca_certificate(root)).expect("TLS");
    }
    let channel = endpoint.connect().await.expect("ledgerd");
    let mut client = LedgerClient::new(channel);
    let tournament = tournament(&mut client).await;
    if args.tls_ca.is_none() {
        println!("the board's page: {} bytes", page(&args.http, &tournament).await.len());
    }
    let (stop, until) = tokio::sync::watch::channel(false);
    let viewers: Vec<_> =
        (0..args.viewers).map(|_| tokio::spawn(viewer(args.http.clone(), tournament.clone(), until.clone()))).collect();
    // Every viewer connected and its first render done.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let game = format!("game/{tournament}-q1-t1");
    let cpu_before = (cpu_ticks(args.pid), Instant::now());
    let mut latencies = Vec::with_capacity(args.events);
    let mut last = (0, Instant::now());
    for n in 0..args.events {
        let call = [serde_json::json!({"type": "jury_called", "reason": format!("question {n}")})];
        let started = Instant::now();
        let position = append(&mut client, "table", &game, &call, &format!("call-{n}")).await;
        latencies.push(started.elapsed());
        last = (position, Instant::now());
        tokio::time::sleep(args.interval).await;
    }
    let cpu_after = (cpu_ticks(args.pid), Instant::now());
    // The last update within 2 s, or never.
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.send_replace(true);
    let mut updates = Vec::new();
    let mut lags = Vec::new();
    for viewer in viewers {
        let seen = viewer.await.expect("a viewer does not panic");
        updates.push(seen.len());
        lags.push(seen.iter().find(|(_, id)| *id >= last.0).map(|(at, _)| at.saturating_duration_since(last.1)));
    }
    latencies.sort();
    updates.sort_unstable();
    let cpu = match (cpu_before.0, cpu_after.0) {
        (Some(before), Some(after)) => {
            // Linux counts CPU time in ticks of 1/100 s.
            let busy = Duration::from_millis((after - before) * 10);
            format!("{:.0} %", busy.as_secs_f64() / (cpu_after.1 - cpu_before.1).as_secs_f64() * 100.0)
        }
        _ => "unknown (no --pid)".into(),
    };
    let stale = lags.iter().filter(|lag| lag.is_none()).count();
    let slowest = lags.iter().flatten().max();
    println!(
        "{} viewers, {} appends: p50 {:.1} ms, p99 {:.1} ms; ledgerd CPU {cpu}; updates a viewer got: min {}, median {}, max {}; \
         the last append on every board after at most {:?} ({stale} viewers never had it)",
        args.viewers,
        args.events,
        percentile(&latencies, 50).as_secs_f64() * 1000.0,
        percentile(&latencies, 99).as_secs_f64() * 1000.0,
        updates.first().copied().unwrap_or(0),
        updates.get(updates.len() / 2).copied().unwrap_or(0),
        updates.last().copied().unwrap_or(0),
        slowest,
    );
}
