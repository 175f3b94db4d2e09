//! [`Schedule`]: which tournament put each game on a table, as the writer learns it from the
//! tournament streams it folds. A projection of one game then reads that game's tournament
//! alone, and the statistics read the tournaments without listing every stream of the log.

use ledger::{Event, Recorded, StreamId, StreamKind};
use std::collections::{BTreeSet, HashMap};
use std::sync::RwLock;

/// Game id → the tournaments whose draw or schedule names it, and every tournament stream.
/// Written by the sequencer (and, on a log shared by several ledgerd, by the backend's follower
/// from the other writers' events); read by anyone through [`crate::Log`]. A superset is
/// harmless: a projection folds the tournaments it names and keeps what they still schedule.
#[derive(Debug, Default)]
pub struct Schedule {
    known: RwLock<Known>,
}

#[derive(Debug, Default)]
struct Known {
    by_game: HashMap<String, BTreeSet<StreamId>>,
    tournaments: BTreeSet<StreamId>,
}

impl Schedule {
    /// Records a tournament stream and the games it schedules so far.
    pub(crate) fn learn<'a>(&self, tournament: &StreamId, games: impl IntoIterator<Item = &'a String>) {
        let mut known = self.known.write().expect("not poisoned");
        if !known.tournaments.contains(tournament) {
            known.tournaments.insert(tournament.clone());
        }
        for game in games {
            let by = known.by_game.entry(game.clone()).or_default();
            if !by.contains(tournament) {
                by.insert(tournament.clone());
            }
        }
    }

    /// Learns from one record another writer committed.
    pub(crate) fn observe(&self, record: &Recorded) {
        let stream = &record.envelope.stream;
        if stream.kind() != StreamKind::Tournament {
            return;
        }
        let games: Vec<&String> = match &record.event {
            Event::QualifyingDrawn { games, .. } => games.iter().map(|g| &g.game).collect(),
            Event::GameScheduled { game, .. } => vec![game],
            Event::TournamentCreated { .. }
            | Event::PlayerRegistered { .. }
            | Event::FinalRoleChosen { .. }
            | Event::LotDrawn { .. }
            | ledger::game_events!()
            | ledger::jury_events!()
            | Event::Andes(_) => Vec::new(),
        };
        self.learn(stream, games);
    }

    /// The tournaments that scheduled `game` (usually one; none for a stand-alone game).
    pub(crate) fn tournaments_of(&self, game: &str) -> Vec<StreamId> {
        let known = self.known.read().expect("not poisoned");
        known.by_game.get(game).map(|by| by.iter().cloned().collect()).unwrap_or_default()
    }

    /// Every tournament stream, in stream order.
    pub(crate) fn tournaments(&self) -> Vec<StreamId> {
        self.known.read().expect("not poisoned").tournaments.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_found_under_every_tournament_that_names_it_and_only_those() {
        let schedule = Schedule::default();
        let (spring, autumn) = (StreamId::tournament("spring").unwrap(), StreamId::tournament("autumn").unwrap());
        schedule.learn(&spring, &["g1".to_owned(), "g2".to_owned()]);
        schedule.learn(&autumn, &[]);
        schedule.learn(&spring, &["g1".to_owned(), "g3".to_owned()]);
        assert_eq!(schedule.tournaments_of("g1"), vec![spring.clone()]);
        assert_eq!(schedule.tournaments_of("g3"), vec![spring.clone()]);
        assert!(schedule.tournaments_of("alone").is_empty());
        assert_eq!(schedule.tournaments(), vec![autumn, spring]);
    }
}
