//! The score sheet of one game (spec §3–5, docs/RULES.md): every nation's score with the turn it
//! was fixed in, every role's game score, the offensive option, the tactical-card
//! coefficients and the tie-breaker inputs standings need, plus one `explain` line per number
//! so that a jury can check the sheet by hand.
//!
//! A sheet is a fold ([`GameFold`]) over the game's events without the voided ones; a game
//! that has not ended has the scores of the nations that left and `None` for the rest.
//!
//! # Layers
//!
//! Each module imports only from the layers before it, so a formula is read (and replaced)
//! without the events or the assembly around it:
//!
//! 1. `types`: the public types every layer shares ([`ScoreSheet`] and its lines, [`ScoreError`]).
//! 2. `facts`: what the events say (drop-outs, switches, the offensive, cards, the end);
//!    `fold` gathers them event by event.
//! 3. `cafe`, `wm2015`, `tc`: each ruleset's formulas, pure functions of the facts that return a
//!    value and its explain line.
//! 4. `formulas`: the one place a [`Ruleset`] picks its scoring formulas (the sTCC, which only
//!    cafe2023 has, and the places a ruleset shows are decided where they are computed: `tc`,
//!    [`display_places`]).
//! 5. `build`: assembles the [`ScoreSheet`] with those formulas; `render` writes a sheet as JSON
//!    and text.
//! 6. This module: the entry points, [`GameFold`] and [`score_game`] and its kin.

mod build;
mod cafe;
mod facts;
mod fold;
mod formulas;
mod render;
mod tc;
mod types;
mod wm2015;

pub use render::SheetJson;
pub use tc::scaled_tcc;
pub use types::{
    display_places, population_variance, Coefficient, FixedBy, GameStatus, NationScore, NoStcc, OffensiveScore,
    RoleScore, ScoreError, ScoreSheet, TcCount,
};

use facts::Facts;
use ledger::{Event, Ruleset};
use std::collections::BTreeSet;

/// A game folded event by event. Feed it the stream's events in order, leaving out the ones
/// the jury voided (see [`score_game`], which does that for a whole stream).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFold {
    scheduled: Option<Ruleset>,
    facts: Facts,
    n_events: u64,
}

impl GameFold {
    /// An empty game. `scheduled` is the ruleset of the tournament that scheduled it, if any;
    /// a stand-alone game names its own in `game_started`.
    pub fn new(scheduled: Option<Ruleset>) -> Self {
        GameFold { scheduled, facts: Facts::new(), n_events: 0 }
    }

    /// How many events were applied (jury events included).
    pub fn n_events(&self) -> u64 {
        self.n_events
    }

    /// Applies one event that the jury has not voided. Jury events change nothing here; the
    /// clock, action stages, retreats and Cards of Fate do not score.
    ///
    /// # Errors
    /// [`ScoreError::NotAGameEvent`] for a tournament event, [`ScoreError::AndesEvent`] for an
    /// Andes event, [`ScoreError::NotStarted`] for a game event before `game_started`. The fold
    /// is unchanged then.
    pub fn apply(&mut self, event: &Event) -> Result<(), ScoreError> {
        self.facts.apply(self.scheduled, event)?;
        self.n_events += 1;
        Ok(())
    }

    /// The score sheet of the game as folded so far.
    ///
    /// # Errors
    /// [`ScoreError::NotStarted`] before `game_started`, [`ScoreError::NoRuleset`] when
    /// neither the game nor its tournament names a ruleset, [`ScoreError::Inconsistent`] when
    /// `game_ended` lacks a nation's objectives (the ledger refuses such a stream).
    pub fn sheet(&self) -> Result<ScoreSheet, ScoreError> {
        if !self.facts.started {
            return Err(ScoreError::NotStarted("the score sheet"));
        }
        let ruleset = self.facts.ruleset.ok_or(ScoreError::NoRuleset)?;
        build::build(ruleset, &self.facts)
    }
}

/// The seqs an event stream's `event_voided` events void.
pub fn voided_seqs(events: &[(u64, Event)]) -> BTreeSet<u64> {
    events
        .iter()
        .filter_map(|(_, event)| match event {
            Event::EventVoided { seq, .. } => Some(*seq),
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => None,
            ledger::tournament_events!() | ledger::game_events!() | Event::Andes(_) => None,
        })
        .collect()
}

/// The ruleset a `game_started` names (`Some(None)` when it names none); `None` for every other
/// event.
pub fn started_with(event: &Event) -> Option<Option<Ruleset>> {
    // A lookup of one named event, not a fold: nothing can be missed here.
    match event {
        Event::GameStarted { ruleset, .. } => Some(*ruleset),
        _ => None,
    }
}

/// Scores a whole game stream: `(seq, event)` pairs in seq order. Events voided by an
/// `event_voided` in the slice are skipped, and so are jury events. `scheduled` is the
/// ruleset of the scheduling tournament, if any.
///
/// # Errors
/// See [`GameFold::apply`] and [`GameFold::sheet`].
pub fn score_game(scheduled: Option<Ruleset>, events: &[(u64, Event)]) -> Result<ScoreSheet, ScoreError> {
    score_without(scheduled, events, &voided_seqs(events))
}

/// Scores `events` leaving out the seqs in `voided`, whatever the slice itself voids: an
/// audit can apply the voids of the whole stream to a prefix ("turn 5 as the jury now sees it").
///
/// # Errors
/// See [`GameFold::apply`] and [`GameFold::sheet`].
pub fn score_without(
    scheduled: Option<Ruleset>,
    events: &[(u64, Event)],
    voided: &BTreeSet<u64>,
) -> Result<ScoreSheet, ScoreError> {
    let mut fold = GameFold::new(scheduled);
    for (seq, event) in events {
        if !voided.contains(seq) {
            fold.apply(event)?;
        }
    }
    fold.sheet()
}

/// The sheet as it stood after event `as_of` (voids recorded later are not yet known).
///
/// # Errors
/// As [`score_game`].
pub fn score_game_as_of(
    scheduled: Option<Ruleset>,
    events: &[(u64, Event)],
    as_of: u64,
) -> Result<ScoreSheet, ScoreError> {
    let end = events.partition_point(|(seq, _)| *seq <= as_of);
    score_game(scheduled, &events[..end])
}

/// Numbers events 1, 2, 3 … as the ledger does for a stream read from a file.
pub fn with_seqs(events: impl IntoIterator<Item = Event>) -> Vec<(u64, Event)> {
    (1u64..).zip(events).collect()
}
