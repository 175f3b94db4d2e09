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
use std::convert::Infallible;

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

/// What the jury's desk shows: every open call, oldest first (by when it was recorded; games in
/// stream order, then seq, where two were recorded at once), and the games without a fate
/// horizon, in stream order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Desk {
    pub calls: Vec<DeskCall>,
    pub horizons: Vec<DeskHorizon>,
}

impl Desk {
    /// Sorts the calls as the desk lists them.
    pub fn sorted(mut self) -> Desk {
        self.calls.sort_by_key(|c| c.recorded_at_ms);
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
        let mut lines: Vec<TournamentLine> = self
            .tournaments
            .iter()
            .map(|(id, t)| {
                let state = replay::season::phase(&t.facts(), |g| Ok::<_, Infallible>(self.progress(g)))
                    .unwrap_or_else(|never| match never {});
                TournamentLine {
                    tournament: id.clone(),
                    name: t.name.clone(),
                    ruleset: t.ruleset,
                    year: t.year,
                    players: usize::try_from(t.players).unwrap_or(usize::MAX),
                    withdrawn: usize::try_from(t.withdrawn).unwrap_or(usize::MAX),
                    state,
                    first_position: t.first_position,
                }
            })
            .collect();
        lines.sort_by_key(|t| std::cmp::Reverse(t.first_position));
        lines
    }

    /// Role and nation statistics of the ended tournament games `filter` admits.
    ///
    /// # Errors
    /// `FailedPrecondition`: an ended game of an admitted tournament cannot be scored.
    pub fn stats(&self, filter: &Filter) -> Result<Stats, Error> {
        let mut out = Stats::default();
        for (tid, t) in &self.tournaments {
            if filter.tournament.as_deref().is_some_and(|wanted| wanted != tid.id()) {
                continue;
            }
            for (game, _) in &t.games {
                let Some(summary) = StreamId::game(game).ok().and_then(|g| self.games.get(&g)) else { continue };
                let played = match &summary.played {
                    None => continue,
                    Some(Err(why)) => return Err(Error::FailedPrecondition(why.clone())),
                    Some(Ok(played)) => played,
                };
                if !filter.admits_parts(Some(&played.tournament), played.ruleset, Some(played.stage), played.year) {
                    continue;
                }
                let roles = played.roles.iter().filter_map(|r| r.score.map(|s| (r.role, r.won, s)));
                let nations = played.nations.iter().filter_map(|(n, s, won)| s.map(|s| (*n, *won, s)));
                out.count(Some((&played.tournament, &played.tournament_name)), roles, nations);
            }
        }
        Ok(out)
    }

    /// The jury's desk.
    pub fn desk(&self) -> Desk {
        let mut desk = Desk::default();
        for (id, game) in &self.games {
            desk.calls.extend(game.calls.iter().map(|c| DeskCall {
                game: id.clone(),
                seq: c.seq,
                reason: c.reason.clone(),
                recorded_at_ms: c.recorded_at_ms,
            }));
            if let Some(turn) = game.horizon {
                desk.horizons.push(DeskHorizon { game: id.clone(), turn, version: game.version });
            }
        }
        desk.sorted()
    }

    /// How each player is shown: the pseudonym (`public`) or the name of their newest
    /// tournament's registration; a player no tournament registers, by id.
    pub fn shown_names(&self, public: bool) -> BTreeMap<String, String> {
        let mut tournaments: Vec<_> = self.tournaments.values().collect();
        tournaments.sort_by_key(|t| t.first_position);
        let mut shown = BTreeMap::new();
        for t in tournaments {
            let names = if public { &t.pseudonyms } else { &t.names };
            for (player, name) in names {
                shown.insert(player.clone(), name.clone());
            }
        }
        shown
    }
}
