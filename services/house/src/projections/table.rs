//! What a table's tablet needs to run its game offline, as one typed value: the rules' state it
//! decides the next taps from (`ledger::rules::GameState`, the same fold the sequencer keeps),
//! the chess clock as of the last recorded event (the tablet runs it on from there with its own
//! monotonic clock), the table time now, the score sheet, the last events, and the ids of every
//! event the game holds (so a tablet that lost an acknowledgement knows its tap is stored).
//!
//! Pure: domain types in, a domain value out; the facade (`crate::facade`, `Projections::table`)
//! reads the streams for it, the web edge turns it into JSON.

use super::Streams;
use ledger::rules::GameState;
use ledger::{Event, Nation, Recorded, Ruleset, StreamId};
use replay::clock::ClockView;
use serde::Serialize;
use std::collections::BTreeMap;

/// How many of the last events the table shows.
pub const RECENT_EVENTS: usize = 12;

/// One game as its table sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The game's id, without `game/`.
    pub game: String,
    /// The seq of the game's last event; 0 before the first.
    pub version: u64,
    /// The log's global position the view was read at: the live feed follows from after it.
    pub position: u64,
    pub ruleset: Option<Ruleset>,
    pub ms_per_side: u64,
    /// The rules' state after the last event, voids honoured: what the tablet decides from.
    pub rules: Option<GameState>,
    /// The chess clock as of the last recorded event (not carried on to now): the tablet adds
    /// its own taps and the time since.
    pub clock: Option<ClockView>,
    /// The table time now, in the game's `at_ms` terms, by the server's clock.
    pub table_now_ms: u64,
    /// Each nation's time per action stage once its side is on the stopwatch.
    pub allowances: BTreeMap<Nation, u64>,
    /// The score sheet with its explanations, once the game can be scored.
    pub sheet: Option<String>,
    /// The last events, newest first.
    pub recent: Vec<RecentEvent>,
    /// Every event id the game holds, in seq order.
    pub event_ids: Vec<String>,
}

/// An event as the table lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecentEvent {
    pub seq: u64,
    /// The event in the jury's one-line notation (`replay::audit::event_text`).
    pub text: String,
    pub actor: String,
}

/// One stored event of a stream as the table pages list it: its seq, its id, who recorded it
/// and when (where the source says), and the event.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    pub seq: u64,
    pub event_id: &'a str,
    pub actor: &'a str,
    pub recorded_at_ms: Option<u64>,
    pub event: &'a Event,
}

impl<'a> From<&'a Recorded> for Stored<'a> {
    fn from(record: &'a Recorded) -> Self {
        let envelope = &record.envelope;
        Stored {
            seq: envelope.seq,
            event_id: &envelope.event_id,
            actor: &envelope.actor,
            recorded_at_ms: Some(envelope.recorded_at_ms),
            event: &record.event,
        }
    }
}

/// The table's view of `game`, whose own events are `stored`; `streams` holds them and the
/// tournaments around the game, `rules` their fold, `position` the log position read at.
pub fn table_view(
    game: &StreamId,
    stored: &[Stored<'_>],
    streams: &Streams,
    rules: Option<&GameState>,
    position: u64,
    table_now_ms: u64,
) -> TableView {
    let (ruleset, ms_per_side) = super::game_settings(streams, game);
    let clock = if stored.is_empty() { None } else { super::clock(streams, game, None, None).ok() };
    let sheet = if stored.is_empty() {
        None
    } else {
        super::score_sheet(streams, game, None).ok().map(|sheet| sheet.to_string())
    };
    TableView {
        game: game.id().to_owned(),
        version: stored.last().map_or(0, |s| s.seq),
        position,
        ruleset,
        ms_per_side,
        rules: rules.cloned(),
        clock,
        table_now_ms,
        allowances: Nation::ALL.iter().map(|&n| (n, replay::clock::stage_allowance_ms(n))).collect(),
        sheet,
        recent: recent_events(stored),
        event_ids: stored.iter().map(|s| s.event_id.to_owned()).collect(),
    }
}

/// The last [`RECENT_EVENTS`] of a stream's `stored` events, newest first, as a table lists them.
pub fn recent_events(stored: &[Stored<'_>]) -> Vec<RecentEvent> {
    stored
        .iter()
        .rev()
        .take(RECENT_EVENTS)
        .map(|s| RecentEvent { seq: s.seq, text: replay::audit::event_text(s.event), actor: s.actor.to_owned() })
        .collect()
}

/// A game's table time now, in its own `at_ms` terms: the `at_ms` of `game_started` plus the
/// server time elapsed since it was recorded (none where the source does not say when), never
/// before the last table time recorded, `last_at_ms`. A game started from the table page starts
/// at 0, so its table time is the time since the start.
pub fn table_now_ms(stored: &[Stored<'_>], last_at_ms: Option<u64>, wall_now_ms: u64) -> u64 {
    let started = stored.iter().find_map(|s| match s.event {
        Event::GameStarted { at_ms, .. } => Some((*at_ms, s.recorded_at_ms)),
        _ => None,
    });
    let derived = started.map_or(0, |(at_ms, recorded)| {
        at_ms.saturating_add(recorded.map_or(0, |recorded| wall_now_ms.saturating_sub(recorded)))
    });
    derived.max(last_at_ms.unwrap_or(0))
}
