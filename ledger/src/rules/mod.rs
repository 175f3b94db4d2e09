//! The state machines that decide which events a stream accepts:
//! `decide(&state, &event)` refuses or accepts, `evolve(&mut state, &event)` applies.
//!
//! [`Folded`] is what deciding needs (the writer's state and its snapshots); [`StreamState`]
//! adds the events, for tools that replay a stream.
//!
//! An Andes match (`andes/<match>`) is a third kind: its rules are `crate::andes`, and after a
//! move they wait for the events the ledger derives from it ([`Folded::pending_derived`]).
//!
//! Jury corrections live here too: an `event_voided` removes an earlier event from every
//! projection, and is refused when the stream without that event would not replay cleanly.

mod game;
mod ruling;
mod tournament;

pub use game::{GameState, Offensive, MAX_TURNS, SET_ASIDE_EARLIEST_TURN};
pub use ruling::void_run;
pub use tournament::{ScheduledGame, TournamentState};

use crate::andes::{self, AndesState};
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
    /// An Andes match. Snapshots encode by position: new kinds go last.
    Andes(AndesState),
}

impl Rules {
    /// The kind of stream these rules are for.
    pub fn kind(&self) -> StreamKind {
        match self {
            Rules::Tournament(_) => StreamKind::Tournament,
            Rules::Game(_) => StreamKind::Game,
            Rules::Andes(_) => StreamKind::Andes,
        }
    }

    fn decide(&self, event: &Event) -> Result<(), Rejection> {
        match (self, event) {
            (Rules::Tournament(state), _) => state.decide(event),
            (Rules::Game(state), _) => state.decide(event),
            (Rules::Andes(state), Event::Andes(andes)) => andes::decide(state, andes).map_err(Rejection::from),
            // `Folded::decide` refuses other families first; replays never mix them either.
            (Rules::Andes(_), _) => Err(family_mismatch(event, StreamKind::Andes)),
        }
    }

    /// A jury call or ruling: never replayed through the rules, but a game must have started
    /// and a tournament been created.
    fn decide_jury(&self, event: &Event) -> Result<(), Rejection> {
        match self {
            Rules::Tournament(state) => state.decide_jury(event),
            Rules::Game(state) => state.decide_jury(event),
            Rules::Andes(state) => match state.setup {
                Some(_) => Ok(()),
                None => Err(Rejection::precondition(format!(
                    "the match has not been created: match_created comes before {}",
                    event.type_name()
                ))
                .said("law-jury-no-match", [])),
            },
        }
    }

    fn evolve(&mut self, event: &Event) {
        match (self, event) {
            (Rules::Tournament(state), _) => state.evolve(event),
            (Rules::Game(state), _) => state.evolve(event),
            (Rules::Andes(state), Event::Andes(andes)) => andes::evolve(state, andes),
            (Rules::Andes(_), _) => {}
        }
    }

    fn fresh(&self) -> Rules {
        match self {
            Rules::Tournament(state) => Rules::Tournament(state.fresh()),
            Rules::Game(state) => Rules::Game(state.fresh()),
            Rules::Andes(_) => Rules::Andes(AndesState::new()),
        }
    }
}

/// `event` does not belong in a stream of `kind`, e.g. `player_registered belongs in a
/// tournament stream, not a game stream` or `move_played belongs in an andes stream, not a game
/// stream`.
fn family_mismatch(event: &Event, kind: StreamKind) -> Rejection {
    let a_stream = |kind: StreamKind| match kind {
        StreamKind::Tournament | StreamKind::Game => format!("a {} stream", kind.prefix()),
        StreamKind::Andes => format!("an {} stream", kind.prefix()),
    };
    let home = match event.family() {
        Family::Tournament => a_stream(StreamKind::Tournament),
        Family::Game => a_stream(StreamKind::Game),
        Family::Andes => a_stream(StreamKind::Andes),
        Family::Jury => "any stream".to_owned(),
    };
    let hint = match (event, kind) {
        (Event::GameStarted { .. }, StreamKind::Andes) => " (an Andes game_started names its `game`, 1 or 2)",
        (Event::GameEnded { .. }, StreamKind::Andes) => " (an Andes game_ended is derived by the ledger)",
        _ => "",
    };
    Rejection::malformed(format!("{} belongs in {home}, not {}{hint}", event.type_name(), a_stream(kind))).said(
        "refusal-wrong-stream",
        [
            ("type", crate::rejection::Arg::name("table-event-name", event.type_name())),
            ("kind", crate::rejection::Arg::name("stream-kind", kind.prefix())),
        ],
    )
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
            StreamKind::Tournament => Rules::Tournament(TournamentState::new(stream.id())),
            StreamKind::Game => Rules::Game(GameState::new(scheduled_ruleset)),
            StreamKind::Andes => Rules::Andes(AndesState::new()),
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
        let stream_kind = self.rules.kind();
        match (event.family(), stream_kind) {
            (Family::Tournament, StreamKind::Tournament)
            | (Family::Game, StreamKind::Game)
            | (Family::Andes, StreamKind::Andes)
            | (Family::Jury, StreamKind::Tournament | StreamKind::Game | StreamKind::Andes) => {}
            (Family::Tournament, StreamKind::Game | StreamKind::Andes)
            | (Family::Game, StreamKind::Tournament | StreamKind::Andes)
            | (Family::Andes, StreamKind::Tournament | StreamKind::Game) => {
                return Err(family_mismatch(event, stream_kind));
            }
        }
        match event {
            Event::EventVoided { .. } => self.decide_voids(std::slice::from_ref(event), history),
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => self.rules.decide_jury(event),
            crate::tournament_events!() | crate::game_events!() | Event::Andes(_) => self.rules.decide(event),
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
            crate::tournament_events!() | crate::game_events!() | Event::Andes(_) => self.rules.evolve(event),
        }
        self.version += 1;
    }

    /// The events the rules wait for next, in order: those the ledger derives from the event
    /// just applied (an Andes move's attack, captures and end of game) and appends right after
    /// it, in the same append. Empty for every other stream and event.
    pub fn pending_derived(&self) -> Vec<Event> {
        match &self.rules {
            Rules::Andes(state) => state
                .game
                .as_ref()
                .map(|game| game.pending.iter().map(|c| Event::Andes(c.event())).collect())
                .unwrap_or_default(),
            Rules::Tournament(_) | Rules::Game(_) => Vec::new(),
        }
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

    /// Decides and applies a run of `event_voided`s together, as one ruling's voids: the
    /// stream without all of them must replay ([`Folded::decide_voids`]).
    ///
    /// # Errors
    /// The rule the run breaks; the state is unchanged then.
    pub fn apply_voids(&mut self, voids: &[Event]) -> Result<(), Rejection> {
        self.fold.decide_voids(voids, &self.history)?;
        voids.iter().for_each(|void| self.evolve(void));
        Ok(())
    }

    /// Would the stream accept `voids`, a run of voids, together ([`Folded::decide_voids`])?
    ///
    /// # Errors
    /// The rule the run breaks.
    pub fn decide_voids(&self, voids: &[Event]) -> Result<(), Rejection> {
        self.fold.decide_voids(voids, &self.history)
    }

    /// Decides and applies the events of one append as the writer does: each after the ones
    /// before it, a run of consecutive voids together ([`void_run`]). All or nothing.
    ///
    /// # Errors
    /// The index of the first event refused (of a run of voids, its first) and why; the state
    /// is unchanged then.
    pub fn apply_all(&mut self, events: &[Event]) -> Result<(), (usize, Rejection)> {
        let mut next = self.clone();
        let mut index = 0;
        while index < events.len() {
            let run = void_run(&events[index..]);
            if run > 1 {
                next.apply_voids(&events[index..index + run]).map_err(|r| (index, r))?;
                index += run;
            } else {
                next.apply(&events[index]).map_err(|r| (index, r))?;
                index += 1;
            }
        }
        *self = next;
        Ok(())
    }

    /// Every event in order, with its seq (voided ones and jury events included).
    pub fn events(&self) -> impl Iterator<Item = (u64, &Event)> {
        (1u64..).zip(&self.history)
    }
}

#[cfg(test)]
mod tests;
