//! The questions the pages and gRPC ask of what is kept: the season's tournaments, the role and
//! nation statistics under a filter, the jury's desk and the ratings. Each walks summaries
//! (one per tournament or game), never events. The answers' types are here, below the facade
//! that replays the same answers when nothing is kept.

use super::Kept;
use crate::error::Error;
use crate::projections::andes as andes_views;
use ledger::{Ruleset, StreamId};
use replay::season::{GameProgress, Phase};
use replay::stats::{Filter, Stats};
use serde::Serialize;
use std::collections::BTreeMap;

/// One tournament of the season (`crate::facade::season`), as kept and as replayed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentLine {
    #[serde(serialize_with = "andes_views::as_text")]
    pub tournament: StreamId,
    pub name: String,
    pub ruleset: Ruleset,
    /// The year its stream's first event was recorded (UTC); `None` where the source does not
    /// say when (a file's lines without `recorded_at_ms`).
    pub year: Option<i32>,
    /// Registered players, those who withdrew included; stand-ins are not players.
    pub players: usize,
    pub withdrawn: usize,
    #[serde(flatten)]
    pub state: Phase,
    /// The global position of the stream's first event: the order of the list.
    pub first_position: u64,
}

/// A call for the jury not yet ruled on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeskCall {
    pub game: StreamId,
    pub seq: u64,
    pub reason: String,
    pub recorded_at_ms: u64,
}

/// An ended CAFE 2023 game without its fate horizon: the last turn started, and the version
/// the desk's form records at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeskHorizon {
    pub game: StreamId,
    pub turn: u32,
    pub version: u64,
}

/// What the jury's desk shows: the open calls, oldest first (by when it was recorded; games in
/// stream order, then seq, where two were recorded at once), and the games without a fate
/// horizon, in stream order; at most as many of each as asked for, with how many there are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Desk {
    pub calls: Vec<DeskCall>,
    pub horizons: Vec<DeskHorizon>,
    /// Every open call, listed or not.
    pub calls_waiting: usize,
    /// Every game without its fate horizon, listed or not.
    pub horizons_waiting: usize,
}

impl Desk {
    /// Sorts the calls as the desk lists them, counts both lists and keeps at most `most` of
    /// each.
    pub fn listing(mut self, most: usize) -> Desk {
        self.calls.sort_by_key(|c| c.recorded_at_ms);
        self.calls_waiting = self.calls.len();
        self.horizons_waiting = self.horizons_waiting.max(self.horizons.len());
        self.calls.truncate(most);
        self.horizons.truncate(most);
        self
    }
}

impl Kept {
    /// A game's progress as kept (a game not kept has not started).
    pub fn progress(&self, game: &str) -> GameProgress {
        StreamId::game(game)
            .ok()
            .and_then(|id| self.games.get(&id))
            .map_or_else(GameProgress::default, |g| GameProgress { started: g.started, ended: g.ended })
    }

    /// The season's tournaments, newest first.
    pub fn tournament_lines(&self) -> Vec<TournamentLine> {
        let mut lines: Vec<TournamentLine> = self.indexes.lines().cloned().collect();
        lines.sort_by_key(|t| std::cmp::Reverse(t.first_position));
        lines
    }

    /// Role and nation statistics of the ended tournament games `filter` admits: added up from
    /// each tournament's parts, the season's total kept whole.
    ///
    /// # Errors
    /// `FailedPrecondition`: an ended game of an admitted tournament cannot be scored.
    pub fn stats(&self, filter: &Filter) -> Result<Stats, Error> {
        self.indexes.stats(filter).map_err(Error::FailedPrecondition)
    }

    /// The statistics of each year and ruleset the tournaments were played in, oldest first;
    /// periods without an ended game left out.
    ///
    /// # Errors
    /// As [`Kept::stats`].
    pub fn periods(&self) -> Result<&[(i32, ledger::Ruleset, Stats)], Error> {
        self.indexes.periods().map_err(Error::FailedPrecondition)
    }

    /// The jury's desk, at most `most` of each list: only the games with an open call, and the
    /// first `most` without their fate horizon, are looked at.
    pub fn desk(&self, most: usize) -> Desk {
        let mut desk = Desk { horizons_waiting: self.indexes.horizons_waiting(), ..Desk::default() };
        for id in self.indexes.calls() {
            let Some(game) = self.games.get(id) else { continue };
            desk.calls.extend(game.calls.iter().map(|c| DeskCall {
                game: id.clone(),
                seq: c.seq,
                reason: c.reason.clone(),
                recorded_at_ms: c.recorded_at_ms,
            }));
        }
        for id in self.indexes.horizons().take(most) {
            if let Some((turn, game)) = self.games.get(id).and_then(|g| Some((g.horizon?, g))) {
                desk.horizons.push(DeskHorizon { game: id.clone(), turn, version: game.version });
            }
        }
        desk.listing(most)
    }

    /// How each player is shown: the pseudonym (`public`) or the name of their newest
    /// tournament's registration; a player no tournament registers, by id.
    pub fn shown_names(&self, public: bool) -> &BTreeMap<String, String> {
        self.indexes.shown(public)
    }
}
