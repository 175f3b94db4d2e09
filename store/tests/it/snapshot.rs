//! Snapshots of the folded state: they equal a replay of the stream, their encoding is pinned
//! (a change to the rules' state types must bump `SNAPSHOT_VERSION`), and with them the writer
//! never reads a stream's events to append to it, before or after a restart.

use crate::support::{hooked_log, single, Hooks};
use ledger::testing::{arb_game, simple_tournament};
use ledger::{Event, Folded, Ruleset, StreamId, StreamState};
use ledger_store::{snapshot, AppendRequest, Log};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn fold_of(stream: &StreamId, ruleset: Option<Ruleset>, events: &[Event]) -> Folded {
    let mut state = StreamState::new(stream, ruleset);
    for event in events {
        state.apply(event).unwrap();
    }
    state.folded().clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A snapshot taken anywhere decodes to the state a full replay reaches.
    #[test]
    fn a_snapshot_decodes_to_the_replayed_state((ruleset, events) in arb_game(), cut in any::<prop::sample::Index>()) {
        let stream = StreamId::game("g").unwrap();
        let prefix = &events[..cut.index(events.len() + 1)];
        let fold = fold_of(&stream, Some(ruleset), prefix);
        let decoded = snapshot::decode(&snapshot::encode(&fold)).expect("decodes");
        prop_assert_eq!(&decoded, &fold);
        prop_assert_eq!(decoded.version(), prefix.len() as u64);
    }
}

/// The bytes of two snapshots, pinned. If this fails, the rules' state types changed: bump
/// `SNAPSHOT_VERSION` (old snapshots are then ignored and streams replayed once) and re-pin.
#[test]
fn the_snapshot_encoding_is_pinned() {
    let game = StreamId::game("g").unwrap();
    let events = vec![
        Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None },
        Event::TurnStarted { turn: 1, at_ms: Some(1000) },
        Event::NationDroppedOut {
            nation: ledger::Nation::Russia,
            objectives_held: 7,
            objectives_total: 10,
            turn: None,
        },
    ];
    let tournament = StreamId::tournament("t").unwrap();
    let pinned = [
        (snapshot::encode(&fold_of(&game, None, &events)), GAME_SNAPSHOT),
        (snapshot::encode(&fold_of(&tournament, None, &simple_tournament(Ruleset::Wm2015, 4))), TOURNAMENT_SNAPSHOT),
    ];
    for (bytes, expected) in pinned {
        assert_eq!(hex::encode(bytes), expected);
    }
}

const GAME_SNAPSHOT: &str = "060100010201000101e8070102010200000000000000000300";
const TOURNAMENT_SNAPSHOT: &str =
    "0600017401000402703109506c6179657220703102703209506c6179657220703202703309506c6179657220703302703409506c617965722070340402703102703202703302703400000001050566696e616c0105010270320270310270340270330571312d74310001010270320270330270340270310571322d74310002010270340270310270330270320571332d74310003010270310270340270320270330571342d743100040102703302703202703102703400000700";

/// Counts how often the writer reads a stream's events.
struct Counting(Arc<AtomicUsize>);

impl Hooks for Counting {
    fn load_events(&self, _stream: &StreamId) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn open(dir: &std::path::Path, cached_streams: usize) -> (Log, Arc<AtomicUsize>) {
    let event_reads = Arc::new(AtomicUsize::new(0));
    let log = hooked_log(dir, Counting(Arc::clone(&event_reads)), ledger_store::WriterConfig { cached_streams });
    (log, event_reads)
}

/// An append by a jury member, who may void.
fn append(stream: &StreamId, event: Event, id: String) -> AppendRequest {
    AppendRequest {
        actor: "jury-anna".into(),
        clearance: ledger::access::Clearance::Jury,
        ..single(stream, event, &id)
    }
}

#[tokio::test]
async fn appends_never_read_a_streams_events_but_a_void_does() {
    let dir = tempfile::tempdir().unwrap();
    // 40 games through a cache of 16 streams: most appends find their stream evicted.
    let games: Vec<StreamId> = (0..40).map(|g| StreamId::game(&format!("g{g}")).unwrap()).collect();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    let turn = |t: u32| Event::TurnStarted { turn: t, at_ms: None };
    {
        let (log, event_reads) = open(dir.path(), 16);
        for game in &games {
            log.append(append(game, start.clone(), format!("{game}-0"))).await.unwrap();
        }
        for t in 1..=5 {
            for game in &games {
                log.append(append(game, turn(t), format!("{game}-{t}"))).await.unwrap();
            }
        }
        assert_eq!(event_reads.load(Ordering::SeqCst), 0, "no append replayed a stream");
        log.close();
    }
    let (log, event_reads) = open(dir.path(), 16);
    for game in &games {
        let appended = log.append(append(game, turn(6), format!("{game}-6"))).await.unwrap();
        assert_eq!(appended.first_seq, 7);
    }
    // The rules state came back from the snapshots: a skipped turn is still refused.
    let refused = log.append(append(&games[0], turn(9), "skip".into())).await;
    assert!(refused.is_err(), "{refused:?}");
    assert_eq!(event_reads.load(Ordering::SeqCst), 0, "after a restart, still no replay");
    // A void needs the stream's events: read once, and it takes effect.
    let void = Event::EventVoided { seq: 7, reason: "recorded twice".into() };
    log.append(append(&games[1], void, "void".into())).await.unwrap();
    assert_eq!(event_reads.load(Ordering::SeqCst), 1);
    let again = log.append(append(&games[1], turn(6), "turn 6 again".into())).await.unwrap();
    assert_eq!(again.first_seq, 9, "turn 6 was voided, so it may be recorded again");
}
