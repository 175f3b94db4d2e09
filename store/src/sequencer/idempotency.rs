//! Event ids and idempotency: the ids the ledger gives (`auto:`), the checks on the ids a
//! client sends, and a retry of a stored append recognised by its ids (answered with the first
//! result, the events the ledger derived after it included).

use super::group::Group;
use super::{Records, Sequencer};
use crate::append::{AppendRequest, Appended};
use crate::error::{AppendError, StoreError};
use crate::storage::{id_hash, Storage};
use ledger::{Recorded, Rejection, StreamId};
use std::sync::Arc;

/// Ids the ledger gives events sent without one; clients may not use the prefix, so a
/// client's id never collides with one the ledger gave.
const AUTO_ID_PREFIX: &str = "auto:";

/// A record found by its event id, with its index among the group's records if it is one of them.
type Found = (Arc<Recorded>, Option<usize>);

impl<S: Storage> Sequencer<S> {
    /// A retry of an append that was already stored returns the first result (the events the
    /// ledger derived after its events included). An id reused for another event is refused.
    pub(super) fn find_retry(
        &self,
        request: &AppendRequest,
        group: &Group,
    ) -> Result<Option<(Appended, Records)>, AppendError> {
        let mut found: Vec<Arc<Recorded>> = Vec::new();
        let mut in_group: Vec<usize> = Vec::new();
        let mut n_sent = 0;
        for proposed in request.events.iter().filter(|p| !p.event_id.is_empty()) {
            let Some((record, idx)) = self.find_id(&proposed.event_id, group)? else { continue };
            if record.envelope.stream != request.stream || record.event != proposed.event {
                return Err(Rejection::duplicate_id(format!(
                    "event id {} was already used for event {} of {} ({})",
                    proposed.event_id,
                    record.envelope.seq,
                    record.envelope.stream,
                    record.event.type_name()
                ))
                .into());
            }
            n_sent += 1;
            let derived = self.derived_after(&record, group)?;
            found.push(record);
            in_group.extend(idx);
            for (record, idx) in derived {
                found.push(record);
                in_group.extend(idx);
            }
        }
        let Some(first) = found.first() else { return Ok(None) };
        let consecutive = found.windows(2).all(|w| w[1].envelope.seq == w[0].envelope.seq + 1);
        if n_sent != request.events.len() || !consecutive {
            return Err(Rejection::duplicate_id(format!(
                "event id {} was already stored, but not with the rest of this append",
                first.envelope.event_id
            ))
            .into());
        }
        let last = found.last().expect("not empty");
        // Records of this group get their final positions with the group's.
        let records = match (in_group.first(), in_group.last()) {
            (Some(&first), Some(&last)) if in_group.len() == found.len() => Some(first..last + 1),
            _ => None,
        };
        let appended = Appended {
            stream: request.stream.clone(),
            first_seq: first.envelope.seq,
            last_seq: last.envelope.seq,
            first_position: first.envelope.position,
            last_position: last.envelope.position,
            head_hash: last.envelope.hash,
            duplicate: true,
        };
        Ok(Some((appended, records)))
    }

    /// the group if it is there.
    fn find_id(&self, event_id: &str, group: &Group) -> Result<Option<Found>, StoreError> {
        if let Some(&idx) = group.ids.get(event_id) {
            return Ok(Some((Arc::clone(&group.records[idx].record), Some(idx))));
        }
        if !self.ids_complete || self.ids.may_contain(id_hash(event_id)) {
            return Ok(self.storage.find_event_id(event_id)?.map(|record| (Arc::new(record), None)));
        }
        Ok(None)
    }

    /// them without reading the stream), in order.
    fn derived_after(&self, record: &Recorded, group: &Group) -> Result<Vec<Found>, StoreError> {
        let stream = &record.envelope.stream;
        let mut derived = Vec::new();
        if stream.kind().max_derived_per_event() == 0 {
            return Ok(derived);
        }
        let mut seq = record.envelope.seq;
        loop {
            seq += 1;
            match self.find_id(&auto_id(stream, seq), group)? {
                Some((next, idx)) if next.envelope.stream == *stream && next.event.is_derived() => {
                    derived.push((next, idx));
                }
                Some(_) | None => return Ok(derived),
            }
        }
    }
}

/// The id the ledger gives an event sent without one, and every event it derives.
pub(super) fn auto_id(stream: &StreamId, seq: u64) -> String {
    format!("{AUTO_ID_PREFIX}{stream}#{seq}")
}

/// Checks a request's event ids: each well formed, none of the ledger's own, none twice.
pub(super) fn check_ids(request: &AppendRequest) -> Result<(), Rejection> {
    let mut seen = std::collections::HashSet::new();
    for proposed in &request.events {
        let id = &proposed.event_id;
        ledger::envelope::check_event_id(id)?;
        if id.starts_with(AUTO_ID_PREFIX) {
            return Err(Rejection::malformed(format!(
                "event id `{}`: ids starting with `{AUTO_ID_PREFIX}` are the ledger's own",
                ledger::rejection::quote(id)
            )));
        }
        if !id.is_empty() && !seen.insert(id) {
            return Err(Rejection::malformed(format!(
                "event id {} appears twice in one append",
                ledger::rejection::quote(id)
            )));
        }
    }
    Ok(())
}
