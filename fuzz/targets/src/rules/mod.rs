//! Target `rules_sequence`: the rules' state machine fed a sequence of events built from the
//! fuzzer's bytes. The first byte picks the stream (a game, stand-alone or scheduled under a
//! ruleset, or a tournament); then each event is generated from the stream as it stands
//! ([`game`], [`tournament`]), mostly plausible and now and then wrong, and appended.
//!
//! Every step checks that the writer (`Folded` with the history read only for a void, as
//! store's sequencer holds it) and the offline tools (`StreamState`, as `ledgerctl check` and
//! the audit hold it) decide alike and fold to the same state, that a refused event changes
//! nothing and says why, and that the writer's snapshot decodes to the state it was taken of.
//! At the end, the accepted events are all accepted again, to the same state, by a fresh fold,
//! by the writer's reload without a snapshot (evolve only), by `ledgerctl check` reading them as
//! JSON Lines, and, voided and jury events left out, by fresh rules; and the projections of
//! a game (score sheet, clock, audit point, timeline) do not panic on them.

mod game;
mod tournament;
mod values;

use crate::choices::Choices;
use ledger::check::{check_stream, parse_lines};
use ledger::envelope::GENESIS;
use ledger::event::{to_canonical_json, Family};
use ledger::rules::{needs_history, Rules, StreamState};
use ledger::{Envelope, Event, Folded, Recorded, Ruleset, StreamId, StreamKind};
use ledger_store::snapshot;
use std::collections::BTreeSet;

/// A sequence ends here even if bytes are left: enough to play a long game with voids.
const MAX_EVENTS: usize = 2_000;

/// The chess clock's time per side for the clock projection: two hours.
const MS_PER_SIDE: u64 = 7_200_000;

/// Appends events generated from `data` to one stream, checking the rules as it goes.
pub fn rules_sequence(data: &[u8]) {
    let mut c = Choices::new(data);
    let (stream, scheduled) = setup(&mut c);
    let mut run = Run::new(stream, scheduled);
    while !c.is_empty() && run.accepted.len() + run.n_refused < MAX_EVENTS {
        let n_events = run.offline.version();
        let event = match run.offline.rules() {
            Rules::Game(state) => game::next_event(&mut c, state, scheduled, n_events),
            Rules::Tournament(state) => tournament::next_event(&mut c, state, n_events),
            // `setup` makes game and tournament streams only; Andes has its own property tests
            // (`ledger::andes::testing`).
            Rules::Andes(_) => unreachable!("the fuzzer generates game and tournament streams"),
        };
        run.append(event);
    }
    run.finish();
}

/// The stream the bytes start with: a game in three of four inputs, half of them scheduled by
/// a tournament (which gives their ruleset), else a tournament.
fn setup(c: &mut Choices<'_>) -> (StreamId, Option<Ruleset>) {
    let pick = c.byte();
    let stream = |kind| StreamId::new(kind, "fuzz").expect("a valid stream id");
    match pick % 8 {
        0..=2 => (stream(StreamKind::Game), None),
        3..=5 => (stream(StreamKind::Game), Some(Ruleset::ALL[usize::from(pick / 8) % Ruleset::ALL.len()])),
        _ => (stream(StreamKind::Tournament), None),
    }
}

/// One stream as both the writer and the offline tools hold it.
struct Run {
    stream: StreamId,
    scheduled: Option<Ruleset>,
    /// What `ledgerctl check`, the audit and the projections replay.
    offline: StreamState,
    /// What store's sequencer keeps per stream (and stores as a snapshot).
    writer: Folded,
    /// Every accepted event in seq order: the stream as stored, which the writer reads back
    /// only to decide or apply a void.
    accepted: Vec<Event>,
    n_refused: usize,
}

impl Run {
    fn new(stream: StreamId, scheduled: Option<Ruleset>) -> Self {
        let offline = StreamState::new(&stream, scheduled);
        let writer = Folded::new(&stream, scheduled);
        Run { stream, scheduled, offline, writer, accepted: Vec::new(), n_refused: 0 }
    }

    fn append(&mut self, event: Event) {
        // The state a refusal must leave untouched (the folded state and the event count: the
        // history only grows with the version; cloning it every step would cost O(n²)).
        let before = (self.offline.folded().clone(), self.offline.version());
        let verdict = self.offline.apply(&event);
        let history: &[Event] = if needs_history(&event) { &self.accepted } else { &[] };
        let writer_verdict = self.writer.decide(&event, history);
        assert_eq!(verdict, writer_verdict, "the writer and the offline tools disagree on {event:?}");
        match verdict {
            Ok(()) => {
                self.writer.evolve(&event, history);
                self.accepted.push(event);
                let stored = snapshot::encode(&self.writer);
                assert_eq!(snapshot::decode(&stored).as_ref(), Some(&self.writer), "snapshot → state");
            }
            Err(rejection) => {
                let after = (self.offline.folded().clone(), self.offline.version());
                assert_eq!(after, before, "refusing {event:?} changed the stream");
                assert!(!rejection.message.trim().is_empty(), "{event:?} refused without a reason");
                self.n_refused += 1;
            }
        }
        assert_eq!(
            self.offline.folded(),
            &self.writer,
            "the writer and the offline tools disagree after {:?}",
            self.accepted.last()
        );
    }

    fn finish(self) {
        self.fresh_fold_accepts_everything();
        self.reload_without_snapshot();
        self.check_reads_the_export();
        self.unvoided_events_replay_cleanly();
        if self.stream.kind() == StreamKind::Game {
            self.projections();
        }
    }

    /// Determinism: the accepted events, decided again from an empty stream, are all accepted
    /// and fold to the same state.
    fn fresh_fold_accepts_everything(&self) {
        let mut again = StreamState::new(&self.stream, self.scheduled);
        for (seq, event) in (1u64..).zip(&self.accepted) {
            again.apply(event).unwrap_or_else(|r| panic!("event {seq} {event:?} was accepted, then refused: {r:?}"));
        }
        assert_eq!(again, self.offline, "a fresh fold of the accepted events ends elsewhere");
    }

    /// store's sequencer loads a stream without a usable snapshot by evolving its stored events
    /// without deciding them; that gives the state the writer held.
    fn reload_without_snapshot(&self) {
        let mut fold = Folded::new(&self.stream, self.scheduled);
        for (idx, event) in self.accepted.iter().enumerate() {
            fold.evolve(event, &self.accepted[..idx]);
        }
        assert_eq!(fold, self.writer, "reloading from the events ends elsewhere than the writer");
    }

    /// `ledgerctl check` of the stream exported as JSON Lines accepts it, to the same state.
    fn check_reads_the_export(&self) {
        let text: String = self.accepted.iter().map(|e| to_canonical_json(e).to_string() + "\n").collect();
        let lines = parse_lines(&text).unwrap_or_else(|e| panic!("the export of accepted events does not parse: {e}"));
        let checked = check_stream(&self.stream, self.scheduled, &lines)
            .unwrap_or_else(|e| panic!("ledgerctl check refuses accepted events: {e}"));
        assert_eq!(checked, self.offline, "check of the export ends elsewhere");
    }

    /// A void is accepted only if the stream stays valid without the voided event: the events
    /// neither voided nor the jury's replay through fresh rules to the rules' current state.
    fn unvoided_events_replay_cleanly(&self) {
        let voided: BTreeSet<u64> =
            (1u64..=self.offline.version()).filter(|&seq| self.offline.is_voided(seq)).collect();
        let mut clean = StreamState::new(&self.stream, self.scheduled);
        for (seq, event) in (1u64..).zip(&self.accepted) {
            if voided.contains(&seq) || event.family() == Family::Jury {
                continue;
            }
            clean.apply(event).unwrap_or_else(|r| {
                panic!("without the voided events {voided:?}, event {seq} {event:?} is refused: {r:?}")
            });
        }
        assert_eq!(clean.rules(), self.offline.rules(), "the voided stream's rules end elsewhere");
    }

    /// The score sheet, the chess clock, the jury's audit point and timeline of an accepted
    /// game, as ledgerd and ledgerctl compute them. Once the game has started, the sheet and the
    /// audit exist: the scorer refuses only streams the rules refuse (no start, no ruleset, an
    /// end without a nation's objectives). Nothing panics. (The jury's report adds the chain's
    /// hashes, which would cost more than everything else here; `stored_record` covers them.)
    fn projections(&self) {
        let Rules::Game(state) = self.offline.rules() else { return };
        let events = replay::sheet::with_seqs(self.accepted.iter().cloned());
        match replay::score_game(self.scheduled, &events) {
            Ok(sheet) => {
                let _json = sheet.to_json_string();
                let _text = sheet.to_string();
            }
            Err(e) => assert!(!state.started, "an accepted game does not score: {e}"),
        }
        let ruleset = state.ruleset.unwrap_or(Ruleset::Cafe2023);
        let voided = replay::sheet::voided_seqs(&events);
        let mut clock = replay::clock::ClockFold::new(ruleset, MS_PER_SIDE);
        for (seq, event) in events.iter().filter(|(seq, _)| !voided.contains(seq)) {
            clock.apply(*seq, event);
        }
        let _view = clock.view(state.last_at_ms.map(|ms| ms.saturating_add(60_000))).to_string();
        let Some(&(last, _)) = events.last() else { return };
        let point = replay::audit::audit_at(self.scheduled, &events, last, MS_PER_SIDE);
        if let Err(e) = point {
            assert!(!state.started, "the audit of an accepted game fails at its last event {last}: {e}");
        }
        let _timeline = replay::audit::timeline(&self.records());
    }

    /// The accepted events with envelopes, as the audit reads them (hashes left at zero).
    fn records(&self) -> Vec<Recorded> {
        (1u64..)
            .zip(&self.accepted)
            .map(|(seq, event)| Recorded {
                envelope: Envelope {
                    stream: self.stream.clone(),
                    seq,
                    position: seq,
                    event_id: format!("fuzz-{seq}"),
                    recorded_at_ms: 1_780_000_000_000 + seq * 1_000,
                    actor: "fuzz".into(),
                    prev_hash: GENESIS,
                    hash: GENESIS,
                },
                event: event.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tournament generator reaches the events of issue 24 and gets them accepted: stand-ins
    /// registered, a draw that seats one, a withdrawal that hands a stand-in the player's seats.
    #[test]
    fn tournaments_get_stand_ins_drawn_and_withdrawals_accepted() {
        let (mut stand_ins, mut drawn_with_one, mut reseated) = (0, 0, 0);
        let mut state = 0x2024_u64;
        for _ in 0..40 {
            let mut data = vec![6u8];
            data.extend((0..1_500).map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                state.to_be_bytes()[0]
            }));
            let mut c = Choices::new(&data);
            let (stream, scheduled) = setup(&mut c);
            assert_eq!(stream.kind(), StreamKind::Tournament);
            let mut run = Run::new(stream, scheduled);
            while !c.is_empty() && run.accepted.len() + run.n_refused < MAX_EVENTS {
                let Rules::Tournament(state) = run.offline.rules() else { unreachable!() };
                let event = tournament::next_event(&mut c, state, run.offline.version());
                run.append(event);
            }
            let registered: Vec<&str> = run
                .accepted
                .iter()
                .filter_map(
                    |e| if let Event::StandInRegistered { player, .. } = e { Some(player.as_str()) } else { None },
                )
                .collect();
            stand_ins += registered.len();
            for event in &run.accepted {
                match event {
                    Event::QualifyingDrawn { games, .. }
                        if games.iter().any(|g| registered.iter().any(|s| g.seats.seats(s))) =>
                    {
                        drawn_with_one += 1;
                    }
                    Event::PlayerWithdrew { stand_in: Some(_), .. } => reseated += 1,
                    _ => {}
                }
            }
            run.finish();
        }
        eprintln!(
            "accepted: {stand_ins} stand-ins, {drawn_with_one} draws seating one, {reseated} withdrawals re-seating"
        );
        assert!(stand_ins > 0 && drawn_with_one > 0 && reseated > 0, "{stand_ins} {drawn_with_one} {reseated}");
    }
}
