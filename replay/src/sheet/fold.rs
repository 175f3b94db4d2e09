//! The fold over one game stream: it keeps only the facts scoring needs (turn, drop-outs,
//! Imperial Army switches, the offensive, tactical cards, the end), event by event, so that a
//! sheet "as of seq N" is the fold of the first N events and an audit can replay any prefix.
//!
//! The fold trusts the ledger's validation (`ledger::rules`): it does not refuse events, it
//! only reports what it cannot score (a stream that never started, a game with no ruleset).

use super::{ScoreError, ScoreSheet};
use ledger::{Event, Nation, Outcome, Role, Ruleset};
use std::collections::BTreeMap;

/// A nation that left by a Card of Fate: its objectives and turn are fixed then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Left {
    pub turn: u32,
    pub held: i32,
    pub total: i32,
}

/// One change of the Imperial Army's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Switch {
    pub turn: u32,
    pub from: Role,
    pub to: Role,
    pub held: i32,
    pub total: i32,
}

/// The Prussian offensive option as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OffensiveFacts {
    pub launched_in: u32,
    pub set_aside_tc: i32,
    pub picked_up: bool,
    pub claimed: Option<i32>,
    /// Turn of the call-off and the Bohemian objectives Prussia held then.
    pub called_off: Option<(u32, i32)>,
}

/// How the offensive ended, when it has: the turn, Prussia's Bohemian objectives then, and
/// whether it ended in a Prussian offensive victory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OffensiveEnd {
    pub turn: u32,
    pub bohemian: i32,
    pub succeeded: bool,
    pub called_off: bool,
}

/// The recorded `game_ended`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ended {
    pub turn: u32,
    pub outcome: Outcome,
    pub winners: Vec<Nation>,
    pub objectives: BTreeMap<Nation, (i32, i32)>,
    pub bohemian: Option<i32>,
}

/// Everything scoring reads, gathered from the events so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Facts {
    pub ruleset: Option<Ruleset>,
    pub started: bool,
    pub turn: u32,
    pub tc: BTreeMap<Nation, i64>,
    pub left: BTreeMap<Nation, Left>,
    pub imperial_army: Role,
    pub switches: Vec<Switch>,
    pub offensive: Option<OffensiveFacts>,
    pub ended: Option<Ended>,
    pub fate_horizon: Option<u32>,
}

impl Facts {
    /// The role that controls a nation now (or controlled it when it left).
    pub fn controller(&self, nation: Nation) -> Role {
        if nation == Nation::ImperialArmy {
            self.imperial_army
        } else {
            nation.starting_role()
        }
    }

    pub fn offensive_end(&self) -> Option<OffensiveEnd> {
        let offensive = self.offensive?;
        if let Some((turn, bohemian)) = offensive.called_off {
            return Some(OffensiveEnd { turn, bohemian, succeeded: false, called_off: true });
        }
        let ended = self.ended.as_ref()?;
        let bohemian = ended.bohemian?;
        Some(OffensiveEnd {
            turn: ended.turn,
            bohemian,
            succeeded: ended.outcome == Outcome::PrussianOffensiveVictory,
            called_off: false,
        })
    }
}

/// A game folded event by event. Feed it the stream's events in order, leaving out the ones
/// the jury voided (see [`super::score_game`], which does that for a whole stream).
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
        GameFold {
            scheduled,
            facts: Facts {
                ruleset: None,
                started: false,
                turn: 0,
                tc: BTreeMap::new(),
                left: BTreeMap::new(),
                imperial_army: Role::MariaTheresa,
                switches: Vec::new(),
                offensive: None,
                ended: None,
                fate_horizon: None,
            },
            n_events: 0,
        }
    }

    /// How many events were applied (jury events included).
    pub fn n_events(&self) -> u64 {
        self.n_events
    }

    /// Applies one event that the jury has not voided. Jury events change nothing here; the
    /// clock, action stages, retreats and Cards of Fate do not score.
    ///
    /// # Errors
    /// [`ScoreError::NotAGameEvent`] for a tournament event, [`ScoreError::NotStarted`] for a
    /// game event before `game_started`. The fold is unchanged then.
    pub fn apply(&mut self, event: &Event) -> Result<(), ScoreError> {
        let facts = &mut self.facts;
        match event.family() {
            ledger::event::Family::Tournament => return Err(ScoreError::NotAGameEvent(event.type_name())),
            ledger::event::Family::Andes => return Err(ScoreError::AndesEvent(event.type_name())),
            ledger::event::Family::Jury => {
                self.n_events += 1;
                return Ok(());
            }
            ledger::event::Family::Game => {}
        }
        if !facts.started && !matches!(event, Event::GameStarted { .. }) {
            return Err(ScoreError::NotStarted(event.type_name()));
        }
        match event {
            Event::GameStarted { ruleset, .. } => {
                facts.started = true;
                facts.ruleset = ruleset.or(self.scheduled);
            }
            Event::TurnStarted { turn, .. } => facts.turn = *turn,
            Event::TcDealt { nation, count } => {
                *facts.tc.entry(*nation).or_insert(0) += i64::from(*count);
            }
            Event::NationDroppedOut { nation, objectives_held, objectives_total, turn } => {
                let turn = turn.unwrap_or(facts.turn);
                facts.left.insert(*nation, Left { turn, held: *objectives_held, total: *objectives_total });
            }
            Event::ImperialArmySwitched { to, objectives_held, objectives_total, turn } => {
                facts.switches.push(Switch {
                    turn: turn.unwrap_or(facts.turn),
                    from: facts.imperial_army,
                    to: *to,
                    held: *objectives_held,
                    total: *objectives_total,
                });
                facts.imperial_army = *to;
            }
            Event::OffensiveLaunched { set_aside_tc, turn } => {
                facts.offensive = Some(OffensiveFacts {
                    launched_in: turn.unwrap_or(facts.turn),
                    set_aside_tc: *set_aside_tc,
                    picked_up: false,
                    claimed: None,
                    called_off: None,
                });
            }
            Event::AustriaClaimedObjectives { count } => {
                if let Some(offensive) = facts.offensive.as_mut() {
                    offensive.claimed = Some(*count);
                }
            }
            Event::SetAsideTcPickedUp {} => {
                if let Some(offensive) = facts.offensive.as_mut() {
                    offensive.picked_up = true;
                }
            }
            Event::OffensiveCalledOff { bohemian_held_by_prussia, turn } => {
                if let Some(offensive) = facts.offensive.as_mut() {
                    offensive.called_off = Some((turn.unwrap_or(facts.turn), *bohemian_held_by_prussia));
                }
            }
            Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia } => {
                facts.ended = Some(Ended {
                    turn: facts.turn,
                    outcome: *outcome,
                    winners: winners.clone(),
                    objectives: objectives.clone(),
                    bohemian: *bohemian_held_by_prussia,
                });
            }
            Event::FateHorizonRecorded { turn } => facts.fate_horizon = Some(*turn),
            _ => {}
        }
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
        super::build::build(ruleset, &self.facts)
    }
}
