//! What the questions read, kept beside the summaries so that a question costs what its answer
//! holds, not what the season holds (issue 44's "the same at 1 and at 50 tournaments"): the
//! games on the jury's desk, each tournament's line of the season list, each tournament's
//! statistics in parts by what a filter can ask (ruleset, stage, year), the season's total, and
//! how each player is shown. Derived from the summaries alone, never saved: made whole by
//! [`Indexes::of`] after a rebuild or a restart, and mended by [`Indexes::mend`] for what a batch
//! touched. `readmodels::check` holds them to a rebuild's.

use super::derive::{GameSummary, Played, TournamentSummary};
use crate::facade::season::TournamentLine;
use ledger::{Ruleset, Stage, StreamId};
use replay::season::GameProgress;
use replay::stats::{Filter, Stats};
use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;

/// What a statistics filter can tell apart within one tournament's games.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PartKey {
    tournament: String,
    ruleset: Ruleset,
    stage: Stage,
    year: Option<i32>,
}

impl PartKey {
    fn of(played: &Played) -> PartKey {
        PartKey {
            tournament: played.tournament.clone(),
            ruleset: played.ruleset,
            stage: played.stage,
            year: played.year,
        }
    }

    fn admitted_by(&self, filter: &Filter) -> bool {
        filter.admits_parts(Some(&self.tournament), self.ruleset, Some(self.stage), self.year)
    }
}

/// One tournament's ended games counted, in parts a filter takes or leaves whole, and the first
/// game (in schedule order) that cannot be scored: it refuses every question about the
/// tournament, as a replay does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct TournamentStats {
    parts: Vec<(PartKey, Stats)>,
    unscored: Option<String>,
}

impl TournamentStats {
    fn of(tournament: &TournamentSummary, games: &BTreeMap<StreamId, GameSummary>) -> TournamentStats {
        let mut out = TournamentStats::default();
        for (game, _) in &tournament.games {
            let Some(summary) = StreamId::game(game).ok().and_then(|g| games.get(&g)) else { continue };
            match &summary.played {
                None => {}
                Some(Err(why)) => {
                    out.unscored.get_or_insert_with(|| why.clone());
                }
                Some(Ok(played)) => {
                    let key = PartKey::of(played);
                    let at = match out.parts.iter().position(|(k, _)| *k == key) {
                        Some(at) => at,
                        None => {
                            out.parts.push((key, Stats::default()));
                            out.parts.len() - 1
                        }
                    };
                    let roles = played.roles.iter().filter_map(|r| r.score.map(|s| (r.role, r.won, s)));
                    let nations = played.nations.iter().filter_map(|(n, s, won)| s.map(|s| (*n, *won, s)));
                    out.parts[at].1.count(Some((&played.tournament, &played.tournament_name)), roles, nations);
                }
            }
        }
        out
    }

    /// Adds what `filter` admits to `into`; why not, when a game cannot be scored.
    fn add_to(&self, into: &mut Stats, filter: &Filter) -> Result<(), String> {
        if let Some(why) = &self.unscored {
            return Err(why.clone());
        }
        for (_, stats) in self.parts.iter().filter(|(key, _)| key.admitted_by(filter)) {
            into.merge(stats);
        }
        Ok(())
    }
}

/// The indexes over what is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Indexes {
    /// Games with an open call.
    calls: BTreeSet<StreamId>,
    /// Ended CAFE 2023 games without their fate horizon.
    horizons: BTreeSet<StreamId>,
    /// Each tournament's line of the season list.
    lines: BTreeMap<StreamId, TournamentLine>,
    /// Each tournament's statistics, in parts.
    stats: BTreeMap<StreamId, TournamentStats>,
    /// Every tournament's statistics added up (no filter): the analysts' first view.
    total: Result<Stats, String>,
    /// The statistics of each year and ruleset the tournaments were played in, oldest first,
    /// those without an ended game left out (the analysts' trends).
    periods: Result<Vec<(i32, Ruleset, Stats)>, String>,
    /// How each player is shown: `[names, pseudonyms]`.
    shown: [BTreeMap<String, String>; 2],
}

impl Default for Indexes {
    fn default() -> Self {
        Indexes {
            calls: BTreeSet::new(),
            horizons: BTreeSet::new(),
            lines: BTreeMap::new(),
            stats: BTreeMap::new(),
            total: Ok(Stats::default()),
            periods: Ok(Vec::new()),
            shown: [BTreeMap::new(), BTreeMap::new()],
        }
    }
}

impl Indexes {
    /// Made whole from the summaries.
    pub fn of(tournaments: &BTreeMap<StreamId, TournamentSummary>, games: &BTreeMap<StreamId, GameSummary>) -> Indexes {
        let mut indexes = Indexes {
            calls: games.iter().filter(|(_, g)| !g.calls.is_empty()).map(|(id, _)| id.clone()).collect(),
            horizons: games.iter().filter(|(_, g)| g.horizon.is_some()).map(|(id, _)| id.clone()).collect(),
            ..Indexes::default()
        };
        for (id, tournament) in tournaments {
            indexes.lines.insert(id.clone(), line(id, tournament, games));
            indexes.stats.insert(id.clone(), TournamentStats::of(tournament, games));
        }
        indexes.add_up(tournaments);
        indexes
    }

    /// Mended after a batch changed `tournaments_changed` and `games_changed` (the summaries
    /// already hold the batch): the touched games' desk entries, and the lines and statistics of
    /// every tournament changed or scheduling a changed game.
    pub fn mend(
        &mut self,
        tournaments: &BTreeMap<StreamId, TournamentSummary>,
        games: &BTreeMap<StreamId, GameSummary>,
        scheduled_by: &BTreeMap<String, StreamId>,
        tournaments_changed: &BTreeSet<StreamId>,
        games_changed: &BTreeSet<StreamId>,
    ) {
        for id in games_changed {
            let game = games.get(id);
            for (set, on) in [
                (&mut self.calls, game.is_some_and(|g| !g.calls.is_empty())),
                (&mut self.horizons, game.is_some_and(|g| g.horizon.is_some())),
            ] {
                if on {
                    set.insert(id.clone());
                } else {
                    set.remove(id);
                }
            }
        }
        let touched: BTreeSet<&StreamId> =
            tournaments_changed.iter().chain(games_changed.iter().filter_map(|g| scheduled_by.get(g.id()))).collect();
        if touched.is_empty() {
            return;
        }
        for id in touched {
            match tournaments.get(id) {
                Some(tournament) => {
                    self.lines.insert(id.clone(), line(id, tournament, games));
                    self.stats.insert(id.clone(), TournamentStats::of(tournament, games));
                }
                None => {
                    self.lines.remove(id);
                    self.stats.remove(id);
                }
            }
        }
        self.add_up(tournaments);
    }

    /// The season's total and the names, from the tournaments' parts.
    fn add_up(&mut self, tournaments: &BTreeMap<StreamId, TournamentSummary>) {
        self.total = self.added(&Filter::default());
        let periods: BTreeSet<(i32, Ruleset)> =
            tournaments.values().filter_map(|t| t.year.map(|year| (year, t.ruleset))).collect();
        self.periods = periods
            .into_iter()
            .map(|(year, ruleset)| {
                let filter = Filter { ruleset: Some(ruleset), year: Some(year), ..Filter::default() };
                Ok((year, ruleset, self.added(&filter)?))
            })
            .filter(|period| period.as_ref().map_or(true, |(_, _, stats)| stats.games > 0))
            .collect();
        self.shown = [shown_names(tournaments, false), shown_names(tournaments, true)];
    }

    /// The statistics `filter` admits, in the tournaments' order; why not, when a game of an
    /// admitted tournament cannot be scored.
    pub fn stats(&self, filter: &Filter) -> Result<Stats, String> {
        if *filter == Filter::default() {
            return self.total.clone();
        }
        self.added(filter)
    }

    /// [`Indexes::stats`] added up from the tournaments' parts.
    fn added(&self, filter: &Filter) -> Result<Stats, String> {
        let mut out = Stats::default();
        match &filter.tournament {
            Some(wanted) => {
                let id = StreamId::tournament(wanted).ok();
                if let Some(stats) = id.and_then(|id| self.stats.get(&id)) {
                    stats.add_to(&mut out, filter)?;
                }
            }
            None => {
                for stats in self.stats.values() {
                    stats.add_to(&mut out, filter)?;
                }
            }
        }
        Ok(out)
    }

    /// The statistics of each year and ruleset, oldest first.
    pub fn periods(&self) -> Result<&[(i32, Ruleset, Stats)], String> {
        self.periods.as_deref().map_err(Clone::clone)
    }

    /// The games with an open call, in stream order.
    pub fn calls(&self) -> impl Iterator<Item = &StreamId> {
        self.calls.iter()
    }

    /// The ended CAFE 2023 games without their fate horizon, in stream order.
    pub fn horizons(&self) -> impl Iterator<Item = &StreamId> {
        self.horizons.iter()
    }

    /// How many games wait for their fate horizon.
    pub fn horizons_waiting(&self) -> usize {
        self.horizons.len()
    }

    /// The season's tournaments, in stream order.
    pub fn lines(&self) -> impl Iterator<Item = &TournamentLine> {
        self.lines.values()
    }

    /// How each player is shown: the pseudonym (`public`) or the name.
    pub fn shown(&self, public: bool) -> &BTreeMap<String, String> {
        &self.shown[usize::from(public)]
    }
}

/// A tournament's line of the season list.
fn line(id: &StreamId, t: &TournamentSummary, games: &BTreeMap<StreamId, GameSummary>) -> TournamentLine {
    let progress = |game: &str| {
        StreamId::game(game)
            .ok()
            .and_then(|g| games.get(&g))
            .map_or_else(GameProgress::default, |g| GameProgress { started: g.started, ended: g.ended })
    };
    let state =
        replay::season::phase(&t.facts(), |g| Ok::<_, Infallible>(progress(g))).unwrap_or_else(|never| match never {});
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
}

/// How each player is shown: the pseudonym (`public`) or the name of their newest tournament's
/// registration; a player no tournament registers is not in the map.
fn shown_names(tournaments: &BTreeMap<StreamId, TournamentSummary>, public: bool) -> BTreeMap<String, String> {
    let mut ordered: Vec<_> = tournaments.values().collect();
    ordered.sort_by_key(|t| t.first_position);
    let mut shown = BTreeMap::new();
    for t in ordered {
        let names = if public { &t.pseudonyms } else { &t.names };
        for (player, name) in names {
            shown.insert(player.clone(), name.clone());
        }
    }
    shown
}
