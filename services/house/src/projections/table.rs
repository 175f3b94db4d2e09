//! What a table's tablet needs to run its game offline, as one typed value: the rules' state it
//! decides the next taps from (`ledger::rules::GameState`, the same fold the sequencer keeps),
//! the chess clock as of the last recorded event (the tablet runs it on from there with its own
//! monotonic clock), the table time now, the score sheet, the last events, and the ids of every
//! event the game holds (so a tablet that lost an acknowledgement knows its tap is stored).
//!
//! Pure: domain types in, a domain value out; the web edge turns it into JSON.

use super::Streams;
use ledger::rules::GameState;
use ledger::{Nation, Recorded, Ruleset, StreamId};
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

/// The table's view of `game`, whose own records are `records`; `streams` holds them and the
/// tournaments around the game, `rules` their fold, `position` the log position read at.
pub fn table_view(
    game: &StreamId,
    records: &[Recorded],
    streams: &Streams,
    rules: Option<&GameState>,
    position: u64,
    table_now_ms: u64,
) -> TableView {
    let (ruleset, ms_per_side) = super::game_settings(streams, game);
    let clock = if records.is_empty() { None } else { super::clock(streams, game, None, None).ok() };
    let sheet = if records.is_empty() {
        None
    } else {
        super::score_sheet(streams, game, None).ok().map(|sheet| sheet.to_string())
    };
    TableView {
        game: game.id().to_owned(),
        version: records.last().map_or(0, |r| r.envelope.seq),
        position,
        ruleset,
        ms_per_side,
        rules: rules.cloned(),
        clock,
        table_now_ms,
        allowances: Nation::ALL.iter().map(|&n| (n, replay::clock::stage_allowance_ms(n))).collect(),
        sheet,
        recent: recent_events(records),
        event_ids: records.iter().map(|r| r.envelope.event_id.clone()).collect(),
    }
}

/// The last [`RECENT_EVENTS`] of a stream's `records`, newest first, as a table lists them.
pub fn recent_events(records: &[Recorded]) -> Vec<RecentEvent> {
    records
        .iter()
        .rev()
        .take(RECENT_EVENTS)
        .map(|r| RecentEvent {
            seq: r.envelope.seq,
            text: replay::audit::event_text(&r.event),
            actor: r.envelope.actor.clone(),
        })
        .collect()
}
