//! The table pages' views in the facade: a game as its table's tablet runs it offline
//! ([`TableView`]) and an Andes match as its recording tablet runs it ([`AndesTableView`]). The
//! views are `crate::projections::table`'s and `crate::projections::andes_table`'s; here the
//! facade reads their streams from its [`Source`] and folds the rules' state, so that the web's
//! table pages (and any other caller, such as an offline table) get the same numbers.
//!
//! Both are read at the source's newest position, taken before reading: a live feed that
//! follows the log from there misses nothing appended meanwhile. That position is the view's
//! `position` and the answer's `as_of_position`.

use super::{At, Projections};
use crate::error::Error;
use crate::projections;
use crate::projections::andes_table::{andes_table_view, AndesTableView};
use crate::projections::table::{table_now_ms, table_view, Stored, TableView};
use crate::source::{Entry, Source};
use ledger::rules::Rules;
use ledger::{StreamId, StreamState};

impl<'a> From<&'a Entry> for Stored<'a> {
    fn from(entry: &'a Entry) -> Self {
        Stored {
            seq: entry.seq,
            event_id: &entry.event_id,
            actor: &entry.actor,
            recorded_at_ms: entry.recorded_at_ms,
            event: &entry.event,
        }
    }
}

impl<S: Source> Projections<S> {
    /// A game as its table's tablet runs it: the rules' state after its last event (as the
    /// sequencer folds it, under the ruleset its tournament schedules), its clock, score sheet
    /// and last events, and its table time when the server's clock reads `now_ms`. A game with
    /// no events yet is a view of version 0 (its tablet starts it), not a failure.
    ///
    /// # Errors
    /// The source's failure.
    pub fn table(&self, game: &StreamId, now_ms: u64) -> Result<At<TableView>, Error> {
        let position = self.source.last_position()?;
        let loaded = self.load_game(game)?;
        let own: Vec<Stored<'_>> = loaded.entries.iter().filter(|e| e.stream == *game).map(Stored::from).collect();
        let mut state = StreamState::new(game, projections::scheduled_ruleset(&loaded.streams, game.id()));
        for stored in &own {
            // The log accepted every stored event; one that today's rules would refuse (an old
            // record) is applied anyway so that the table still shows the stream.
            if state.apply(stored.event).is_err() {
                state.evolve(stored.event);
            }
        }
        let rules = match state.rules() {
            Rules::Game(rules) => Some(rules),
            Rules::Tournament(_) | Rules::Andes(_) => None,
        };
        let table_now = table_now_ms(&own, rules.and_then(|r| r.last_at_ms), now_ms);
        let view = table_view(game, &own, &loaded.streams, rules, position, table_now);
        Ok(At { value: view, as_of_position: position })
    }

    /// An Andes match as its recording tablet runs it: the laws' state after its last event,
    /// its last events, and its table time when the server's clock reads `now_ms`. A match with
    /// no events yet is a view of version 0, not a failure.
    ///
    /// # Errors
    /// The source's failure.
    pub fn andes_table(&self, id: &StreamId, now_ms: u64) -> Result<At<AndesTableView>, Error> {
        let position = self.source.last_position()?;
        let entries = self.source.read_stream(id)?;
        let stored: Vec<Stored<'_>> = entries.iter().map(Stored::from).collect();
        Ok(At { value: andes_table_view(id, &stored, position, now_ms), as_of_position: position })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{log, records};
    use super::*;
    use crate::source::Records;
    use ledger::andes::testing::seeded_match;
    use ledger::Event;
    use std::sync::Arc;

    #[test]
    fn the_live_log_and_a_file_give_the_same_table() {
        let dir = tempfile::tempdir().unwrap();
        let log = log(dir.path());
        let live = Projections::new(Arc::clone(&log));
        // The log exported: every stream's events with their ids, actors and times.
        let mut export = Records::new();
        for stream in live.source().streams().unwrap() {
            for entry in live.source().read_stream(&stream).unwrap() {
                export.push_entry(entry);
            }
        }
        let export = Projections::new(export);
        let tournament = StreamId::tournament("open26").unwrap();
        let first = &export.tournament(&tournament).unwrap().games[0];
        let game = StreamId::game(&first.game).unwrap();
        let entries = live.source().read_stream(&game).unwrap();
        let now_ms = entries[0].recorded_at_ms.unwrap() + 90_000;

        let online = live.table(&game, now_ms).unwrap();
        let offline = export.table(&game, now_ms).unwrap();
        assert_eq!(online, offline);
        assert_eq!(serde_json::to_string(&online.value).unwrap(), serde_json::to_string(&offline.value).unwrap());
        let view = &online.value;
        assert_eq!(online.as_of_position, log.last_position().unwrap(), "read at the log's newest position");
        assert_eq!(view.position, online.as_of_position);
        assert_eq!(view.version, entries.last().unwrap().seq);
        assert_eq!(view.event_ids, entries.iter().map(|e| e.event_id.clone()).collect::<Vec<_>>());
        assert_eq!(view.recent[0].actor, "test");
        assert!(view.rules.is_some() && view.clock.is_some() && view.sheet.is_some());

        // The example file itself (no ids, actors or log times): the same game for the tablet.
        let file = Projections::new(records()).table(&game, now_ms).unwrap().value;
        assert_eq!(
            (file.version, file.ruleset, file.ms_per_side, &file.rules, &file.clock, &file.sheet),
            (view.version, view.ruleset, view.ms_per_side, &view.rules, &view.clock, &view.sheet)
        );

        // A game no one has started: version 0, for its tablet to start.
        let fresh = live.table(&StreamId::game("unstarted").unwrap(), now_ms).unwrap().value;
        assert_eq!((fresh.version, fresh.clock, fresh.sheet, fresh.event_ids.len()), (0, None, None, 0));
    }

    #[test]
    fn an_andes_table_is_read_at_the_source_s_newest_position() {
        let id = StreamId::parse("andes/m3").unwrap();
        let mut records = Records::new();
        let events = seeded_match(3, 40);
        for (position, event) in (101u64..).zip(events.iter().cloned()) {
            records.push(id.clone(), position, None, Event::Andes(event));
        }
        records.push(StreamId::parse("andes/other").unwrap(), 500, None, Event::Andes(events[0].clone()));
        let facade = Projections::new(records);
        let at = facade.andes_table(&id, 1_000).unwrap();
        assert_eq!(at.as_of_position, 500);
        assert_eq!((at.value.r#match.as_str(), at.value.version, at.value.position), ("m3", events.len() as u64, 500));
        assert!(at.value.rules.setup.is_some());
        let empty = facade.andes_table(&StreamId::parse("andes/none").unwrap(), 1_000).unwrap();
        assert_eq!((empty.value.version, empty.value.table_now_ms), (0, 0));
    }
}
