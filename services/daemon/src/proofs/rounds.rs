//! When a tournament round ends, read from the log: a round is the games a tournament scheduled
//! under its number (`qualifying_drawn`, `game_scheduled`), and it ends with the first
//! `game_ended` that leaves none of them unfinished. The ledger has no "round closed" event; this
//! fold is what the checkpoint keeper signs a round's checkpoint on. Pure: it sees records only.

use ledger::{Event, Recorded, StreamId, StreamKind};
use std::collections::{BTreeMap, BTreeSet};

/// A round that just ended, at the position of its last game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundEnded {
    pub tournament: StreamId,
    pub round: u32,
    pub position: u64,
}

/// The rounds scheduled so far and the games of each still being played.
#[derive(Debug, Default)]
pub struct Rounds {
    /// A game id → its tournament and round.
    games: BTreeMap<String, (StreamId, u32)>,
    /// A round → its games not ended yet.
    open: BTreeMap<(StreamId, u32), BTreeSet<String>>,
}

impl Rounds {
    /// Takes one record in log order; says when it ends a round.
    pub fn observe(&mut self, record: &Recorded) -> Option<RoundEnded> {
        let stream = &record.envelope.stream;
        match (&record.event, stream.kind()) {
            (Event::QualifyingDrawn { games, .. }, StreamKind::Tournament) => {
                for drawn in games {
                    self.schedule(stream, &drawn.game, drawn.round);
                }
                None
            }
            (Event::GameScheduled { game, round, .. }, StreamKind::Tournament) => {
                self.schedule(stream, game, *round);
                None
            }
            (Event::GameEnded { .. }, StreamKind::Game) => {
                let (tournament, round) = self.games.get(stream.id())?.clone();
                let key = (tournament, round);
                let games = self.open.get_mut(&key)?;
                if !games.remove(stream.id()) || !games.is_empty() {
                    return None;
                }
                self.open.remove(&key);
                let (tournament, round) = key;
                Some(RoundEnded { tournament, round, position: record.envelope.position })
            }
            _ => None,
        }
    }

    fn schedule(&mut self, tournament: &StreamId, game: &str, round: u32) {
        if self.games.insert(game.to_owned(), (tournament.clone(), round)).is_none() {
            self.open.entry((tournament.clone(), round)).or_default().insert(game.to_owned());
        }
    }

    /// The games scheduled so far (to read their streams when the fold restarts mid-log).
    pub fn games(&self) -> impl Iterator<Item = &str> {
        self.games.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::Envelope;
    use serde_json::json;

    fn record(stream: &str, position: u64, event: serde_json::Value) -> Recorded {
        let envelope = Envelope {
            stream: StreamId::parse(stream).unwrap(),
            seq: position,
            position,
            event_id: format!("e{position}"),
            recorded_at_ms: 0,
            actor: "t".into(),
            prev_hash: [0; 32],
            hash: [0; 32],
        };
        Recorded { envelope, event: ledger::event::from_canonical_json(&event).unwrap() }
    }

    fn ended(stream: &str, position: u64) -> Recorded {
        record(
            stream,
            position,
            json!({"type":"game_ended","outcome":"prussian_defensive_victory","winners":["prussia"],"objectives":{}}),
        )
    }

    #[test]
    fn a_round_ends_with_the_last_of_its_games() {
        let seats = json!({"frederick":"p1","elisabeth":"p2","maria_theresa":"p3","pompadour":"p4"});
        let mut rounds = Rounds::default();
        let drawn = json!({"type":"qualifying_drawn","seed":1,"games":[
            {"game":"q1-t1","round":1,"table":1,"seats":seats},
            {"game":"q1-t2","round":1,"table":2,"seats":seats},
            {"game":"q2-t1","round":2,"table":1,"seats":seats}]});
        assert_eq!(rounds.observe(&record("tournament/open", 1, drawn)), None);
        assert_eq!(rounds.observe(&ended("game/q1-t2", 7)), None);
        assert_eq!(rounds.observe(&ended("game/q1-t2", 8)), None, "a game ends once");
        assert_eq!(rounds.observe(&ended("game/loose", 9)), None, "a game of no tournament");
        let closed = rounds.observe(&ended("game/q1-t1", 10)).unwrap();
        assert_eq!((closed.tournament.id(), closed.round, closed.position), ("open", 1, 10));
        let closed = rounds.observe(&ended("game/q2-t1", 11)).unwrap();
        assert_eq!(closed.round, 2);
    }
}
