//! The season as people see it (issue 32, "a season on one ledger"): every tournament on the
//! ledger with its name, ruleset, year, players and where it stands, and every Andes match with
//! its players and games, newest first. `ledgerctl tournament list`, the Projections service's
//! `GetSeason` and the front page all ask [`Projections::season`]; where a tournament stands is
//! `replay::season`'s rule, the Andes lines `crate::projections::andes::summary`.
//!
//! What it reads: every tournament stream whole, and of its games only those
//! `replay::season::phase` asks for (an ended tournament: its final; one in its qualifying
//! rounds: the rounds from the last down to the newest started one, every qualifying game
//! while the last round is played); with `andes`, the list of streams and each match's stream.
//! So a season of ended tournaments costs a tournament stream and a final game each, however
//! many games were played.

use super::{At, Projections};
use crate::error::Error;
use crate::projections::andes::{self as andes_views, MatchSummary};
use crate::projections::{self, Streams};
use crate::source::Source;
use ledger::andes::AndesEvent;
use ledger::{Event, StreamId, StreamKind};
use replay::season::GameProgress;
use replay::standings::TournamentFacts;
use replay::stats::year_of_unix_ms;
use serde::Serialize;
use std::cell::Cell;
use std::fmt;

/// One tournament of the season: the read models' answer, the same when replayed.
pub use crate::readmodels::TournamentLine;

/// The tournaments and (for those who may see them) the Andes matches of the ledger, each list
/// newest first: by the global position of its stream's first event, descending.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Season {
    pub tournaments: Vec<TournamentLine>,
    /// `None`: the caller may not see Andes matches (the public); the key is then left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub andes: Option<Vec<AndesLine>>,
}

/// One Andes match of the season.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AndesLine {
    #[serde(flatten)]
    pub summary: MatchSummary,
    pub first_position: u64,
}

/// What the caller may see of the season (the access table decides: `Access::Season`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeasonScope {
    pub andes: bool,
}

impl<S: Source> Projections<S> {
    /// A game's progress as the ledger's rules fold its stream (voids applied), and the newest
    /// position read (0 for a game with no events).
    fn progress_at(&self, game: &StreamId) -> Result<(GameProgress, u64), Error> {
        let entries = self.source.read_stream(game)?;
        let last = entries.iter().map(|entry| entry.position).max().unwrap_or(0);
        Ok((projections::game_progress(game, entries.iter().map(|entry| &entry.event)), last))
    }

    /// Whether a game's stream holds a start and an end that no void took back.
    ///
    /// # Errors
    /// The source's failure.
    pub fn game_progress(&self, game: &StreamId) -> Result<GameProgress, Error> {
        Ok(self.progress_at(game)?.0)
    }

    /// The season: every tournament, and every Andes match if `scope.andes`, newest first.
    /// Tournament and Andes streams that created no tournament or match (a void took it back)
    /// are left out.
    ///
    /// # Errors
    /// An Andes stream the rules do not accept; the source's failure.
    pub fn season(&self, scope: SeasonScope) -> Result<At<Season>, Error> {
        let newest = Cell::new(0u64);
        let tournaments = match self.kept()? {
            Some(models) => models.read(|kept| {
                newest.set(kept.position);
                kept.tournament_lines()
            }),
            None => self.replayed_tournaments(&newest)?,
        };
        let andes = if scope.andes { Some(self.andes_lines(&newest)?) } else { None };
        Ok(At { value: Season { tournaments, andes }, as_of_position: newest.get() })
    }

    /// The season's tournaments by replaying each tournament's stream and the games its state
    /// depends on, newest first; `newest` raised to the newest position read.
    ///
    /// # Errors
    /// The source's failure.
    pub fn replayed_tournaments(&self, newest: &Cell<u64>) -> Result<Vec<TournamentLine>, Error> {
        let mut tournaments = Vec::new();
        for id in self.source.tournaments()? {
            let entries = self.source.read_stream(&id)?;
            let Some(first) = entries.first() else { continue };
            let (first_position, first_ms) = (first.position, first.recorded_at_ms);
            newest.set(newest.get().max(entries.iter().map(|e| e.position).max().unwrap_or(0)));
            let events: Vec<(u64, Event)> = entries.into_iter().map(|e| (e.seq, e.event)).collect();
            let facts = TournamentFacts::fold(&events);
            let Some(ruleset) = facts.ruleset else { continue };
            let state = replay::season::phase(&facts, |game| {
                let (progress, last) = self.progress_at(&StreamId::game(game)?)?;
                newest.set(newest.get().max(last));
                Ok::<_, Error>(progress)
            })?;
            tournaments.push(TournamentLine {
                tournament: id,
                name: facts.name,
                ruleset,
                year: first_ms.map(year_of_unix_ms),
                players: facts.players.len(),
                withdrawn: facts.withdrawn.len(),
                state,
                first_position,
            });
        }
        tournaments.sort_by_key(|t| std::cmp::Reverse(t.first_position));
        Ok(tournaments)
    }

    /// Every Andes match, newest first (each match's stream read: Andes matches are not among
    /// the read models).
    fn andes_lines(&self, newest: &Cell<u64>) -> Result<Vec<AndesLine>, Error> {
        {
            let mut lines = Vec::new();
            for id in self.source.streams()?.into_iter().filter(|id| id.kind() == StreamKind::Andes) {
                let entries = self.source.read_stream(&id)?;
                let Some(first_position) = entries.first().map(|e| e.position) else { continue };
                newest.set(newest.get().max(entries.iter().map(|e| e.position).max().unwrap_or(0)));
                // A match whose creation a void took back is no match, as a tournament's is not.
                let voided: Vec<u64> = entries
                    .iter()
                    .filter_map(|e| if let Event::EventVoided { seq, .. } = e.event { Some(seq) } else { None })
                    .collect();
                let created = entries.iter().any(|e| {
                    !voided.contains(&e.seq) && matches!(e.event, Event::Andes(AndesEvent::MatchCreated { .. }))
                });
                if !created {
                    continue;
                }
                let streams = Streams::from([(id.clone(), entries.into_iter().map(|e| (e.seq, e.event)).collect())]);
                lines.push(AndesLine { summary: andes_views::summary(&streams, &id)?, first_position });
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.first_position));
            Ok(lines)
        }
    }
}

impl Season {
    /// The JSON the API answers and `ledgerctl tournament list --json` prints.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("the season serialises")
    }
}

/// Rows as a text table: each column as wide as its widest cell, two spaces between.
fn text_table(heads: &[&str], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..heads.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).chain([heads[c].len()]).max().unwrap_or(0))
        .collect();
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(heads.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

impl fmt::Display for Season {
    /// The tournaments, then the Andes matches, as text tables, newest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tournaments.is_empty() {
            writeln!(f, "no tournaments")?;
        } else {
            let rows: Vec<Vec<String>> = self
                .tournaments
                .iter()
                .map(|t| {
                    let players = match t.withdrawn {
                        0 => t.players.to_string(),
                        n => format!("{} ({n} withdrew)", t.players),
                    };
                    let year = t.year.map_or_else(|| "-".to_owned(), |y| y.to_string());
                    vec![
                        t.tournament.id().to_owned(),
                        t.name.clone(),
                        t.ruleset.to_string(),
                        year,
                        players,
                        t.state.to_string(),
                    ]
                })
                .collect();
            f.write_str(&text_table(&["tournament", "name", "ruleset", "year", "players", "state"], &rows))?;
        }
        let Some(andes) = &self.andes else { return Ok(()) };
        writeln!(f)?;
        if andes.is_empty() {
            return writeln!(f, "no Andes matches");
        }
        let rows: Vec<Vec<String>> = andes
            .iter()
            .map(|line| {
                let m = &line.summary;
                let wins: Vec<String> = m.wins.iter().map(|(player, n)| format!("{player} {n}")).collect();
                let state = match &m.winner {
                    Some(winner) => format!("ended, {winner} won"),
                    None if m.status == "complete" => "ended, drawn".to_owned(),
                    None => "in progress".to_owned(),
                };
                vec![
                    m.match_id.id().to_owned(),
                    format!("{} – {}", m.first_sol, m.first_luna),
                    m.games_ended.to_string(),
                    wins.join(", "),
                    state,
                ]
            })
            .collect();
        f.write_str(&text_table(&["andes match", "players", "games ended", "won", "state"], &rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facade::tests::records;
    use crate::source::Records;
    use ledger::andes::testing::seeded_match;
    use ledger::Ruleset;
    use replay::season::Phase;

    #[test]
    fn the_example_tournament_awaits_its_final_and_a_new_one_registers_newest_first() {
        let mut records = records();
        let cup = StreamId::tournament("cup").unwrap();
        let created =
            Event::TournamentCreated { name: "Copa".into(), ruleset: Ruleset::Wm2015, clock_ms_per_side: None };
        records.push(cup.clone(), 10_000, Some(1_796_000_000_000), created);
        let facade = Projections::new(records);
        let season = facade.season(SeasonScope { andes: false }).unwrap().value;
        let lines: Vec<(&str, Phase)> = season.tournaments.iter().map(|t| (t.tournament.id(), t.state)).collect();
        // The example played its four qualifying rounds and scheduled no final.
        assert_eq!(lines, [("cup", Phase::Registering), ("open26", Phase::Final)]);
        let open = &season.tournaments[1];
        assert_eq!((open.ruleset, open.players > 4, season.tournaments[0].year), (Ruleset::Cafe2023, true, Some(2026)));
        assert_eq!(season.andes, None);
        assert!(!season.to_json_string().contains("\"andes\""));
        let text = season.to_string();
        assert!(text.starts_with("tournament  name"), "{text}");
        assert!(text.contains("cup         Copa"), "{text}");
    }

    #[test]
    fn andes_matches_are_listed_for_those_who_may_see_them() {
        let mut records = Records::new();
        let id = StreamId::parse("andes/m1").unwrap();
        for (position, event) in (1u64..).zip(seeded_match(3, 40)) {
            records.push(id.clone(), position, None, Event::Andes(event));
        }
        let season = Projections::new(records).season(SeasonScope { andes: true }).unwrap();
        let andes = season.value.andes.as_ref().unwrap();
        assert_eq!(andes.len(), 1);
        assert_eq!(andes[0].summary.games_ended, 1);
        assert_eq!(andes[0].summary.status, "in_progress");
        assert_eq!(andes[0].summary.wins.values().sum::<usize>(), 1);
        let json = season.value.to_json_string();
        assert!(json.contains("\"match\":\"andes/m1\""), "{json}");
        assert!(season.value.to_string().contains("in progress"));
    }

    #[test]
    fn a_match_whose_creation_was_voided_is_left_out_and_the_season_still_lists() {
        let mut records = Records::new();
        let kept = StreamId::parse("andes/m1").unwrap();
        for (position, event) in (1u64..).zip(seeded_match(3, 10)) {
            records.push(kept.clone(), position, None, Event::Andes(event));
        }
        let voided = StreamId::parse("andes/m2").unwrap();
        let created = seeded_match(4, 1).remove(0);
        assert!(matches!(created, AndesEvent::MatchCreated { .. }));
        records.push(voided.clone(), 100, None, Event::Andes(created));
        records.push(voided, 101, None, Event::EventVoided { seq: 1, reason: "created by mistake".into() });
        let season = Projections::new(records).season(SeasonScope { andes: true }).unwrap().value;
        let listed: Vec<String> = season.andes.unwrap().iter().map(|l| l.summary.match_id.to_string()).collect();
        assert_eq!(listed, ["andes/m1"]);
    }
}
