//! The state machines that decide which events a stream accepts:
//! `decide(&state, &event)` refuses or accepts, `evolve(&mut state, &event)` applies.
//!
//! [`Folded`] is what deciding needs (the writer's state and its snapshots); [`StreamState`]
//! adds the events, for tools that replay a stream.
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
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The rules of one kind of stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

    /// A jury call or ruling: never replayed through the rules, but a game must have started
    /// and a tournament been created.
    fn decide_jury(&self, event: &Event) -> Result<(), Rejection> {
        match self {
            Rules::Tournament(state) => state.decide_jury(event),
            Rules::Game(state) => state.decide_jury(event),
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

/// What deciding a stream's next event needs, and nothing proportional to its length: the
/// rules' state, the version and the voided seqs. This is what the writer keeps per stream and
/// stores as a snapshot beside the log (it serializes), so a stream is never replayed to append.
///
/// A void is the one exception: checking it, and applying it, replays the stream without the
/// voided event, so [`Folded::decide`] and [`Folded::evolve`] take the stream's events for an
/// event that [`needs_history`] (the jury's, rare); the writer reads them from the log then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Folded {
    rules: Rules,
    version: u64,
    voided: BTreeSet<u64>,
}

/// Does deciding or applying `event` need the stream's earlier events?
pub fn needs_history(event: &Event) -> bool {
    matches!(event, Event::EventVoided { .. })
}

impl Folded {
    /// An empty stream. `scheduled_ruleset` is the ruleset of the tournament that scheduled a
    /// game, if any; it is ignored for tournament streams.
    pub fn new(stream: &StreamId, scheduled_ruleset: Option<Ruleset>) -> Self {
        let rules = match stream.kind() {
            StreamKind::Tournament => Rules::Tournament(TournamentState::default()),
            StreamKind::Game => Rules::Game(GameState::new(scheduled_ruleset)),
        };
        Folded { rules, version: 0, voided: BTreeSet::new() }
    }

    /// The seq of the last event (0 for an empty stream).
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn is_voided(&self, seq: u64) -> bool {
        self.voided.contains(&seq)
    }

    /// Would the stream accept `event` next? `history` is the stream's events in seq order,
    /// read only when [`needs_history`] says so (pass `&[]` otherwise).
    ///
    /// # Errors
    /// The rule the event breaks; nothing changes.
    pub fn decide(&self, event: &Event, history: &[Event]) -> Result<(), Rejection> {
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
            Event::EventVoided { seq, .. } => self.decide_void(*seq, history),
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => self.rules.decide_jury(event),
            _ => self.rules.decide(event),
        }
    }

    /// Applies an accepted event. `history` as for [`Folded::decide`]: the events before this
    /// one, needed only when [`needs_history`] says so.
    pub fn evolve(&mut self, event: &Event, history: &[Event]) {
        match event {
            Event::EventVoided { seq, .. } => {
                self.voided.insert(*seq);
                self.rules = self.rebuild(history);
            }
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => {}
            _ => self.rules.evolve(event),
        }
        self.version += 1;
    }

    fn decide_void(&self, seq: u64, history: &[Event]) -> Result<(), Rejection> {
        debug_assert_eq!(history.len() as u64, self.version, "a void is decided over the whole stream");
        let Some(target) = usize::try_from(seq).ok().and_then(|s| history.get(s.wrapping_sub(1))) else {
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
        self.replay_without(Some(seq), history).map(|_| ()).map_err(|(bad_seq, rejection)| {
            Rejection::precondition(format!(
                "voiding event {seq} ({}) would leave event {bad_seq} invalid: {}",
                target.type_name(),
                rejection.message
            ))
        })
    }

    /// The rules' state from every event not voided, applied without deciding: total, so that a
    /// stream stored under older rules still loads (the void itself was decided before).
    fn rebuild(&self, history: &[Event]) -> Rules {
        let mut rules = self.rules.fresh();
        for (seq, event) in (1u64..).zip(history) {
            if !self.voided.contains(&seq) && event.family() != Family::Jury {
                rules.evolve(event);
            }
        }
        rules
    }

    /// Replays every event that is not voided (nor `extra_void`) through fresh rules.
    fn replay_without(&self, extra_void: Option<u64>, history: &[Event]) -> Result<Rules, (u64, Rejection)> {
        let mut rules = self.rules.fresh();
        for (seq, event) in (1u64..).zip(history) {
            if self.voided.contains(&seq) || extra_void == Some(seq) || event.family() == Family::Jury {
                continue;
            }
            rules.decide(event).map_err(|r| (seq, r))?;
            rules.evolve(event);
        }
        Ok(rules)
    }
}

/// A stream's [`Folded`] state together with every event in order: what offline tools (the
/// jury's audit, `ledgerctl check`, projections) hold while they replay a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamState {
    fold: Folded,
    history: Vec<Event>,
}

impl StreamState {
    /// An empty stream; see [`Folded::new`].
    pub fn new(stream: &StreamId, scheduled_ruleset: Option<Ruleset>) -> Self {
        StreamState { fold: Folded::new(stream, scheduled_ruleset), history: Vec::new() }
    }

    /// The seq of the last event (0 for an empty stream).
    pub fn version(&self) -> u64 {
        self.fold.version()
    }

    pub fn rules(&self) -> &Rules {
        self.fold.rules()
    }

    pub fn is_voided(&self, seq: u64) -> bool {
        self.fold.is_voided(seq)
    }

    /// The folded state alone.
    pub fn folded(&self) -> &Folded {
        &self.fold
    }

    /// Would the stream accept `event` next?
    ///
    /// # Errors
    /// The rule the event breaks; nothing changes.
    pub fn decide(&self, event: &Event) -> Result<(), Rejection> {
        self.fold.decide(event, &self.history)
    }

    /// Applies an accepted event.
    pub fn evolve(&mut self, event: &Event) {
        self.fold.evolve(event, &self.history);
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

    /// Every event in order, with its seq (voided ones and jury events included).
    pub fn events(&self) -> impl Iterator<Item = (u64, &Event)> {
        (1u64..).zip(&self.history)
    }
}

#[cfg(test)]
mod tests;
