//! The players' views of a tournament: its day under pseudonyms ([`PublicDay`]: the public
//! pairings per round, each player's own page). One read of the tournament and its games gives
//! every player's view, so the pages build it once per change and cut each phone's page from it.

use super::{At, Projections};
use crate::error::Error;
use crate::projections::player::PublicDay;
use crate::projections::{self, NoTournament};
use crate::source::Source;
use ledger::StreamId;
use replay::season::GameProgress;

impl<S: Source> Projections<S> {
    /// The day of `tournament` as the public may see it: every scheduled game under pseudonyms
    /// with how far it is, and the public standings (the board's numbers).
    ///
    /// # Errors
    /// `NotFound` without such a tournament; `FailedPrecondition` when its games cannot be
    /// scored; the source's failure.
    pub fn public_day(&self, tournament: &StreamId) -> Result<At<PublicDay>, Error> {
        let loaded = self.load_tournaments(std::slice::from_ref(tournament), None)?;
        let missing = || Error::NotFound(NoTournament(tournament.clone()).to_string());
        let events = loaded.streams.get(tournament).ok_or_else(missing)?;
        if replay::standings::TournamentFacts::fold(events).ruleset.is_none() {
            return Err(missing());
        }
        let standings = projections::public_standings(&loaded.streams, tournament)?;
        let progress = |game: &str| match StreamId::game(game) {
            Ok(id) => {
                projections::game_progress(&id, loaded.streams.get(&id).into_iter().flatten().map(|(_, event)| event))
            }
            Err(_) => GameProgress::default(),
        };
        let day = PublicDay::fold(tournament.id(), events, standings, progress).ok_or_else(missing)?;
        Ok(At { value: day, as_of_position: loaded.last_position })
    }
}
