//! The fold over one game stream: it keeps only the [`Facts`] scoring needs, event by event, so
//! that a sheet "as of seq N" is the fold of the first N events and an audit can replay any
//! prefix.
//!
//! The fold trusts the ledger's validation (`ledger::rules`): it does not refuse events, it
//! only reports what it cannot score (a stream that never started, an event of another stream).

use super::facts::{Ended, Facts, Left, OffensiveFacts, Switch};
use super::types::ScoreError;
use ledger::event::Family;
use ledger::{Event, Ruleset};

impl Facts {
    /// Folds in one event the jury has not voided. Jury events change nothing here; the clock,
    /// action stages, retreats and Cards of Fate do not score. `scheduled` is the ruleset of the
    /// scheduling tournament, for a `game_started` that names none.
    ///
    /// # Errors
    /// [`ScoreError::NotAGameEvent`] for a tournament event, [`ScoreError::AndesEvent`] for an
    /// Andes event, [`ScoreError::NotStarted`] for a game event before `game_started`. The facts
    /// are unchanged then.
    pub fn apply(&mut self, scheduled: Option<Ruleset>, event: &Event) -> Result<(), ScoreError> {
        match event.family() {
            Family::Tournament => return Err(ScoreError::NotAGameEvent(event.type_name())),
            Family::Andes => return Err(ScoreError::AndesEvent(event.type_name())),
            Family::Jury => return Ok(()),
            Family::Game => {}
        }
        if !self.started && !matches!(event, Event::GameStarted { .. }) {
            return Err(ScoreError::NotStarted(event.type_name()));
        }
        match event {
            Event::GameStarted { ruleset, .. } => {
                self.started = true;
                self.ruleset = ruleset.or(scheduled);
            }
            Event::TurnStarted { turn, .. } => self.turn = *turn,
            Event::TcDealt { nation, count } => {
                *self.tc.entry(*nation).or_insert(0) += i64::from(*count);
            }
            Event::NationDroppedOut { nation, objectives_held, objectives_total, turn } => {
                let turn = turn.unwrap_or(self.turn);
                self.left.insert(*nation, Left { turn, held: *objectives_held, total: *objectives_total });
            }
            Event::ImperialArmySwitched { to, objectives_held, objectives_total, turn } => {
                self.switches.push(Switch {
                    turn: turn.unwrap_or(self.turn),
                    from: self.imperial_army,
                    to: *to,
                    held: *objectives_held,
                    total: *objectives_total,
                });
                self.imperial_army = *to;
            }
            Event::OffensiveLaunched { set_aside_tc, turn } => {
                self.offensive = Some(OffensiveFacts {
                    launched_in: turn.unwrap_or(self.turn),
                    set_aside_tc: *set_aside_tc,
                    picked_up: false,
                    claimed: None,
                    called_off: None,
                });
            }
            Event::AustriaClaimedObjectives { count } => {
                if let Some(offensive) = self.offensive.as_mut() {
                    offensive.claimed = Some(*count);
                }
            }
            Event::SetAsideTcPickedUp {} => {
                if let Some(offensive) = self.offensive.as_mut() {
                    offensive.picked_up = true;
                }
            }
            Event::OffensiveCalledOff { bohemian_held_by_prussia, turn } => {
                if let Some(offensive) = self.offensive.as_mut() {
                    offensive.called_off = Some((turn.unwrap_or(self.turn), *bohemian_held_by_prussia));
                }
            }
            Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia } => {
                self.ended = Some(Ended {
                    turn: self.turn,
                    outcome: *outcome,
                    winners: winners.clone(),
                    objectives: objectives.clone(),
                    bohemian: *bohemian_held_by_prussia,
                });
            }
            Event::FateHorizonRecorded { turn } => self.fate_horizon = Some(*turn),
            // The clock, action stages, retreats and Cards of Fate do not score.
            Event::ClockStarted { .. }
            | Event::ClockPressed { .. }
            | Event::ClockStopped { .. }
            | Event::ActionStageStarted { .. }
            | Event::ActionStageEnded { .. }
            | Event::RetreatStarted { .. }
            | Event::RetreatEnded { .. }
            | Event::FateCardDrawn { .. } => {}
            // Another family's event returned above.
            ledger::tournament_events!() | ledger::jury_events!() | Event::Andes(_) => {}
        }
        Ok(())
    }
}
