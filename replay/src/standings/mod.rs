//! Tournament standings (spec §6 and §7, docs/RULES.md): a fold over the tournament stream and
//! the streams of its games into qualifying totals, the ruleset's tie-breakers with the value
//! each player had, which tie-breaker decided each adjacent pair, the four finalists and the
//! winner of the final.
//!
//! Games link to the tournament through `qualifying_drawn` and `game_scheduled`: game id `g`
//! is the stream `game/g`, its seats give the player in each role. A game whose stream is
//! missing or has not ended counts for nobody yet and is listed as pending.

pub mod checks;
mod final_game;
mod render;
mod tiebreak;
mod unavailable;

pub use final_game::{FinalContender, FinalDecider, FinalResult};
pub use render::StandingsJson;
pub use tiebreak::{Decider, TieBreakValue, TieBreaker};
pub use unavailable::{NotScorable, Unavailable};

use crate::exact::Rational;
use crate::sheet::{score_game, voided_seqs, ScoreError, ScoreSheet};
use ledger::event::PlayerId;
use ledger::rules::ScheduledGame as Slot;
use ledger::{Event, Role, Ruleset, Stage};
use std::collections::BTreeMap;

/// Why standings cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    #[error("the tournament stream has no tournament_created")]
    NotCreated,
    #[error("game {game}: {error}")]
    Game { game: String, error: ScoreError },
    #[error("game {game} is played under {found}, but the tournament plays {expected}")]
    WrongRuleset { game: String, expected: Ruleset, found: Ruleset },
}

/// A game the tournament put on a table: its id and the ledger's own record of the slot, which
/// the rules keep in a map by id; standings keep the games in scheduling order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledGame {
    pub game: String,
    /// Stage, round, table and seats.
    pub slot: Slot,
}

/// A recorded lot: `order` is best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lot {
    pub purpose: String,
    pub seed: u64,
    pub order: Vec<PlayerId>,
}

impl Lot {
    /// The final's lot (wm2015 final tie-breaker 3) has purpose "final"; every other lot
    /// serves the qualifying standings.
    pub fn is_for_final(&self) -> bool {
        self.purpose == "final"
    }
}

/// What the tournament stream recorded, voided events left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TournamentFacts {
    pub name: String,
    pub ruleset: Option<Ruleset>,
    /// Player id and name, in registration order.
    pub players: Vec<(PlayerId, String)>,
    /// Stand-ins (id and name), in registration order: seated by the draw, never ranked.
    pub stand_ins: Vec<(PlayerId, String)>,
    /// Players who withdrew, with the round from which a stand-in took their seats.
    pub withdrawn: Vec<(PlayerId, u32)>,
    /// In scheduling order.
    pub games: Vec<ScheduledGame>,
    pub lots: Vec<Lot>,
    pub final_roles: Vec<(PlayerId, Role)>,
}

impl TournamentFacts {
    /// Folds a tournament stream, skipping voided events.
    pub fn fold(events: &[(u64, Event)]) -> TournamentFacts {
        let voided = voided_seqs(events);
        let mut facts = TournamentFacts::default();
        for (_, event) in events.iter().filter(|(seq, _)| !voided.contains(seq)) {
            match event {
                Event::TournamentCreated { name, ruleset, .. } => {
                    facts.name.clone_from(name);
                    facts.ruleset = Some(*ruleset);
                }
                Event::PlayerRegistered { player, name, .. } => {
                    facts.players.push((player.clone(), name.clone()));
                }
                Event::QualifyingDrawn { games, .. } => {
                    facts.games.extend(games.iter().map(|g| ScheduledGame {
                        game: g.game.clone(),
                        slot: Slot { stage: Stage::Qualifying, round: g.round, table: g.table, seats: g.seats.clone() },
                    }));
                }
                Event::GameScheduled { game, stage, round, table, seats } => facts.games.push(ScheduledGame {
                    game: game.clone(),
                    slot: Slot { stage: *stage, round: *round, table: *table, seats: seats.clone() },
                }),
                Event::FinalRoleChosen { player, role } => {
                    facts.final_roles.push((player.clone(), *role));
                }
                Event::LotDrawn { purpose, seed, order } => {
                    facts.lots.push(Lot { purpose: purpose.clone(), seed: *seed, order: order.clone() })
                }
                Event::StandInRegistered { player, name } => facts.stand_ins.push((player.clone(), name.clone())),
                Event::PlayerUnregistered { player } => {
                    facts.players.retain(|(p, _)| p != player);
                    facts.stand_ins.retain(|(p, _)| p != player);
                }
                Event::PlayerWithdrew { player, from_round, stand_in } => {
                    // The re-seating the ledger's rules made (`TournamentState::reseated`).
                    let reseated = facts.games.iter_mut().filter(|g| {
                        g.slot.stage == Stage::Qualifying && g.slot.round >= *from_round && g.slot.seats.seats(player)
                    });
                    for game in reseated {
                        game.slot.seats.replace(player, stand_in.as_deref().unwrap_or_default());
                    }
                    facts.final_roles.retain(|(p, _)| p != player);
                    facts.withdrawn.push((player.clone(), *from_round));
                }
                // Voids are applied above; calls, rulings and other streams' events change nothing.
                ledger::game_events!() | ledger::jury_events!() | Event::Andes(_) => {}
            }
        }
        facts
    }
}

/// One player's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingRow {
    /// 1-based; players the tie-breakers could not separate share a rank.
    pub rank: u32,
    pub player: PlayerId,
    pub name: String,
    /// Sum of the exact scores of the player's ended qualifying games.
    pub total: Rational,
    pub games_counted: u32,
    /// Game score per role played (summed if a role was played twice).
    pub scores: BTreeMap<Role, Rational>,
    /// Every tie-breaker of the ruleset, in order, with this player's value.
    pub tie_breakers: Vec<TieBreakValue>,
    /// What put this row below the one above; `None` for the first row.
    pub decided_by: Option<Decider>,
    /// The round from which the player withdrew: ranked on the games played, never a finalist.
    pub withdrawn: Option<u32>,
}

/// The standings of one tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    pub tournament: String,
    pub ruleset: Ruleset,
    pub rows: Vec<StandingRow>,
    /// The top four rows.
    pub finalists: Vec<PlayerId>,
    /// Every qualifying game has ended and the fourth and fifth rows are separated.
    pub finalists_settled: bool,
    /// Scheduled games whose streams are missing or have not ended.
    pub pending_games: Vec<String>,
    pub final_result: Option<FinalResult>,
}

/// A scored game with its place in the tournament.
#[derive(Debug, Clone)]
pub(crate) struct PlayedGame {
    pub scheduled: ScheduledGame,
    pub sheet: ScoreSheet,
}

/// Computes the standings from the tournament stream and the streams of its games, keyed by
/// game id (`game/<id>` without the prefix). Streams of games the tournament did not
/// schedule are ignored.
///
/// # Errors
/// [`StandingsError::NotCreated`] without `tournament_created`; a game stream that cannot be
/// scored or is played under another ruleset.
pub fn standings(
    tournament: &[(u64, Event)],
    games: &BTreeMap<String, Vec<(u64, Event)>>,
) -> Result<Standings, StandingsError> {
    let facts = TournamentFacts::fold(tournament);
    let ruleset = facts.ruleset.ok_or(StandingsError::NotCreated)?;
    let mut played = Vec::new();
    let mut pending = Vec::new();
    for scheduled in &facts.games {
        let Some(events) = games.get(&scheduled.game) else {
            pending.push(scheduled.game.clone());
            continue;
        };
        let sheet = score_game(Some(ruleset), events)
            .map_err(|error| StandingsError::Game { game: scheduled.game.clone(), error })?;
        if sheet.ruleset != ruleset {
            return Err(StandingsError::WrongRuleset {
                game: scheduled.game.clone(),
                expected: ruleset,
                found: sheet.ruleset,
            });
        }
        if sheet.has_ended() {
            played.push(PlayedGame { scheduled: scheduled.clone(), sheet });
        } else {
            pending.push(scheduled.game.clone());
        }
    }
    played.sort_by(|a, b| {
        (a.scheduled.slot.round, a.scheduled.slot.table, &a.scheduled.game).cmp(&(
            b.scheduled.slot.round,
            b.scheduled.slot.table,
            &b.scheduled.game,
        ))
    });
    let qualifying: Vec<&PlayedGame> = played.iter().filter(|g| g.scheduled.slot.stage == Stage::Qualifying).collect();
    let rows = tiebreak::rank(ruleset, &facts, &qualifying);
    // A withdrawn player keeps a row but not a place in the final: the next in rank takes it.
    let eligible: Vec<&StandingRow> = rows.iter().filter(|r| r.withdrawn.is_none()).collect();
    let finalists: Vec<PlayerId> = eligible.iter().take(4).map(|r| r.player.clone()).collect();
    let qualifying_pending = facts.games.iter().any(|g| g.slot.stage == Stage::Qualifying && pending.contains(&g.game));
    let fifth_tied = match (eligible.get(3), eligible.get(4)) {
        (Some(fourth), Some(fifth)) => fourth.rank == fifth.rank,
        _ => false,
    };
    let final_result = final_game::final_result(ruleset, &facts, &played, &qualifying);
    Ok(Standings {
        tournament: facts.name.clone(),
        ruleset,
        rows,
        finalists,
        finalists_settled: !qualifying_pending && !fifth_tied,
        pending_games: pending,
        final_result,
    })
}
