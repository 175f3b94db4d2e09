//! The Andes projections of the facade (`andes/<match>`, docs/ANDES.md): the board of a game,
//! each game's points, the whole match and the players' levels of one match as of a seq, and
//! one player's level across every match. The views are `crate::projections::andes`'s; the
//! checks of a request that are rules of the game (a side, game 1 or 2, a player named) are
//! here, so that every caller refuses them alike.

use super::{At, Loaded, Projections};
use crate::error::Error;
use crate::projections::andes::{self, BoardView, LevelsView, MatchView, PlayerLevelView, ScoreView, WhichBoard};
use crate::projections::{ProjectionError, Streams};
use crate::source::Source;
use ledger::andes::Side;
use ledger::{StreamId, StreamKind};

/// A side as requests name it: `sol`, `luna`, or empty for Sol.
///
/// # Errors
/// `InvalidArgument` for anything else.
pub fn side(text: &str) -> Result<Side, Error> {
    andes::parse_side(Some(text)).map_err(Error::InvalidArgument)
}

/// A game of a match as requests number it: 1 or 2.
///
/// # Errors
/// `InvalidArgument` for any other number.
pub fn game(number: u64) -> Result<u8, Error> {
    andes::parse_game(number).map_err(Error::InvalidArgument)
}

impl<S: Source> Projections<S> {
    /// `project` over the match's stream alone, as of its event `as_of_seq`.
    fn andes<T>(
        &self,
        id: &StreamId,
        as_of_seq: Option<u64>,
        project: impl FnOnce(&Streams) -> Result<T, ProjectionError>,
    ) -> Result<At<T>, Error> {
        let loaded = Loaded::from_entries(self.read(std::slice::from_ref(id), None)?);
        let value = project(&loaded.streams)?;
        Ok(At { value, as_of_position: loaded.position_of(id, as_of_seq) })
    }

    /// The board of a game of a match (the last one started unless `which` names one), as
    /// `which.side` sees it, after the match's event `as_of_seq`.
    ///
    /// # Errors
    /// `InvalidArgument` for a game other than 1 or 2; `NotFound` without such a match or with
    /// the game not started; `FailedPrecondition` for a stream the rules do not accept; the
    /// source's failure.
    pub fn andes_board(
        &self,
        id: &StreamId,
        as_of_seq: Option<u64>,
        which: WhichBoard,
    ) -> Result<At<BoardView>, Error> {
        if let Some(game) = which.game {
            self::game(u64::from(game))?;
        }
        self.andes(id, as_of_seq, |streams| andes::board(streams, id, as_of_seq, which))
    }

    /// Each game's points, winner and bonus after the match's event `as_of_seq`.
    ///
    /// # Errors
    /// `NotFound` without such a match; `FailedPrecondition` for a stream the rules do not
    /// accept; the source's failure.
    pub fn andes_score(&self, id: &StreamId, as_of_seq: Option<u64>) -> Result<At<ScoreView>, Error> {
        self.andes(id, as_of_seq, |streams| andes::score(streams, id, as_of_seq))
    }

    /// The whole match after its event `as_of_seq`.
    ///
    /// # Errors
    /// As [`Projections::andes_score`].
    pub fn andes_match(&self, id: &StreamId, as_of_seq: Option<u64>) -> Result<At<MatchView>, Error> {
        self.andes(id, as_of_seq, |streams| andes::whole_match(streams, id, as_of_seq))
    }

    /// Each player's level in the match after its event `as_of_seq`.
    ///
    /// # Errors
    /// As [`Projections::andes_score`].
    pub fn andes_level(&self, id: &StreamId, as_of_seq: Option<u64>) -> Result<At<LevelsView>, Error> {
        self.andes(id, as_of_seq, |streams| andes::level(streams, id, as_of_seq))
    }

    /// One player's level from their last two games won across every Andes match of the
    /// source, "last" by the log position of the event that ended each game.
    ///
    /// # Errors
    /// `InvalidArgument` for an empty name; `FailedPrecondition` for a stream the rules do not
    /// accept; the source's failure.
    pub fn andes_player_level(&self, player: &str) -> Result<At<PlayerLevelView>, Error> {
        if player.is_empty() {
            return Err(Error::InvalidArgument("name the player".into()));
        }
        let matches: Vec<StreamId> =
            self.source.streams()?.into_iter().filter(|id| id.kind() == StreamKind::Andes).collect();
        let loaded = Loaded::from_entries(self.read(&matches, None)?);
        let value = andes::player_level(&loaded.streams, player, |id, seq| loaded.position_of(id, Some(seq)))?;
        Ok(At { value, as_of_position: loaded.last_position })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Records;
    use ledger::andes::testing::seeded_match;
    use ledger::Event;

    /// A match in its second game, its events at log positions 101, 102, …
    fn facade() -> (Projections<Records>, StreamId) {
        let id = StreamId::parse("andes/m2").unwrap();
        let mut records = Records::new();
        for (position, event) in (101u64..).zip(seeded_match(3, 40)) {
            records.push(id.clone(), position, None, Event::Andes(event));
        }
        (Projections::new(records), id)
    }

    #[test]
    fn requests_the_rules_refuse_are_invalid_arguments_with_the_api_s_sentences() {
        let (facade, id) = facade();
        let refused = |result: Result<At<BoardView>, Error>| result.map(|_| ()).unwrap_err();
        let which = |game| WhichBoard { game: Some(game), side: Side::Sol };
        assert_eq!(
            refused(facade.andes_board(&id, None, which(3))),
            Error::InvalidArgument("a match has games 1 and 2, not game 3".into())
        );
        assert_eq!(game(300), Err(Error::InvalidArgument("a match has games 1 and 2, not game 300".into())));
        assert_eq!(side("moon"), Err(Error::InvalidArgument("side `moon` must be sol or luna".into())));
        assert_eq!((side(""), side("luna")), (Ok(Side::Sol), Ok(Side::Luna)));
        let nobody = facade.andes_player_level("").map(|_| ()).unwrap_err();
        assert_eq!(nobody, Error::InvalidArgument("name the player".into()));
        let missing = StreamId::parse("andes/m9").unwrap();
        assert_eq!(
            facade.andes_score(&missing, None).map(|_| ()).unwrap_err(),
            Error::NotFound("there is no stream andes/m9".into())
        );
    }

    #[test]
    fn a_view_is_as_of_the_log_position_of_its_last_event() {
        let (facade, id) = facade();
        let events = facade.source().events(&id);
        let board = facade.andes_board(&id, Some(5), WhichBoard { game: None, side: Side::Luna }).unwrap();
        assert_eq!(board.as_of_position, 105);
        assert_eq!(board.value.side, Side::Luna);
        let whole = facade.andes_match(&id, None).unwrap();
        assert_eq!(whole.as_of_position, 100 + events.len() as u64);
        assert_eq!(whole.value.sheet.games.len(), 2);
        let sol = whole.value.sheet.first_sol.clone();
        let level = facade.andes_player_level(&sol).unwrap();
        assert_eq!(level.as_of_position, 100 + events.len() as u64);
        assert_eq!(level.value.games.len(), 1, "one game ended");
    }
}
