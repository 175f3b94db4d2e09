//! `/tables/<tournament>/<n>`: where a table's tablet goes to find its game. It redirects to the
//! table page of the game table n plays now: of the games the tournament put on table n, in
//! round order, the first that has not ended (voided events honoured, as the sequencer folds
//! them). Once every one has ended it stays on the last, whose result the table still shows.
//! The tablets' printed sign-in links (`ledgerctl tournament tables`) lead here, so one sign-in
//! serves a table the whole tournament.

use crate::auth::Viewer;
use crate::i18n::Say;
use crate::layout::short_id;
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use ledger::{StreamId, StreamKind};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade::Projections;
use ledger_store::Log;
use replay::standings::TournamentFacts;
use std::sync::Arc;

/// The tournament's schedule as its stream records it (voided events left out).
///
/// # Errors
/// The log cannot be read; `NOT_FOUND` without such a tournament.
pub(crate) fn tournament_facts(
    facade: &Projections<Arc<Log>>,
    tournament: &StreamId,
) -> Result<TournamentFacts, PageError> {
    facade.tournament(tournament).map_err(|error| {
        PageError::from(error).when_not_found(Say::new("error-no-tournament").arg("id", tournament.id()))
    })
}

/// The games on `table`, in round order (scheduling order within a round).
pub(crate) fn games_at(facts: &TournamentFacts, table: u32) -> Vec<String> {
    let mut games: Vec<(u32, &str)> =
        facts.games.iter().filter(|g| g.slot.table == table).map(|g| (g.slot.round, g.game.as_str())).collect();
    games.sort_by_key(|(round, _)| *round);
    games.into_iter().map(|(_, game)| game.to_owned()).collect()
}

/// Of `games` (in round order), the first `ended` says is still to finish, else the last.
pub(crate) fn current(
    games: &[String],
    mut ended: impl FnMut(&str) -> Result<bool, PageError>,
) -> Result<Option<String>, PageError> {
    for game in games {
        if !ended(game)? {
            return Ok(Some(game.clone()));
        }
    }
    Ok(games.last().cloned())
}

/// Whether the game's stream holds an end that no void took back.
fn has_ended(facade: &Projections<Arc<Log>>, game: &str) -> Result<bool, PageError> {
    Ok(facade.game_ended(&StreamId::game(game).map_err(Error::from)?)?)
}

pub(crate) async fn redirect(
    State(state): State<WebState>,
    viewer: Viewer,
    Path((tournament, table)): Path<(String, u32)>,
) -> Result<Response, PageError> {
    // Whoever may open a table page may be sent to one.
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let id = StreamId::tournament(short_id(&tournament)).map_err(Error::from)?;
    let facade = state.facade.clone();
    let found = blocking(move || {
        let games = games_at(&tournament_facts(&facade, &id)?, table);
        current(&games, |game| has_ended(&facade, game))
    })
    .await?;
    let Some(game) = found else {
        let tournament = short_id(&tournament);
        let missing = Error::NotFound(format!("table {table} has no game in tournament {tournament}"));
        let say = Say::new("paper-no-table").arg("table", table.to_string()).arg("tournament", tournament);
        return Err(PageError::from(missing).saying(say));
    };
    // Never cached: the same address leads to the next game once this one ends.
    Ok(([(header::CACHE_CONTROL, "no-store")], Redirect::to(&format!("/table/{game}"))).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_plays_its_first_unfinished_game_then_stays_on_the_last() {
        let games: Vec<String> = ["r1", "r2", "r3"].map(str::to_owned).to_vec();
        let ended = |done: &'static [&'static str]| move |g: &str| Ok(done.contains(&g));
        assert_eq!(current(&games, ended(&[])).unwrap().as_deref(), Some("r1"));
        assert_eq!(current(&games, ended(&["r1"])).unwrap().as_deref(), Some("r2"));
        // A game whose end was voided plays again, even after later games ended.
        assert_eq!(current(&games, ended(&["r1", "r3"])).unwrap().as_deref(), Some("r2"));
        assert_eq!(current(&games, ended(&["r1", "r2", "r3"])).unwrap().as_deref(), Some("r3"));
        assert_eq!(current(&[], ended(&[])).unwrap(), None);
    }

    #[test]
    fn the_games_of_a_table_come_in_round_order() {
        use ledger::event::Seats;
        use ledger::rules::ScheduledGame as Slot;
        use replay::standings::ScheduledGame;
        let seats =
            Seats { frederick: "a".into(), elisabeth: "b".into(), maria_theresa: "c".into(), pompadour: "d".into() };
        let game = |game: &str, round: u32, table: u32| ScheduledGame {
            game: game.into(),
            slot: Slot { stage: ledger::Stage::Qualifying, round, table, seats: seats.clone() },
        };
        // Scheduled by hand out of order: the final first, then round 2 before round 1.
        let facts = TournamentFacts {
            games: vec![game("final", 5, 1), game("q2-t1", 2, 1), game("q1-t2", 1, 2), game("q1-t1", 1, 1)],
            ..TournamentFacts::default()
        };
        assert_eq!(games_at(&facts, 1), ["q1-t1", "q2-t1", "final"]);
        assert_eq!(games_at(&facts, 2), ["q1-t2"]);
        assert!(games_at(&facts, 3).is_empty());
    }
}
