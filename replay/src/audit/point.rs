//! One audited moment of a game ([`AuditPoint`]) and its JSON form. The rules' state is the
//! ledger's own `GameState`, shown field by field ([`StateView`]) so that the JSON is stable
//! and a diff between two points names each change by a readable path.

use crate::clock::ClockView;
use crate::sheet::ScoreSheet;
use ledger::event::to_canonical_json;
use ledger::rules::{GameState, Offensive};
use ledger::{ClockSide, Event, Nation, Outcome, Role, Ruleset};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// The game as the ledger knew it after one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditPoint {
    /// The event the point is after.
    pub seq: u64,
    /// That event, in canonical JSON.
    #[serde(serialize_with = "canonical")]
    pub event: Event,
    /// The latest `at_ms` recorded so far (voided events left out); none before any.
    pub table_time_ms: Option<u64>,
    /// For a point found by table time: the time asked about. The clocks are carried to it.
    pub asked_at_ms: Option<u64>,
    /// The voids recorded at or before `seq`, in the order they were recorded.
    pub voids: Vec<KnownVoid>,
    pub state: StateView,
    /// Tactical cards dealt so far per nation (every nation listed), voided deals left out.
    pub tc_dealt: BTreeMap<Nation, i64>,
    /// The chess clock and stopwatch; none until the game names its ruleset.
    pub clock: Option<ClockView>,
    /// The score sheet as it stood; none before `game_started`.
    #[serde(serialize_with = "sheet_json")]
    pub sheet: Option<ScoreSheet>,
    #[serde(skip)]
    game: GameState,
}

/// An event the jury had voided by then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KnownVoid {
    /// The voided event.
    pub seq: u64,
    #[serde(serialize_with = "canonical")]
    pub event: Event,
    /// The `event_voided` that voided it.
    pub void_seq: u64,
    pub reason: String,
}

/// The rules' state: where the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateView {
    pub ruleset: Option<Ruleset>,
    pub started: bool,
    /// 0 before the first `turn_started`.
    pub turn: u32,
    pub ended: Option<EndedView>,
    /// Every nation, in action-stage order.
    pub nations: BTreeMap<Nation, NationView>,
    pub imperial_army: Role,
    pub offensive: OffensiveView,
    /// The nation whose action stage is open.
    pub action_stage: Option<Nation>,
    pub retreat_open: bool,
    pub clock_running: Option<ClockSide>,
}

/// How and when the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EndedView {
    pub outcome: Outcome,
    pub turn: u32,
}

/// One nation: still in the game, or out since a turn; and who controls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NationView {
    pub in_game: bool,
    pub out_in_turn: Option<u32>,
    pub controller: Role,
}

/// The Prussian offensive option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OffensiveView {
    #[serde(flatten)]
    pub status: OffensiveStatus,
    pub set_aside_picked_up: bool,
    pub austria_claimed: bool,
}

/// Where the offensive stands; `status` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum OffensiveStatus {
    NotLaunched,
    Active { since_turn: u32 },
    CalledOff { launched_in: u32, called_off_in: u32 },
}

impl From<&GameState> for StateView {
    fn from(game: &GameState) -> Self {
        let nations = Nation::ALL
            .iter()
            .map(|&nation| {
                let out = game.out.get(&nation).copied();
                let view = NationView { in_game: out.is_none(), out_in_turn: out, controller: game.controller(nation) };
                (nation, view)
            })
            .collect();
        let status = match game.offensive {
            Offensive::NotLaunched => OffensiveStatus::NotLaunched,
            Offensive::Active { launched_in } => OffensiveStatus::Active { since_turn: launched_in },
            Offensive::CalledOff { launched_in, called_off_in } => {
                OffensiveStatus::CalledOff { launched_in, called_off_in }
            }
        };
        StateView {
            ruleset: game.ruleset,
            started: game.started,
            turn: game.turn,
            ended: game.ended.map(|(outcome, turn)| EndedView { outcome, turn }),
            nations,
            imperial_army: game.imperial_army,
            offensive: OffensiveView {
                status,
                set_aside_picked_up: game.set_aside_picked_up,
                austria_claimed: game.austria_claimed,
            },
            action_stage: game.action_stage,
            retreat_open: game.retreat_open,
            clock_running: game.clock_running,
        }
    }
}

/// What [`AuditPoint::new`] is built from.
pub(super) struct Parts {
    pub seq: u64,
    pub event: Event,
    pub asked_at_ms: Option<u64>,
    pub voids: Vec<KnownVoid>,
    pub game: GameState,
    pub tc_dealt: BTreeMap<Nation, i64>,
    pub clock: Option<ClockView>,
    pub sheet: Option<ScoreSheet>,
}

impl AuditPoint {
    pub(super) fn new(parts: Parts) -> Self {
        AuditPoint {
            seq: parts.seq,
            event: parts.event,
            table_time_ms: parts.game.last_at_ms,
            asked_at_ms: parts.asked_at_ms,
            voids: parts.voids,
            state: StateView::from(&parts.game),
            tc_dealt: parts.tc_dealt,
            clock: parts.clock,
            sheet: parts.sheet,
            game: parts.game,
        }
    }

    /// The ledger's own rules state at this point (`ledger::StreamState` replayed to `seq`).
    pub fn game_state(&self) -> &GameState {
        &self.game
    }

    /// Whether the jury had voided event `seq` by this point.
    pub fn is_voided(&self, seq: u64) -> bool {
        self.voids.iter().any(|void| void.seq == seq)
    }

    /// The JSON form.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("an audit point always serialises")
    }

    /// The JSON form as one compact line: the same bytes for the same events, on every machine
    /// (field order is fixed by the structs, maps are sorted by key).
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("an audit point always serialises")
    }
}

/// The voids recorded in `prefix`, each with the event it voided.
pub(super) fn known_voids(prefix: &[(u64, Event)]) -> Vec<KnownVoid> {
    prefix
        .iter()
        .filter_map(|(void_seq, event)| match event {
            Event::EventVoided { seq, reason } => {
                let voided = prefix.iter().find(|(s, _)| s == seq)?;
                Some(KnownVoid { seq: *seq, event: voided.1.clone(), void_seq: *void_seq, reason: reason.clone() })
            }
            Event::JuryCalled { .. } | Event::JuryRuling { .. } => None,
            ledger::tournament_events!() | ledger::game_events!() | Event::Andes(_) => None,
        })
        .collect()
}

pub(super) fn canonical<S: Serializer>(event: &Event, serializer: S) -> Result<S::Ok, S::Error> {
    to_canonical_json(event).serialize(serializer)
}

fn sheet_json<S: Serializer>(sheet: &Option<ScoreSheet>, serializer: S) -> Result<S::Ok, S::Error> {
    sheet.as_ref().map(ScoreSheet::to_json).serialize(serializer)
}
