//! Property tests of the jury's audit over random valid games (`ledger::testing::arb_game`),
//! with random voids of dealt tactical cards mixed in: the audit at every seq equals folding
//! the first seq events from scratch — the ledger's `StreamState`, the score sheet of
//! `score_game` on the prefix, the clock fold without the voided events — and stepping with an
//! `Auditor` gives the same points as asking for each seq.

use ledger::rules::Rules;
use ledger::testing::arb_game;
use ledger::{Event, Nation, Ruleset, StreamId, StreamState};
use proptest::prelude::*;
use replay::audit::{audit_at, diff, AuditPoint, Auditor, StateView};
use replay::clock::ClockFold;
use replay::sheet::{score_game, voided_seqs, with_seqs};
use std::collections::BTreeMap;

const MS_PER_SIDE: u64 = 1_800_000;

/// `events` with voids of some `tc_dealt`s appended right after a later event: voiding a deal
/// never breaks the stream, so the ledger accepts every such void.
fn with_voids(events: Vec<Event>, picks: &[(prop::sample::Index, prop::sample::Index)]) -> Vec<Event> {
    let mut out = events;
    for (victim, place) in picks {
        let dealt: Vec<usize> =
            out.iter().enumerate().filter(|(_, e)| matches!(e, Event::TcDealt { .. })).map(|(idx, _)| idx).collect();
        if dealt.is_empty() {
            break;
        }
        let victim = dealt[victim.index(dealt.len())];
        let voided = voided_seqs(&with_seqs(out.clone()));
        if voided.contains(&(victim as u64 + 1)) {
            continue;
        }
        let at = victim + 1 + place.index(out.len() - victim);
        // Events from index `at` on move one seq down the stream; so do the voids naming them.
        for event in &mut out[at..] {
            if let Event::EventVoided { seq, .. } = event {
                if *seq > at as u64 {
                    *seq += 1;
                }
            }
        }
        out.insert(at, Event::EventVoided { seq: victim as u64 + 1, reason: "miscounted".into() });
    }
    out
}

/// Everything an audit point should hold, folded from scratch over the first `seq` events.
fn check_point(ruleset: Ruleset, events: &[(u64, Event)], point: &AuditPoint) -> Result<(), TestCaseError> {
    let prefix = &events[..usize::try_from(point.seq).unwrap()];
    let mut state = StreamState::new(&StreamId::game("from-scratch").unwrap(), Some(ruleset));
    for (_, event) in prefix {
        state.apply(event).map_err(|r| TestCaseError::fail(r.message))?;
    }
    let Rules::Game(game) = state.rules() else { unreachable!() };
    prop_assert_eq!(point.game_state(), game);
    prop_assert_eq!(&point.state, &StateView::from(game));
    prop_assert_eq!(point.table_time_ms, game.last_at_ms);
    prop_assert_eq!(&point.event, &prefix.last().unwrap().1);

    let sheet = score_game(Some(ruleset), prefix).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(point.sheet.as_ref().map(|s| s.to_json_string()), Some(sheet.to_json_string()));

    let voided = voided_seqs(prefix);
    let live = prefix.iter().filter(|(seq, _)| !voided.contains(seq));
    let mut clock = ClockFold::new(ruleset, MS_PER_SIDE);
    let mut tc: BTreeMap<Nation, i64> = Nation::ALL.iter().map(|&n| (n, 0)).collect();
    for (seq, event) in live {
        clock.apply(*seq, event);
        if let Event::TcDealt { nation, count } = event {
            *tc.get_mut(nation).unwrap() += i64::from(*count);
        }
    }
    prop_assert_eq!(point.clock.as_ref(), Some(&clock.view(None)));
    prop_assert_eq!(&point.tc_dealt, &tc);
    prop_assert_eq!(point.voids.iter().map(|v| v.seq).collect::<std::collections::BTreeSet<_>>(), voided);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_point_equals_a_fold_of_its_prefix_from_scratch(
        (ruleset, events) in arb_game(),
        picks in prop::collection::vec(any::<(prop::sample::Index, prop::sample::Index)>(), 0..4),
    ) {
        let events = with_seqs(with_voids(events, &picks));
        let mut auditor = Auditor::new(Some(ruleset), events.clone(), MS_PER_SIDE).unwrap();
        let mut previous: Option<AuditPoint> = None;
        while let Some(point) = auditor.forward().unwrap() {
            check_point(ruleset, &events, &point)?;
            let asked = audit_at(Some(ruleset), &events, point.seq, MS_PER_SIDE).unwrap();
            prop_assert_eq!(&asked, &point);
            prop_assert_eq!(asked.to_json_string(), point.to_json_string());
            if let Some(previous) = &previous {
                prop_assert!(!diff(previous, &point).is_empty(), "seq changes at least");
            }
            previous = Some(point);
        }
        prop_assert_eq!(auditor.position(), events.len() as u64);
        if events.len() > 1 {
            let back = auditor.back().unwrap().unwrap();
            prop_assert_eq!(back.seq, events.len() as u64 - 1);
        }
    }
}
