//! Live pages: server-sent events fed by the log's own subscription (`Log::subscribe`, the
//! one `Subscribe` uses), so a page changes as soon as an event is durable. A page says from
//! which global position it was rendered; the subscription catches up from there, so nothing
//! committed between rendering and connecting is missed. A burst of events (a group commit,
//! an import) is rendered once. The board, the Andes board and the jury's desk are rendered
//! once per change for all their viewers ([`crate::live::shared`]) and [`shared`] sends each
//! viewer those frames.

use crate::auth::Viewer;
use crate::i18n::{Lang, Say};
use crate::layout::esc;
use crate::live::shared::Viewing;
use crate::{PageError, WebState};
use axum::response::sse::{Event, KeepAlive, KeepAliveStream, Sse};
use ledger::Recorded;
use ledger_house::error::Error;
use ledger_house::shares::{Carrier, Class, Refused, Slot};
use ledger_store::Filter;
use std::convert::Infallible;
use std::future::Future;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// Live pages open at most, shared out (issue 42) between the public (half, a quarter of that
/// per address), the tables (three eighths, 16 per device) and the organisers, jury and
/// analysts (an eighth, 64 each): one more than its share is answered 503 (the page then
/// simply stays as it is), and an anonymous flood takes no table's or jury's slot.
pub(crate) const MAX_LIVE_PAGES: usize = 1024;

/// Whose share a live page takes: the viewer's class and client, and the connection carrying
/// it (which ledgerd's gate then does not evict for a newcomer).
pub(crate) struct Claim {
    class: Class,
    client: String,
    carrier: Option<Carrier>,
}

impl Claim {
    pub(crate) fn of(viewer: &Viewer) -> Claim {
        let (class, client) = viewer.share_key();
        Claim { class, client, carrier: viewer.carrier.clone() }
    }
}

pub(crate) type Live = Sse<KeepAliveStream<ReceiverStream<Result<Event, Infallible>>>>;

/// Sends a viewer the frames of a shared live page ([`crate::live::shared`]) that
/// are newer than its page, rendered from global position `from` on: a frame at once if the
/// latest is, then each new one. A viewer whose browser reads slowly skips to the latest frame.
/// Ends when the browser goes away, the page's task ends or ledgerd shuts down. `may_see` is
/// asked again before each frame, as a page rendered for this viewer alone would be: a viewer
/// whose token was taken back meanwhile is sent the refusal in `lang` instead.
///
/// # Errors
/// Too many live pages.
pub(crate) fn shared(
    state: &WebState,
    claim: &Claim,
    from: u64,
    viewing: Viewing,
    lang: Lang,
    may_see: impl Fn() -> Result<(), PageError> + Send + 'static,
) -> Result<Live, PageError> {
    let slot = match live_slot(state, claim) {
        Ok(slot) => slot,
        Err(error) => {
            // Refused: its task counts its viewers again.
            drop(viewing.frames);
            viewing.leaving.notify_one();
            return Err(error);
        }
    };
    let Viewing { mut frames, leaving } = viewing;
    let mut stopping = state.stopping.clone();
    // One event in hand at most: a slow reader never holds a backlog.
    let (tx, rx) = mpsc::channel(1);
    tokio::spawn(async move {
        let _slot = slot;
        // The latest frame counts as new to this viewer.
        frames.mark_changed();
        loop {
            tokio::select! {
                _ = stopping.wait_for(|stop| *stop) => break,
                () = tx.closed() => break,
                seen = frames.changed() => if seen.is_err() { break },
            }
            let frame = frames.borrow_and_update().clone();
            let Some(frame) = frame.filter(|frame| frame.position >= from) else { continue };
            let event = match may_see() {
                Ok(()) => html_event(frame.name, frame.position, &frame.html),
                Err(error) => refused_event(lang, frame.position, &error),
            };
            if tx.send(Ok(event)).await.is_err() {
                break;
            }
        }
        // Gone: its task counts its viewers again.
        drop(frames);
        leaving.notify_one();
    });
    Ok(Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default()))
}

/// A slot for one more live page, in the viewer's share.
fn live_slot(state: &WebState, claim: &Claim) -> Result<Slot, PageError> {
    state.live_pages.take(claim.class, &claim.client, claim.carrier.as_ref()).map_err(|refused| {
        let message = format!("no more live pages now: {refused}; reload later");
        let say = match refused {
            Refused::Client { most, .. } => Say::new("error-too-many-live-yours").arg("max", most.to_string()),
            Refused::Class { most, .. } => Say::new("error-too-many-live").arg("max", most.to_string()),
        };
        PageError::from(Error::Unavailable(message)).saying(say)
    })
}

/// Follows the log from global position `from`. For every batch of events where `relevant`
/// holds for one, `render` makes the event to send (`None`: nothing this time). Ends when the
/// browser goes away or ledgerd shuts down.
///
/// # Errors
/// Too many live pages.
pub(crate) fn follow<R, F, Fut>(
    state: &WebState,
    claim: &Claim,
    from: u64,
    mut relevant: R,
    mut render: F,
) -> Result<Live, PageError>
where
    R: FnMut(&Recorded) -> bool + Send + 'static,
    F: FnMut(u64) -> Fut + Send + 'static,
    Fut: Future<Output = Option<Event>> + Send,
{
    let slot = live_slot(state, claim)?;
    let mut events = state.log.subscribe(Filter::All, from.max(1));
    let mut stopping = state.stopping.clone();
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let _slot = slot;
        loop {
            let first = tokio::select! {
                _ = stopping.wait_for(|stop| *stop) => return,
                () = tx.closed() => return,
                next = events.recv() => next,
            };
            let record = match first {
                Some(Ok(record)) => record,
                Some(Err(error)) => return ended_by(&error),
                None => return,
            };
            let mut position = record.envelope.position;
            let mut changed = relevant(&record);
            // Whatever else is already here belongs to the same render.
            while let Ok(next) = events.try_recv() {
                let record = match next {
                    Ok(record) => record,
                    Err(error) => return ended_by(&error),
                };
                position = record.envelope.position;
                changed |= relevant(&record);
            }
            if !changed {
                continue;
            }
            if let Some(event) = render(position).await {
                if tx.send(Ok(event)).await.is_err() {
                    return;
                }
            }
        }
    });
    Ok(Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default()))
}

/// A live page's subscription ended by a failure of the log: logged here, where it is handled
/// (the page stays as it is and its script reconnects).
fn ended_by(error: &ledger_store::StoreError) {
    tracing::error!(%error, "a live page's subscription failed");
}

/// An SSE event carrying HTML: each line its own `data:` line, as the format requires.
pub(crate) fn html_event(name: &str, position: u64, html: &str) -> Event {
    Event::default().event(name).id(position.to_string()).data(html)
}

/// A live page's status line, in `lang`: `live.js` words its changes with the sentences it
/// carries (`{time}` is the browser's time of the last update, in the page's language).
pub(crate) fn status_line(lang: Lang, shown: &str) -> String {
    format!(
        "<p class=\"live-status muted\" id=\"live-status\" data-live-text=\"{}\" data-updated-text=\"{}\" \
         data-reconnecting-text=\"{}\">{}</p>",
        esc(&lang.t("live-now")),
        esc(&lang.t_args("live-updated", &[("time", "{time}".into())])),
        esc(&lang.t("live-reconnecting")),
        esc(shown)
    )
}

/// A refusal met while following, as the page's status line shows it.
pub(crate) fn refused_event(lang: Lang, position: u64, error: &PageError) -> Event {
    html_event("refused", position, &esc(&error.say.text(lang)))
}
