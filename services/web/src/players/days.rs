//! Each tournament's public day ([`PublicDay`]: the pairings and every player's page under
//! pseudonyms), built at most once a second however many phones ask. A hundred players reload
//! their pages every few seconds; each asks for the day, and gets the one built last unless the
//! log moved on and that one is at least [`FRESH_FOR`] old. Then one of them builds it again
//! while the others wait for that build, so the cost of the players' pages is one read and fold
//! of the tournament a second, and a cut of it per phone.

use crate::i18n::Say;
use crate::{blocking, PageError, WebState};
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use ledger::access::Clearance;
    use ledger::Event;
    use ledger_house::auth::Auth;
    use ledger_store::{AppendRequest, Log, ProposedEvent};
    use tokio::sync::watch;
    use tower::ServiceExt;

    const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

    /// Appends `event` to `stream` as the jury.
    async fn record(log: &Log, stream: &str, event: Event) {
        let (stream, events) =
            (StreamId::parse(stream).unwrap(), vec![ProposedEvent { event_id: String::new(), event }]);
        let request =
            AppendRequest { stream, events, expected_version: None, actor: "j".into(), clearance: Clearance::Jury };
        log.submit(request).unwrap().await.unwrap();
    }

    async fn ask(pages: &axum::Router, path: &str) -> axum::response::Response {
        pages.clone().oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hundred_phones_cost_one_build_a_second() {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(Log::open_sled(dir.path()).unwrap());
        let mut first_player = None;
        for line in ledger::check::parse_lines(OPEN26).unwrap() {
            if let (None, Event::PlayerRegistered { player, .. }) = (&first_player, &line.event) {
                first_player = Some(player.clone());
            }
            record(&log, line.stream.as_deref().unwrap(), line.event).await;
        }
        let (_stop, stopping) = watch::channel(false);
        let state = WebState::new(Arc::clone(&log), Arc::new(Auth::Open), stopping);
        let pages = crate::router(state.clone());
        let code = state.player_links.code("open26", &first_player.unwrap());
        let view = format!("/me/open26/{code}/view");

        let mut asks = tokio::task::JoinSet::new();
        for _ in 0..100 {
            let (pages, view) = (pages.clone(), view.clone());
            asks.spawn(async move { ask(&pages, &view).await });
        }
        let answers = asks.join_all().await;
        assert!(answers.iter().all(|a| a.status() == 200));
        assert_eq!(state.days_built(), 1, "a hundred phones at once: one build");
        let at = answers[0].headers()["x-ledger-at"].to_str().unwrap().to_owned();
        assert_eq!(at, log.last_position().unwrap().to_string());
        // Nothing new since the page's position: no body.
        assert_eq!(ask(&pages, &format!("{view}?at={at}")).await.status(), 204);

        // A commit within the second after a build waits for the next second.
        record(&log, "tournament/open26", Event::JuryRuling { text: "a ruling".into() }).await;
        let stale = ask(&pages, &format!("{view}?at={at}")).await;
        let fresh_enough = state.days_built() == 1;
        tokio::time::sleep(FRESH_FOR + Duration::from_millis(100)).await;
        let fresh = ask(&pages, &format!("{view}?at={at}")).await;
        assert_eq!(fresh.status(), 200);
        assert_eq!(fresh.headers()["x-ledger-at"].to_str().unwrap(), log.last_position().unwrap().to_string());
        assert_eq!(state.days_built(), if fresh_enough { 2 } else { 3 }, "stale: {}", stale.status());
        // A name that is no tournament is not kept.
        assert_eq!(ask(&pages, &format!("/me/nowhere/{code}")).await.status(), 404);
        assert!(!state.days.slots.lock().unwrap().contains_key(&StreamId::tournament("nowhere").unwrap()));
    }
}
