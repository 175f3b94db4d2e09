//! [`Schedule`]: which tournament put each game on a table, as the writer learns it from the
//! tournament streams it folds. A projection of one game then reads that game's tournament
//! alone, and the statistics read the tournaments without listing every stream of the log.

use ledger::{Event, Recorded, StreamId, StreamKind};
use std::collections::{BTreeSet, HashMap};
use std::sync::RwLock;

/// Game id → the tournaments whose draw or schedule names it, at which table, and every
/// tournament stream.
/// Written by the sequencer (and, on a log shared by several ledgerd, by the backend's follower
/// from the other writers' events); read by anyone through [`crate::Log`]. A superset is
/// harmless: a projection folds the tournaments it names and keeps what they still schedule.
#[derive(Debug, Default)]
pub struct Schedule {
    known: RwLock<Known>,
    /// Other writers share the log: what they scheduled is learned a moment after it is stored.
    shared: bool,
}

#[derive(Debug, Default)]
struct Known {
    by_game: HashMap<String, BTreeSet<(StreamId, u32)>>,
    tournaments: BTreeSet<StreamId>,
}

impl Schedule {
    /// The schedule of a log that other writers share (see [`Schedule::is_complete`]).
    #[cfg_attr(not(feature = "jetstream"), allow(dead_code))] // the shared log is JetStream's
    pub(crate) fn for_shared_log() -> Schedule {
        Schedule { shared: true, ..Schedule::default() }
    }

    /// Does it know every game the moment it is readable? True with one writer (the writer
    /// learns a schedule before the sync that makes it readable); false on a shared log, whose
    /// follower learns the other writers' schedules a moment after they are stored.
    pub(crate) fn is_complete(&self) -> bool {
        !self.shared
    }

    /// Records a tournament stream and the games it schedules so far, each with its table.
    pub(crate) fn learn<'a>(&self, tournament: &StreamId, games: impl IntoIterator<Item = (&'a String, u32)>) {
        let mut known = self.write();
        if !known.tournaments.contains(tournament) {
            known.tournaments.insert(tournament.clone());
        }
        for (game, table) in games {
            let place = (tournament.clone(), table);
            match known.by_game.get_mut(game.as_str()) {
                Some(by) if by.contains(&place) => {}
                Some(by) => {
                    by.insert(place);
                }
                None => {
                    known.by_game.insert(game.clone(), BTreeSet::from([place]));
                }
            }
        }
    }

    // Every critical section only inserts, so what a panicking holder left is still a valid
    // (if smaller) schedule: a poisoned lock is used as it is.
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Known> {
        self.known.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Known> {
        self.known.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Learns from one record another writer committed.
    #[cfg_attr(not(feature = "jetstream"), allow(dead_code))] // the shared log is JetStream's
    pub(crate) fn observe(&self, record: &Recorded) {
        let stream = &record.envelope.stream;
        if stream.kind() != StreamKind::Tournament {
            return;
        }
        let games = Schedule::names(&record.event);
        self.learn(stream, games);
    }

    /// The games a tournament's event schedules, each with its table: a draw's, or one
    /// scheduled by hand.
    pub(crate) fn names(event: &Event) -> Vec<(&String, u32)> {
        match event {
            Event::QualifyingDrawn { games, .. } => games.iter().map(|g| (&g.game, g.table)).collect(),
            Event::GameScheduled { game, table, .. } => vec![(game, *table)],
            Event::TournamentCreated { .. }
            | Event::PlayerRegistered { .. }
            | Event::FinalRoleChosen { .. }
            | Event::LotDrawn { .. }
            | Event::StandInRegistered { .. }
            | Event::PlayerWithdrew { .. }
            | Event::PlayerUnregistered { .. }
            | ledger::game_events!()
            | ledger::jury_events!()
            | Event::Andes(_) => Vec::new(),
        }
    }

    /// The tournaments that scheduled `game` (usually one; none for a stand-alone game).
    pub(crate) fn tournaments_of(&self, game: &str) -> Vec<StreamId> {
        let mut tournaments: Vec<StreamId> = self.tables_of(game).into_iter().map(|(t, _)| t).collect();
        tournaments.dedup();
        tournaments
    }

    /// Where `game` is played: each tournament that scheduled it, with the table (a game the
    /// jury re-seated keeps its earlier table too: a superset).
    pub(crate) fn tables_of(&self, game: &str) -> Vec<(StreamId, u32)> {
        let known = self.read();
        known.by_game.get(game).map(|by| by.iter().cloned().collect()).unwrap_or_default()
    }

    /// Every tournament stream, in stream order.
    pub(crate) fn tournaments(&self) -> Vec<StreamId> {
        self.read().tournaments.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_found_under_every_tournament_that_names_it_and_only_those() {
        let schedule = Schedule::default();
        let (spring, autumn) = (StreamId::tournament("spring").unwrap(), StreamId::tournament("autumn").unwrap());
        let (g1, g2, g3) = ("g1".to_owned(), "g2".to_owned(), "g3".to_owned());
        schedule.learn(&spring, [(&g1, 1), (&g2, 2)]);
        schedule.learn(&autumn, []);
        schedule.learn(&spring, [(&g1, 1), (&g3, 4)]);
        assert_eq!(schedule.tables_of("g3"), vec![(spring.clone(), 4)]);
        assert_eq!(schedule.tournaments_of("g1"), vec![spring.clone()]);
        assert_eq!(schedule.tournaments_of("g3"), vec![spring.clone()]);
        assert!(schedule.tournaments_of("alone").is_empty());
        assert_eq!(schedule.tournaments(), vec![autumn, spring]);
    }

    fn recorded(stream: &StreamId, event: Event) -> Recorded {
        let draft = ledger::envelope::Draft {
            stream: stream.clone(),
            seq: 1,
            position: 1,
            event_id: "e".into(),
            recorded_at_ms: 0,
            actor: "other-ledgerd".into(),
        };
        Recorded::seal(draft, ledger::envelope::GENESIS, event)
    }

    #[test]
    fn another_writers_draw_and_schedule_are_learned_and_nothing_else() {
        let schedule = Schedule::default();
        let open = StreamId::tournament("open").unwrap();
        let drawn = ledger::testing::simple_tournament(ledger::Ruleset::Cafe2023, 4)
            .into_iter()
            .find(|e| matches!(e, Event::QualifyingDrawn { .. }))
            .expect("a simple tournament is drawn");
        let Event::QualifyingDrawn { games, .. } = &drawn else { unreachable!() };
        let first = games[0].game.clone();
        schedule.observe(&recorded(&open, drawn.clone()));
        assert_eq!(schedule.tournaments_of(&first), vec![open.clone()]);
        let by_hand = Event::GameScheduled {
            game: "extra".into(),
            stage: ledger::Stage::Final,
            round: 1,
            table: 1,
            seats: games[0].seats.clone(),
        };
        schedule.observe(&recorded(&open, by_hand));
        assert_eq!(schedule.tournaments_of("extra"), vec![open.clone()]);
        // A game's own events, or another kind of stream, schedule nothing.
        let game = StreamId::game("loose").unwrap();
        schedule.observe(&recorded(&game, Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }));
        assert!(schedule.tournaments_of("loose").is_empty());
        assert_eq!(schedule.tournaments(), vec![open]);
    }
}
