//! The jury's ruling on a game, one typed way in for the jury's desk (`/jury/<game>`) and
//! `ledgerctl rule`: the ruling's text, and with it, if the jury says so, an event voided and
//! the event that should have been recorded instead — recorded together, in one append, or not
//! at all. Corrections are events, never edits: the voided event stays in the stream, struck
//! through, with the ruling beside it.

use super::check_on;
use crate::error::Error;
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// The ruling, as the jury writes it (also the void's reason).
    pub text: String,
    /// The seq of an event recorded in error.
    pub void: Option<u64>,
    /// What should have been recorded instead (or missing altogether), recorded after the void.
    pub corrected: Option<Event>,
}

/// The events a ruling records, checked by the game's rules one after the other: the ruling,
/// the void, the corrected event.
///
/// # Errors
/// `INVALID_ARGUMENT` for an empty ruling; the rules' refusal of the first event they refuse
/// (named `event N of M`).
pub fn plan(game: &Game, ruling: Ruling) -> Result<Vec<Event>, Error> {
    if ruling.text.trim().is_empty() {
        return Err(Error::InvalidArgument("a ruling says what the jury decided: its text is empty".into()));
    }
    let mut events = vec![Event::JuryRuling { text: ruling.text.clone() }];
    if let Some(seq) = ruling.void {
        events.push(Event::EventVoided { seq, reason: ruling.text.clone() });
    }
    events.extend(ruling.corrected);
    if let Err(refused) = check_on(&game.stream, &events) {
        let first = &refused[0];
        let rejection = first.rejection.clone().context(format!("event {} of {}", first.index + 1, events.len()));
        return Err(Error::Refused(rejection));
    }
    Ok(events)
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
        let ruling = Ruling { text: "Prussia was dealt 7".into(), void: Some(3), corrected: Some(corrected.clone()) };
        let events = plan(&g, ruling).unwrap();
        assert_eq!(events.len(), 3);
        assert_eq!(events[1], Event::EventVoided { seq: 3, reason: "Prussia was dealt 7".into() });
        assert_eq!(events[2], corrected);
        // A void of an event the stream does not hold: nothing of the ruling is planned.
        let refused = plan(&g, Ruling { text: "x".into(), void: Some(40), corrected: None }).unwrap_err();
        assert!(refused.to_string().contains("event 2 of 2"), "{refused}");
        let empty = plan(&g, Ruling { text: " ".into(), void: None, corrected: None }).unwrap_err();
        assert_eq!(empty.code(), crate::error::Code::InvalidArgument);
    }
}
