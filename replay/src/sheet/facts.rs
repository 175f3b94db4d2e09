//! What the events say, as far as scoring needs it: the turn, drop-outs, Imperial Army switches,
//! the offensive, tactical cards and the end ([`super::fold`] gathers them event by event). The
//! formulas read these and nothing else, so a ruleset's formula never sees an event.

use super::types::{FixedBy, ScoreError};
use ledger::{Nation, Outcome, Role, Ruleset};
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

/// When and with what an attacking nation's score was fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fix {
    pub turn: u32,
    pub by: FixedBy,
    pub held: i32,
    pub total: i32,
    pub won: bool,
}

/// Everything scoring reads, gathered from the events so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Facts {
    pub ruleset: Option<Ruleset>,
    pub started: bool,
    pub turn: u32,
    pub tc: BTreeMap<Nation, i64>,
    pub left: BTreeMap<Nation, Left>,
    /// The Imperial Army's controller now (see [`Nation::controller`]).
    pub imperial_army: Role,
    pub switches: Vec<Switch>,
    pub offensive: Option<OffensiveFacts>,
    pub ended: Option<Ended>,
    pub fate_horizon: Option<u32>,
}

impl Facts {
    /// A game before `game_started`.
    pub fn new() -> Self {
        Facts {
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
        }
    }

    /// The role that controls a nation now (or controlled it when it left).
    pub fn controller(&self, nation: Nation) -> Role {
        nation.controller(self.imperial_army)
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

    /// When and with what an attacking nation's score is fixed: when it left, else at the end;
    /// `None` while it is still in a running game.
    ///
    /// # Errors
    /// [`ScoreError::Inconsistent`] when `game_ended` lacks the nation's objectives or gives a
    /// total of 0 or less (the ledger refuses such a stream).
    pub fn fix(&self, nation: Nation) -> Result<Option<Fix>, ScoreError> {
        if let Some(left) = self.left.get(&nation) {
            return Ok(Some(Fix {
                turn: left.turn,
                by: FixedBy::DroppedOut,
                held: left.held,
                total: left.total,
                won: false,
            }));
        }
        let Some(ended) = self.ended.as_ref() else {
            return Ok(None);
        };
        let &(held, total) = ended.objectives.get(&nation).ok_or_else(|| {
            ScoreError::Inconsistent(format!("game_ended gives no objectives for {nation}, still in the game"))
        })?;
        if total <= 0 {
            return Err(ScoreError::Inconsistent(format!("game_ended gives {nation} an objectives total of {total}")));
        }
        Ok(Some(Fix { turn: ended.turn, by: FixedBy::GameEnded, held, total, won: ended.winners.contains(&nation) }))
    }
}
