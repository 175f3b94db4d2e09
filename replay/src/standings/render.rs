//! The standings as JSON (for the CLI and the gRPC server) and as a text table. Every
//! tie-breaker value is shown, with the exact value beside its display, so a player can see
//! why they rank where they do.

use super::{Decider, FinalContender, FinalDecider, Standings};
use crate::exact::json_rounded;
use crate::sheet::display_places;
use ledger::event::{PlayerId, Seats};
use ledger::{Role, Ruleset};
use serde::Serialize;
use serde_json::Number;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingsJson {
    pub tournament: String,
    pub ruleset: Ruleset,
    pub rows: Vec<RowJson>,
    pub finalists: Vec<PlayerId>,
    pub finalists_settled: bool,
    pub pending_games: Vec<String>,
    #[serde(rename = "final")]
    pub final_game: Option<FinalJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowJson {
    pub rank: u32,
    pub player: PlayerId,
    pub name: String,
    pub total: Number,
    pub total_exact: String,
    pub games_counted: u32,
    pub scores: BTreeMap<Role, Number>,
    pub tie_breakers: Vec<TieBreakJson>,
    pub decided_by: Option<Decider>,
    /// The round from which the player withdrew; absent for everyone else.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TieBreakJson {
    pub name: &'static str,
    pub higher_wins: bool,
    /// The exact value compared ("50/9", "12.3"); `null` when unavailable.
    pub value: Option<String>,
    pub display: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FinalJson {
    pub game: String,
    pub seats: Seats,
    pub contenders: Vec<FinalContender>,
    pub winner: Option<PlayerId>,
    pub decided_by: FinalDecider,
}

impl Standings {
    pub fn to_json(&self) -> StandingsJson {
        let places = display_places(self.ruleset);
        StandingsJson {
            tournament: self.tournament.clone(),
            ruleset: self.ruleset,
            rows: self
                .rows
                .iter()
                .map(|row| RowJson {
                    rank: row.rank,
                    player: row.player.clone(),
                    name: row.name.clone(),
                    total: json_rounded(row.total, places),
                    total_exact: row.total.to_string(),
                    games_counted: row.games_counted,
                    scores: row.scores.iter().map(|(role, v)| (*role, json_rounded(*v, places))).collect(),
                    tie_breakers: row
                        .tie_breakers
                        .iter()
                        .map(|tb| TieBreakJson {
                            name: tb.tie_breaker.as_str(),
                            higher_wins: tb.tie_breaker.higher_wins(),
                            value: tb.value.map(|v| v.to_string()),
                            display: tb.display.clone(),
                        })
                        .collect(),
                    decided_by: row.decided_by,
                    withdrawn: row.withdrawn,
                })
                .collect(),
            finalists: self.finalists.clone(),
            finalists_settled: self.finalists_settled,
            pending_games: self.pending_games.clone(),
            final_game: self.final_result.as_ref().map(|f| FinalJson {
                game: f.game.clone(),
                seats: f.seats.clone(),
                contenders: f.contenders.clone(),
                winner: f.winner.clone(),
                decided_by: f.decided_by,
            }),
        }
    }

    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&self.to_json()).expect("standings always serialise")
    }
}

fn decider_text(decider: Option<Decider>) -> String {
    match decider {
        None => String::new(),
        Some(Decider::Total) => "by total".into(),
        Some(Decider::TieBreaker { index, tie_breaker }) => {
            format!("by tie-breaker {index} ({})", tie_breaker.as_str())
        }
        Some(Decider::Unresolved) => "tied: no lot drawn yet".into(),
    }
}

impl fmt::Display for Standings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let places = display_places(self.ruleset);
        writeln!(f, "Standings of {} ({})", self.tournament, self.ruleset)?;
        for row in &self.rows {
            let tie_breakers: Vec<String> =
                row.tie_breakers.iter().map(|tb| format!("{} {}", tb.tie_breaker.as_str(), tb.display)).collect();
            let withdrawn = row.withdrawn.map_or(String::new(), |round| format!("  withdrawn from round {round}"));
            writeln!(
                f,
                "{:>3}. {:<12} {:>7}  {}  [{}]{withdrawn}",
                row.rank,
                row.player,
                row.total.to_fixed(places),
                decider_text(row.decided_by),
                tie_breakers.join("; ")
            )?;
        }
        let settled = if self.finalists_settled { "" } else { " (not settled yet)" };
        writeln!(f, "Finalists{settled}: {}", self.finalists.join(", "))?;
        if !self.pending_games.is_empty() {
            writeln!(f, "Pending games: {}", self.pending_games.join(", "))?;
        }
        if let Some(result) = &self.final_result {
            match &result.winner {
                Some(winner) => writeln!(f, "Final {}: won by {winner} ({:?})", result.game, result.decided_by)?,
                None => writeln!(f, "Final {}: {:?}", result.game, result.decided_by)?,
            }
        }
        Ok(())
    }
}
