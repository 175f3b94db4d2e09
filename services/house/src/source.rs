//! Where the facade and the read models read streams ([`Source`]): the live log (`ledgerd`), the
//! validated records of a file (`ledgerctl` offline, [`Records`]), or either as it stood at a log
//! position ([`Upto`]); and one event as both read it ([`Entry`]). It sits below both, so the read
//! models need nothing of the facade that asks them.

use crate::error::Error;
use crate::projections;
use ledger::{Event, Recorded, Ruleset, StreamId, StreamKind};
use ledger_store::Log;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One event as the facade and the read models read it: where it stands in its stream and in
/// the log, and when it was recorded where that is known (a file's lines may not say).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub stream: StreamId,
    pub seq: u64,
    pub position: u64,
    pub recorded_at_ms: Option<u64>,
    /// The event's id and who recorded it, as the envelope says; empty where the source does
    /// not say (a file's line).
    pub event_id: String,
    pub actor: String,
    pub event: Event,
}

impl From<Recorded> for Entry {
    fn from(record: Recorded) -> Self {
        let envelope = record.envelope;
        Entry {
            stream: envelope.stream,
            seq: envelope.seq,
            position: envelope.position,
            recorded_at_ms: Some(envelope.recorded_at_ms),
            event_id: envelope.event_id,
            actor: envelope.actor,
            event: record.event,
        }
    }
}

/// Where streams are read: the live log (`ledgerd`) or a validated file (`ledgerctl`
/// offline, [`Records`]).
pub trait Source {
    /// Every event of a stream, in seq order (none for a stream that does not exist).
    ///
    /// # Errors
    /// The source cannot be read.
    fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error>;

    /// The tournament streams that schedule `game` (a game id).
    ///
    /// # Errors
    /// The source cannot be read.
    fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error>;

    /// Every tournament stream, in stream order.
    ///
    /// # Errors
    /// The source cannot be read.
    fn tournaments(&self) -> Result<Vec<StreamId>, Error>;

    /// Every stream, in stream order.
    ///
    /// # Errors
    /// The source cannot be read.
    fn streams(&self) -> Result<Vec<StreamId>, Error>;

    /// The newest global position the source holds (0 when empty).
    ///
    /// # Errors
    /// The source cannot be read.
    fn last_position(&self) -> Result<u64, Error>;

    /// A source that is one game's events alone (`ledgerctl score --file`): the game is scored
    /// under the ruleset given with it (else its own), as replay scores it, even with no events.
    /// `None` (the default): streams name themselves, a game without events is not found.
    fn lone_game(&self) -> Option<LoneGame> {
        None
    }
}

/// One game's events alone, scored under a ruleset given beside them (`score --ruleset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoneGame {
    pub ruleset: Option<Ruleset>,
}

impl Source for Log {
    fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error> {
        Ok(Log::read_stream(self, stream, 1, usize::MAX)?.into_iter().map(Entry::from).collect())
    }

    fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error> {
        Ok(Log::tournaments_of(self, game)?)
    }

    fn tournaments(&self) -> Result<Vec<StreamId>, Error> {
        Ok(Log::tournaments(self))
    }

    fn streams(&self) -> Result<Vec<StreamId>, Error> {
        Ok(Log::streams(self)?.into_iter().map(|info| info.stream).collect())
    }

    fn last_position(&self) -> Result<u64, Error> {
        Ok(Log::last_position(self)?)
    }
}

impl<S: Source + ?Sized> Source for Arc<S> {
    fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error> {
        (**self).read_stream(stream)
    }

    fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error> {
        (**self).tournaments_of(game)
    }

    fn tournaments(&self) -> Result<Vec<StreamId>, Error> {
        (**self).tournaments()
    }

    fn streams(&self) -> Result<Vec<StreamId>, Error> {
        (**self).streams()
    }

    fn last_position(&self) -> Result<u64, Error> {
        (**self).last_position()
    }

    fn lone_game(&self) -> Option<LoneGame> {
        (**self).lone_game()
    }
}

/// Streams held in memory: the records of a file `ledgerctl` validated (with the server's
/// rules) before asking the facade anything.
#[derive(Debug, Clone, Default)]
pub struct Records {
    streams: BTreeMap<StreamId, Vec<Entry>>,
    lone_game: Option<LoneGame>,
}

impl Records {
    /// No streams yet.
    pub fn new() -> Self {
        Records::default()
    }

    /// One game's events alone, scored under `ruleset` (else its own): see [`Source::lone_game`].
    pub fn of_lone_game(ruleset: Option<Ruleset>) -> Self {
        Records { lone_game: Some(LoneGame { ruleset }), ..Records::default() }
    }

    /// Adds an event at the end of its stream (seq 1, 2, … in the order pushed), with no id or
    /// actor.
    pub fn push(&mut self, stream: StreamId, position: u64, recorded_at_ms: Option<u64>, event: Event) {
        let entries = self.streams.entry(stream.clone()).or_default();
        let seq = entries.len() as u64 + 1;
        let (event_id, actor) = (String::new(), String::new());
        entries.push(Entry { stream, seq, position, recorded_at_ms, event_id, actor, event });
    }

    /// Adds an event as a log read it (its seq, position, time, id and actor kept) at the end
    /// of its stream.
    pub fn push_entry(&mut self, entry: Entry) {
        self.streams.entry(entry.stream.clone()).or_default().push(entry);
    }

    /// The events of a stream as the projections take them (none for an unknown stream).
    pub fn events(&self, stream: &StreamId) -> Vec<(u64, Event)> {
        self.streams
            .get(stream)
            .map_or_else(Vec::new, |entries| entries.iter().map(|e| (e.seq, e.event.clone())).collect())
    }
}

impl Source for Records {
    fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error> {
        Ok(self.streams.get(stream).cloned().unwrap_or_default())
    }

    fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error> {
        Ok(self
            .streams
            .iter()
            .filter(|(id, _)| id.kind() == StreamKind::Tournament)
            .filter(|(id, _)| projections::tournament_games(&self.events(id)).iter().any(|g| g == game))
            .map(|(id, _)| id.clone())
            .collect())
    }

    fn tournaments(&self) -> Result<Vec<StreamId>, Error> {
        Ok(self.streams.keys().filter(|id| id.kind() == StreamKind::Tournament).cloned().collect())
    }

    fn streams(&self) -> Result<Vec<StreamId>, Error> {
        Ok(self.streams.keys().cloned().collect())
    }

    fn last_position(&self) -> Result<u64, Error> {
        Ok(self.streams.values().flatten().map(|e| e.position).max().unwrap_or(0))
    }

    fn lone_game(&self) -> Option<LoneGame> {
        self.lone_game
    }
}

/// A source seen as it stood at a log position: later records left out.
#[derive(Debug, Clone)]
pub struct Upto<S> {
    pub source: S,
    pub position: u64,
}

impl<S: Source> Source for Upto<S> {
    fn read_stream(&self, stream: &StreamId) -> Result<Vec<Entry>, Error> {
        let mut entries = self.source.read_stream(stream)?;
        entries.retain(|e| e.position <= self.position);
        Ok(entries)
    }

    fn tournaments_of(&self, game: &str) -> Result<Vec<StreamId>, Error> {
        self.source.tournaments_of(game)
    }

    fn tournaments(&self) -> Result<Vec<StreamId>, Error> {
        self.source.tournaments()
    }

    fn streams(&self) -> Result<Vec<StreamId>, Error> {
        self.source.streams()
    }

    fn last_position(&self) -> Result<u64, Error> {
        Ok(self.source.last_position()?.min(self.position))
    }
}
