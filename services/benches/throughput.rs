//! Measures the append path and the projections on this machine, in release:
//! `cargo bench -p ledger-services --bench throughput`. Prints one line per measurement.
//!
//! - unary appends, one client, one event each: every append waits for its own `fdatasync`;
//! - pipelined appends (`AppendStream`), many in flight: group commit shares one sync;
//! - score sheets folded from a long game, in events per second.

use ledger::testing::simulate_game;
use ledger::{Event, Ruleset};
use ledger_house::auth::Auth;
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_store::Log;
use std::sync::Arc;
use std::time::Instant;
use tokio_stream::StreamExt;

fn request(stream: &str, event: &Event, id: String) -> pb::AppendRequest {
    pb::AppendRequest {
        stream: stream.into(),
        events: vec![pb::ProposedEvent { event_id: id, event: Some(event.to_proto()) }],
        expected_version: None,
    }
}

/// A valid game long enough to append one event at a time.
fn long_game(seed: u32) -> Vec<Event> {
    // Choices that are multiples of 17 may end the game: leave them out so the game runs long.
    let choices: Vec<u32> = (0..4000u32)
        .map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed) % 1_000_003)
        .map(|c| if c.is_multiple_of(17) { c + 1 } else { c })
        .collect();
    simulate_game(Ruleset::Cafe2023, &choices)
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(Log::open_sled(dir.path()).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ledger_daemon::server::serve(Arc::clone(&log), Arc::new(Auth::Open), listener, async {
        stopped.await.ok();
    }));
    let mut client = LedgerClient::connect(format!("http://{addr}")).await.unwrap();

    // Unary, one at a time.
    let game = long_game(1);
    let n_unary = game.len().min(1000);
    let started = Instant::now();
    for (i, event) in game.iter().take(n_unary).enumerate() {
        client.append(request("game/unary", event, format!("u{i}"))).await.unwrap();
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "unary appends, 1 client:        {n_unary:>6} events in {secs:.2} s = {:>8.0} events/s",
        n_unary as f64 / secs
    );

    // Pipelined over AppendStream: 16 tables, each its own stream.
    let mut requests = Vec::new();
    let games: Vec<Vec<Event>> = (0..16).map(long_game).collect();
    let longest = games.iter().map(Vec::len).max().unwrap();
    for i in 0..longest {
        for (table, game) in games.iter().enumerate() {
            if let Some(event) = game.get(i) {
                requests.push(request(&format!("game/t{table}"), event, format!("t{table}-{i}")));
            }
        }
    }
    let n_pipelined = requests.len();
    let started = Instant::now();
    let answers: Vec<_> =
        client.append_stream(tokio_stream::iter(requests)).await.unwrap().into_inner().collect().await;
    let secs = started.elapsed().as_secs_f64();
    let refused = answers
        .iter()
        .filter(|a| matches!(a.as_ref().unwrap().result, Some(pb::append_stream_response::Result::Error(_))))
        .count();
    assert_eq!(refused, 0);
    println!(
        "pipelined appends, 16 streams:  {n_pipelined:>6} events in {secs:.2} s = {:>8.0} events/s",
        n_pipelined as f64 / secs
    );

    // Folding score sheets.
    let events = replay::sheet::with_seqs(long_game(7));
    let rounds = 2000;
    let started = Instant::now();
    let mut checksum = 0usize;
    for _ in 0..rounds {
        checksum += replay::score_game(Some(Ruleset::Cafe2023), &events).unwrap().explain.len();
    }
    let secs = started.elapsed().as_secs_f64();
    let folded = events.len() * rounds;
    println!(
        "score sheet fold:             {folded:>8} events in {secs:.2} s = {:>8.0} events/s ({checksum})",
        folded as f64 / secs
    );

    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}
