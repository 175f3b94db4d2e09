//! Sealing alone: the chain hash of every event the writer appends (canonical JSON, hash input,
//! SHA-256). `cargo bench -p ledger --bench seal`; under `valgrind --tool=callgrind` its
//! instruction count per event does not depend on the machine's load.

use ledger::envelope::{Draft, GENESIS};
use ledger::testing::simulate_game;
use ledger::{Event, Recorded, Ruleset, StreamId};
use std::time::Instant;

fn main() {
    let n: usize = std::env::var("SEAL_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    // A played game's events, then the jury's calls the side-by-side benchmark appends.
    let mut events: Vec<Event> = simulate_game(Ruleset::Cafe2023, &(0..400).map(|i| i * 7_919).collect::<Vec<u32>>());
    let reason = "Table 17 asks whether a Prussian army may retreat through a fortress held by Hanover after \
                  the Russian drop-out; the players disagree on the reading of 9.4 in the CAFE'23 rules.";
    events.extend((0..100).map(|_| Event::JuryCalled { reason: reason.to_owned() }));
    let stream = StreamId::game("bench").expect("a valid id");
    let started = Instant::now();
    let mut prev = GENESIS;
    for i in 0..n {
        let draft = Draft {
            stream: stream.clone(),
            seq: i as u64 + 1,
            position: i as u64 + 1,
            event_id: format!("bench-{i}"),
            recorded_at_ms: 1_788_220_800_000 + i as u64,
            actor: "table-17".into(),
        };
        prev = Recorded::seal(draft, prev, events[i % events.len()].clone()).envelope.hash;
    }
    let took = started.elapsed();
    println!(
        "sealed {n} events in {took:?}: {:.0} ns an event ({} distinct events), last hash {}",
        took.as_nanos() as f64 / n as f64,
        events.len(),
        hex::encode(&prev[..6])
    );
}
