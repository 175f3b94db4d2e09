//! The season as read models kept as events commit (issue 44; issue 43, item 5): the season's
//! tournaments, the jury's open calls and missing fate horizons, the role and nation statistics
//! and the ratings, each answered from what [`Kept`] holds instead of replaying the log per
//! request.
//!
//! [`Kept`] holds a summary per tournament and per game ([`derive`]) and the log position they
//! reflect. A batch of committed records names the streams it touched; each touched stream
//! (a game only when the event can change what is kept of it: its start, end, a void, a call,
//! a ruling, a fate horizon, or anything once it has ended) is read again up to the batch's
//! last position and derived again, and a tournament whose name, ruleset, year or schedule
//! changed derives its games again. The ratings follow the ended games: a game ending after
//! every rated one is one more update; a void or a correction of a rated game rates them all
//! again (a pure loop over what is kept, not a read of the log). Memory: a summary per stream
//! and a rating per player, never the events.
//!
//! Pure but for the [`Source`] it reads streams from; the keeping — following the log, saving
//! [`Kept::encode`]'s bytes with their position in the data directory, resuming from them — is
//! ledgerd's (`ledger_daemon::readmodels`). A rebuild from scratch is [`Kept::rebuild`]; the
//! facade's replay paths are the full replay both are checked against
//! (`crate::facade::check_read_models`). The facade asks these models; they know nothing of it.

pub mod derive;
mod indexes;
mod query;

pub use query::{Desk, DeskCall, DeskHorizon, TournamentLine};

use crate::error::Error;
use crate::ratings::{Model, RatedGame, Ratings};
use crate::source::{Entry, Source};
use derive::{GameSummary, TournamentSummary};
use ledger::{StreamId, StreamKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Condvar, Mutex, RwLock};
use std::time::Duration;

/// The saved form's version: a file of another version is set aside and the models rebuilt.
pub const FORMAT_VERSION: u32 = 1;

/// The saved form's first bytes.
const MAGIC: &[u8; 4] = b"LRM1";

/// What the read models hold, as of `position`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// The newest log position reflected.
    pub position: u64,
    pub tournaments: BTreeMap<StreamId, TournamentSummary>,
    pub games: BTreeMap<StreamId, GameSummary>,
    /// Game id → the tournament that schedules it (from `tournaments`).
    #[serde(skip)]
    scheduled_by: BTreeMap<String, StreamId>,
    /// The rated games by (end position, game id): the ratings' order.
    #[serde(skip)]
    rated: BTreeMap<(u64, String), RatedGame>,
    /// One per [`Model::ALL`], in that order.
    #[serde(skip)]
    ratings: Vec<Ratings>,
    /// What the questions read (the desk's games, the season's lines, the statistics in parts).
    #[serde(skip)]
    indexes: indexes::Indexes,
}

impl Default for Kept {
    /// Nothing yet: [`Kept::new`].
    fn default() -> Self {
        Kept::new()
    }
}

/// What a batch changes: streams derived again (`None`: no longer kept).
#[derive(Debug, Default)]
pub struct Changes {
    upto: u64,
    tournaments: BTreeMap<StreamId, Option<TournamentSummary>>,
    games: BTreeMap<StreamId, GameSummary>,
}

impl Kept {
    /// Nothing yet (position 0).
    pub fn new() -> Kept {
        let mut kept = Kept {
            position: 0,
            tournaments: BTreeMap::new(),
            games: BTreeMap::new(),
            scheduled_by: BTreeMap::new(),
            rated: BTreeMap::new(),
            ratings: Vec::new(),
            indexes: indexes::Indexes::default(),
        };
        kept.reindex();
        kept
    }

    /// From scratch: every stream of `source` derived as of its newest position.
    ///
    /// # Errors
    /// The source cannot be read.
    pub fn rebuild<S: Source + ?Sized>(source: &S) -> Result<Kept, Error> {
        let upto = source.last_position()?;
        let mut kept = Kept::new();
        let streams = source.streams()?;
        // The tournaments first, so that each game finds its own in what is kept.
        let mut changes = Changes { upto, ..Changes::default() };
        for id in streams.iter().filter(|id| id.kind() == StreamKind::Tournament) {
            changes.tournaments.insert(id.clone(), derive::tournament(&read(source, id, upto)?));
        }
        kept.install(changes);
        let mut changes = Changes { upto, ..Changes::default() };
        let games: BTreeSet<StreamId> = streams.into_iter().filter(|id| id.kind() == StreamKind::Game).collect();
        kept.derive_games(source, &mut changes, games)?;
        kept.install(changes);
        Ok(kept)
    }

    /// What `batch` (records in log order, all past [`Kept::position`]) changes.
    ///
    /// # Errors
    /// The source cannot be read.
    pub fn changes<S: Source + ?Sized>(&self, source: &S, batch: &[Entry]) -> Result<Changes, Error> {
        let upto = batch.iter().map(|e| e.position).max().unwrap_or(self.position).max(self.position);
        let mut changes = Changes { upto, ..Changes::default() };
        let mut games = BTreeSet::new();
        for entry in batch {
            match entry.stream.kind() {
                StreamKind::Tournament => {
                    changes.tournaments.entry(entry.stream.clone()).or_insert(None);
                }
                StreamKind::Game => {
                    let ended = self.games.get(&entry.stream).is_some_and(|g| g.ended);
                    if ended || derive::matters_before_the_end(&entry.event) {
                        games.insert(entry.stream.clone());
                    }
                }
                StreamKind::Andes => {}
            }
        }
        let touched: Vec<StreamId> = changes.tournaments.keys().cloned().collect();
        for id in touched {
            let new = derive::tournament(&read(source, &id, upto)?);
            let old = self.tournaments.get(&id);
            if old.map(TournamentSummary::context) != new.as_ref().map(TournamentSummary::context) {
                let schedules = old.into_iter().chain(new.as_ref()).flat_map(|t| t.games.iter().map(|(g, _)| g));
                games.extend(schedules.filter_map(|g| StreamId::game(g).ok()).filter(|g| self.games.contains_key(g)));
            }
            changes.tournaments.insert(id, new);
        }
        self.derive_games(source, &mut changes, games)?;
        Ok(changes)
    }

    fn derive_games<S: Source + ?Sized>(
        &self,
        source: &S,
        changes: &mut Changes,
        games: BTreeSet<StreamId>,
    ) -> Result<(), Error> {
        for id in games {
            let entries = read(source, &id, changes.upto)?;
            let summary = derive::game(&id, &entries, self.context_of(&id, changes));
            changes.games.insert(id, summary);
        }
        Ok(())
    }

    /// The tournament that schedules `game`, as the batch leaves the tournaments.
    fn context_of<'a>(&'a self, game: &StreamId, changes: &'a Changes) -> derive::Context<'a> {
        for t in self.scheduled_by.get(game.id()).into_iter().chain(changes.tournaments.keys()) {
            let (id, summary) = match changes.tournaments.get_key_value(t) {
                Some((id, changed)) => (id, changed.as_ref()),
                None => match self.tournaments.get_key_value(t) {
                    Some((id, kept)) => (id, Some(kept)),
                    None => continue,
                },
            };
            if let Some(summary) = summary.filter(|s| s.games.iter().any(|(g, _)| g == game.id())) {
                return Some((id, summary));
            }
        }
        None
    }

    /// Takes a batch's changes in.
    pub fn install(&mut self, changes: Changes) {
        let tournaments_changed: BTreeSet<StreamId> = changes.tournaments.keys().cloned().collect();
        let games_changed: BTreeSet<StreamId> = changes.games.keys().cloned().collect();
        for (id, summary) in changes.tournaments {
            if let Some(old) = self.tournaments.remove(&id) {
                for (game, _) in &old.games {
                    if self.scheduled_by.get(game) == Some(&id) {
                        self.scheduled_by.remove(game);
                    }
                }
            }
            if let Some(new) = summary {
                for (game, _) in &new.games {
                    self.scheduled_by.insert(game.clone(), id.clone());
                }
                self.tournaments.insert(id, new);
            }
        }
        let mut again = false;
        let mut added = Vec::new();
        for (id, summary) in changes.games {
            let old = self.games.get(&id).and_then(|g| rated_of(&id, g));
            let new = rated_of(&id, &summary);
            if old != new {
                if let Some(old) = old {
                    self.rated.remove(&(old.end_position, old.game));
                    again = true;
                }
                if let Some(new) = new {
                    self.rated.insert((new.end_position, new.game.clone()), new.clone());
                    added.push(new);
                }
            }
            // A stream with nothing to keep is not kept, however it came to be so.
            if summary == GameSummary::default() {
                self.games.remove(&id);
            } else {
                self.games.insert(id, summary);
            }
        }
        added.sort_by(|a, b| (a.end_position, &a.game).cmp(&(b.end_position, &b.game)));
        if again || added.first().is_some_and(|first| self.ratings.iter().any(|r| !r.follows(first))) {
            self.rate_all();
        } else {
            for ratings in &mut self.ratings {
                for game in &added {
                    ratings.update(game);
                }
            }
        }
        self.indexes.mend(&self.tournaments, &self.games, &self.scheduled_by, &tournaments_changed, &games_changed);
        self.position = self.position.max(changes.upto);
    }

    /// The indexes that are not saved: who schedules each game, the rated games, the ratings,
    /// what the questions read.
    fn reindex(&mut self) {
        self.indexes = indexes::Indexes::of(&self.tournaments, &self.games);
        self.scheduled_by = self
            .tournaments
            .iter()
            .flat_map(|(id, t)| t.games.iter().map(move |(g, _)| (g.clone(), id.clone())))
            .collect();
        self.rated = self
            .games
            .iter()
            .filter_map(|(id, g)| rated_of(id, g))
            .map(|r| ((r.end_position, r.game.clone()), r))
            .collect();
        self.rate_all();
    }

    fn rate_all(&mut self) {
        let games: Vec<RatedGame> = self.rated.values().cloned().collect();
        self.ratings = Model::ALL.iter().map(|&model| Ratings::of(model, &games)).collect();
    }

    /// One model's ratings.
    pub fn ratings(&self, model: Model) -> &Ratings {
        let index = Model::ALL.iter().position(|&m| m == model).unwrap_or(0);
        &self.ratings[index]
    }

    /// Whether what the questions read (mended batch by batch) equals `other`'s: a rebuild's,
    /// in the check against a full replay.
    pub fn reads_as(&self, other: &Kept) -> bool {
        self.indexes == other.indexes
    }

    /// The games rated, in the ratings' order.
    pub fn rated_games(&self) -> impl Iterator<Item = &RatedGame> {
        self.rated.values()
    }

    /// The saved form: [`MAGIC`], then postcard.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(postcard::to_allocvec(self).expect("the read models encode"));
        bytes
    }

    /// The saved form read back, its indexes and ratings made again.
    ///
    /// # Errors
    /// Another format or version, or damaged bytes.
    pub fn decode(bytes: &[u8]) -> Result<Kept, String> {
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| format!("not read models of format version {FORMAT_VERSION}"))?;
        let mut kept: Kept = postcard::from_bytes(body).map_err(|e| format!("damaged read models: {e}"))?;
        kept.reindex();
        Ok(kept)
    }
}

/// The game as the ratings take it, if it is an ended tournament game with four scores.
fn rated_of(id: &StreamId, game: &GameSummary) -> Option<RatedGame> {
    game.played.as_ref()?.as_ref().ok()?.rated(id.id())
}

/// A stream's entries up to a position.
fn read<S: Source + ?Sized>(source: &S, id: &StreamId, upto: u64) -> Result<Vec<Entry>, Error> {
    let mut entries = source.read_stream(id)?;
    entries.retain(|e| e.position <= upto);
    Ok(entries)
}

/// The read models shared by the keeper (one writer) and the readers: the pages, gRPC.
pub struct ReadModels {
    kept: RwLock<Kept>,
    position: Mutex<u64>,
    moved: Condvar,
}

impl std::fmt::Debug for ReadModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadModels").field("position", &self.position()).finish_non_exhaustive()
    }
}

impl ReadModels {
    pub fn new(kept: Kept) -> ReadModels {
        let position = kept.position;
        ReadModels { kept: RwLock::new(kept), position: Mutex::new(position), moved: Condvar::new() }
    }

    /// The newest log position the models reflect.
    pub fn position(&self) -> u64 {
        *self.position.lock().expect("not poisoned")
    }

    /// Reads the models.
    pub fn read<R>(&self, f: impl FnOnce(&Kept) -> R) -> R {
        f(&self.kept.read().expect("not poisoned"))
    }

    /// Follows a batch of committed records (the keeper's one call): derived under a read lock,
    /// taken in under a short write lock.
    ///
    /// # Errors
    /// The source cannot be read: nothing changed.
    pub fn follow<S: Source + ?Sized>(&self, source: &S, batch: &[Entry]) -> Result<(), Error> {
        let changes = self.read(|kept| kept.changes(source, batch))?;
        let position = {
            let mut kept = self.kept.write().expect("not poisoned");
            kept.install(changes);
            kept.position
        };
        *self.position.lock().expect("not poisoned") = position;
        self.moved.notify_all();
        Ok(())
    }

    /// Replaces the models (a rebuild).
    pub fn replace(&self, kept: Kept) {
        let position = kept.position;
        *self.kept.write().expect("not poisoned") = kept;
        *self.position.lock().expect("not poisoned") = position;
        self.moved.notify_all();
    }

    /// Waits until the models reflect `position`, at most `timeout`; whether they do.
    pub fn caught_up(&self, position: u64, timeout: Duration) -> bool {
        let guard = self.position.lock().expect("not poisoned");
        let (guard, _) = self.moved.wait_timeout_while(guard, timeout, |at| *at < position).expect("not poisoned");
        *guard >= position
    }

    /// The saved form of what is kept now, and its position.
    pub fn encode(&self) -> (Vec<u8>, u64) {
        self.read(|kept| (kept.encode(), kept.position))
    }
}
