//! The jury's desk (issue 36; issue 43, item 5): every call for the jury not yet ruled on, and
//! the ended CAFE 2023 games still without their fate horizon. From the read models when
//! ledgerd keeps them (the games on the desk alone are looked at), else by reading every game stream
//! ([`Projections::replayed_desk`], the full replay they are checked against).

use super::{At, Projections};
use crate::error::Error;
use crate::readmodels::derive;
use crate::readmodels::{Desk, DeskCall, DeskHorizon};
use crate::source::Source;
use ledger::{Event, Ruleset, StreamKind};

impl<S: Source> Projections<S> {
    /// The desk, as of the newest position: at most `most` of its calls and of its games
    /// without a fate horizon, with how many there are.
    ///
    /// # Errors
    /// The source's failure.
    pub fn desk(&self, most: usize) -> Result<At<Desk>, Error> {
        if let Some(models) = self.kept()? {
            return Ok(models.read(|kept| At { value: kept.desk(most), as_of_position: kept.position }));
        }
        self.replayed_desk(most)
    }

    /// The desk by reading every game stream (and, for a game with an end, the tournament
    /// that scheduled it: its ruleset).
    ///
    /// # Errors
    /// The source's failure.
    pub fn replayed_desk(&self, most: usize) -> Result<At<Desk>, Error> {
        let mut desk = Desk::default();
        let mut newest = 0;
        for id in self.source.streams()?.into_iter().filter(|s| s.kind() == StreamKind::Game) {
            let entries = self.source.read_stream(&id)?;
            newest = newest.max(entries.iter().map(|e| e.position).max().unwrap_or(0));
            desk.calls.extend(derive::open_calls(&entries).into_iter().map(|c| DeskCall {
                game: id.clone(),
                seq: c.seq,
                reason: c.reason,
                recorded_at_ms: c.recorded_at_ms,
            }));
            let events: Vec<(u64, Event)> = entries.iter().map(|e| (e.seq, e.event.clone())).collect();
            if derive::needs_fate_horizon(&events) {
                let mut ruleset = None;
                for tournament in self.source.tournaments_of(id.id())? {
                    let facts = self.tournament(&tournament).ok();
                    ruleset = ruleset.or(facts.and_then(|f| f.ruleset));
                }
                let ruleset =
                    ruleset.or_else(|| events.iter().find_map(|(_, e)| replay::sheet::started_with(e).flatten()));
                if ruleset == Some(Ruleset::Cafe2023) {
                    let version = entries.last().map_or(0, |e| e.seq);
                    desk.horizons.push(DeskHorizon { game: id.clone(), turn: derive::last_turn(&events), version });
                }
            }
        }
        Ok(At { value: desk.listing(most), as_of_position: newest })
    }
}
