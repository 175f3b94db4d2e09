//! Live pages rendered once per change and shared by every viewer: a tournament's board, an
//! Andes match's board and the jury's desk. One task per page that has viewers follows the log;
//! a commit that changes the page re-renders it once per variant being watched (a language, and
//! what that clearance may see), at most [`RENDERS_A_SECOND`] times a second, off the append
//! path, and puts the HTML (one `Arc<str>`) into that variant's `watch` channel. Every viewer of
//! the variant is sent those same bytes; one that falls behind gets the latest, never a backlog.
//! The task ends with its last viewer: a page nobody watches costs nothing.

use super::i18n::Lang;
use super::layout::esc;
use super::WebState;
use ledger::andes::Side;
use ledger::{Event, Recorded, StreamId, StreamKind};
use ledger_store::Filter;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

/// A burst of commits is one render: at most this many renders of one variant a second.
pub(crate) const RENDERS_A_SECOND: u32 = 4;

/// A page shared by its viewers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Subject {
    /// A tournament's board: the tournament and the games it shows.
    Board(StreamId),
    /// An Andes match's public board.
    Andes(StreamId),
    /// The jury's desk: the calls waiting for a ruling and the games without a fate horizon.
    Desk,
}

/// What one viewer of a page may see, and how: its language, and the page's own choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    pub lang: Lang,
    pub view: View,
}

/// A page's own choice of what a variant shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum View {
    /// The board, with the clocks or without (the public may see them; a viewer whose
    /// clearance may not sees the board without them).
    Board { clocks: bool },
    /// The Andes board seen from one side.
    Andes { side: Side },
    /// The jury's desk.
    Desk,
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

/// A page being watched: its variants, and what wakes its task when one is added or a viewer
/// leaves.
struct Watched {
    variants: HashMap<Variant, watch::Sender<Option<Frame>>>,
    wake: Arc<Notify>,
}

/// Every page being watched, and how many renders they took (for tests and benchmarks).
#[derive(Default)]
pub(crate) struct SharedPages {
    watched: Mutex<HashMap<Subject, Watched>>,
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

/// Starts watching `subject` as `variant`: the variant's frames, rendered by the page's task
/// (started here for its first viewer).
pub(crate) fn watch(state: &WebState, subject: &Subject, variant: Variant) -> Viewing {
    let mut watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    let page = match watched.get_mut(subject) {
        Some(page) => page,
        None => {
            let wake = Arc::new(Notify::new());
            tokio::spawn(render_while_watched(state.clone(), subject.clone(), Arc::clone(&wake)));
            watched.entry(subject.clone()).or_insert(Watched { variants: HashMap::new(), wake })
        }
    };
    let frames = match page.variants.get(&variant) {
        Some(slot) => slot.subscribe(),
        None => {
            let (slot, frames) = watch::channel(None);
            page.variants.insert(variant, slot);
            // Its first render.
            page.wake.notify_one();
            frames
        }
    };
    Viewing { frames, leaving: Arc::clone(&page.wake) }
}

/// The variants still watched, those never rendered first; `None` (and the page forgotten)
/// when nobody watches any more. Under the same lock as [`watch`], so a viewer arriving now
/// either finds the task still running or starts a new one.
fn still_watched(state: &WebState, subject: &Subject) -> Option<Vec<(Variant, bool)>> {
    let mut watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    let page = watched.get_mut(subject)?;
    page.variants.retain(|_, slot| slot.receiver_count() > 0);
    if page.variants.is_empty() {
        watched.remove(subject);
        return None;
    }
    Some(page.variants.iter().map(|(variant, slot)| (*variant, slot.borrow().is_none())).collect())
}

/// Sends `frame` to every viewer of `variant`.
fn publish(state: &WebState, subject: &Subject, variant: Variant, frame: Frame) {
    let watched = state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(slot) = watched.get(subject).and_then(|page| page.variants.get(&variant)) {
        slot.send_replace(Some(frame));
    }
}

/// Forgets the page (its viewers' streams end; their scripts reconnect).
fn forget(state: &WebState, subject: &Subject) {
    state.shared.watched.lock().unwrap_or_else(PoisonError::into_inner).remove(subject);
}

/// Whether `record` changes the page: the board's tournament or one of the games it showed
/// (`games`, from its last render), the match, or for the desk a game's call, ruling, void, end
/// or fate horizon.
fn changes(subject: &Subject, games: &BTreeSet<String>, record: &Recorded) -> bool {
    let stream = &record.envelope.stream;
    match subject {
        Subject::Board(tournament) => {
            stream == tournament || (stream.kind() == StreamKind::Game && games.contains(stream.id()))
        }
        Subject::Andes(id) => stream == id,
        Subject::Desk => {
            stream.kind() == StreamKind::Game
                && matches!(
                    record.event,
                    Event::JuryCalled { .. }
                        | Event::JuryRuling { .. }
                        | Event::EventVoided { .. }
                        | Event::GameEnded { .. }
                        | Event::FateHorizonRecorded { .. }
                )
        }
    }
}

/// The page's task: follows the log from now; renders a new variant at once, and every
/// variant again after a commit that changes the page, at most [`RENDERS_A_SECOND`] times a
/// second. Ends when the last viewer leaves or ledgerd stops.
async fn render_while_watched(state: WebState, subject: Subject, wake: Arc<Notify>) {
    let start = match state.log.last_position() {
        Ok(position) => position,
        Err(error) => {
            tracing::error!(%error, "a live page could not start");
            return forget(&state, &subject);
        }
    };
    let mut events = state.log.subscribe(Filter::All, start.saturating_add(1));
    let mut stopping = state.stopping.clone();
    let gap = Duration::from_secs(1) / RENDERS_A_SECOND;
    let mut games: BTreeSet<String> = BTreeSet::new();
    let mut position = start;
    let mut changed = false;
    let mut last_render: Option<Instant> = None;
    loop {
        let Some(variants) = still_watched(&state, &subject) else { return };
        if changed {
            // A burst is one render: wait out the gap, then take in whatever came meanwhile.
            if let Some(at) = last_render {
                tokio::select! {
                    _ = stopping.wait_for(|stop| *stop) => return forget(&state, &subject),
                    () = tokio::time::sleep_until(at + gap) => {}
                }
            }
            while let Ok(next) = events.try_recv() {
                match next {
                    Ok(record) => position = record.envelope.position,
                    Err(error) => return ended_by(&state, &subject, &error),
                }
            }
        }
        let due: Vec<Variant> =
            variants.iter().filter(|(_, first)| changed || *first).map(|(variant, _)| *variant).collect();
        if !due.is_empty() {
            for variant in due {
                let (frame, shown) = render(&state, &subject, variant, position).await;
                if let Some(shown) = shown {
                    games = shown;
                }
                publish(&state, &subject, variant, frame);
            }
            last_render = Some(Instant::now());
            changed = false;
            continue;
        }
        let next = tokio::select! {
            _ = stopping.wait_for(|stop| *stop) => return forget(&state, &subject),
            () = wake.notified() => continue,
            next = events.recv() => next,
        };
        let record = match next {
            Some(Ok(record)) => record,
            Some(Err(error)) => return ended_by(&state, &subject, &error),
            None => return forget(&state, &subject),
        };
        position = record.envelope.position;
        changed = changes(&subject, &games, &record);
        // Whatever else is already here belongs to the same render.
        while let Ok(next) = events.try_recv() {
            match next {
                Ok(record) => {
                    position = record.envelope.position;
                    changed |= changes(&subject, &games, &record);
                }
                Err(error) => return ended_by(&state, &subject, &error),
            }
        }
    }
}

/// One render of one variant, counted; with the games a board follows when it rendered.
async fn render(
    state: &WebState,
    subject: &Subject,
    variant: Variant,
    position: u64,
) -> (Frame, Option<BTreeSet<String>>) {
    state.shared.renders.fetch_add(1, Ordering::Relaxed);
    let rendered = match (subject, variant.view) {
        (Subject::Board(tournament), View::Board { clocks }) => {
            super::board::render_variant(state, tournament, variant.lang, clocks)
                .await
                .map(|(html, games)| ("board", html, Some(games)))
        }
        (Subject::Andes(id), View::Andes { side }) => {
            super::andes::render_board(state, id, side, variant.lang).await.map(|html| ("andes", html, None))
        }
        (Subject::Desk, View::Desk) => {
            super::jury_desk::render_desk(state, variant.lang).await.map(|html| ("desk", html, None))
        }
        (subject, view) => unreachable!("{subject:?} is never watched as {view:?}"),
    };
    match rendered {
        Ok((name, html, games)) => (Frame { name, position, html: html.into() }, games),
        Err(error) => {
            let html = esc(&error.say.text(variant.lang));
            (Frame { name: "refused", position, html: html.into() }, None)
        }
    }
}

/// The page's subscription ended by a failure of the log: logged here, where it is handled
/// (the page is forgotten; its viewers' scripts reconnect).
fn ended_by(state: &WebState, subject: &Subject, error: &ledger_store::StoreError) {
    tracing::error!(%error, ?subject, "a live page's subscription failed");
    forget(state, subject);
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
