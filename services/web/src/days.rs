//! Each tournament's public day ([`PublicDay`]: the pairings and every player's page under
//! pseudonyms), built at most once a second however many phones ask. A hundred players reload
//! their pages every few seconds; each asks for the day, and gets the one built last unless the
//! log moved on and that one is at least [`FRESH_FOR`] old. Then one of them builds it again
//! while the others wait for that build, so the cost of the players' pages is one read and fold
//! of the tournament a second, and a cut of it per phone.

use super::refusal::Say;
use super::{blocking, PageError, WebState};
use ledger::StreamId;
use ledger_house::error::Code;
use ledger_house::facade::At;
use ledger_house::projections::player::PublicDay;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How old a day may be when the log moved on since it was built.
pub(crate) const FRESH_FOR: Duration = Duration::from_secs(1);

/// A day as last built: the log's position then, and when.
struct Built {
    position: u64,
    at: Instant,
    day: Arc<At<PublicDay>>,
}

/// The days of the tournaments being looked at (only tournaments that exist are kept).
#[derive(Default)]
pub(crate) struct Days {
    slots: Mutex<HashMap<StreamId, Arc<tokio::sync::Mutex<Option<Built>>>>>,
    builds: AtomicU64,
}

impl Days {
    /// How many times a day was built (for tests).
    pub(crate) fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }
}

/// The public day of `tournament`, at most [`FRESH_FOR`] behind the log.
///
/// # Errors
/// No such tournament (said so); the log cannot be read.
pub(crate) async fn day(state: &WebState, tournament: &StreamId) -> Result<Arc<At<PublicDay>>, PageError> {
    let slot = {
        let mut slots = state.days.slots.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(slots.entry(tournament.clone()).or_default())
    };
    let mut built = slot.lock().await;
    let position = state.log.last_position()?;
    if let Some(last) = built.as_ref().filter(|last| last.position == position || last.at.elapsed() < FRESH_FOR) {
        return Ok(Arc::clone(&last.day));
    }
    let (facade, id) = (state.facade.clone(), tournament.clone());
    let fresh = blocking(move || Ok(facade.public_day(&id)?)).await;
    state.days.builds.fetch_add(1, Ordering::Relaxed);
    match fresh {
        Ok(day) => {
            let day = Arc::new(day);
            *built = Some(Built { position, at: Instant::now(), day: Arc::clone(&day) });
            Ok(day)
        }
        Err(error) => {
            if error.code == Code::NotFound {
                // Nothing kept for a name that is no tournament.
                drop(built);
                state.days.slots.lock().unwrap_or_else(PoisonError::into_inner).remove(tournament);
            }
            Err(error.when_not_found(Say::new("error-no-tournament").arg("id", tournament.id())))
        }
    }
}
