//! Who may record what. Every append carries the clearance its sender was given (by a verified
//! token, or trusted from a header in open mode); the ledger checks it before the game rules.
//!
//! Andes matches follow the same ladder: an organiser creates a match (`match_created`), a table
//! records its play (`game_started`, `move_played`, `flag_fell`, `resigned`), and the jury may
//! do everything. The events derived from a move (`piece_attacked`, `piece_captured`,
//! `game_ended`) are recorded by the ledger alone, right after the move: nobody sends them.

use crate::andes::AndesEvent;
use crate::event::Event;
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
    refuse_derived(event)?;
    let needed = match event {
        Event::Andes(andes) => andes_clearance(andes),
        Event::JuryRuling { .. } | Event::EventVoided { .. } => Clearance::Jury,
        // The jury reads the fate horizon from the untouched Clock of Fate (docs/EVENTS.md).
        Event::FateHorizonRecorded { .. } => Clearance::Jury,
        // Naming an earlier turn is a correction: only the jury backdates.
        _ if event.corrected_turn().is_some() => Clearance::Jury,
        Event::JuryCalled { .. } => Clearance::Table,
        crate::tournament_events!() => Clearance::Organiser,
        Event::GameStarted { .. }
        | Event::TurnStarted { .. }
        | Event::TcDealt { .. }
        | Event::ClockStarted { .. }
        | Event::ClockPressed { .. }
        | Event::ClockStopped { .. }
        | Event::ActionStageStarted { .. }
        | Event::ActionStageEnded { .. }
        | Event::RetreatStarted { .. }
        | Event::RetreatEnded { .. }
        | Event::FateCardDrawn { .. }
        | Event::NationDroppedOut { .. }
        | Event::ImperialArmySwitched { .. }
        | Event::OffensiveLaunched { .. }
        | Event::AustriaClaimedObjectives { .. }
        | Event::SetAsideTcPickedUp {}
        | Event::OffensiveCalledOff { .. }
        | Event::GameEnded { .. } => Clearance::Table,
    };
    if clearance >= needed {
        return Ok(());
    }
    let (who, id) = match needed {
        Clearance::Jury => ("only the jury", "refusal-jury-only"),
        Clearance::Organiser => ("only an organiser or the jury", "refusal-organiser-only"),
        Clearance::Table => ("anyone", "refusal-not-cleared"),
    };
    Err(Rejection::not_allowed(format!("{who} may record {}; {actor} is cleared as {clearance}", event.type_name()))
        .said(id, [("type", crate::rejection::Arg::name("table-event-name", event.type_name()))]))
}

/// Refuses an event the ledger derives itself, whoever sends it (also `ledgerctl append`,
/// which gives a file's line the same reason before anything is sent).
///
/// # Errors
/// A [`crate::RejectionKind::Malformed`] rejection saying to append the move alone.
pub fn refuse_derived(event: &Event) -> Result<(), Rejection> {
    if event.is_derived() {
        return Err(Rejection::malformed(format!(
            "{} is derived by the ledger from the move that causes it and appended right after it; \
             append the move_played alone",
            event.type_name()
        ))
        .said(
            "law-derived",
            [("article", "4.2".into()), ("type", crate::rejection::Arg::name("record-event-name", event.type_name()))],
        ));
    }
    Ok(())
}

/// The clearance an Andes event needs: organisers create matches, tables record play. The
/// derived events are refused before (nobody sends them); the jury's level is never needed.
fn andes_clearance(event: &AndesEvent) -> Clearance {
    match event {
        AndesEvent::MatchCreated { .. } => Clearance::Organiser,
        AndesEvent::GameStarted { .. }
        | AndesEvent::MovePlayed { .. }
        | AndesEvent::FlagFell { .. }
        | AndesEvent::Resigned { .. }
        | AndesEvent::PieceAttacked { .. }
        | AndesEvent::PieceCaptured { .. }
        | AndesEvent::GameEnded { .. } => Clearance::Table,
    }
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

    #[test]
    fn organisers_create_andes_matches_tables_play_them_and_nobody_sends_derived_events() {
        use crate::andes::{PieceKind, Side, Square};
        let created = Event::Andes(AndesEvent::MatchCreated {
            first_sol: "ana".into(),
            first_luna: "bruno".into(),
            clock_ms: 720_000,
        });
        let err = permits(Clearance::Table, "table-4", &created).unwrap_err();
        assert_eq!(err.message, "only an organiser or the jury may record match_created; table-4 is cleared as table");
        assert!(permits(Clearance::Organiser, "org", &created).is_ok());
        for play in [
            AndesEvent::GameStarted { game: 1, at_ms: 0 },
            AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 1 },
            AndesEvent::FlagFell { side: Side::Sol, at_ms: 720_000 },
            AndesEvent::Resigned { side: Side::Luna, at_ms: 2 },
        ] {
            assert!(permits(Clearance::Table, "table-4", &Event::Andes(play)).is_ok());
        }
        let captured = Event::Andes(AndesEvent::PieceCaptured {
            square: Square::parse("c4").unwrap(),
            owner: Side::Luna,
            kind: PieceKind::Militar,
        });
        let err = permits(Clearance::Jury, "jury-1", &captured).unwrap_err();
        assert_eq!(err.kind, crate::RejectionKind::Malformed);
        assert!(err.message.starts_with("piece_captured is derived by the ledger"), "{}", err.message);
    }
}
