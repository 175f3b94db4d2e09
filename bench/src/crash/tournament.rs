//! Tournaments under the crash load: a tournament stream and its games, written together by one
//! organiser, and the checks across them after every restart.
//!
//! Each tournament is created, registers four players, then schedules its games one at a time
//! (`game_scheduled`), keeping one scheduled game ahead of play; each game starts with
//! `game_started` *without* a ruleset, which the ledger accepts only because the tournament
//! scheduled it: a decision across streams, taken from the writer's knowledge of the schedule,
//! which a restart rebuilds from the log. The first game a cycle starts was scheduled before the
//! crash, so every cycle asks a freshly restarted ledgerd to remember a schedule that a power cut
//! may have torn at. After each restart [`CrossStream`] checks that every started game was
//! scheduled by its tournament at an earlier global position. What each of its streams holds at
//! a seq is [`super::events`]'s.

use super::append::{acks_of, Attempt};
use super::events::{game_stream, own_event_id, part_of, tournament_stream, Part, GAME_EVENTS, SETUP};
use super::model::Model;
use super::rng::Rng;
use super::writers::{Cycle, Outcome};
use ledger::{Event, Recorded};
use std::collections::HashMap;

/// Where one tournament stands: its stream's version and each scheduled game's.
#[derive(Debug, Clone)]
pub struct Plan {
    idx: usize,
    version: u64,
    /// Game `n`'s version at index `n - 1`, for every scheduled game.
    games: Vec<u64>,
}

impl Plan {
    /// Tournament `idx` as the model knows it: after the retries every append made is either
    /// stored and known, or was never stored.
    pub fn from_model(idx: usize, model: &Model) -> Plan {
        let version = model.len(&tournament_stream(idx));
        let scheduled = version.saturating_sub(SETUP);
        let games = (1..=scheduled).map(|n| model.len(&game_stream(idx, n))).collect();
        Plan { idx, version, games }
    }

    /// The next append: the setup; else the next game's schedule when every scheduled game has
    /// started; else the next events of the first unfinished game (its start alone, turns in
    /// batches like the other writers').
    fn next_attempt(&self, rng: &mut Rng, max_batch: u64) -> Attempt {
        let (stream, version, n_events) = if self.version < SETUP {
            (tournament_stream(self.idx), self.version, SETUP - self.version)
        } else if self.games.iter().all(|&v| v > 0) {
            (tournament_stream(self.idx), self.version, 1)
        } else {
            let k = self.games.iter().position(|&v| v < GAME_EVENTS).expect("an unstarted game");
            let version = self.games[k];
            let batch = if version == 0 || !rng.one_in(4) { 1 } else { rng.between(2, max_batch.max(2)) };
            (game_stream(self.idx, k as u64 + 1), version, batch.min(GAME_EVENTS - version))
        };
        let first_seq = version + 1;
        let event_ids = (first_seq..first_seq + n_events).map(|seq| own_event_id(&stream, seq)).collect();
        Attempt { stream, first_seq, event_ids, expected_version: None }
    }

    fn acknowledged(&mut self, attempt: &Attempt) {
        match part_of(&attempt.stream) {
            Some(Part::Tournament { .. }) => {
                self.version = attempt.last_seq();
                self.games.resize(usize::try_from(self.version.saturating_sub(SETUP)).unwrap_or(0), 0);
            }
            Some(Part::Game { n, .. }) => {
                if let Some(version) = usize::try_from(n - 1).ok().and_then(|k| self.games.get_mut(k)) {
                    *version = attempt.last_seq();
                }
            }
            None => {}
        }
    }
}

/// The organiser of one tournament: appends one at a time, each answer awaited, until the
/// connection breaks. A refusal (a game start the ledger did not know was scheduled) fails the
/// run.
pub async fn organiser(name: String, cycle: Cycle, mut plan: Plan, max_batch: u64, mut rng: Rng) -> Outcome {
    let (mut out, client) = Outcome::connected(&name, &cycle).await;
    let Some(mut client) = client else { return out };
    loop {
        let attempt = plan.next_attempt(&mut rng, max_batch);
        match client.append(attempt.signed(&name)).await {
            Ok(answer) => match acks_of(&attempt, &answer.into_inner(), false) {
                Ok(acks) => {
                    plan.acknowledged(&attempt);
                    out.acknowledged(&cycle, acks);
                }
                Err(e) => {
                    out.failure = Some(format!("{name}: {e}"));
                    break;
                }
            },
            Err(status) => {
                out.ended(&cycle, Some(attempt), &status);
                break;
            }
        }
    }
    out
}

/// What the read-back found of the tournaments, for the checks across streams.
#[derive(Debug, Default)]
pub struct CrossStream {
    /// Game stream → (its tournament stream, the global position of its `game_scheduled`).
    scheduled: HashMap<String, (String, u64)>,
    /// Game stream → the global position of its `game_started`.
    started: HashMap<String, u64>,
}

impl CrossStream {
    /// Notes what `records` (all of `stream`, as read back) say across streams.
    pub fn note(&mut self, stream: &str, records: &[Recorded]) {
        match part_of(stream) {
            Some(Part::Tournament { .. }) => {
                for record in records {
                    if let Event::GameScheduled { game, .. } = &record.event {
                        let entry = (stream.to_owned(), record.envelope.position);
                        self.scheduled.insert(format!("game/{game}"), entry);
                    }
                }
            }
            Some(Part::Game { .. }) => {
                if let Some(first) = records.first() {
                    self.started.insert(stream.to_owned(), first.envelope.position);
                }
            }
            None => {}
        }
    }

    /// Games started in all: a check that found none checked nothing.
    pub fn games_started(&self) -> usize {
        self.started.len()
    }

    /// Every started game was scheduled by its own tournament, earlier in the log.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (game, &started_at) in &self.started {
            let Some(Part::Game { idx, .. }) = part_of(game) else { continue };
            match self.scheduled.get(game) {
                Some((tournament, at)) if *tournament == tournament_stream(idx) && *at < started_at => {}
                Some((tournament, at)) => problems.push(format!(
                    "{game} started at position {started_at}, scheduled by {tournament} at position {at}"
                )),
                None => problems.push(format!("{game} started at position {started_at}, never scheduled")),
            }
        }
        problems.sort();
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crash::events::event_of;
    use ledger::{Ruleset, StreamId, StreamState};

    #[test]
    fn the_plan_writes_valid_streams_with_one_game_scheduled_ahead() {
        let mut plan = Plan { idx: 0, version: 0, games: Vec::new() };
        let mut rng = Rng::new(7);
        let mut streams: HashMap<String, Vec<Event>> = HashMap::new();
        for _ in 0..400 {
            let attempt = plan.next_attempt(&mut rng, 5);
            let events = streams.entry(attempt.stream.clone()).or_default();
            assert_eq!(attempt.first_seq, events.len() as u64 + 1, "{}", attempt.describe());
            events.extend((attempt.first_seq..=attempt.last_seq()).map(|seq| event_of(&attempt.stream, seq)));
            plan.acknowledged(&attempt);
            let unstarted = plan.games.iter().filter(|&&v| v == 0).count();
            assert!(unstarted <= 1, "at most one game scheduled ahead: {:?}", plan.games);
        }
        assert!(plan.games.len() > 5, "games were played: {:?}", plan.games);
        // Each stream on its own follows the rules (the schedule's ruleset is the writer's
        // knowledge across streams, so the game is told it here).
        for (stream, events) in &streams {
            let id = StreamId::parse(stream).unwrap();
            let scheduled = matches!(part_of(stream), Some(Part::Game { .. })).then_some(Ruleset::Cafe2023);
            let mut state = StreamState::new(&id, scheduled);
            for event in events {
                state.decide(event).unwrap_or_else(|r| panic!("{stream}: {event:?}: {r}"));
                state.apply(event).unwrap();
            }
        }
    }
}
