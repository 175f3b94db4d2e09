//! The state machines that decide which events a stream accepts:
//! `decide(&state, &event)` refuses or accepts, `evolve(&mut state, &event)` applies.
//!
//! Jury corrections live here too: an `event_voided` removes an earlier event from every
//! projection, and is refused when the stream without that event would not replay cleanly.

mod game;
mod tournament;

pub use game::{GameState, Offensive};
pub use tournament::{ScheduledGame, TournamentState};

use crate::event::{Event, Family};
use crate::names::Ruleset;
use crate::rejection::Rejection;
use crate::stream::{StreamId, StreamKind};
use std::collections::BTreeSet;

/// The rules of one kind of stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rules {
    Tournament(TournamentState),
    Game(GameState),
}

impl Rules {
    fn decide(&self, event: &Event) -> Result<(), Rejection> {
        match self {
            Rules::Tournament(state) => state.decide(event),
            Rules::Game(state) => state.decide(event),
        }
    }

    fn evolve(&mut self, event: &Event) {
        match self {
            Rules::Tournament(state) => state.evolve(event),
            Rules::Game(state) => state.evolve(event),
        }
    }

    fn fresh(&self) -> Rules {
        match self {
            Rules::Tournament(_) => Rules::Tournament(TournamentState::default()),
            Rules::Game(state) => Rules::Game(state.fresh()),
        }
    }
}

/// Everything the ledger knows about one stream for validation: its rules' state, every event
/// in order, and which of them the jury voided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamState {
    rules: Rules,
    history: Vec<Event>,
    voided: BTreeSet<u64>,
}

impl StreamState {
    /// An empty stream. `scheduled_ruleset` is the ruleset of the tournament that scheduled a
    /// game, if any; it is ignored for tournament streams.
    pub fn new(stream: &StreamId, scheduled_ruleset: Option<Ruleset>) -> Self {
        let rules = match stream.kind() {
            StreamKind::Tournament => Rules::Tournament(TournamentState::default()),
            StreamKind::Game => Rules::Game(GameState::new(scheduled_ruleset)),
        };
        StreamState { rules, history: Vec::new(), voided: BTreeSet::new() }
    }

    /// The seq of the last event (0 for an empty stream).
    pub fn version(&self) -> u64 {
        self.history.len() as u64
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn is_voided(&self, seq: u64) -> bool {
        self.voided.contains(&seq)
    }

    /// Would the stream accept `event` next?
    ///
    /// # Errors
    /// The rule the event breaks; nothing changes.
    pub fn decide(&self, event: &Event) -> Result<(), Rejection> {
        event.check_shape()?;
        let stream_kind = match &self.rules {
            Rules::Tournament(_) => StreamKind::Tournament,
            Rules::Game(_) => StreamKind::Game,
        };
        match (event.family(), stream_kind) {
            (Family::Tournament, StreamKind::Game) | (Family::Game, StreamKind::Tournament) => {
                return Err(Rejection::malformed(format!(
                    "{} belongs in a {} stream, not a {} stream",
                    event.type_name(),
                    if stream_kind == StreamKind::Game { "tournament" } else { "game" },
                    stream_kind.prefix()
                )));
            }
            _ => {}
        }
        match event {
            Event::EventVoided { seq, .. } => self.decide_void(*seq),
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => Ok(()),
            _ => self.rules.decide(event),
        }
    }

    /// Applies an accepted event.
    pub fn evolve(&mut self, event: &Event) {
        match event {
            Event::EventVoided { seq, .. } => {
                self.voided.insert(*seq);
                self.rules = self.rebuild();
            }
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => {}
            _ => self.rules.evolve(event),
        }
        self.history.push(event.clone());
    }

    /// Decides and applies in one step.
    ///
    /// # Errors
    /// The rule the event breaks; the state is unchanged then.
    pub fn apply(&mut self, event: &Event) -> Result<(), Rejection> {
        self.decide(event)?;
        self.evolve(event);
        Ok(())
    }

    fn decide_void(&self, seq: u64) -> Result<(), Rejection> {
        let Some(target) = usize::try_from(seq).ok().and_then(|s| self.history.get(s.wrapping_sub(1))) else {
            return Err(Rejection::precondition(format!(
                "there is no event {seq} to void: the stream has {} events",
                self.version()
            )));
        };
        if self.voided.contains(&seq) {
            return Err(Rejection::precondition(format!("event {seq} ({}) is already voided", target.type_name())));
        }
        if matches!(target, Event::EventVoided { .. }) {
            return Err(Rejection::precondition(format!(
                "event {seq} is itself a void; record a new ruling instead of voiding a void"
            )));
        }
        self.replay_without(Some(seq)).map(|_| ()).map_err(|(bad_seq, rejection)| {
            Rejection::precondition(format!(
                "voiding event {seq} ({}) would leave event {bad_seq} invalid: {}",
                target.type_name(),
                rejection.message
            ))
        })
    }

    /// Every event in order, with its seq (voided ones and jury events included).
    pub fn events(&self) -> impl Iterator<Item = (u64, &Event)> {
        (1u64..).zip(&self.history)
    }

    /// The rules' state from every event not voided, applied without deciding: total, so that a
    /// stream stored under older rules still loads (the void itself was decided before).
    fn rebuild(&self) -> Rules {
        let mut rules = self.rules.fresh();
        for (seq, event) in self.events() {
            if !self.voided.contains(&seq) && event.family() != Family::Jury {
                rules.evolve(event);
            }
        }
        rules
    }

    /// Replays every event that is not voided (nor `extra_void`) through fresh rules.
    fn replay_without(&self, extra_void: Option<u64>) -> Result<Rules, (u64, Rejection)> {
        let mut rules = self.rules.fresh();
        for (seq, event) in (1u64..).zip(&self.history) {
            if self.voided.contains(&seq) || extra_void == Some(seq) || event.family() == Family::Jury {
                continue;
            }
            rules.decide(event).map_err(|r| (seq, r))?;
            rules.evolve(event);
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests;
