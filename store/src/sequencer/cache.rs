//! The bounded stream cache: what the writer holds per stream (its folded state and chain
//! head). A stream not cached is loaded from the snapshot stored with its head, a stream another
//! writer appended to is dropped, and a tournament's state tells which games it scheduled.

use super::Sequencer;
use crate::error::StoreError;
use crate::snapshot;
use crate::storage::Storage;
use ledger::envelope::GENESIS;
use ledger::rules::Rules;
use ledger::{Folded, Hash, StreamId, StreamKind};

/// What the writer holds for a stream: its folded state and chain head.
#[derive(Clone)]
pub(super) struct Cached {
    pub(super) fold: Folded,
    pub(super) head: Hash,
}

impl<S: Storage> Sequencer<S> {
    /// Learns which games the stored tournaments scheduled, so that their streams know their
    /// ruleset.
    ///
    /// # Errors
    /// The backend could not be read.
    pub fn index_tournaments(&mut self, tournaments: &[StreamId]) -> Result<(), StoreError> {
        for stream in tournaments {
            let cached = self.load(stream)?;
            self.learn_schedule(stream, &cached.fold);
            self.cache.put(stream.clone(), cached);
        }
        Ok(())
    }

    /// Drops a cached stream that another writer has appended to; a tournament is reloaded at
    /// once, to learn the games it scheduled.
    pub(super) fn forget_if_behind(&mut self, stream: &StreamId, seq: u64) {
        if self.cache.peek(stream).is_some_and(|cached| cached.fold.version() >= seq) {
            return;
        }
        self.cache.pop(stream);
        if stream.kind() == StreamKind::Tournament {
            match self.load(stream) {
                Ok(cached) => {
                    self.learn_schedule(stream, &cached.fold);
                    self.cache.put(stream.clone(), cached);
                }
                Err(error) => tracing::warn!(%stream, %error, "could not reload a tournament another writer changed"),
            }
        }
    }

    /// A stream's state from its stored head and snapshot; replayed from its events only when
    /// the snapshot is missing or of another version.
    pub(super) fn load(&self, stream: &StreamId) -> Result<Cached, StoreError> {
        let scheduled = match stream.kind() {
            StreamKind::Game => self.scheduled.get(stream.id()).copied(),
            StreamKind::Tournament | StreamKind::Andes => None,
        };
        let Some(stored) = self.storage.load_head(stream)? else {
            return Ok(Cached { fold: Folded::new(stream, scheduled), head: GENESIS });
        };
        if let Some(fold) = stored.snapshot.as_deref().and_then(snapshot::decode) {
            if fold.version() == stored.version {
                return Ok(Cached { fold, head: stored.hash });
            }
        }
        tracing::info!(%stream, version = stored.version, "no usable snapshot: replaying the stream once");
        // Stored events were decided when they were appended: evolve only (total, even if a
        // later version of the rules would refuse one of them).
        let mut fold = Folded::new(stream, scheduled);
        let mut history = Vec::new();
        let mut head = GENESIS;
        for record in self.storage.load_events(stream)? {
            fold.evolve(&record.event, &history);
            head = record.envelope.hash;
            history.push(record.event);
        }
        Ok(Cached { fold, head })
    }

    /// Records the ruleset of every game a tournament scheduled, and publishes the schedule for
    /// the readers; a game stream cached before it was scheduled, and still empty, is dropped so
    /// that it reloads with the ruleset.
    pub(super) fn learn_schedule(&mut self, stream: &StreamId, tournament: &Folded) {
        let Rules::Tournament(t) = tournament.rules() else { return };
        self.schedule.learn(stream, t.games.iter().map(|(game, slot)| (game, slot.table)));
        let Some(ruleset) = t.ruleset else { return };
        for game in t.games.keys() {
            if self.scheduled.insert(game.clone(), ruleset).is_none() {
                if let Ok(stream) = StreamId::game(game) {
                    if self.cache.peek(&stream).is_some_and(|c| c.fold.version() == 0) {
                        self.cache.pop(&stream);
                    }
                }
            }
        }
    }
}
