//! The season's read models against a full replay (issue 44): random seasons — copies of the
//! example tournament's played games, then random voids, corrections (a `game_ended` voided and
//! recorded again), calls and rulings, fate horizons, a void in a tournament's stream — are
//! followed in random batches; after every batch (and after every event of the disturbances)
//! what is kept equals a rebuild from scratch and the facade's replay paths
//! (`facade::check_read_models`), and a restart at a random point (the saved bytes read back) resumes
//! to the same models.

use ledger::{Event, StreamId, StreamKind};
use ledger_house::facade::check_read_models;
use ledger_house::ratings::Model;
use ledger_house::readmodels::{Kept, ReadModels};
use ledger_house::source::{Entry, Records, Source};
use proptest::prelude::*;

const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

/// The example's lines as (stream, event), the copy `n` renamed `t<n>` with games `t<n>-…`.
fn copy_of(n: usize) -> Vec<(StreamId, Event)> {
    let lines = ledger::check::parse_lines(OPEN26).unwrap();
    let own = |game: &str| format!("t{n}-{game}");
    lines
        .into_iter()
        .map(|line| {
            let id = StreamId::parse(line.stream.as_deref().unwrap()).unwrap();
            let id = match id.kind() {
                StreamKind::Tournament => StreamId::tournament(&format!("t{n}")).unwrap(),
                _ => StreamId::game(&own(id.id())).unwrap(),
            };
            let event = match line.event {
                Event::GameScheduled { game, stage, round, table, seats } => {
                    Event::GameScheduled { game: own(&game), stage, round, table, seats }
                }
                other => other,
            };
            (id, event)
        })
        .collect()
}

/// A disturbance of the season, drawn as numbers and made valid against what is there.
#[derive(Debug, Clone)]
enum Disturbance {
    /// Void a game's standing end and record it again (a correction).
    Correct(usize),
    /// Void a game's standing end.
    Unend(usize),
    Call(usize),
    Rule(usize),
    Horizon(usize, u32),
    /// Void a tournament's player registration.
    VoidRegistration(usize, usize),
}

fn disturbance() -> impl Strategy<Value = Disturbance> {
    prop_oneof![
        3 => any::<usize>().prop_map(Disturbance::Correct),
        2 => any::<usize>().prop_map(Disturbance::Unend),
        2 => any::<usize>().prop_map(Disturbance::Call),
        1 => any::<usize>().prop_map(Disturbance::Rule),
        1 => (any::<usize>(), 1u32..13).prop_map(|(g, t)| Disturbance::Horizon(g, t)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(t, p)| Disturbance::VoidRegistration(t, p)),
    ]
}

/// The log as the test appends it: the records, and every event by stream.
struct Season {
    records: Records,
    position: u64,
}

impl Season {
    fn push(&mut self, stream: StreamId, event: Event) -> Entry {
        self.position += 1;
        // A time for each record: the calls' order on the desk, the tournaments' year.
        let at = 1_686_300_000_000 + self.position * 1_000;
        self.records.push(stream.clone(), self.position, Some(at), event);
        self.records.read_stream(&stream).unwrap().pop().unwrap()
    }

    fn games(&self) -> Vec<StreamId> {
        self.records.streams().unwrap().into_iter().filter(|s| s.kind() == StreamKind::Game).collect()
    }

    /// The events a disturbance records (none when it finds nothing to act on).
    fn events_for(&self, d: &Disturbance) -> Vec<(StreamId, Event)> {
        let games = self.games();
        let pick = |n: usize| games[n % games.len()].clone();
        let entries = |id: &StreamId| self.records.read_stream(id).unwrap();
        let standing_end = |id: &StreamId| {
            let entries = entries(id);
            let voided: Vec<u64> = entries
                .iter()
                .filter_map(|e| if let Event::EventVoided { seq, .. } = e.event { Some(seq) } else { None })
                .collect();
            entries
                .into_iter()
                .rev()
                .find(|e| matches!(e.event, Event::GameEnded { .. }) && !voided.contains(&e.seq))
                .map(|e| (e.seq, e.event))
        };
        let void = |seq| Event::EventVoided { seq, reason: "a test's ruling".into() };
        match *d {
            Disturbance::Correct(n) | Disturbance::Unend(n) => {
                let game = pick(n);
                let Some((seq, ended)) = standing_end(&game) else { return vec![] };
                let mut out = vec![(game.clone(), void(seq))];
                if matches!(d, Disturbance::Correct(_)) {
                    out.push((game, ended));
                }
                out
            }
            Disturbance::Call(n) => vec![(pick(n), Event::JuryCalled { reason: format!("call {n}") })],
            Disturbance::Rule(n) => vec![(pick(n), Event::JuryRuling { text: "ruled".into() })],
            Disturbance::Horizon(n, turn) => vec![(pick(n), Event::FateHorizonRecorded { turn })],
            Disturbance::VoidRegistration(t, p) => {
                let tournaments = self.records.tournaments().unwrap();
                let tournament = tournaments[t % tournaments.len()].clone();
                let registrations: Vec<u64> = entries(&tournament)
                    .iter()
                    .filter(|e| matches!(e.event, Event::PlayerRegistered { .. }))
                    .map(|e| e.seq)
                    .collect();
                vec![(tournament, void(registrations[p % registrations.len()]))]
            }
        }
    }
}

fn assert_replays(models: &ReadModels, season: &Season) {
    let differences = models.read(|kept| check_read_models(kept, &season.records)).unwrap();
    assert!(differences.is_empty(), "at position {}: {differences:?}", season.position);
    assert_eq!(models.position(), season.position);
}

/// A restart: the saved bytes read back.
fn restarted(models: &ReadModels) -> ReadModels {
    let (bytes, _) = models.encode();
    ReadModels::new(Kept::decode(&bytes).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn kept_read_models_equal_a_full_replay_after_every_batch_and_restart(
        copies in 1usize..3,
        batches in prop::collection::vec(1usize..400, 1..12),
        restart_at in any::<usize>(),
        disturbances in prop::collection::vec(disturbance(), 1..24),
    ) {
        let base: Vec<(StreamId, Event)> = (1..=copies).flat_map(copy_of).collect();
        let mut season = Season { records: Records::new(), position: 0 };
        let mut models = ReadModels::new(Kept::new());
        let mut sizes = batches.iter().cycle();
        let mut events = base.into_iter().peekable();
        let mut batch_number = 0;
        while events.peek().is_some() {
            let size = *sizes.next().unwrap();
            let batch: Vec<Entry> = events.by_ref().take(size).map(|(id, e)| season.push(id, e)).collect();
            models.follow(&season.records, &batch).unwrap();
            assert_replays(&models, &season);
            if batch_number == restart_at % batches.len() {
                models = restarted(&models);
                assert_replays(&models, &season);
            }
            batch_number += 1;
        }
        let ended = models.read(|kept| kept.ratings(Model::Plain).games);
        prop_assert_eq!(ended, 8 * copies as u64);
        for (n, d) in disturbances.iter().enumerate() {
            for (id, event) in season.events_for(d) {
                let entry = season.push(id, event);
                models.follow(&season.records, &[entry]).unwrap();
                assert_replays(&models, &season);
            }
            if n == restart_at % disturbances.len() {
                models = restarted(&models);
                assert_replays(&models, &season);
            }
        }
    }
}

#[test]
fn a_correction_of_an_early_game_rates_every_later_game_again() {
    let mut season = Season { records: Records::new(), position: 0 };
    let models = ReadModels::new(Kept::new());
    let batch: Vec<Entry> = copy_of(1).into_iter().map(|(id, e)| season.push(id, e)).collect();
    models.follow(&season.records, &batch).unwrap();
    let before = models.read(|kept| kept.ratings(Model::Plain).clone());
    assert_eq!(before.games, 8);
    // Void the first game's end: seven games rated, and not as the last seven were before.
    let first = models.read(|kept| kept.rated_games().next().unwrap().game.clone());
    let game = StreamId::game(&first).unwrap();
    let end =
        season.records.read_stream(&game).unwrap().into_iter().rfind(|e| matches!(e.event, Event::GameEnded { .. }));
    let end = end.unwrap();
    let voided = season.push(game.clone(), Event::EventVoided { seq: end.seq, reason: "wrong".into() });
    models.follow(&season.records, &[voided]).unwrap();
    assert_replays(&models, &season);
    let after = models.read(|kept| kept.ratings(Model::Plain).clone());
    assert_eq!(after.games, 7);
    assert_ne!(after.players, before.players);
    // Recorded again, it is rated last: the ratings differ from the first order's.
    let again = season.push(game, end.event);
    models.follow(&season.records, &[again]).unwrap();
    assert_replays(&models, &season);
    let last = models.read(|kept| kept.rated_games().last().unwrap().game.clone());
    assert_eq!(last, first);
}

#[test]
fn a_saved_form_of_another_version_or_damaged_is_refused() {
    let kept = Kept::new();
    let bytes = kept.encode();
    assert_eq!(Kept::decode(&bytes).unwrap(), kept);
    assert!(Kept::decode(b"LRM0whatever").is_err());
    assert!(Kept::decode(&bytes[..bytes.len() - 1]).is_err());
}

/// The ratings of one year (the analysts' filter): last year's tournament and this year's on one
/// log; each year shows that year's players as after their last game of it, with that year's
/// games and results by role.
#[test]
fn a_years_ratings_are_each_player_as_after_their_last_game_of_that_year() {
    use ledger_house::facade::Projections;
    // 2025-06-01 and 2026-06-01, UTC.
    let (last_year, this_year) = (1_748_736_000_000u64, 1_780_272_000_000u64);
    let mut both = Records::new();
    let mut first_only = Records::new();
    for (position, (id, event)) in copy_of(1).into_iter().enumerate() {
        let position = position as u64 + 1;
        both.push(id.clone(), position, Some(last_year + position), event.clone());
        first_only.push(id, position, Some(last_year + position), event);
    }
    let offset = both.streams().unwrap().iter().map(|s| both.read_stream(s).unwrap().len() as u64).sum::<u64>();
    for (position, (id, event)) in copy_of(2).into_iter().enumerate() {
        let position = offset + position as u64 + 1;
        both.push(id, position, Some(this_year + position), event);
    }
    let season = Projections::new(both);
    let whole = season.ratings(Model::Plain, false, None).unwrap().value;
    assert_eq!(whole.games, 16);
    let of_2025 = season.ratings(Model::Plain, false, Some(2025)).unwrap().value;
    let of_2026 = season.ratings(Model::Plain, false, Some(2026)).unwrap().value;
    assert_eq!((of_2025.year, of_2025.games, of_2026.games), (Some(2025), 8, 8));
    // 2025 as the log stood at its end: the ratings of last year's tournament alone.
    let alone = Projections::new(first_only).ratings(Model::Plain, false, None).unwrap().value;
    let line = |p: &ledger_house::facade::ratings::PlayerLine| (p.player.clone(), p.rating, p.games, p.roles.clone());
    assert_eq!(
        of_2025.players.iter().map(line).collect::<Vec<_>>(),
        alone.players.iter().map(line).collect::<Vec<_>>()
    );
    // 2026: everyone's rating now, with this year's four games each, not eight.
    for player in &of_2026.players {
        let now = whole.players.iter().find(|p| p.player == player.player).unwrap();
        assert_eq!(player.rating, now.rating, "{}", player.player);
        assert_eq!((player.games, now.games), (4, 8), "{}", player.player);
        assert_eq!(player.roles.values().map(|r| r.games).sum::<u64>(), 4);
        assert_eq!(player.history.len(), 8, "the history up to that year's last game");
    }
    assert!(season.ratings(Model::Plain, false, Some(2024)).unwrap().value.players.is_empty());
}

/// The desk lists at most what it is asked for and counts the rest, kept and replayed alike:
/// five CAFE 2023 tournaments, whose ended games Prussia did not win defensively have no fate
/// horizon.
#[test]
fn the_desk_lists_at_most_what_it_is_asked_and_counts_the_rest() {
    use ledger_house::facade::Projections;
    let mut season = Season { records: Records::new(), position: 0 };
    let models = ReadModels::new(Kept::new());
    let batch: Vec<Entry> = (1..=5).flat_map(copy_of).map(|(id, e)| season.push(id, e)).collect();
    models.follow(&season.records, &batch).unwrap();
    let whole = Projections::new(season.records.clone()).replayed_desk(usize::MAX).unwrap().value;
    assert!(whole.horizons.len() > 10, "{}", whole.horizons.len());
    let kept = models.read(|kept| kept.desk(10));
    assert_eq!((kept.horizons.len(), kept.horizons_waiting, kept.calls_waiting), (10, whole.horizons.len(), 0));
    assert_eq!(kept, Projections::new(season.records.clone()).replayed_desk(10).unwrap().value);
    assert_eq!(whole.horizons[..10], kept.horizons[..], "the first 10 of the whole list");
}
