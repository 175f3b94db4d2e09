//! The projections facade: domain values in, domain values out. The gRPC Projections service,
//! the web pages and `ledgerctl`'s offline mode all ask it for a score sheet, standings, a
//! clock, statistics, the Andes views ([`andes`]), a table's view ([`table`]) or the season's
//! tournaments and matches ([`season`]), and each
//! renders the answer its own way (protobuf and JSON only at
//! those edges). It reads streams from a [`Source`] — the live log, or the validated records of
//! a file ([`Records`](crate::source::Records)) — and folds them with `crate::projections` and `replay`. The season's
//! questions it answers from the read models when ledgerd keeps them ([`ReadModels`]), else by
//! that replay; [`check_read_models`] holds the one against the other.
//!
//! Its methods read and fold, so they block: async callers run them in
//! `tokio::task::spawn_blocking`. It knows no transport (no tonic, prost or axum here).

pub mod andes;
mod check;
pub mod desk;
pub mod player;
pub mod ratings;
pub mod season;
pub mod table;

pub use check::check_read_models;

use crate::error::Error;
use crate::projections::{self, NoTournament, ProjectionError, Streams};
use crate::readmodels::ReadModels;
use crate::source::{Entry, LoneGame, Source};
use ledger::rejection::quote;
use ledger::stream::MAX_NAME_BYTES;
use ledger::{Event, Ruleset, Stage, StreamId, StreamKind};
use replay::clock::ClockView;
use replay::standings::TournamentFacts;
use replay::stats::{year_of_unix_ms, Filter, Stats};
use replay::{ScoreSheet, Standings};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A projection and the newest global position it includes (the API's `as_of_position`).
#[derive(Debug, Clone, PartialEq)]
pub struct At<T> {
    pub value: T,
    pub as_of_position: u64,
}

impl From<ProjectionError> for Error {
    /// A stream that is not there is `NOT_FOUND`; a projection the log cannot make yet,
    /// `FAILED_PRECONDITION`.
    fn from(error: ProjectionError) -> Self {
        match error {
            ProjectionError::NotFound(_) => Error::NotFound(error.to_string()),
            other => Error::FailedPrecondition(other.to_string()),
        }
    }
}

/// A stream id as requests name it: `<id>` or `<kind>/<id>`, of the kind asked for.
///
/// # Errors
/// `Refused` (malformed) for a name the ledger refuses; `InvalidArgument` for a stream of
/// another kind.
pub fn stream_id(kind: StreamKind, text: &str) -> Result<StreamId, Error> {
    let name = if text.contains('/') { text.to_owned() } else { format!("{}/{text}", kind.prefix()) };
    let id = StreamId::parse(&name)?;
    if id.kind() != kind {
        return Err(Error::InvalidArgument(format!("{name} is not a {} stream", kind.prefix())));
    }
    Ok(id)
}

/// The analysts' filter from its parts as requests carry them: a tournament id, a ruleset's
/// and a stage's names, a year.
///
/// # Errors
/// `InvalidArgument`: a tournament id longer than a stream name may be, an unknown ruleset or
/// stage.
pub fn stats_filter(
    tournament: Option<String>,
    ruleset: Option<&str>,
    stage: Option<&str>,
    year: Option<i32>,
) -> Result<Filter, Error> {
    if let Some(tournament) = tournament.as_deref().filter(|t| t.len() > MAX_NAME_BYTES) {
        return Err(Error::InvalidArgument(format!(
            "tournament `{}` is {} bytes long; a stream name is at most {MAX_NAME_BYTES} bytes",
            quote(tournament),
            tournament.len()
        )));
    }
    let ruleset = ruleset
        .map(|r| Ruleset::parse(r).ok_or_else(|| Error::InvalidArgument(format!("unknown ruleset `{}`", quote(r)))))
        .transpose()?;
    let stage = stage
        .map(|s| Stage::parse(s).ok_or_else(|| Error::InvalidArgument(format!("unknown stage `{}`", quote(s)))))
        .transpose()?;
    Ok(Filter { tournament, ruleset, stage, year })
}

/// What was read: the streams, the newest position included, and when each stream began.
struct Loaded {
    entries: Vec<Entry>,
    streams: Streams,
    last_position: u64,
    first_recorded_ms: BTreeMap<StreamId, Option<u64>>,
}

/// The events of `entries`, by stream, as the projections take them.
fn events_by_stream(entries: &[Entry]) -> Streams {
    let mut streams = Streams::new();
    for entry in entries {
        streams.entry(entry.stream.clone()).or_default().push((entry.seq, entry.event.clone()));
    }
    streams
}

impl Loaded {
    fn from_entries(entries: Vec<Entry>) -> Loaded {
        let last_position = entries.iter().map(|e| e.position).max().unwrap_or(0);
        let mut first_recorded_ms = BTreeMap::new();
        for entry in &entries {
            first_recorded_ms.entry(entry.stream.clone()).or_insert(entry.recorded_at_ms);
        }
        let streams = events_by_stream(&entries);
        Loaded { entries, streams, last_position, first_recorded_ms }
    }

    /// The global position of a stream's event `seq` (its last event for `None`), 0 if none.
    fn position_of(&self, stream: &StreamId, seq: Option<u64>) -> u64 {
        let seq = seq.unwrap_or(u64::MAX);
        self.entries.iter().filter(|e| e.stream == *stream && e.seq <= seq).map(|e| e.position).max().unwrap_or(0)
    }
}

/// How long a question waits for the read models to reach the source's newest position before
/// it replays the log instead (a keeper that stopped, or is far behind after a start).
pub const CATCH_UP_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The projections over one source of streams.
#[derive(Debug, Clone)]
pub struct Projections<S> {
    source: S,
    /// The season's read models kept as events commit (ledgerd's); `None`: every question
    /// replays what it needs (`ledgerctl` offline, tests).
    kept: Option<Arc<ReadModels>>,
}

impl<S: Source> Projections<S> {
    pub fn new(source: S) -> Self {
        Projections { source, kept: None }
    }

    /// The same, answering the season's questions from read models kept over this source.
    pub fn with_read_models(mut self, models: Arc<ReadModels>) -> Self {
        self.kept = Some(models);
        self
    }

    /// The read models, once they reflect everything the source holds now (waiting at most
    /// [`CATCH_UP_WAIT`]); `None` without them, or when they lag: the caller replays.
    fn kept(&self) -> Result<Option<&ReadModels>, Error> {
        let Some(models) = self.kept.as_deref() else { return Ok(None) };
        let newest = self.source.last_position()?;
        if models.caught_up(newest, CATCH_UP_WAIT) {
            return Ok(Some(models));
        }
        tracing::warn!(newest, kept = models.position(), "the read models lag the log: replaying");
        Ok(None)
    }

    /// The source it reads.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The entries of `ids`, each stream read once, up to a global position.
    fn read(&self, ids: &[StreamId], as_of_position: Option<u64>) -> Result<Vec<Entry>, Error> {
        let limit = as_of_position.unwrap_or(u64::MAX);
        let mut entries = Vec::new();
        for id in ids {
            entries.extend(self.source.read_stream(id)?.into_iter().filter(|e| e.position <= limit));
        }
        Ok(entries)
    }

    /// A game with the tournaments that scheduled it (its ruleset, clock and seats), and
    /// nothing else of the source.
    fn load_game(&self, game: &StreamId) -> Result<Loaded, Error> {
        let mut ids = self.source.tournaments_of(game.id())?;
        ids.push(game.clone());
        Ok(Loaded::from_entries(self.read(&ids, None)?))
    }

    /// Tournaments and the games they schedule, every stream read once.
    fn load_tournaments(&self, tournaments: &[StreamId], as_of: Option<u64>) -> Result<Loaded, Error> {
        let mut entries = self.read(tournaments, as_of)?;
        let streams = events_by_stream(&entries);
        let games: BTreeSet<StreamId> = tournaments
            .iter()
            .filter_map(|t| streams.get(t))
            .flat_map(|events| projections::tournament_games(events))
            .filter_map(|game| StreamId::game(&game).ok())
            .collect();
        entries.extend(self.read(&games.into_iter().collect::<Vec<_>>(), as_of)?);
        Ok(Loaded::from_entries(entries))
    }

    /// A tournament's schedule as its stream records it (voided events left out).
    ///
    /// # Errors
    /// `NotFound` when its stream created no tournament; the source's failure.
    pub fn tournament(&self, tournament: &StreamId) -> Result<TournamentFacts, Error> {
        let events: Vec<(u64, Event)> =
            self.source.read_stream(tournament)?.into_iter().map(|e| (e.seq, e.event)).collect();
        let facts = TournamentFacts::fold(&events);
        match facts.ruleset {
            Some(_) => Ok(facts),
            None => Err(Error::NotFound(NoTournament(tournament.clone()).to_string())),
        }
    }

    /// Whether a game's stream holds an end that no void took back (as the sequencer folds it).
    ///
    /// # Errors
    /// The source's failure.
    pub fn game_ended(&self, game: &StreamId) -> Result<bool, Error> {
        Ok(self.game_progress(game)?.ended)
    }

    /// A game's score sheet, as of its event `as_of_seq` if given.
    ///
    /// # Errors
    /// `NotFound` without such a game; `FailedPrecondition` when it cannot be scored (yet);
    /// the source's failure.
    pub fn score_sheet(&self, game: &StreamId, as_of_seq: Option<u64>) -> Result<At<ScoreSheet>, Error> {
        let loaded = self.load_game(game)?;
        let sheet = match self.source.lone_game() {
            Some(LoneGame { ruleset }) => {
                let events = loaded.streams.get(game).map_or(&[][..], Vec::as_slice);
                match as_of_seq {
                    Some(seq) => replay::score_game_as_of(ruleset, events, seq),
                    None => replay::score_game(ruleset, events),
                }
                .map_err(ProjectionError::from)?
            }
            None => projections::score_sheet(&loaded.streams, game, as_of_seq)?,
        };
        Ok(At { value: sheet, as_of_position: loaded.position_of(game, as_of_seq) })
    }

    /// A tournament's standings as of a global position; under pseudonyms if `public`.
    ///
    /// # Errors
    /// `NotFound` without such a tournament; `FailedPrecondition` when its games cannot be
    /// scored; the source's failure.
    pub fn standings(
        &self,
        tournament: &StreamId,
        as_of_position: Option<u64>,
        public: bool,
    ) -> Result<At<Standings>, Error> {
        let loaded = self.load_tournaments(std::slice::from_ref(tournament), as_of_position)?;
        let standings = if public {
            projections::public_standings(&loaded.streams, tournament)
        } else {
            projections::standings(&loaded.streams, tournament)
        }?;
        Ok(At { value: standings, as_of_position: loaded.last_position })
    }

    /// A game's chess clock as of its event `as_of_seq`, extrapolated to the table time
    /// `now_ms` if given.
    ///
    /// # Errors
    /// `NotFound` without such a game; `FailedPrecondition` without a ruleset; the source's
    /// failure.
    pub fn clock(&self, game: &StreamId, as_of_seq: Option<u64>, now_ms: Option<u64>) -> Result<At<ClockView>, Error> {
        let loaded = self.load_game(game)?;
        let view = projections::clock(&loaded.streams, game, as_of_seq, now_ms)?;
        Ok(At { value: view, as_of_position: loaded.position_of(game, as_of_seq) })
    }

    /// Role and nation statistics over the tournaments `filter` admits, as of a global
    /// position. A tournament filter names a stream id: only that tournament is read.
    ///
    /// # Errors
    /// `FailedPrecondition` when a tournament's games cannot be scored; the source's failure.
    pub fn role_stats(&self, filter: &Filter, as_of_position: Option<u64>) -> Result<At<Stats>, Error> {
        if as_of_position.is_none() {
            if let Some(models) = self.kept()? {
                return models.read(|kept| -> Result<At<Stats>, Error> {
                    Ok(At { value: kept.stats(filter)?, as_of_position: kept.position })
                });
            }
        }
        self.replayed_role_stats(filter, as_of_position)
    }

    /// [`Projections::role_stats`] by replaying the tournaments' streams.
    ///
    /// # Errors
    /// As [`Projections::role_stats`].
    pub fn replayed_role_stats(&self, filter: &Filter, as_of_position: Option<u64>) -> Result<At<Stats>, Error> {
        let tournaments: Vec<StreamId> = self
            .source
            .tournaments()?
            .into_iter()
            .filter(|id| filter.tournament.as_deref().is_none_or(|wanted| id.id() == wanted))
            .collect();
        let loaded = self.load_tournaments(&tournaments, as_of_position)?;
        let years = loaded
            .first_recorded_ms
            .iter()
            .filter(|(id, _)| id.kind() == StreamKind::Tournament)
            .filter_map(|(id, ms)| ms.map(|ms| (id.clone(), year_of_unix_ms(ms))))
            .collect();
        let stats = projections::role_stats(&loaded.streams, &years, filter)?;
        Ok(At { value: stats, as_of_position: loaded.last_position })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Records;
    use ledger::access::Clearance;
    use ledger_store::{AppendRequest, Log, ProposedEvent};

    const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

    /// The example tournament's lines, each with its stream, in file order.
    fn lines() -> Vec<(StreamId, ledger::check::Line)> {
        let lines = ledger::check::parse_lines(OPEN26).unwrap();
        lines.into_iter().map(|line| (StreamId::parse(line.stream.as_deref().unwrap()).unwrap(), line)).collect()
    }

    /// The example as `ledgerctl` holds a file: each line's number its position.
    pub(super) fn records() -> Records {
        let mut records = Records::new();
        for (id, line) in lines() {
            records.push(id, line.number as u64, line.recorded_at_ms, line.event);
        }
        records
    }

    /// The example appended to a live log (a run of lines of one stream in one append).
    pub(super) fn log(dir: &std::path::Path) -> Arc<Log> {
        let log = Log::open_sled(dir).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let mut runs: Vec<(StreamId, Vec<ProposedEvent>)> = Vec::new();
        for (id, line) in lines() {
            let event = ProposedEvent { event_id: String::new(), event: line.event };
            match runs.last_mut() {
                Some((last, events)) if *last == id => events.push(event),
                _ => runs.push((id, vec![event])),
            }
        }
        for (stream, events) in runs {
            let request = AppendRequest {
                stream,
                events,
                expected_version: None,
                actor: "test".into(),
                clearance: Clearance::Jury,
            };
            runtime.block_on(log.submit(request).unwrap()).unwrap();
        }
        Arc::new(log)
    }

    #[test]
    fn the_live_log_and_a_file_give_the_same_projections() {
        let dir = tempfile::tempdir().unwrap();
        let (live, file) = (Projections::new(log(dir.path())), Projections::new(records()));
        let tournament = StreamId::tournament("open26").unwrap();
        for public in [false, true] {
            let (online, offline) = (
                live.standings(&tournament, None, public).unwrap(),
                file.standings(&tournament, None, public).unwrap(),
            );
            assert_eq!(online.value, offline.value);
            assert_eq!(online.value.to_json_string(), offline.value.to_json_string());
        }
        let first = &file.tournament(&tournament).unwrap().games[0];
        let game = StreamId::game(&first.game).unwrap();
        assert_eq!(
            live.score_sheet(&game, None).unwrap().value.to_json_string(),
            file.score_sheet(&game, None).unwrap().value.to_json_string()
        );
        assert_eq!(live.clock(&game, Some(3), None).unwrap().value, file.clock(&game, Some(3), None).unwrap().value);
        let filter = stats_filter(Some("open26".into()), Some("cafe2023"), None, None).unwrap();
        assert_eq!(live.role_stats(&filter, None).unwrap().value, file.role_stats(&filter, None).unwrap().value);
        // The API's position is the log's: the newest event of the game, of the whole tournament.
        let at = live.score_sheet(&game, None).unwrap().as_of_position;
        let last = live.source().read_stream(&game).unwrap().last().unwrap().position;
        assert_eq!(at, last);
    }

    /// A source that notes every stream it reads and every time it is asked for a list.
    struct Counting<S> {
        inner: S,
        reads: std::sync::Mutex<Vec<StreamId>>,
        listings: std::sync::atomic::AtomicUsize,
    }

    impl<S: Source> Counting<S> {
        fn new(inner: S) -> Self {
            Counting { inner, reads: Default::default(), listings: Default::default() }
        }

        /// The streams read since the last call, in order, and how many lists were asked for.
        fn taken(&self) -> (Vec<StreamId>, usize) {
            let reads = std::mem::take(&mut *self.reads.lock().unwrap());
            (reads, self.listings.swap(0, std::sync::atomic::Ordering::Relaxed))
        }

        fn listed(&self) {
            self.listings.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    impl<S: Source> Source for Counting<S> {
        fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error> {
            self.reads.lock().unwrap().push(stream.clone());
            self.inner.read_stream(stream)
        }

        fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error> {
            self.inner.tournaments_of(game)
        }

        fn tournaments(&self) -> Result<Vec<StreamId>, Error> {
            self.listed();
            self.inner.tournaments()
        }

        fn streams(&self) -> Result<Vec<StreamId>, Error> {
            self.listed();
            self.inner.streams()
        }

        fn last_position(&self) -> Result<u64, Error> {
            self.listed();
            self.inner.last_position()
        }
    }

    /// The example, then `copies` more of it as tournaments `t1`, `t2`, … (their games
    /// `t1-q1-t1`, …), each after the last in the log.
    fn season(copies: usize) -> Records {
        let mut records = records();
        let mut position = records.last_position().unwrap();
        for copy in 1..=copies {
            let own = |game: &str| format!("t{copy}-{game}");
            for (id, line) in lines() {
                let id = match id.kind() {
                    StreamKind::Tournament => StreamId::tournament(&format!("t{copy}")).unwrap(),
                    _ => StreamId::game(&own(id.id())).unwrap(),
                };
                let event = match line.event {
                    Event::GameScheduled { game, stage, round, table, seats } => {
                        Event::GameScheduled { game: own(&game), stage, round, table, seats }
                    }
                    other => other,
                };
                position += 1;
                records.push(id, position, line.recorded_at_ms, event);
            }
        }
        records
    }

    #[test]
    fn a_tournaments_standings_read_its_streams_once_and_nothing_else_of_the_season() {
        let alone = Projections::new(records());
        let season = Projections::new(Counting::new(season(3)));
        assert_eq!(season.source().inner.tournaments().unwrap().len(), 4);
        let open26 = StreamId::tournament("open26").unwrap();
        let games: Vec<StreamId> =
            alone.tournament(&open26).unwrap().games.iter().map(|g| StreamId::game(&g.game).unwrap()).collect();
        assert_eq!(games.len(), 8);
        let mut expected: Vec<StreamId> = games.clone();
        expected.push(open26.clone());
        expected.sort();
        for public in [false, true] {
            let standings = season.standings(&open26, None, public).unwrap();
            assert_eq!(standings.value, alone.standings(&open26, None, public).unwrap().value);
            let (mut reads, listings) = season.source().taken();
            reads.sort();
            assert_eq!(reads, expected, "public: {public}");
            assert_eq!(listings, 0, "public: {public}");
        }
        // Another tournament of the season reads its own streams, not the example's.
        season.standings(&StreamId::tournament("t2").unwrap(), None, true).unwrap();
        let (reads, listings) = season.source().taken();
        assert_eq!((reads.len(), listings), (9, 0));
        assert!(reads.iter().all(|id| id.id() == "t2" || id.id().starts_with("t2-")), "{reads:?}");
        // The paper's schedule is the tournament's stream alone; a game's sheet, that game and
        // the tournament that scheduled it.
        season.tournament(&open26).unwrap();
        assert_eq!(season.source().taken(), (vec![open26.clone()], 0));
        season.score_sheet(&games[0], None).unwrap();
        assert_eq!(season.source().taken(), (vec![open26, games[0].clone()], 0));
    }

    #[test]
    fn a_stream_of_another_kind_or_none_is_refused_as_the_api_always_did() {
        let wrong = stream_id(StreamKind::Game, "tournament/open26").unwrap_err();
        assert_eq!(wrong, Error::InvalidArgument("tournament/open26 is not a game stream".into()));
        assert_eq!(stream_id(StreamKind::Tournament, "open26").unwrap(), StreamId::tournament("open26").unwrap());
        assert!(matches!(stream_id(StreamKind::Game, "no spaces"), Err(Error::Refused(_))));
        let file = Projections::new(records());
        let missing = file.standings(&StreamId::tournament("nowhere").unwrap(), None, false).unwrap_err();
        assert_eq!(missing, Error::NotFound("there is no stream tournament/nowhere".into()));
        let missing = file.score_sheet(&StreamId::game("nowhere").unwrap(), None).unwrap_err();
        assert_eq!(missing, Error::NotFound("there is no stream game/nowhere".into()));
        let unknown = stats_filter(None, Some("chess"), None, None).unwrap_err();
        assert_eq!(unknown, Error::InvalidArgument("unknown ruleset `chess`".into()));
    }
}
