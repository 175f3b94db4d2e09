//! What a table's tablet needs to run its game offline, as one typed value: the rules' state it
//! decides the next taps from (`ledger::rules::GameState`, the same fold the sequencer keeps),
//! the chess clock as of the last recorded event (the tablet runs it on from there with its own
//! monotonic clock), the table time now, the score sheet (as text for tools, as figures for the
//! tablet to word), the last events (with their JSON, which the tablet words as sentences), the
//! ids of every event the game holds (so a tablet that lost an acknowledgement knows its tap is
//! stored), where the game is played and by whom (pseudonyms), and the defaults the table's forms
//! offer: each nation's standard deal and objectives total (`ledger::standard`).
//!
//! Pure: domain types in, a domain value out; the facade (`crate::facade`, `Projections::table`)
//! reads the streams for it, the web edge turns it into JSON.

use super::Streams;
use ledger::rules::GameState;
use ledger::{Event, Nation, Outcome, Recorded, Role, Ruleset, Stage, StreamId, StreamKind};
use replay::clock::ClockView;
use replay::sheet::{FixedBy, GameStatus};
use replay::standings::TournamentFacts;
use replay::ScoreSheet;
use serde::Serialize;
use serde_json::Value;
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
    /// The score sheet with its explanations, once the game can be scored (English, as
    /// `ledgerctl score` prints it: for tools; the page draws [`TableView::scores`]).
    pub sheet: Option<String>,
    /// The same sheet as words-free figures, which the tablet words in its reader's language.
    pub scores: Option<TableScores>,
    /// Where the game is played and who plays which role, when a tournament scheduled it.
    pub seating: Option<Seating>,
    /// Each nation's standard deal of tactical cards (`ledger::standard::standard_deal`): the
    /// tablet deals them in one tap.
    pub standard_deal: BTreeMap<Nation, i32>,
    /// Each attacking nation's objectives total to prefill a drop-out, a switch or the end
    /// with: the total this game last reported for it, else the rulebooks'
    /// (`ledger::standard::objectives_total`).
    pub objectives_totals: BTreeMap<Nation, i32>,
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
    /// The event in its canonical JSON, which the tablet words as a sentence.
    pub event: Value,
    pub actor: String,
}

/// Where a scheduled game is played: its tournament, stage, round and table, and each role's
/// player by the pseudonym the public standings use (a table's tablet reads no full names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seating {
    pub tournament: String,
    pub stage: Stage,
    pub round: u32,
    pub table: u32,
    pub players: BTreeMap<Role, String>,
}

/// A score sheet as the table shows it: figures and names only, scores already rounded as
/// the ruleset shows them (`12.1`), so that the tablet needs no rule to word it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableScores {
    /// T: the last turn started (the final one once the game has ended).
    pub turns: u32,
    pub outcome: Option<Outcome>,
    pub roles: Vec<RoleLine>,
    pub nations: Vec<NationLine>,
}

/// A role's game score, once the game has ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoleLine {
    pub role: Role,
    pub score: Option<String>,
}

/// A nation's line: who controls it, what fixed its score (its drop-out or the end) and the
/// score, while pending only its controller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NationLine {
    pub nation: Nation,
    pub controller: Role,
    pub objectives: Option<(i32, i32)>,
    /// The turn it dropped out in, if it did.
    pub dropped_out_in: Option<u32>,
    pub won: bool,
    pub score: Option<String>,
}

impl TableScores {
    /// The figures of `sheet`.
    pub fn of(sheet: &ScoreSheet) -> TableScores {
        let places = sheet.places();
        let outcome = match &sheet.status {
            GameStatus::Ended { outcome, .. } => Some(*outcome),
            GameStatus::InProgress => None,
        };
        TableScores {
            turns: sheet.turns,
            outcome,
            roles: Role::ALL
                .iter()
                .map(|&role| RoleLine { role, score: sheet.role_score(role).map(|s| s.to_fixed(places)) })
                .collect(),
            nations: sheet
                .nations
                .iter()
                .map(|(&nation, line)| NationLine {
                    nation,
                    controller: line.controller,
                    objectives: line.objectives,
                    dropped_out_in: match line.fixed {
                        Some((turn, FixedBy::DroppedOut)) => Some(turn),
                        Some((_, FixedBy::GameEnded)) | None => None,
                    },
                    won: line.won,
                    score: line.score.map(|s| s.to_fixed(places)),
                })
                .collect(),
        }
    }
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
    let scored = if stored.is_empty() { None } else { super::score_sheet(streams, game, None).ok() };
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
        sheet: scored.as_ref().map(ToString::to_string),
        scores: scored.as_ref().map(TableScores::of),
        seating: seating(streams, game),
        standard_deal: Nation::ALL.iter().map(|&n| (n, ledger::standard::standard_deal(n))).collect(),
        objectives_totals: objectives_totals(stored),
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
        .map(|s| RecentEvent {
            seq: s.seq,
            text: replay::audit::event_text(s.event),
            event: ledger::event::to_canonical_json(s.event),
            actor: s.actor.to_owned(),
        })
        .collect()
}

/// Where `game` is played, from the tournament stream in `streams` that scheduled it.
pub fn seating(streams: &Streams, game: &StreamId) -> Option<Seating> {
    streams.iter().filter(|(id, _)| id.kind() == StreamKind::Tournament).find_map(|(id, events)| {
        let scheduled = TournamentFacts::fold(events).games.into_iter().find(|g| g.game == game.id())?;
        let alias = super::pseudonyms(events);
        let seats = &scheduled.slot.seats;
        let name = |player: &String| alias.get(player).cloned().unwrap_or_else(|| player.clone());
        let players = [
            (Role::Frederick, &seats.frederick),
            (Role::Elisabeth, &seats.elisabeth),
            (Role::MariaTheresa, &seats.maria_theresa),
            (Role::Pompadour, &seats.pompadour),
        ]
        .into_iter()
        .map(|(role, player)| (role, name(player)))
        .collect();
        Some(Seating {
            tournament: id.id().to_owned(),
            stage: scheduled.slot.stage,
            round: scheduled.slot.round,
            table: scheduled.slot.table,
            players,
        })
    })
}

/// Each attacking nation's objectives total for the table's forms: the rulebooks' default,
/// or the total the game's last Imperial Army switch reported for the Imperial Army (its
/// table counts them so already).
pub fn objectives_totals(stored: &[Stored<'_>]) -> BTreeMap<Nation, i32> {
    let mut totals: BTreeMap<Nation, i32> =
        Nation::ALL.iter().filter_map(|&n| ledger::standard::objectives_total(n).map(|t| (n, t))).collect();
    for s in stored {
        if let Event::ImperialArmySwitched { objectives_total, .. } = s.event {
            totals.insert(Nation::ImperialArmy, *objectives_total);
        }
    }
    totals
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(value: Value) -> Event {
        ledger::event::from_canonical_json(&value).unwrap()
    }

    #[test]
    fn a_scheduled_game_names_its_table_and_its_players_by_pseudonym() {
        let player = |id: &str, pseudonym: Option<&str>| {
            let mut e = json!({"type": "player_registered", "player": id, "name": format!("{id} full name")});
            if let Some(p) = pseudonym {
                e["pseudonym"] = json!(p);
            }
            event(e)
        };
        let events = vec![
            event(json!({"type": "tournament_created", "name": "T", "ruleset": "cafe2023"})),
            player("ana", Some("Fox")),
            player("ben", Some("Heron")),
            player("cai", None),
            player("dee", Some("Owl")),
            event(json!({"type": "game_scheduled", "game": "g1", "stage": "final", "round": 5, "table": 1,
                         "seats": {"frederick": "dee", "elisabeth": "cai", "maria_theresa": "ben", "pompadour": "ana"}})),
        ];
        let mut streams = Streams::new();
        streams.insert(StreamId::tournament("t1").unwrap(), (1u64..).zip(events).collect());
        let seating = seating(&streams, &StreamId::game("g1").unwrap()).expect("g1 is scheduled");
        assert_eq!(
            (seating.tournament.as_str(), seating.stage, seating.round, seating.table),
            ("t1", Stage::Final, 5, 1)
        );
        assert_eq!(seating.players[&Role::Frederick], "Owl");
        assert_eq!(seating.players[&Role::Pompadour], "Fox");
        // No full name: a player without a pseudonym is numbered, as on the public board.
        assert_eq!(seating.players[&Role::Elisabeth], "player 3");
        assert!(seating.players.values().all(|name| !name.contains("full name")));
        assert_eq!(super::seating(&streams, &StreamId::game("g2").unwrap()), None);
    }

    #[test]
    fn the_imperial_armys_total_is_the_one_its_switch_reported() {
        let switched = event(json!({"type": "imperial_army_switched", "to": "pompadour", "objectives_held": 7,
                                    "objectives_total": 10}));
        let stored = [Stored { seq: 1, event_id: "e1", actor: "t", recorded_at_ms: None, event: &switched }];
        let before = objectives_totals(&[]);
        assert_eq!(before[&Nation::ImperialArmy], 5);
        assert_eq!(before.get(&Nation::Prussia), None);
        let after = objectives_totals(&stored);
        assert_eq!(after[&Nation::ImperialArmy], 10);
        assert_eq!(after[&Nation::Austria], 12);
    }
}
