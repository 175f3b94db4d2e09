//! Property tests over random valid games (`ledger::testing::arb_game`): scoring is
//! deterministic to the byte, a fold over a prefix is the sheet "as of" that seq, and a voided
//! event counts exactly as if it had never been recorded.

use ledger::testing::arb_game;
use ledger::Event;
use proptest::prelude::*;
use replay::sheet::{score_game, score_game_as_of, with_seqs, GameFold};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn scoring_twice_gives_byte_identical_json((ruleset, events) in arb_game()) {
        let events = with_seqs(events);
        let first = score_game(Some(ruleset), &events).map(|s| s.to_json_string());
        let second = score_game(Some(ruleset), &events.clone()).map(|s| s.to_json_string());
        prop_assert!(first.is_ok(), "{first:?}");
        prop_assert_eq!(first, second);
    }

    #[test]
    fn folding_a_prefix_equals_scoring_as_of_its_last_seq(
        (ruleset, events) in arb_game(),
        cut in any::<prop::sample::Index>(),
    ) {
        let events = with_seqs(events);
        let n_kept = cut.index(events.len() + 1);
        let mut fold = GameFold::new(Some(ruleset));
        for (_, event) in &events[..n_kept] {
            fold.apply(event).expect("valid game events fold");
        }
        let folded = fold.sheet().map(|s| s.to_json_string());
        let as_of = score_game_as_of(Some(ruleset), &events, n_kept as u64)
            .map(|s| s.to_json_string());
        prop_assert_eq!(&folded, &as_of);
        prop_assert_eq!(folded.is_ok(), n_kept > 0);
    }

    #[test]
    fn a_voided_event_counts_as_never_recorded(
        (ruleset, events) in arb_game(),
        pick in any::<prop::sample::Index>(),
    ) {
        let dealt: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::TcDealt { count, .. } if *count > 0))
            .map(|(idx, _)| idx)
            .collect();
        prop_assume!(!dealt.is_empty());
        let victim = dealt[pick.index(dealt.len())];
        let mut with_void = events.clone();
        with_void.push(Event::EventVoided { seq: victim as u64 + 1, reason: "miscounted".into() });
        let mut without = events.clone();
        without.remove(victim);
        let voided = score_game(Some(ruleset), &with_seqs(with_void)).map(|s| s.to_json_string());
        let never = score_game(Some(ruleset), &with_seqs(without)).map(|s| s.to_json_string());
        prop_assert_eq!(voided, never);
    }
}
