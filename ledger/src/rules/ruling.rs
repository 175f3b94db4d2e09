//! A ruling's voids, judged as a whole (issue 43): the jury corrects a game in one append — its
//! `jury_ruling`, the events it voids, the events it records — and the rules ask whether the
//! game *after* the ruling is valid, not whether each step inside it is. A run of consecutive
//! `event_voided`s is therefore decided together: the stream without every event they void (and
//! those voided before) must replay cleanly; what the ruling records after them is then decided
//! event by event on that stream, as any event is. A lone void is the run of one.
//!
//! Why runs and not "everything up to the next jury event": the writer sees an append whole, but
//! a file (`ledgerctl check`, an export) does not say where one append ended; a run of voids is
//! visible in both, and voids before records is the one order the jury's desk and
//! `ledgerctl rule` write. Events recorded after the voids cannot mend an event before them
//! (they are replayed after it), so judging the run, then each recorded event, is the same as
//! judging the stream after the whole ruling.

use super::{Folded, Rules};
use crate::event::{Event, Family};
use crate::rejection::Rejection;
use std::collections::BTreeSet;

/// How many events at the start of `events` are `event_voided`s: the run judged together.
pub fn void_run(events: &[Event]) -> usize {
    events.iter().take_while(|e| matches!(e, Event::EventVoided { .. })).count()
}

impl Folded {
    /// Would the stream accept `voids`, a run of `event_voided`s, together? Each must void an
    /// event of `history` (the stream's events before the run) that is neither voided already
    /// nor itself a void, none twice; and the stream without all of them must replay.
    ///
    /// # Errors
    /// The first void that names no event it may void, or the first event the stream without
    /// them would leave invalid (`voiding events 76 (nation_dropped_out) and 122 (game_ended)
    /// would leave event 130 invalid: …`); nothing changes.
    pub fn decide_voids(&self, voids: &[Event], history: &[Event]) -> Result<(), Rejection> {
        debug_assert_eq!(history.len() as u64, self.version, "voids are decided over the whole stream");
        let mut taken: Vec<(u64, &'static str)> = Vec::with_capacity(voids.len());
        for void in voids {
            let Event::EventVoided { seq, .. } = void else {
                return Err(Rejection::malformed(format!("{} is not a void", void.type_name())));
            };
            void.check_shape()?;
            let seq = *seq;
            let Some(target) = usize::try_from(seq).ok().and_then(|s| history.get(s.wrapping_sub(1))) else {
                return Err(Rejection::precondition(format!(
                    "there is no event {seq} to void: the stream has {} events",
                    self.version()
                ))
                .said("refusal-void-none", [("seq", seq.into()), ("count", self.version().into())]));
            };
            if self.voided.contains(&seq) {
                return Err(Rejection::precondition(format!("event {seq} ({}) is already voided", target.type_name()))
                    .said("refusal-void-twice", [("seq", seq.into())]));
            }
            if taken.iter().any(|(s, _)| *s == seq) {
                return Err(Rejection::precondition(format!(
                    "event {seq} ({}) is voided twice in one ruling",
                    target.type_name()
                ))
                .said("refusal-void-twice", [("seq", seq.into())]));
            }
            if matches!(target, Event::EventVoided { .. }) {
                return Err(Rejection::precondition(format!(
                    "event {seq} is itself a void; record a new ruling instead of voiding a void"
                ))
                .said("refusal-void-of-void", [("seq", seq.into())]));
            }
            taken.push((seq, target.type_name()));
        }
        let seqs: BTreeSet<u64> = taken.iter().map(|(s, _)| *s).collect();
        self.replay_without(&seqs, history).map(|_| ()).map_err(|(bad_seq, rejection)| {
            let (first_seq, first_type) = taken.first().copied().unwrap_or((0, "event_voided"));
            Rejection::precondition(format!(
                "voiding {} would leave event {bad_seq} invalid: {}",
                named(&taken),
                rejection.message
            ))
            .said(
                "refusal-void-breaks",
                [
                    ("seq", first_seq.into()),
                    ("type", crate::rejection::Arg::name("table-event-name", first_type)),
                    ("bad_seq", bad_seq.into()),
                    (
                        "why",
                        rejection
                            .reason
                            .map_or_else(|| rejection.message.into(), |r| crate::rejection::Arg::Said(Box::new(r))),
                    ),
                ],
            )
        })
    }

    /// Replays every event that is not voided (nor in `extra`) through fresh rules.
    pub(super) fn replay_without(&self, extra: &BTreeSet<u64>, history: &[Event]) -> Result<Rules, (u64, Rejection)> {
        let mut rules = self.rules.fresh();
        for (seq, event) in (1u64..).zip(history) {
            if self.voided.contains(&seq) || extra.contains(&seq) || event.family() == Family::Jury {
                continue;
            }
            rules.decide(event).map_err(|r| (seq, r))?;
            rules.evolve(event);
        }
        Ok(rules)
    }
}

/// `event 76 (nation_dropped_out)`, `events 76 (nation_dropped_out) and 122 (game_ended)`.
fn named(taken: &[(u64, &'static str)]) -> String {
    let each: Vec<String> = taken.iter().map(|(seq, name)| format!("{seq} ({name})")).collect();
    match each.as_slice() {
        [one] => format!("event {one}"),
        [rest @ .., last] => format!("events {} and {last}", rest.join(", ")),
        [] => "nothing".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use crate::event::{from_canonical_json, Event};
    use crate::names::{Nation, Ruleset};
    use crate::rules::{Rules, StreamState};
    use crate::stream::StreamId;
    use serde_json::json;

    fn event(value: serde_json::Value) -> Event {
        from_canonical_json(&value).unwrap()
    }

    /// A 12-turn CAFE 2023 game whose Russian drop-out was recorded in turn 6, ended by a
    /// Prussian defensive victory that, rightly for that record, leaves Russia out: the state,
    /// the drop-out's seq and the end's.
    fn dispute() -> (StreamState, u64, u64) {
        let mut state = StreamState::new(&StreamId::game("g").unwrap(), Some(Ruleset::Cafe2023));
        state.apply(&event(json!({"type": "game_started", "at_ms": 0}))).unwrap();
        let mut drop_out = 0;
        for turn in 1..=12 {
            state.apply(&event(json!({"type": "turn_started", "turn": turn}))).unwrap();
            state.apply(&event(json!({"type": "tc_dealt", "nation": "prussia", "count": 7}))).unwrap();
            if turn == 6 {
                state.apply(&dropped_out(None)).unwrap();
                drop_out = state.version();
            }
        }
        state.apply(&ended(false)).unwrap();
        let end = state.version();
        (state, drop_out, end)
    }

    fn dropped_out(turn: Option<u32>) -> Event {
        event(json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 6, "objectives_total": 8,
            "turn": turn}))
    }

    fn ended(with_russia: bool) -> Event {
        let mut objectives = json!({"sweden": [2, 5], "austria": [5, 12], "imperial_army": [1, 5], "france": [4, 10]});
        if with_russia {
            objectives["russia"] = json!([6, 8]);
        }
        event(json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["prussia"],
            "objectives": objectives}))
    }

    fn voids(seqs: &[u64]) -> Vec<Event> {
        seqs.iter().map(|&seq| Event::EventVoided { seq, reason: "out in turn 7".into() }).collect()
    }

    fn out_in(state: &StreamState, nation: Nation) -> Option<u32> {
        let Rules::Game(game) = state.rules() else { panic!("a game") };
        game.out.get(&nation).copied()
    }

    /// The ruling the issue's jury needed: the drop-out and the end voided together, both
    /// recorded again, the drop-out in turn 7. Step by step it fails (the first void leaves the
    /// end invalid); as a whole the game after it is valid, and it is accepted, in either order
    /// of its voids, by the file's check too.
    #[test]
    fn a_ruling_is_accepted_when_the_game_after_it_is_valid() {
        let (mut state, drop_out, end) = dispute();
        let step_by_step = state.decide(&voids(&[drop_out])[0]).unwrap_err();
        assert_eq!(
            step_by_step.message,
            format!(
                "voiding event {drop_out} (nation_dropped_out) would leave event {end} invalid: game_ended must report \
                 the objectives of russia, still in the game"
            )
        );
        for order in [[drop_out, end], [end, drop_out]] {
            let mut ruled = state.clone();
            let mut ruling = vec![Event::JuryRuling { text: "Russia left in turn 7".into() }];
            ruling.extend(voids(&order));
            ruling.extend([dropped_out(Some(7)), ended(false)]);
            ruled.apply_all(&ruling).unwrap();
            assert_eq!(out_in(&ruled, Nation::Russia), Some(7), "out in turn 7 though recorded after turn 12");
            assert!(ruled.is_voided(drop_out) && ruled.is_voided(end));
            let Rules::Game(game) = ruled.rules() else { panic!() };
            assert_eq!(game.ended.map(|(_, turn)| turn), Some(12), "the game never stands as running after it");
            // The stored stream, read back from a file, checks the same way.
            let lines: Vec<String> = ruled.events().map(|(_, e)| crate::event::canonical_json_text(e)).collect();
            let lines = crate::check::parse_lines(&lines.join("\n")).unwrap();
            let again = crate::check::check_stream(&StreamId::game("g").unwrap(), Some(Ruleset::Cafe2023), &lines);
            assert_eq!(again.unwrap().rules(), ruled.rules());
        }
        // Without its turn, the drop-out recorded again would count in the game's last turn.
        let mut late = state.clone();
        let mut ruling = vec![Event::JuryRuling { text: "no turn".into() }];
        ruling.extend(voids(&[drop_out, end]));
        ruling.extend([dropped_out(None), ended(false)]);
        late.apply_all(&ruling).unwrap();
        assert_eq!(out_in(&late, Nation::Russia), Some(12));
        state.apply(&Event::JuryCalled { reason: "after the ruling".into() }).unwrap();
    }

    /// A ruling whose result is not a valid game is refused whole, with the rule it breaks, and
    /// nothing of it is applied.
    #[test]
    fn a_ruling_is_refused_with_the_rule_broken_and_nothing_stored() {
        let (state, drop_out, end) = dispute();
        let refused = |ruling: Vec<Event>| {
            let mut tried = state.clone();
            let (index, rejection) = tried.apply_all(&ruling).unwrap_err();
            assert_eq!(tried, state, "nothing of a refused ruling is applied");
            (index, rejection.message)
        };
        let ruling = |voided: &[u64], records: Vec<Event>| {
            let mut events = vec![Event::JuryRuling { text: "r".into() }];
            events.extend(voids(voided));
            events.extend(records);
            events
        };
        // The drop-out alone voided: the end, which left Russia out, is left invalid.
        let (index, message) = refused(ruling(&[drop_out], vec![dropped_out(Some(7))]));
        assert_eq!(index, 1);
        let left = format!("would leave event {end} invalid: game_ended must report the objectives of russia");
        assert!(message.contains(&left), "{message}");
        // The drop-out re-recorded while the game stands ended: only the jury's events now.
        let (index, message) =
            refused(ruling(&[drop_out], vec![]).into_iter().take(1).chain([dropped_out(Some(7))]).collect());
        assert_eq!(index, 1);
        assert!(message.starts_with("the game ended in turn 12"), "{message}");
        // The end recorded again with Russia's objectives, though Russia is out again.
        let (index, message) = refused(ruling(&[drop_out, end], vec![dropped_out(Some(7)), ended(true)]));
        assert_eq!(index, 4);
        assert_eq!(message, "russia dropped out in turn 7: its objectives were fixed then");
        // A drop-out in a turn the game has not reached.
        let (index, message) = refused(ruling(&[drop_out, end], vec![dropped_out(Some(13)), ended(false)]));
        assert_eq!(index, 3);
        assert!(message.contains("recorded for turn 13, but the game is in turn 12"), "{message}");
        // The same event voided twice in one ruling; a void of nothing.
        let (_, message) = refused(ruling(&[drop_out, drop_out], vec![]));
        assert_eq!(message, format!("event {drop_out} (nation_dropped_out) is voided twice in one ruling"));
        let (_, message) = refused(ruling(&[end, 99], vec![]));
        // The stream holds the ruling's own `jury_ruling` by then.
        assert_eq!(message, format!("there is no event 99 to void: the stream has {} events", end + 1));
    }
}
