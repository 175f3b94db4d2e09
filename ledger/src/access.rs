//! Who may record what. Every append carries the clearance its sender was given (by a verified
//! token, or trusted from a header in open mode); the ledger checks it before the game rules.

use crate::event::{Event, Family};
use crate::rejection::Rejection;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an identity may record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clearance {
    /// A table client: the events of play.
    Table,
    /// An organiser: also the tournament's events.
    Organiser,
    /// The jury: everything, and alone rulings and voids.
    Jury,
}

impl Clearance {
    pub fn as_str(self) -> &'static str {
        match self {
            Clearance::Table => "table",
            Clearance::Organiser => "organiser",
            Clearance::Jury => "jury",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "table" => Some(Clearance::Table),
            "organiser" | "organizer" => Some(Clearance::Organiser),
            "jury" => Some(Clearance::Jury),
            _ => None,
        }
    }
}

impl fmt::Display for Clearance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Refuses an event its sender is not cleared for.
///
/// # Errors
/// A [`crate::RejectionKind::NotAllowed`] rejection naming who may record it.
pub fn permits(clearance: Clearance, actor: &str, event: &Event) -> Result<(), Rejection> {
    let needed = match event {
        Event::JuryRuling { .. } | Event::EventVoided { .. } => Clearance::Jury,
        // The jury reads the fate horizon from the untouched Clock of Fate (RULES.md section 2).
        Event::FateHorizonRecorded { .. } => Clearance::Jury,
        // Naming an earlier turn is a correction: only the jury backdates.
        _ if event.corrected_turn().is_some() => Clearance::Jury,
        Event::JuryCalled { .. } => Clearance::Table,
        _ if event.family() == Family::Tournament => Clearance::Organiser,
        _ => Clearance::Table,
    };
    if clearance >= needed {
        return Ok(());
    }
    let who = match needed {
        Clearance::Jury => "only the jury",
        Clearance::Organiser => "only an organiser or the jury",
        Clearance::Table => "anyone",
    };
    Err(Rejection::not_allowed(format!("{who} may record {}; {actor} is cleared as {clearance}", event.type_name())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_jury_rules_and_voids() {
        let void = Event::EventVoided { seq: 3, reason: "typo".into() };
        let err = permits(Clearance::Table, "table-4", &void).unwrap_err();
        assert_eq!(err.message, "only the jury may record event_voided; table-4 is cleared as table");
        assert!(permits(Clearance::Organiser, "org", &void).is_err());
        assert!(permits(Clearance::Jury, "jury-1", &void).is_ok());
        assert!(permits(Clearance::Table, "t", &Event::JuryCalled { reason: "rules question".into() }).is_ok());
        let created =
            Event::TournamentCreated { name: "x".into(), ruleset: crate::Ruleset::Wm2015, clock_ms_per_side: None };
        assert!(permits(Clearance::Table, "t", &created).is_err());
        assert!(permits(Clearance::Organiser, "o", &created).is_ok());
        let backdated = Event::NationDroppedOut {
            nation: crate::Nation::Russia,
            objectives_held: 7,
            objectives_total: 10,
            turn: Some(1),
        };
        let err = permits(Clearance::Table, "table-4", &backdated).unwrap_err();
        assert_eq!(err.message, "only the jury may record nation_dropped_out; table-4 is cleared as table");
        assert!(permits(Clearance::Jury, "jury-1", &backdated).is_ok());
        assert!(permits(Clearance::Table, "table-4", &Event::FateHorizonRecorded { turn: 20 }).is_err());
    }
}
