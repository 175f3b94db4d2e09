//! Read models checked against a full replay: what is kept equals a rebuild from scratch up
//! to the same position, and its answers equal the facade's replay paths (the season's
//! tournaments, the statistics of every game, the desk) read up to that position.
//! `ledgerctl verify --data-dir` and the property test ask [`check_read_models`]. Here, beside
//! the replay paths, because it needs both them and the read models.

use super::Projections;
use crate::error::Error;
use crate::readmodels::Kept;
use crate::source::{Source, Upto};
use replay::stats::Filter;
use std::cell::Cell;

/// Where `kept` differs from a full replay of `source` up to `kept.position`: empty when it
/// does not.
///
/// # Errors
/// The source cannot be read.
pub fn check_read_models<S: Source + Clone>(kept: &Kept, source: &S) -> Result<Vec<String>, Error> {
    let upto = Upto { source: source.clone(), position: kept.position };
    let mut differences = Vec::new();
    let rebuilt = Kept::rebuild(&upto)?;
    if rebuilt.tournaments != kept.tournaments {
        differences.push("the tournaments kept differ from a rebuild".to_owned());
    }
    if rebuilt.games != kept.games {
        let differing: Vec<String> = rebuilt
            .games
            .keys()
            .chain(kept.games.keys())
            .filter(|id| rebuilt.games.get(id) != kept.games.get(id))
            .take(5)
            .map(ToString::to_string)
            .collect();
        differences.push(format!("the games kept differ from a rebuild: {}", differing.join(", ")));
    }
    for model in crate::ratings::Model::ALL {
        if rebuilt.ratings(model) != kept.ratings(model) {
            differences.push(format!("the {} ratings differ from a rebuild", model.as_str()));
        }
    }
    let replay = Projections::new(upto);
    let newest = Cell::new(0);
    if replay.replayed_tournaments(&newest)? != kept.tournament_lines() {
        differences.push("the season's tournaments differ from a replay".to_owned());
    }
    let stats = (kept.stats(&Filter::default()), replay.replayed_role_stats(&Filter::default(), None));
    match stats {
        (Ok(kept), Ok(replayed)) if kept == replayed.value => {}
        (Err(kept), Err(replayed)) if kept == replayed => {}
        (kept, replayed) => differences.push(format!(
            "the statistics differ from a replay: kept {:?}, replayed {:?}",
            kept.map(|s| s.games),
            replayed.map(|s| s.value.games)
        )),
    }
    if replay.replayed_desk(usize::MAX)?.value != kept.desk(usize::MAX) {
        differences.push("the jury's desk differs from a replay".to_owned());
    }
    let periods = (kept.periods().map(<[_]>::to_vec), replay.stats_by_year_and_ruleset());
    match periods {
        (Ok(kept), Ok(replayed))
            if kept.len() == replayed.len()
                && kept.iter().zip(&replayed).all(|((y, r, s), p)| (*y, *r, s) == (p.year, p.ruleset, &p.stats)) => {}
        (Err(kept), Err(replayed)) if kept == replayed => {}
        _ => differences.push("the statistics by year and ruleset differ from a replay".to_owned()),
    }
    if !kept.reads_as(&rebuilt) {
        differences.push("what the questions read differs from a rebuild's".to_owned());
    }
    Ok(differences)
}
