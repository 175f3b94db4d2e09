//! Catch-up-then-live subscriptions with no gap and no duplicate at the seam.
//!
//! The live receiver is taken before the first read, so every event is either in what the read
//! returns or in what the receiver gets afterwards (events are published only once durable).
//! A cursor skips what was already sent; a gap or a lagging receiver sends the subscription
//! back to storage to catch up again.

use crate::error::StoreError;
use crate::handle::Log;
use ledger::{Recorded, StreamId};
use std::sync::Arc;
use tokio::sync::{broadcast::error::RecvError, mpsc};

/// Events are read from storage in pages of this many, each off the async worker threads.
const PAGE: usize = 1024;

/// Which events a subscription follows. The cursor is a seq for a stream and a global position
/// for the whole log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filter {
    All,
    Stream(StreamId),
}

impl Filter {
    fn cursor(&self, record: &Recorded) -> Option<u64> {
        match self {
            Filter::All => Some(record.envelope.position),
            Filter::Stream(stream) => (record.envelope.stream == *stream).then_some(record.envelope.seq),
        }
    }

    fn read(&self, log: &Log, from: u64) -> Result<Vec<Recorded>, StoreError> {
        match self {
            Filter::All => log.read_all(from, PAGE),
            Filter::Stream(stream) => log.read_stream(stream, from, PAGE),
        }
    }
}

impl Log {
    /// Follows `filter` from cursor `from` (a seq or a position, 1 for the beginning): first the
    /// stored events, then live ones as they commit. Ends when the receiver is dropped.
    pub fn subscribe(self: &Arc<Self>, filter: Filter, from: u64) -> mpsc::Receiver<Result<Arc<Recorded>, StoreError>> {
        let (tx, rx) = mpsc::channel(PAGE);
        let log = Arc::clone(self);
        tokio::spawn(async move {
            let mut live = log.committed();
            let mut next = from.clamp(1, crate::MAX_CURSOR);
            'catch_up: loop {
                loop {
                    let (reader, page_filter) = (Arc::clone(&log), filter.clone());
                    let page = tokio::task::spawn_blocking(move || page_filter.read(&reader, next))
                        .await
                        .unwrap_or_else(|_| Err(StoreError::Io("a read panicked".into())));
                    let page = match page {
                        Ok(page) => page,
                        Err(error) => {
                            let _ = tx.send(Err(error)).await;
                            return;
                        }
                    };
                    if page.is_empty() {
                        break;
                    }
                    for record in page {
                        next = filter.cursor(&record).unwrap_or(next).saturating_add(1);
                        if tx.send(Ok(Arc::new(record))).await.is_err() {
                            return;
                        }
                    }
                }
                loop {
                    let record = match live.recv().await {
                        Ok(record) => record,
                        Err(RecvError::Lagged(_)) => continue 'catch_up,
                        Err(RecvError::Closed) => return,
                    };
                    let Some(cursor) = filter.cursor(&record) else { continue };
                    if cursor < next {
                        continue;
                    }
                    if cursor > next {
                        continue 'catch_up;
                    }
                    next = cursor.saturating_add(1);
                    if tx.send(Ok(record)).await.is_err() {
                        return;
                    }
                }
            }
        });
        rx
    }
}
