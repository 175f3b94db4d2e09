//! Damage found in the records file: noted by every reader that meets it and by a scrub of the
//! whole file when the log opens, so that health and metrics say the log is damaged (and
//! where) while every intact event is still served and appends go on.

use super::frames::{FrameReader, Slot};
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
/// position the file should hold: walks every frame, checks each record, and steps over a
/// frame whose header is damaged to the next one that checks (the positions between are lost
/// with it).
///
/// # Errors
/// The file cannot be read, or the frames do not follow each other (positions out of order).
pub fn scan(records: &File, end: u64, last_position: u64) -> Result<Vec<Damage>, StoreError> {
    let mut reader = FrameReader::new(records, end);
    let mut found_damage = Vec::new();
    let (mut at, mut next_position) = (0u64, 1u64);
    let lost = |from: u64, to: u64, offset: u64, into: &mut Vec<Damage>| {
        into.extend((from..to).map(|position| Damage { position, offset, event: None }));
    };
    loop {
        let found = match reader.frame_unchecked(at) {
            Ok(Some(found)) => found,
            Ok(None) => break,
            Err(StoreError::Corrupt(_)) => match reader.next_header_after(at)? {
                Some(next) => {
                    lost(next_position, next.header.first_position, at, &mut found_damage);
                    next
                }
                None => {
                    lost(next_position, last_position + 1, at, &mut found_damage);
                    break;
                }
            },
            Err(other) => return Err(other),
        };
        if found.header.first_position < next_position {
            return Err(StoreError::Corrupt(format!(
                "the records file is damaged at byte {}: its frame starts at position {}, before {next_position}",
                found.offset, found.header.first_position
            )));
        }
        for (position, slot) in (found.header.first_position..).zip(reader.slots(&found)?) {
            if let Slot::Damaged { at } = slot {
                found_damage.push(Damage { position, offset: at, event: None });
            }
        }
        next_position = found.header.next_position();
        at = found.next_offset();
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
