//! How many connections and subscribers a running ledgerd holds, and what they cost it.
//!
//! ```text
//! ulimit -n 65536
//! cargo run --release -p ledger-services --example hold -- \
//!     --server http://127.0.0.1:50051 --pid $(pidof ledgerd) --connections 4000 --subscribers 2000 --events 1000
//! ```
//!
//! Opens the connections (each a real HTTP/2 connection that answers keepalive pings), then the
//! subscriptions to one game, appends events to that game and checks that every subscriber got
//! every event in order, and whether a new client is served meanwhile. Prints ledgerd's
//! resident memory before and after. Figures are in docs/RELIABILITY.md.
//!
//! Since issue 42 subscriptions are shared out by class and client: against an open ledgerd
//! each 16 subscriptions here name a table device of their own (`x-ledger-actor hold-<n>`), and
//! the tables' share is three eighths of `--max-subscribers` (raise it to hold 2,000: 6,144).

use ledger::{Event, Ruleset};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::time::{Duration, Instant};
use tokio_stream::StreamExt;
use tonic::transport::Channel;

struct Args {
    server: String,
    pid: Option<u32>,
    connections: usize,
    subscribers: usize,
    events: u64,
}

fn args() -> Args {
    let mut args =
        Args { server: "http://127.0.0.1:50051".into(), pid: None, connections: 1000, subscribers: 1000, events: 1000 };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let value = given.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => args.server = value,
            "--pid" => args.pid = Some(value.parse().expect("--pid is a number")),
            "--connections" => args.connections = value.parse().expect("--connections is a number"),
            "--subscribers" => args.subscribers = value.parse().expect("--subscribers is a number"),
            "--events" => args.events = value.parse().expect("--events is a number"),
            other => panic!("unknown flag {other}"),
        }
    }
    args
}

/// ledgerd's resident memory in MiB, from /proc.
fn rss_mib(pid: Option<u32>) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kib: u64 = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

async fn channel(server: &str) -> Result<Channel, tonic::transport::Error> {
    Channel::from_shared(server.to_owned()).expect("a valid URL").connect().await
}

async fn append(
    client: &mut LedgerClient<Channel>,
    stream: &str,
    events: &[Event],
    id: &str,
) -> Result<(), tonic::Status> {
    let events = events
        .iter()
        .enumerate()
        .map(|(i, e)| pb::ProposedEvent { event_id: format!("{stream}-{id}-{i}"), event: Some(e.to_proto()) })
        .collect();
    client.append(pb::AppendRequest { stream: stream.into(), events, expected_version: None }).await.map(drop)
}

#[tokio::main]
async fn main() {
    let args = args();
    println!("ledgerd RSS at start: {:?} MiB", rss_mib(args.pid));
    let started = Instant::now();
    let mut held = Vec::with_capacity(args.connections);
    let mut refused = 0usize;
    for _ in 0..args.connections {
        match channel(&args.server).await {
            Ok(channel) => {
                // A connection counts once it has carried a request.
                let mut client = LedgerClient::new(channel);
                match client.list_streams(pb::ListStreamsRequest { prefix: "game/hold".into() }).await {
                    Ok(_) => held.push(client),
                    Err(_) => refused += 1,
                }
            }
            Err(_) => refused += 1,
        }
    }
    println!(
        "connections: {} held, {refused} refused, in {:.1} s; ledgerd RSS {:?} MiB",
        held.len(),
        started.elapsed().as_secs_f64(),
        rss_mib(args.pid)
    );
    let stream = format!("game/hold-{}", std::process::id());
    let mut subscriptions = Vec::with_capacity(args.subscribers);
    let mut sub_refused = 0usize;
    for i in 0..args.subscribers {
        // 100 subscriptions per connection: HTTP/2 multiplexes them.
        let n_held = held.len().max(1);
        let client = &mut held[(i / 100) % n_held];
        let mut request = tonic::Request::new(pb::SubscribeRequest { stream: stream.clone(), from: 1 });
        request.metadata_mut().insert("x-ledger-actor", format!("hold-{}", i / 16).parse().expect("ASCII"));
        request.metadata_mut().insert("x-ledger-clearance", tonic::metadata::MetadataValue::from_static("table"));
        match client.subscribe(request).await {
            Ok(events) => subscriptions.push(events.into_inner()),
            Err(status) => {
                sub_refused += 1;
                if sub_refused == 1 {
                    println!("first refused subscription: {:?}: {}", status.code(), status.message());
                }
            }
        }
    }
    println!(
        "subscriptions: {} live, {sub_refused} refused; ledgerd RSS {:?} MiB",
        subscriptions.len(),
        rss_mib(args.pid)
    );
    // A new client is served below the connection limit and at it (since 2026-11-27 the
    // longest-idle held connection is closed for it: "shed" means it was not); the held ones
    // are served either way (a closed one's channel connects again).
    let fresh = match channel(&args.server).await {
        Ok(channel) => LedgerClient::new(channel).list_streams(pb::ListStreamsRequest::default()).await.is_ok(),
        Err(_) => false,
    };
    println!("a new client while these are held: {}", if fresh { "served" } else { "shed" });
    let mut fresh = held[0].clone();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    append(&mut fresh, &stream, &[start], "start").await.expect("a held client is served");
    let readers: Vec<_> = subscriptions
        .into_iter()
        .map(|mut events| {
            let expected = args.events;
            tokio::spawn(async move {
                let mut seq = 0;
                while seq < expected {
                    match tokio::time::timeout(Duration::from_secs(60), events.next()).await {
                        Ok(Some(Ok(event))) => {
                            let got = event.envelope.map_or(0, |e| e.seq);
                            if got != seq + 1 {
                                return Err(format!("seq {got} after {seq}"));
                            }
                            seq = got;
                        }
                        other => return Err(format!("stopped after {seq}: {other:?}")),
                    }
                }
                Ok(())
            })
        })
        .collect();
    let calls: Vec<Event> =
        (0..args.events - 1).map(|i| Event::JuryCalled { reason: format!("question {i}") }).collect();
    let appended = Instant::now();
    for (n, chunk) in calls.chunks(100).enumerate() {
        append(&mut fresh, &stream, chunk, &format!("calls-{n}")).await.expect("appends are served");
    }
    let mut complete = 0usize;
    for reader in readers {
        match reader.await.expect("a reader does not panic") {
            Ok(()) => complete += 1,
            Err(why) if complete == 0 => println!("a subscriber failed: {why}"),
            Err(_) => {}
        }
    }
    println!(
        "{} events fanned out to {complete} subscribers, every one complete and in order: {}; {:.1} s; ledgerd RSS {:?} MiB",
        args.events,
        complete == args.subscribers - sub_refused,
        appended.elapsed().as_secs_f64(),
        rss_mib(args.pid)
    );
    drop(held);
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!("after closing everything: ledgerd RSS {:?} MiB", rss_mib(args.pid));
}
