//! The store's cross-stream hook, running the tournament's rules across streams, which live in
//! the pure crates (`replay::standings::checks`): the final's rank order, and a game scheduled
//! by one tournament only, never one already played. It also holds ledgerd's bound on a
//! stream's length ([`StreamLimits`]): a server's policy, not a rule of the game, so replays
//! and `ledgerctl check` do not apply it, and a bound on tables' codes only (issue 42).

use ledger::access::Clearance;
use ledger::{Event, Folded, Rejection, StreamId, StreamKind};
use ledger_store::{AppendError, CrossCheck, StoreError, StreamLookup};

/// The most events ledgerd lets a stream hold (issue 35): far more than any real game, match or
/// tournament records (a played game holds a few hundred events), so that one code cannot grow
/// the log without bound through the few streams it may write. Past it a table's events are
/// refused `RESOURCE_EXHAUSTED`; the jury's and the organiser's never are (issue 42): a stream
/// that full was filled by a broken or hostile client, and the jury must still be able to rule
/// on it, void what filled it and close the game. Their tokens are few and not printed, so they
/// are not what the bound protects the log from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// A game or an Andes match (`ledgerd --max-stream-events`).
    pub game: u64,
    /// A tournament: four times a game's.
    pub tournament: u64,
}

impl StreamLimits {
    /// A game or match may hold `game` events, a tournament four times as many.
    pub fn of_games(game: u64) -> StreamLimits {
        StreamLimits { game, tournament: game.saturating_mul(4) }
    }

    fn of(&self, kind: StreamKind) -> u64 {
        match kind {
            StreamKind::Game | StreamKind::Andes => self.game,
            StreamKind::Tournament => self.tournament,
        }
    }
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits::of_games(5_000)
    }
}

/// The tournament's rules across streams, and the streams' length.
#[derive(Debug, Clone, Copy, Default)]
pub struct TournamentChecks {
    pub limits: StreamLimits,
}

impl CrossCheck for TournamentChecks {
    fn check(
        &self,
        stream: &StreamId,
        state: &Folded,
        event: &Event,
        clearance: Clearance,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError> {
        let most = self.limits.of(stream.kind());
        if clearance == Clearance::Table && state.version() >= most {
            return Err(AppendError::from(Rejection::exhausted(format!(
                "a {} stream holds at most {most} events and this one is full: no real one needs more, \
                 so only the jury and the organiser record in it now",
                stream.kind().prefix()
            ))));
        }
        replay::standings::checks::check(stream, state, event, &mut Adapter(streams))?.map_err(AppendError::from)
    }
}

/// The store's view of other streams as the pure rules read it.
struct Adapter<'a>(&'a dyn StreamLookup);

impl replay::standings::checks::Lookup<StoreError> for Adapter<'_> {
    fn events(&mut self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError> {
        self.0.events(stream)
    }

    fn scheduled_by(&mut self, game: &str) -> Result<Vec<StreamId>, StoreError> {
        self.0.scheduled_by(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::StreamState;

    struct Nothing;

    impl StreamLookup for Nothing {
        fn events(&self, _: &StreamId) -> Result<Vec<(u64, Event)>, StoreError> {
            Ok(Vec::new())
        }

        fn scheduled_by(&self, _: &str) -> Result<Vec<StreamId>, StoreError> {
            Ok(Vec::new())
        }
    }

    /// Issue 35: one code cannot grow a stream without bound; a table's event is refused as
    /// exhausted once the stream is full. Issue 42: the jury's and the organiser's are not.
    #[test]
    fn a_full_stream_refuses_more_events_as_exhausted() {
        let checks = TournamentChecks { limits: StreamLimits::of_games(50) };
        assert_eq!(checks.limits.tournament, 200);
        let stream = StreamId::game("stuffed").unwrap();
        let mut state = StreamState::new(&stream, Some(ledger::Ruleset::Cafe2023));
        state.apply(&Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }).unwrap();
        let call = Event::JuryCalled { reason: "again".into() };
        while state.version() < 50 {
            assert!(checks.check(&stream, state.folded(), &call, Clearance::Table, &Nothing).is_ok());
            state.apply(&call).unwrap();
        }
        for trusted in [Clearance::Jury, Clearance::Organiser] {
            assert!(checks.check(&stream, state.folded(), &call, trusted, &Nothing).is_ok(), "{trusted:?}");
        }
        let Err(AppendError::Rejected(refused)) =
            checks.check(&stream, state.folded(), &call, Clearance::Table, &Nothing)
        else {
            panic!("a full stream takes nothing more")
        };
        assert_eq!(refused.kind, ledger::RejectionKind::Exhausted);
        assert_eq!(
            refused.message,
            "a game stream holds at most 50 events and this one is full: no real one needs more, so only the jury and the organiser record in it now"
        );
        assert_eq!(StreamLimits::default(), StreamLimits { game: 5_000, tournament: 20_000 });
    }
}
