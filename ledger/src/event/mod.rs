//! Every event the ledger records, one variant per table, organiser or jury action of
//! docs/EVENTS.md, and last the events of an Andes match ([`Event::Andes`], docs/ANDES.md).
//!
//! Stored events are a promise: postcard encodes a variant by its position, so new variants go
//! at the end of [`Event`] and existing fields never change type. `store` keeps a sample of
//! every stored version with a test that it still decodes.

mod json;
pub mod schema;
mod shape;

pub use json::{canonical_json_text, from_canonical_json, to_canonical_json, ParseError};
pub use shape::{MAX_NAME_CHARS, MAX_TC_PER_DEAL};

use crate::andes::AndesEvent;
use crate::names::{ClockSide, Nation, Outcome, Role, Ruleset, Stage, StopReason};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A player's id as registered in the tournament.
pub type PlayerId = String;

/// Who sits in which role at one table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    pub frederick: PlayerId,
    pub elisabeth: PlayerId,
    pub maria_theresa: PlayerId,
    pub pompadour: PlayerId,
}

impl Seats {
    /// The player in a role.
    pub fn player(&self, role: Role) -> &PlayerId {
        match role {
            Role::Frederick => &self.frederick,
            Role::Elisabeth => &self.elisabeth,
            Role::MariaTheresa => &self.maria_theresa,
            Role::Pompadour => &self.pompadour,
        }
    }

    /// The four seats in role order.
    pub fn iter(&self) -> impl Iterator<Item = (Role, &PlayerId)> {
        Role::ALL.iter().map(move |&role| (role, self.player(role)))
    }

    /// Seats `to` where `from` sat (a withdrawal's re-seating); whether `from` sat here.
    pub fn replace(&mut self, from: &str, to: &str) -> bool {
        let seat = [&mut self.frederick, &mut self.elisabeth, &mut self.maria_theresa, &mut self.pompadour]
            .into_iter()
            .find(|seat| seat.as_str() == from);
        match seat {
            Some(seat) => {
                to.clone_into(seat);
                true
            }
            None => false,
        }
    }

    /// Whether `player` sits here.
    pub fn seats(&self, player: &str) -> bool {
        self.iter().any(|(_, p)| p == player)
    }
}

/// One game of a recorded qualifying draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawnGame {
    pub game: String,
    pub round: u32,
    pub table: u32,
    pub seats: Seats,
}

/// Objectives an attacking nation holds: `[held, total]` in JSON.
pub type Objectives = (i32, i32);

/// One recorded action. Field meanings are those of docs/EVENTS.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    // --- tournament stream ---
    TournamentCreated {
        name: String,
        ruleset: Ruleset,
        clock_ms_per_side: Option<u64>,
    },
    PlayerRegistered {
        player: PlayerId,
        name: String,
        pseudonym: Option<String>,
    },
    QualifyingDrawn {
        seed: u64,
        games: Vec<DrawnGame>,
    },
    GameScheduled {
        game: String,
        stage: Stage,
        round: u32,
        table: u32,
        seats: Seats,
    },
    FinalRoleChosen {
        player: PlayerId,
        role: Role,
    },
    LotDrawn {
        purpose: String,
        seed: u64,
        order: Vec<PlayerId>,
    },

    // --- game stream ---
    /// `ruleset` and `tournament` are optional additions: a game scheduled in a tournament takes
    /// the tournament's ruleset; a stand-alone game must name one.
    GameStarted {
        at_ms: u64,
        ruleset: Option<Ruleset>,
        tournament: Option<String>,
    },
    TurnStarted {
        turn: u32,
        at_ms: Option<u64>,
    },
    TcDealt {
        nation: Nation,
        count: i32,
    },
    ClockStarted {
        side: ClockSide,
        at_ms: u64,
    },
    ClockPressed {
        at_ms: u64,
    },
    ClockStopped {
        reason: StopReason,
        at_ms: u64,
    },
    ActionStageStarted {
        nation: Nation,
        at_ms: u64,
    },
    ActionStageEnded {
        nation: Nation,
        at_ms: u64,
    },
    RetreatStarted {
        length: u32,
        at_ms: u64,
    },
    RetreatEnded {
        at_ms: u64,
    },
    FateCardDrawn {
        card: String,
    },
    /// `turn`, optional, is for the jury's corrections: a drop-out recorded late (after a void)
    /// still happened in the turn it happened. Absent, the current turn.
    NationDroppedOut {
        nation: Nation,
        objectives_held: i32,
        objectives_total: i32,
        turn: Option<u32>,
    },
    ImperialArmySwitched {
        to: Role,
        objectives_held: i32,
        objectives_total: i32,
        turn: Option<u32>,
    },
    OffensiveLaunched {
        set_aside_tc: i32,
        turn: Option<u32>,
    },
    AustriaClaimedObjectives {
        count: i32,
    },
    SetAsideTcPickedUp {},
    OffensiveCalledOff {
        bohemian_held_by_prussia: i32,
        turn: Option<u32>,
    },
    GameEnded {
        outcome: Outcome,
        winners: Vec<Nation>,
        objectives: BTreeMap<Nation, Objectives>,
        bohemian_held_by_prussia: Option<i32>,
    },
    FateHorizonRecorded {
        turn: u32,
    },

    // --- jury (any stream) ---
    JuryCalled {
        reason: String,
    },
    JuryRuling {
        text: String,
    },
    EventVoided {
        seq: u64,
        reason: String,
    },

    // --- andes stream ---
    /// An event of an Andes match (`andes/<match>`). Its canonical JSON is the Andes event's own
    /// flat object (`{"type":"move_played","notation":"2c3c5","at_ms":61250}`); postcard stores
    /// it by position through [`crate::andes::stored`], after every variant above.
    Andes(#[serde(with = "crate::andes::stored")] AndesEvent),

    // --- tournament stream, later additions (postcard encodes by position: they go last) ---
    /// A stand-in (issue 24): seated by the qualifying draw when the players are not a multiple
    /// of 4; its games count for the real players at its tables, it is never ranked and never
    /// reaches the final.
    StandInRegistered {
        player: PlayerId,
        name: String,
    },
    /// A player leaves (issue 24): the games played keep counting; their qualifying games from
    /// `from_round` on seat `stand_in` in their place; they are shown withdrawn and never
    /// reach the final (the next in rank does).
    PlayerWithdrew {
        player: PlayerId,
        from_round: u32,
        stand_in: Option<PlayerId>,
    },
    /// A registration made in error is taken back before the draw (issue 32): the player (or
    /// stand-in) is no longer registered, is not drawn, and the id may register again. After
    /// the draw a player withdraws instead.
    PlayerUnregistered {
        player: PlayerId,
    },
}

/// Patterns naming every event of one family, for the matches that must decide about every
/// event (rules, folds, clearances). A match that ignores another family's events says so with
/// one of these instead of `_`: a new variant then fails to compile until it is put in its
/// family here (see [`Event::family`]), and every match over its own family decides about it.
#[macro_export]
macro_rules! tournament_events {
    () => {
        $crate::Event::TournamentCreated { .. }
            | $crate::Event::PlayerRegistered { .. }
            | $crate::Event::QualifyingDrawn { .. }
            | $crate::Event::GameScheduled { .. }
            | $crate::Event::FinalRoleChosen { .. }
            | $crate::Event::LotDrawn { .. }
            | $crate::Event::StandInRegistered { .. }
            | $crate::Event::PlayerWithdrew { .. }
            | $crate::Event::PlayerUnregistered { .. }
    };
}

/// Every event of a Friedrich game stream; see [`tournament_events`].
#[macro_export]
macro_rules! game_events {
    () => {
        $crate::Event::GameStarted { .. }
            | $crate::Event::TurnStarted { .. }
            | $crate::Event::TcDealt { .. }
            | $crate::Event::ClockStarted { .. }
            | $crate::Event::ClockPressed { .. }
            | $crate::Event::ClockStopped { .. }
            | $crate::Event::ActionStageStarted { .. }
            | $crate::Event::ActionStageEnded { .. }
            | $crate::Event::RetreatStarted { .. }
            | $crate::Event::RetreatEnded { .. }
            | $crate::Event::FateCardDrawn { .. }
            | $crate::Event::NationDroppedOut { .. }
            | $crate::Event::ImperialArmySwitched { .. }
            | $crate::Event::OffensiveLaunched { .. }
            | $crate::Event::AustriaClaimedObjectives { .. }
            | $crate::Event::SetAsideTcPickedUp {}
            | $crate::Event::OffensiveCalledOff { .. }
            | $crate::Event::GameEnded { .. }
            | $crate::Event::FateHorizonRecorded { .. }
    };
}

/// The jury's events, recorded in any stream; see [`tournament_events`].
#[macro_export]
macro_rules! jury_events {
    () => {
        $crate::Event::JuryCalled { .. } | $crate::Event::JuryRuling { .. } | $crate::Event::EventVoided { .. }
    };
}

/// Which streams an event belongs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Tournament,
    Game,
    Jury,
    /// The events of an Andes match.
    Andes,
}

impl Event {
    /// The canonical `type` name of the event.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::TournamentCreated { .. } => "tournament_created",
            Event::PlayerRegistered { .. } => "player_registered",
            Event::QualifyingDrawn { .. } => "qualifying_drawn",
            Event::GameScheduled { .. } => "game_scheduled",
            Event::FinalRoleChosen { .. } => "final_role_chosen",
            Event::LotDrawn { .. } => "lot_drawn",
            Event::StandInRegistered { .. } => "stand_in_registered",
            Event::PlayerWithdrew { .. } => "player_withdrew",
            Event::PlayerUnregistered { .. } => "player_unregistered",
            Event::GameStarted { .. } => "game_started",
            Event::TurnStarted { .. } => "turn_started",
            Event::TcDealt { .. } => "tc_dealt",
            Event::ClockStarted { .. } => "clock_started",
            Event::ClockPressed { .. } => "clock_pressed",
            Event::ClockStopped { .. } => "clock_stopped",
            Event::ActionStageStarted { .. } => "action_stage_started",
            Event::ActionStageEnded { .. } => "action_stage_ended",
            Event::RetreatStarted { .. } => "retreat_started",
            Event::RetreatEnded { .. } => "retreat_ended",
            Event::FateCardDrawn { .. } => "fate_card_drawn",
            Event::NationDroppedOut { .. } => "nation_dropped_out",
            Event::ImperialArmySwitched { .. } => "imperial_army_switched",
            Event::OffensiveLaunched { .. } => "offensive_launched",
            Event::AustriaClaimedObjectives { .. } => "austria_claimed_objectives",
            Event::SetAsideTcPickedUp {} => "set_aside_tc_picked_up",
            Event::OffensiveCalledOff { .. } => "offensive_called_off",
            Event::GameEnded { .. } => "game_ended",
            Event::FateHorizonRecorded { .. } => "fate_horizon_recorded",
            Event::JuryCalled { .. } => "jury_called",
            Event::JuryRuling { .. } => "jury_ruling",
            Event::EventVoided { .. } => "event_voided",
            Event::Andes(andes) => andes.type_name(),
        }
    }

    /// The family decides which stream kinds accept the event.
    pub fn family(&self) -> Family {
        match self {
            tournament_events!() => Family::Tournament,
            game_events!() => Family::Game,
            jury_events!() => Family::Jury,
            Event::Andes(_) => Family::Andes,
        }
    }

    /// An event the ledger derives from the one before it and appends itself (an Andes move's
    /// attack, captures and end of game); a client never sends one.
    pub fn is_derived(&self) -> bool {
        matches!(self, Event::Andes(andes) if andes.is_derived())
    }

    /// The turn a correction says the event happened in, for the events that may carry one.
    pub fn corrected_turn(&self) -> Option<u32> {
        match self {
            Event::NationDroppedOut { turn, .. }
            | Event::ImperialArmySwitched { turn, .. }
            | Event::OffensiveLaunched { turn, .. }
            | Event::OffensiveCalledOff { turn, .. } => *turn,
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
            | Event::AustriaClaimedObjectives { .. }
            | Event::SetAsideTcPickedUp {}
            | Event::GameEnded { .. }
            | Event::FateHorizonRecorded { .. }
            | tournament_events!()
            | jury_events!()
            | Event::Andes(_) => None,
        }
    }

    /// The table device's clock reading, for events that carry one.
    pub fn at_ms(&self) -> Option<u64> {
        match self {
            Event::GameStarted { at_ms, .. }
            | Event::ClockStarted { at_ms, .. }
            | Event::ClockPressed { at_ms }
            | Event::ClockStopped { at_ms, .. }
            | Event::ActionStageStarted { at_ms, .. }
            | Event::ActionStageEnded { at_ms, .. }
            | Event::RetreatStarted { at_ms, .. }
            | Event::RetreatEnded { at_ms } => Some(*at_ms),
            Event::TurnStarted { at_ms, .. } => *at_ms,
            Event::Andes(andes) => andes.at_ms(),
            Event::TcDealt { .. }
            | Event::FateCardDrawn { .. }
            | Event::NationDroppedOut { .. }
            | Event::ImperialArmySwitched { .. }
            | Event::OffensiveLaunched { .. }
            | Event::AustriaClaimedObjectives { .. }
            | Event::SetAsideTcPickedUp {}
            | Event::OffensiveCalledOff { .. }
            | Event::GameEnded { .. }
            | Event::FateHorizonRecorded { .. }
            | tournament_events!()
            | jury_events!() => None,
        }
    }

    /// Checks what can be checked without any state: counts, ranges and totals.
    ///
    /// # Errors
    /// A [`crate::RejectionKind::Malformed`] rejection naming the field.
    pub fn check_shape(&self) -> Result<(), crate::Rejection> {
        shape::check(self)
    }

    /// The storage encoding (postcard) of the body alone. The hash chain covers the canonical
    /// JSON instead (`envelope::chain_hash`), so that storage encodings may change.
    pub fn to_postcard(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("events always encode")
    }

    /// Decodes [`Event::to_postcard`].
    ///
    /// # Errors
    /// The bytes are not an event of this version.
    pub fn from_postcard(bytes: &[u8]) -> Result<Event, String> {
        postcard::from_bytes(bytes).map_err(|e| e.to_string())
    }
}
