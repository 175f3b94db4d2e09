//! The jury's ruling on a game, one typed way in for the jury's desk (`/jury/<game>`) and
//! `ledgerctl rule`: the ruling's text, and with it what it voids and what it records instead —
//! recorded together, in one append, or not at all, and judged as a whole: the game after the
//! ruling must be valid, not each step inside it (`ledger::rules::void_run`), so a drop-out
//! recorded a turn early is corrected after the game's end in one ruling that voids the drop-out
//! and the end and records both again ([`correction`] proposes exactly that). Corrections are
//! events, never edits: the voided events stay in the stream, struck through, with the ruling
//! beside them.

use super::check_on;
use crate::error::Error;
use ledger::rules::Rules;
use ledger::{Event, Recorded, Ruleset, StreamId, StreamState};

/// A game as the jury reads it: its stream folded, at its version.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: StreamId,
    pub stream: StreamState,
    pub version: u64,
}

impl Game {
    /// The game after `records` (its whole stream), scheduled under `ruleset` by its tournament
    /// (`None`: a stand-alone game): the writer decides a void on the game as scheduled.
    pub fn read(id: &StreamId, records: &[Recorded], ruleset: Option<Ruleset>) -> Game {
        let mut stream = StreamState::new(id, ruleset);
        for record in records {
            stream.evolve(&record.event);
        }
        Game { id: id.clone(), stream, version: records.last().map_or(0, |r| r.envelope.seq) }
    }
}

/// What the jury rules.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ruling {
    /// The ruling, as the jury writes it (also each void's reason).
    pub text: String,
    /// The seqs of the events recorded in error (or made wrong by one: a game's end after a
    /// drop-out in the wrong turn), voided together.
    pub voids: Vec<u64>,
    /// What should have been recorded instead (or was missing altogether), in order, after the
    /// voids.
    pub records: Vec<Event>,
}

/// The events a ruling records — the ruling, its voids, its records — judged by the game's rules
/// as one append: the voids together, then each record after them.
///
/// # Errors
/// `INVALID_ARGUMENT` for an empty ruling; the rules' refusal of the first event they refuse
/// (named `event N of M`; for the voids, the first of them, with every event they void).
pub fn plan(game: &Game, ruling: Ruling) -> Result<Vec<Event>, Error> {
    if ruling.text.trim().is_empty() {
        return Err(Error::InvalidArgument("a ruling says what the jury decided: its text is empty".into()));
    }
    let mut events = vec![Event::JuryRuling { text: ruling.text.clone() }];
    events.extend(ruling.voids.iter().map(|&seq| Event::EventVoided { seq, reason: ruling.text.clone() }));
    events.extend(ruling.records);
    if let Err((index, rejection)) = game.stream.clone().apply_all(&events) {
        return Err(Error::Refused(rejection.in_event(index + 1, events.len())));
    }
    Ok(events)
}

/// What the jury's form proposes to correct event `seq`: void it and record it again with every
/// field it had — the turn it counted in made explicit (a drop-out, a switch of the imperial
/// army, the offensive launched or called off, recorded without one, counted in the turn it was
/// recorded in; recorded again later without it, it would count in the game's last turn) — for
/// the jury to edit; and when the game ended after it, the end voided and recorded again after
/// it (the end is judged on the corrected game: a drop-out moved to another turn still leaves a
/// valid end, a result that changes is edited there).
///
/// # Errors
/// `INVALID_ARGUMENT` when `seq` is no event of the game the jury may correct (a jury event, a
/// voided one, none at all).
pub fn correction(records: &[Recorded], seq: u64) -> Result<Ruling, Error> {
    let voided = voided_seqs(records);
    let index = records.iter().position(|r| r.envelope.seq == seq).filter(|_| !voided.contains(&seq));
    let Some(index) = index.filter(|&i| records[i].event.family() != ledger::event::Family::Jury) else {
        return Err(Error::InvalidArgument(format!("event {seq} is not an event of the game the jury may correct")));
    };
    let mut ruling = Ruling { voids: vec![seq], records: vec![every_field(records, index)], ..Ruling::default() };
    let end = records[index + 1..]
        .iter()
        .find(|r| matches!(r.event, Event::GameEnded { .. }) && !voided.contains(&r.envelope.seq));
    if let Some(end) = end {
        ruling.voids.push(end.envelope.seq);
        ruling.records.push(end.event.clone());
    }
    Ok(ruling)
}

/// The event at `index` of `records` with the turn it counted in written out.
fn every_field(records: &[Recorded], index: usize) -> Event {
    let mut event = records[index].event.clone();
    let turn_then = || {
        let stream = &records[index].envelope.stream;
        let mut state = StreamState::new(stream, None);
        records[..index].iter().for_each(|r| state.evolve(&r.event));
        match state.rules() {
            Rules::Game(game) => game.turn,
            Rules::Tournament(_) | Rules::Andes(_) => 0,
        }
    };
    match &mut event {
        Event::NationDroppedOut { turn, .. }
        | Event::ImperialArmySwitched { turn, .. }
        | Event::OffensiveLaunched { turn, .. }
        | Event::OffensiveCalledOff { turn, .. } => {
            if turn.is_none() {
                *turn = Some(turn_then());
            }
        }
        _ => {}
    }
    event
}

/// The turn the Cards of Fate would have ended the game (`fate_horizon_recorded`), which the
/// CAFE 2023 sTCC tie-breaker needs of a game Prussia did not win defensively; recorded by the
/// jury once the game has ended.
///
/// # Errors
/// The rules' refusal (no game ended yet, a horizon already recorded, turn 0).
pub fn fate_horizon(game: &Game, turn: u32) -> Result<Vec<Event>, Error> {
    let events = vec![Event::FateHorizonRecorded { turn }];
    check_on(&game.stream, &events).map_err(|refused| Error::Refused(refused[0].rejection.clone()))?;
    Ok(events)
}

/// The seqs the stream's `event_voided`s take back.
pub fn voided_seqs(records: &[Recorded]) -> Vec<u64> {
    records
        .iter()
        .filter_map(|r| match r.event {
            Event::EventVoided { seq, .. } => Some(seq),
            _ => None,
        })
        .collect()
}

/// Whether an ended game still lacks its fate horizon for the sTCC: it ended (no void took the
/// end back) other than by a Prussian defensive victory, and no horizon stands recorded.
pub fn needs_fate_horizon(records: &[Recorded]) -> bool {
    let voided = voided_seqs(records);
    let live = || records.iter().filter(|r| !voided.contains(&r.envelope.seq)).map(|r| &r.event);
    let ended_otherwise = live().any(
        |e| matches!(e, Event::GameEnded { outcome, .. } if *outcome != ledger::Outcome::PrussianDefensiveVictory),
    );
    ended_otherwise && !live().any(|e| matches!(e, Event::FateHorizonRecorded { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::Nation;

    fn game(events: &[Event]) -> Game {
        let id = StreamId::game("g").unwrap();
        let mut stream = StreamState::new(&id, Some(ledger::Ruleset::Cafe2023));
        for event in events {
            stream.apply(event).unwrap();
        }
        Game { id, stream, version: events.len() as u64 }
    }

    #[test]
    fn a_ruling_voids_and_corrects_in_one_plan_or_refuses_all() {
        let started = vec![
            Event::GameStarted { at_ms: 0, ruleset: None, tournament: None },
            Event::TurnStarted { turn: 1, at_ms: None },
            Event::TcDealt { nation: Nation::Prussia, count: 5 },
        ];
        let g = game(&started);
        let corrected = Event::TcDealt { nation: Nation::Prussia, count: 7 };
        let ruling = Ruling { text: "Prussia was dealt 7".into(), voids: vec![3], records: vec![corrected.clone()] };
        let events = plan(&g, ruling).unwrap();
        assert_eq!(events.len(), 3);
        assert_eq!(events[1], Event::EventVoided { seq: 3, reason: "Prussia was dealt 7".into() });
        assert_eq!(events[2], corrected);
        // A void of an event the stream does not hold: nothing of the ruling is planned.
        let refused = plan(&g, Ruling { text: "x".into(), voids: vec![40], records: vec![] }).unwrap_err();
        assert!(refused.to_string().contains("event 2 of 2"), "{refused}");
        let empty = plan(&g, Ruling { text: " ".into(), ..Ruling::default() }).unwrap_err();
        assert_eq!(empty.code(), crate::error::Code::InvalidArgument);
    }

    /// The stream's records, sealed one after the other.
    fn sealed(events: &[Event]) -> Vec<Recorded> {
        let mut prev = ledger::envelope::GENESIS;
        (1u64..)
            .zip(events)
            .map(|(seq, event)| {
                let draft = ledger::envelope::Draft {
                    stream: StreamId::game("g").unwrap(),
                    seq,
                    position: seq,
                    event_id: format!("e{seq}"),
                    recorded_at_ms: 0,
                    actor: "t".into(),
                };
                let record = Recorded::seal(draft, prev, event.clone());
                prev = record.envelope.hash;
                record
            })
            .collect()
    }

    /// Issue 43: correcting a drop-out recorded a turn early, after the game's end, is one
    /// ruling. The desk proposes the drop-out and the end voided and both recorded again, the
    /// drop-out's turn written out; the jury's edit (turn 7) is accepted as a whole.
    #[test]
    fn the_correction_proposed_carries_every_field_and_the_end_and_is_one_ruling() {
        let mut events = vec![Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }];
        for turn in 1..=12 {
            events.push(Event::TurnStarted { turn, at_ms: None });
            if turn == 6 {
                events.push(Event::NationDroppedOut {
                    nation: Nation::Russia,
                    objectives_held: 6,
                    objectives_total: 8,
                    turn: None,
                });
            }
        }
        let objectives = [
            (Nation::Sweden, (2, 5)),
            (Nation::Austria, (5, 12)),
            (Nation::ImperialArmy, (1, 5)),
            (Nation::France, (4, 10)),
        ];
        events.push(Event::GameEnded {
            outcome: ledger::Outcome::PrussianDefensiveVictory,
            winners: vec![Nation::Prussia],
            objectives: objectives.into_iter().collect(),
            bohemian_held_by_prussia: None,
        });
        let records = sealed(&events);
        let (drop_out, end) = (8, events.len() as u64);
        let g = Game::read(&StreamId::game("g").unwrap(), &records, Some(ledger::Ruleset::Cafe2023));
        let proposed = correction(&records, drop_out).unwrap();
        assert_eq!(proposed.voids, [drop_out, end]);
        let turned = |turn| Event::NationDroppedOut {
            nation: Nation::Russia,
            objectives_held: 6,
            objectives_total: 8,
            turn: Some(turn),
        };
        assert_eq!(proposed.records, [turned(6), events.last().unwrap().clone()]);
        // The drop-out alone, voided: refused, the rule named.
        let alone = Ruling { text: "x".into(), voids: vec![drop_out], records: vec![turned(7)] };
        let refused = plan(&g, alone).unwrap_err().to_string();
        assert!(
            refused.contains("event 2 of 3") && refused.contains("game_ended must report the objectives of russia"),
            "{refused}"
        );
        // The whole correction, the turn edited: accepted, the drop-out in turn 7.
        let mut ruling = Ruling { text: "Russia left in turn 7".into(), ..proposed };
        ruling.records[0] = turned(7);
        let planned = plan(&g, ruling).unwrap();
        assert_eq!(planned.len(), 5);
        let mut after = g.stream.clone();
        after.apply_all(&planned).unwrap();
        let Rules::Game(state) = after.rules() else { panic!() };
        assert_eq!(state.out.get(&Nation::Russia), Some(&7));
        // A jury event or a voided one cannot be corrected.
        assert!(correction(&records, 99).is_err());
    }
}
