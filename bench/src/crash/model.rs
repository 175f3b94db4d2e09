//! What the ledger has promised: every event it acknowledged, by stream and seq, with the id and
//! the global position it named. After a crash and a restart the log must hold exactly this.

use super::append::Ack;
use std::collections::{BTreeMap, HashMap};

/// One acknowledged event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub event_id: String,
    pub position: u64,
}

/// Every acknowledged event. Acknowledgements of a shared stream come from several writers and
/// are merged writer by writer, so a seq may be filled after the one above it; `None` marks a
/// seq nobody has been told about yet (an append in flight at the kill, resolved after it).
#[derive(Debug, Default)]
pub struct Model {
    streams: BTreeMap<String, Vec<Option<Entry>>>,
    /// Position → (stream, seq): no two events may be acknowledged at one position.
    positions: HashMap<u64, (String, u64)>,
}

impl Model {
    /// Adds one acknowledgement.
    ///
    /// # Errors
    /// The ledger acknowledged another event at the same seq or the same position, or this
    /// event at another place than before: two promises that cannot both hold.
    pub fn record(&mut self, ack: &Ack) -> Result<(), String> {
        let seq_idx = usize::try_from(ack.seq.saturating_sub(1)).map_err(|e| e.to_string())?;
        let entries = self.streams.entry(ack.stream.clone()).or_default();
        if entries.len() <= seq_idx {
            entries.resize(seq_idx + 1, None);
        }
        let entry = Entry { event_id: ack.event_id.clone(), position: ack.position };
        match &entries[seq_idx] {
            Some(known) if *known == entry => return Ok(()),
            Some(known) => {
                return Err(format!(
                    "{} seq {}: acknowledged as {} at position {}, and earlier as {} at position {}",
                    ack.stream, ack.seq, ack.event_id, ack.position, known.event_id, known.position
                ))
            }
            None => {}
        }
        if let Some((stream, seq)) = self.positions.get(&ack.position) {
            return Err(format!(
                "position {}: acknowledged for {} seq {} and for {stream} seq {seq}",
                ack.position, ack.stream, ack.seq
            ));
        }
        self.positions.insert(ack.position, (ack.stream.clone(), ack.seq));
        entries[seq_idx] = Some(entry);
        Ok(())
    }

    /// The highest acknowledged seq of a stream (0 if none): at least this many events must be
    /// stored.
    pub fn len(&self, stream: &str) -> u64 {
        self.streams.get(stream).map_or(0, |entries| entries.len() as u64)
    }

    /// The acknowledged event at `seq`, if any.
    pub fn get(&self, stream: &str, seq: u64) -> Option<&Entry> {
        let idx = usize::try_from(seq.checked_sub(1)?).ok()?;
        self.streams.get(stream)?.get(idx)?.as_ref()
    }

    /// The acknowledged event at a global position: its stream, seq and entry.
    pub fn at_position(&self, position: u64) -> Option<(&str, u64, &Entry)> {
        let (stream, seq) = self.positions.get(&position)?;
        Some((stream.as_str(), *seq, self.get(stream, *seq)?))
    }

    pub fn streams(&self) -> impl Iterator<Item = &str> {
        self.streams.keys().map(String::as_str)
    }

    /// Acknowledged events in all streams.
    pub fn total(&self) -> u64 {
        self.positions.len() as u64
    }

    /// Seqs below a stream's highest acknowledged one that nobody was told about.
    pub fn holes(&self) -> u64 {
        self.streams.values().flatten().filter(|e| e.is_none()).count() as u64
    }

    /// Whether the acknowledged positions are exactly 1…total: with every stream checked
    /// against the model, the whole log then holds nothing else.
    pub fn positions_are_contiguous(&self) -> bool {
        let total = self.total();
        self.positions.keys().all(|&p| (1..=total).contains(&p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(stream: &str, seq: u64, id: &str, position: u64) -> Ack {
        Ack { stream: stream.into(), seq, event_id: id.into(), position }
    }

    #[test]
    fn merges_out_of_order_and_refuses_two_events_at_one_place() {
        let mut model = Model::default();
        model.record(&ack("game/crash-shared-0", 2, "b", 5)).unwrap();
        assert_eq!((model.len("game/crash-shared-0"), model.holes()), (2, 1));
        model.record(&ack("game/crash-shared-0", 1, "a", 4)).unwrap();
        model.record(&ack("game/crash-shared-0", 1, "a", 4)).unwrap();
        assert_eq!((model.total(), model.holes()), (2, 0));
        assert!(!model.positions_are_contiguous(), "positions 4 and 5 only");
        assert!(model.record(&ack("game/crash-shared-0", 1, "c", 6)).is_err(), "another event at seq 1");
        assert!(model.record(&ack("game/crash-u0-0", 1, "d", 5)).is_err(), "another event at position 5");
        assert_eq!(model.get("game/crash-shared-0", 2).unwrap().event_id, "b");
        let (stream, seq, entry) = model.at_position(4).unwrap();
        assert_eq!((stream, seq, entry.event_id.as_str()), ("game/crash-shared-0", 1, "a"));
        assert!(model.at_position(6).is_none());
    }
}
