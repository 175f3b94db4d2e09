//! Damage found in the records file: noted by every reader that meets it and by a scrub of the
//! whole file when the log opens, so that health and metrics say the log is damaged (and
//! where) while every intact event is still served and appends go on.

use super::frames::{FrameWalk, Slot, Walked};
use crate::error::Damage;
use crate::error::StoreError;
use std::collections::BTreeMap;
use std::fs::File;
use std::sync::Mutex;

/// The damaged records found so far, by position.
#[derive(Debug, Default)]
pub struct DamageLog {
    seen: Mutex<BTreeMap<u64, Damage>>,
}

impl DamageLog {
    /// Notes `damage` (logged the first time its position is met) and returns it as the error
    /// a reader answers with.
    pub fn noted(&self, damage: Damage) -> StoreError {
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let std::collections::btree_map::Entry::Vacant(entry) = seen.entry(damage.position) {
            tracing::error!(position = damage.position, offset = damage.offset, "{damage}");
            entry.insert(damage.clone());
        }
        StoreError::Damaged(damage)
    }

    /// How many damaged records are known.
    pub fn count(&self) -> u64 {
        self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len() as u64
    }
}

/// Every damaged record of the records file up to `end` (a durable end), with the last
/// position the file should hold: every record of every frame checked, and the positions lost
/// with a damaged header (see [`FrameWalk`]).
///
/// # Errors
/// The file cannot be read.
pub fn scan(records: &File, end: u64, last_position: u64) -> Result<Vec<Damage>, StoreError> {
    let mut walk = FrameWalk::new(records, end, last_position);
    let mut found_damage = Vec::new();
    while let Some(step) = walk.step()? {
        match step {
            Walked::Lost { offset, positions, .. } => {
                found_damage.extend(positions.map(|position| Damage { position, offset, event: None }));
            }
            Walked::Frame(found) => {
                for (position, slot) in (found.header.first_position..).zip(walk.reader.slots(&found)?) {
                    if let Slot::Damaged { at } = slot {
                        found_damage.push(Damage { position, offset: at, event: None });
                    }
                }
            }
        }
    }
    Ok(found_damage)
}

impl DamageLog {
    /// Scans the records file (see [`scan`]) and notes what it finds, logging a summary once.
    pub fn scrub(&self, records: &File, end: u64, last_position: u64) {
        let started = std::time::Instant::now();
        match scan(records, end, last_position) {
            Ok(found) if found.is_empty() => {
                tracing::info!(bytes = end, took_ms = started.elapsed().as_millis(), "the records file checks");
            }
            Ok(found) => {
                let (n, first) = (found.len(), found[0].position);
                let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                seen.extend(found.into_iter().map(|damage| (damage.position, damage)));
                drop(seen);
                tracing::error!(
                    records = n,
                    first_position = first,
                    "the records file is damaged: {n} records no longer match their checksums; every other \
                     event is served, and `ledgerctl repair` takes them back from a copy"
                );
            }
            Err(error) => tracing::error!(%error, "the records file could not be scrubbed"),
        }
    }
}
