//! A model test in the manner of sled's: random appends (good, refused, retried, batched) and
//! restarts against a real sled log, checked after every step against a plain in-memory model
//! of what must be stored.

use ledger::envelope::verify_chain;
use ledger::{Event, StreamId};
use ledger_store::{AppendError, AppendRequest, Log, ProposedEvent};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    /// The next `n` valid events of a game, as one atomic append.
    Append {
        game: usize,
        n: usize,
    },
    /// A batch whose last event is a turn no game reaches: refused whole.
    Refused {
        game: usize,
        n: usize,
    },
    /// The last acknowledged append again, with the same ids.
    Retry,
    Restart,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..3usize, 1..4usize).prop_map(|(game, n)| Op::Append { game, n }),
        2 => (0..3usize, 1..3usize).prop_map(|(game, n)| Op::Refused { game, n }),
        2 => Just(Op::Retry),
        1 => Just(Op::Restart),
    ]
}

/// The `idx`-th event of every game: `game_started`, turns 1 to 23, then action stages
/// (`ledger::testing::game_event_at`), each valid only after the one before.
fn event_at(idx: usize) -> Event {
    ledger::testing::game_event_at(idx as u64)
}

fn stream(game: usize) -> StreamId {
    StreamId::game(&format!("g{game}")).unwrap()
}

fn request(game: usize, events: Vec<Event>, first_idx: usize) -> AppendRequest {
    AppendRequest {
        stream: stream(game),
        events: events
            .into_iter()
            .enumerate()
            .map(|(i, event)| ProposedEvent { event_id: format!("g{game}-{}", first_idx + i), event })
            .collect(),
        expected_version: None,
        actor: "model".into(),
        clearance: ledger::access::Clearance::Table,
    }
}

fn check(log: &Log, model: &[Vec<Event>]) {
    let mut total = 0;
    for (game, expected) in model.iter().enumerate() {
        let stored = log.read_stream(&stream(game), 1, usize::MAX).unwrap();
        let events: Vec<Event> = stored.iter().map(|r| r.event.clone()).collect();
        assert_eq!(&events, expected, "game {game}");
        verify_chain(&stored).unwrap();
        total += stored.len();
    }
    let all = log.read_all(1, usize::MAX).unwrap();
    assert_eq!(all.len(), total);
    for (expected, record) in (1u64..).zip(&all) {
        assert_eq!(record.envelope.position, expected, "positions are 1, 2, 3 … without gaps");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn the_log_matches_the_model(ops in prop::collection::vec(op(), 1..40)) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut log = Log::open_sled(dir.path()).unwrap();
        let mut model: Vec<Vec<Event>> = vec![Vec::new(); 3];
        let mut last_ok: Option<(AppendRequest, ledger_store::Appended)> = None;
        for op in ops {
            match op {
                Op::Append { game, n } => {
                    let first = model[game].len();
                    let events: Vec<Event> = (first..first + n).map(event_at).collect();
                    let req = request(game, events.clone(), first);
                    let appended = runtime.block_on(log.append(req.clone())).unwrap();
                    prop_assert_eq!(appended.first_seq, first as u64 + 1);
                    model[game].extend(events);
                    last_ok = Some((req, appended));
                }
                Op::Refused { game, n } => {
                    let first = model[game].len();
                    let mut events: Vec<Event> = (first..first + n).map(event_at).collect();
                    events.push(Event::TurnStarted { turn: 1000, at_ms: None });
                    let refused = runtime.block_on(log.append(request(game, events, first + 10_000)));
                    prop_assert!(matches!(refused, Err(AppendError::Rejected(_))), "{:?}", refused);
                }
                Op::Retry => {
                    if let Some((req, first)) = &last_ok {
                        let again = runtime.block_on(log.append(req.clone())).unwrap();
                        prop_assert!(again.duplicate);
                        prop_assert_eq!((again.first_seq, again.last_seq, again.head_hash), (first.first_seq, first.last_seq, first.head_hash));
                    }
                }
                Op::Restart => {
                    log.close();
                    drop(log);
                    log = Log::open_sled(dir.path()).unwrap();
                }
            }
            check(&log, &model);
        }
    }
}
