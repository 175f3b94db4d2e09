//! Live pages rendered once per change and shared by every viewer (a tournament's board, an
//! Andes match's board, the jury's desk: each page says so by implementing [`LivePage`], and
//! this module knows none of them). One task per page that has viewers follows the log; a
//! commit that changes the page re-renders it once per variant being watched (a language, and
//! the page's own choice: what that clearance may see, a side), at most [`RENDERS_A_SECOND`]
//! times a second, off the append path, and puts the HTML (one `Arc<str>`) into that variant's
//! `watch` channel. Every viewer of the variant is sent those same bytes; one that falls behind
//! gets the latest, never a backlog. The task ends with its last viewer: a page nobody watches
//! costs nothing.

use crate::i18n::Lang;
use crate::layout::esc;
use crate::{PageError, WebState};
use ledger::{Recorded, StreamId};
use ledger_store::Filter;
use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

/// A burst of commits is one render: at most this many renders of one variant a second.
pub(crate) const RENDERS_A_SECOND: u32 = 4;

/// Which page is shared, as the page names it: the SSE event its frames are sent as (`board`,
/// `andes`, `desk`; also its name in the logs) and the stream it is of, if any. Viewers of the
/// same key share one task.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub event: &'static str,
    pub of: Option<StreamId>,
}

/// What one viewer of a page may see, and how: its language, and the page's own choice
/// ([`LivePage::view`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Variant {
    lang: Lang,
    view: &'static str,
}

/// A live page as it registers here: which page it is, what changes it, and how one variant of
/// it renders. The pages implement it and hand it to [`watch`]; so the pages import this
/// module, and it imports none of them.
pub(crate) trait LivePage: Send + Sync + 'static {
    /// Which page this is.
    fn key(&self) -> Key;

    /// The variant's own choice beside the language (the board with the clocks or without, the
    /// Andes board from one side; `""` for none): viewers with the same one share its renders.
    fn view(&self) -> &'static str;

    /// Whether `record` changes the page; `follows` is what its last render said it follows
    /// ([`Rendered::follows`]; empty before that).
    fn changes(&self, follows: &BTreeSet<String>, record: &Recorded) -> bool;

    /// This variant's HTML in `lang`.
    fn render<'a>(&'a self, state: &'a WebState, lang: Lang) -> Rendering<'a>;
}

/// A render under way.
pub(crate) type Rendering<'a> = Pin<Box<dyn Future<Output = Result<Rendered, PageError>> + Send + 'a>>;

/// A page's render: its HTML, and what it follows now (a board: the games it shows), if it
/// follows more than its own key says; `None` keeps what it followed.
pub(crate) struct Rendered {
    pub html: String,
    pub follows: Option<BTreeSet<String>>,
}

/// A page as last rendered for one variant: the SSE event's name (the page's, or `refused` with
/// the refusal's sentence), the log position it reflects at least, and the HTML.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub name: &'static str,
    pub position: u64,
    pub html: Arc<str>,
}

/// A variant's latest frame; `None` until its first render.
pub(crate) type Frames = watch::Receiver<Option<Frame>>;

/// One variant being watched: where its frames go, and the page that renders it.
struct Slot {
    frames: watch::Sender<Option<Frame>>,
    page: Arc<dyn LivePage>,
}

/// A page being watched: its variants, and what wakes its task when one is added or a viewer
/// leaves.
struct Watched {
    variants: HashMap<Variant, Slot>,
    wake: Arc<Notify>,
}

/// Every page being watched, and how many renders they took (for tests and benchmarks).
#[derive(Default)]
pub(crate) struct SharedPages {
    watched: Mutex<HashMap<Key, Watched>>,
    renders: AtomicU64,
}

impl SharedPages {
    /// Renders of shared live pages since ledgerd started.
    pub(crate) fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }
}

/// A viewer of a page's variant: its frames, and the task to wake when it leaves (so the task
/// ends with its last viewer).
pub(crate) struct Viewing {
    pub frames: Frames,
    pub leaving: Arc<Notify>,
}

/// Starts watching `page` in `lang`: the variant's frames, rendered by the page's task (started
/// here for its first viewer).
pub(crate) fn watch(state: &WebState, page: impl LivePage, lang: Lang) -> Viewing {
    let page: Arc<dyn LivePage> = Arc::new(page);
    let key = page.key();
    let variant = Variant { lang, view: page.view() };
    let mut watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    let watching = match watched.get_mut(&key) {
        Some(watching) => watching,
        None => {
            let wake = Arc::new(Notify::new());
            tokio::spawn(render_while_watched(state.clone(), key.clone(), Arc::clone(&page), Arc::clone(&wake)));
            watched.entry(key).or_insert(Watched { variants: HashMap::new(), wake })
        }
    };
    let frames = match watching.variants.get(&variant) {
        Some(slot) => slot.frames.subscribe(),
        None => {
            let (slot, frames) = watch::channel(None);
            watching.variants.insert(variant, Slot { frames: slot, page });
            // Its first render.
            watching.wake.notify_one();
            frames
        }
    };
    Viewing { frames, leaving: Arc::clone(&watching.wake) }
}

/// A variant still watched: its page, and whether it was never rendered.
struct Due {
    variant: Variant,
    page: Arc<dyn LivePage>,
    first: bool,
}

/// The variants still watched; `None` (and the page forgotten) when nobody watches any more.
/// Under the same lock as [`watch`], so a viewer arriving now either finds the task still
/// running or starts a new one.
fn still_watched(state: &WebState, key: &Key) -> Option<Vec<Due>> {
    let mut watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    let watching = watched.get_mut(key)?;
    watching.variants.retain(|_, slot| slot.frames.receiver_count() > 0);
    if watching.variants.is_empty() {
        watched.remove(key);
        return None;
    }
    let due = watching.variants.iter().map(|(variant, slot)| Due {
        variant: *variant,
        page: Arc::clone(&slot.page),
        first: slot.frames.borrow().is_none(),
    });
    Some(due.collect())
}

/// Sends `frame` to every viewer of `variant`.
fn publish(state: &WebState, key: &Key, variant: Variant, frame: Frame) {
    let watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(slot) = watched.get(key).and_then(|watching| watching.variants.get(&variant)) {
        slot.frames.send_replace(Some(frame));
    }
}

/// Forgets the page (its viewers' streams end; their scripts reconnect).
fn forget(state: &WebState, key: &Key) {
    state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
}

/// The page's task: follows the log from now; renders a new variant at once, and every
/// variant again after a commit that changes the page (`page` says which do), at most
/// [`RENDERS_A_SECOND`] times a second. Ends when the last viewer leaves or ledgerd stops.
async fn render_while_watched(state: WebState, key: Key, page: Arc<dyn LivePage>, wake: Arc<Notify>) {
    let start = match state.log.last_position() {
        Ok(position) => position,
        Err(error) => {
            tracing::error!(%error, "a live page could not start");
            return forget(&state, &key);
        }
    };
    let mut events = state.log.subscribe(Filter::All, start.saturating_add(1));
    let mut stopping = state.stopping.clone();
    let gap = Duration::from_secs(1) / RENDERS_A_SECOND;
    let mut follows: BTreeSet<String> = BTreeSet::new();
    let mut position = start;
    let mut changed = false;
    let mut last_render: Option<Instant> = None;
    loop {
        let Some(variants) = still_watched(&state, &key) else { return };
        if changed {
            // A burst is one render: wait out the gap, then take in whatever came meanwhile.
            if let Some(at) = last_render {
                tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => return forget(&state, &key),
                    () = tokio::time::sleep_until(at + gap) => {}
                }
            }
            while let Ok(next) = events.try_recv() {
                match next {
                    Ok(record) => position = record.envelope.position,
                    Err(error) => return ended_by(&state, &key, &error),
                }
            }
        }
        let due: Vec<Due> = variants.into_iter().filter(|due| changed || due.first).collect();
        if !due.is_empty() {
            for Due { variant, page, .. } in due {
                let (frame, now_follows) = render(&state, &key, &*page, variant.lang, position).await;
                if let Some(now_follows) = now_follows {
                    follows = now_follows;
                }
                publish(&state, &key, variant, frame);
            }
            last_render = Some(Instant::now());
            changed = false;
            continue;
        }
        let next = tokio::select! {
            _ = stopping.wait_for(|stop| *stop) => return forget(&state, &key),
            () = wake.notified() => continue,
            next = events.recv() => next,
        };
        let record = match next {
            Some(Ok(record)) => record,
            Some(Err(error)) => return ended_by(&state, &key, &error),
            None => return forget(&state, &key),
        };
        position = record.envelope.position;
        changed = page.changes(&follows, &record);
        // Whatever else is already here belongs to the same render.
        while let Ok(next) = events.try_recv() {
            match next {
                Ok(record) => {
                    position = record.envelope.position;
                    changed |= page.changes(&follows, &record);
                }
                Err(error) => return ended_by(&state, &key, &error),
            }
        }
    }
}

/// One render of one variant, counted; with what the page follows when it rendered.
async fn render(
    state: &WebState,
    key: &Key,
    page: &dyn LivePage,
    lang: Lang,
    position: u64,
) -> (Frame, Option<BTreeSet<String>>) {
    state.shared.renders.fetch_add(1, Ordering::Relaxed);
    match page.render(state, lang).await {
        Ok(Rendered { html, follows }) => (Frame { name: key.event, position, html: html.into() }, follows),
        Err(error) => {
            let html = esc(&error.say.text(lang));
            (Frame { name: "refused", position, html: html.into() }, None)
        }
    }
}

/// The page's subscription ended by a failure of the log: logged here, where it is handled
/// (the page is forgotten; its viewers' scripts reconnect).
fn ended_by(state: &WebState, key: &Key, error: &ledger_store::StoreError) {
    tracing::error!(%error, ?key, "a live page's subscription failed");
    forget(state, key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, BodyDataStream};
    use axum::http::Request;
    use ledger::access::Clearance;
    use ledger::Event;
    use ledger_house::auth::Auth;
    use ledger_store::{AppendRequest, Log, ProposedEvent};
    use tokio_stream::StreamExt;
    use tower::ServiceExt;

    const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

    async fn append(log: &Log, stream: &str, events: Vec<Event>) {
        let events = events.into_iter().map(|event| ProposedEvent { event_id: String::new(), event }).collect();
        let stream = StreamId::parse(stream).unwrap();
        let request =
            AppendRequest { stream, events, expected_version: None, actor: "jury".into(), clearance: Clearance::Jury };
        log.submit(request).unwrap().await.unwrap();
    }

    fn ruling(text: &str) -> Vec<Event> {
        vec![Event::JuryRuling { text: text.into() }]
    }

    /// A viewer of the live board: its body, and the SSE events read so far (id, data).
    struct Viewer {
        body: BodyDataStream,
        text: String,
        events: Vec<(u64, String)>,
    }

    impl Viewer {
        /// Reads until an event with id `position` or later came.
        async fn until(&mut self, position: u64) {
            while self.events.last().is_none_or(|(id, _)| *id < position) {
                let chunk = self.body.next().await.expect("the stream goes on").unwrap();
                self.text.push_str(std::str::from_utf8(&chunk).unwrap());
                while let Some(end) = self.text.find("\n\n") {
                    let block: String = self.text.drain(..end + 2).collect();
                    let (mut id, mut data) = (None, Vec::new());
                    for line in block.lines() {
                        if let Some(value) = line.strip_prefix("id: ") {
                            id = Some(value.parse().unwrap());
                        } else if let Some(value) = line.strip_prefix("data: ") {
                            data.push(value);
                        } else if line.starts_with("event: ") {
                            assert_eq!(line, "event: board");
                        }
                    }
                    if let Some(id) = id {
                        self.events.push((id, data.join("\n")));
                    }
                }
            }
        }
    }

    async fn get(pages: &axum::Router, path: &str) -> axum::response::Response {
        let request = Request::get(path).header("accept-language", "en").body(Body::empty()).unwrap();
        pages.clone().oneshot(request).await.unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_render_per_burst_of_commits_is_the_same_bytes_for_every_viewer() {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(Log::open_sled(dir.path()).unwrap());
        let lines = ledger::check::parse_lines(OPEN26).unwrap();
        let mut runs: Vec<(String, Vec<Event>)> = Vec::new();
        for line in lines {
            let stream = line.stream.clone().unwrap();
            match runs.last_mut() {
                Some((last, events)) if *last == stream => events.push(line.event),
                _ => runs.push((stream, vec![line.event])),
            }
        }
        for (stream, events) in runs {
            append(&log, &stream, events).await;
        }
        let other = vec![Event::TournamentCreated {
            name: "Another".into(),
            ruleset: ledger::Ruleset::Cafe2023,
            clock_ms_per_side: None,
        }];
        append(&log, "tournament/another", other).await;
        let (_stop, stopping) = watch::channel(false);
        let state = WebState::new(Arc::clone(&log), Arc::new(Auth::Open), stopping);
        let pages = crate::router(state.clone());

        let from = log.last_position().unwrap() + 1;
        let mut viewers = Vec::new();
        for _ in 0..8 {
            let response = get(&pages, &format!("/board/open26/live?from={from}")).await;
            assert_eq!(response.status(), 200);
            viewers.push(Viewer {
                body: response.into_body().into_data_stream(),
                text: String::new(),
                events: Vec::new(),
            });
        }
        // Every viewer's first render is done (one per variant: all eight see the same).
        let started = Instant::now();
        while state.board_renders() < 1 {
            assert!(started.elapsed() < Duration::from_secs(5), "the board was never rendered");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }

        let renders_before = state.board_renders();
        let commits = 20;
        let started = Instant::now();
        for n in 0..commits {
            append(&log, "tournament/open26", ruling(&format!("ruling {n}"))).await;
        }
        let last = log.last_position().unwrap();
        let committing = started.elapsed();
        for viewer in &mut viewers {
            tokio::time::timeout(Duration::from_secs(1), viewer.until(last)).await.expect("every viewer within 1 s");
        }
        let renders = state.board_renders() - renders_before;
        // A render when the first commit came, then at most one per gap while they came, and
        // one for the last.
        let bound = 2 + committing.as_millis() / (1000 / u128::from(RENDERS_A_SECOND));
        assert!(
            renders <= u64::try_from(bound).unwrap() && renders < commits,
            "{renders} renders for {commits} commits"
        );

        // The same bytes for everyone, and what the page itself shows now.
        let latest: Vec<&String> = viewers.iter().map(|v| &v.events.last().unwrap().1).collect();
        assert!(latest.iter().all(|html| *html == latest[0]), "the viewers got different boards");
        let page = get(&pages, "/board/open26").await;
        let page =
            String::from_utf8(axum::body::to_bytes(page.into_body(), usize::MAX).await.unwrap().to_vec()).unwrap();
        let content = page.split_once("data-event=\"board\">").unwrap().1;
        let content = content.split_once("</section><p class=\"live-status").unwrap().0;
        assert_eq!(latest[0], content, "the live board is the page's");

        // Another tournament's commit renders nothing here.
        let renders_before = state.board_renders();
        append(&log, "tournament/another", ruling("elsewhere")).await;
        tokio::time::sleep(Duration::from_secs(1) / RENDERS_A_SECOND * 2).await;
        assert_eq!(state.board_renders(), renders_before, "another tournament's commit rendered this board");

        // The last viewer gone, the board's task ends.
        drop(viewers);
        let started = Instant::now();
        while !state.shared.watched.lock().unwrap().is_empty() {
            assert!(started.elapsed() < Duration::from_secs(5), "the board is still rendered for nobody");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
