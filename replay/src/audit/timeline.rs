//! The whole stream for the jury, one entry per stored event: when the server recorded it,
//! who appended it, the table time, and — when a later `event_voided` voided it — which void,
//! why, and the jury's ruling that stood nearest before the void. Voided events stay in the
//! timeline, struck through: corrections never delete.

use super::point::canonical;
use super::text::{event_text, iso_utc, table_time_text};
use ledger::{Event, Recorded};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// One stored event as the jury sees it now, with every void of the stream known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    pub seq: u64,
    /// Server time, ms since the Unix epoch.
    pub recorded_at_ms: u64,
    pub actor: String,
    #[serde(serialize_with = "canonical")]
    pub event: Event,
    /// The latest `at_ms` of the events so far that the jury has not voided (a voided event
    /// moves it neither for itself nor for later events); none before any.
    pub table_time_ms: Option<u64>,
    pub voided_by: Option<VoidNote>,
}

/// The void that took an event out of every projection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VoidNote {
    pub void_seq: u64,
    pub reason: String,
    /// The nearest `jury_ruling` before the void in the stream, if any.
    pub ruling: Option<RulingNote>,
}

/// A jury ruling, by its seq.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulingNote {
    pub seq: u64,
    pub text: String,
}

/// The timeline of one stream's records, in the order given (seq order for a stream read
/// from the ledger). Records of other streams should not be mixed in: voids name seqs.
pub fn timeline(records: &[Recorded]) -> Vec<TimelineEntry> {
    let mut last_ruling: Option<RulingNote> = None;
    let mut notes: BTreeMap<u64, VoidNote> = BTreeMap::new();
    for record in records {
        match &record.event {
            Event::JuryRuling { text } => {
                last_ruling = Some(RulingNote { seq: record.envelope.seq, text: text.clone() });
            }
            Event::EventVoided { seq, reason } => {
                notes.entry(*seq).or_insert_with(|| VoidNote {
                    void_seq: record.envelope.seq,
                    reason: reason.clone(),
                    ruling: last_ruling.clone(),
                });
            }
            Event::JuryCalled { .. } => {}
            ledger::tournament_events!() | ledger::game_events!() | Event::Andes(_) => {}
        }
    }
    let mut table_time = None;
    records
        .iter()
        .map(|record| {
            let seq = record.envelope.seq;
            let voided_by = notes.remove(&seq);
            if voided_by.is_none() {
                if let Some(at) = record.event.at_ms() {
                    table_time = Some(table_time.map_or(at, |t: u64| t.max(at)));
                }
            }
            TimelineEntry {
                seq,
                recorded_at_ms: record.envelope.recorded_at_ms,
                actor: record.envelope.actor.clone(),
                event: record.event.clone(),
                table_time_ms: table_time,
                voided_by,
            }
        })
        .collect()
}

impl TimelineEntry {
    /// The event on one line, struck through (`~~…~~`) when voided.
    pub fn event_line(&self) -> String {
        match &self.voided_by {
            Some(_) => format!("~~{}~~", event_text(&self.event)),
            None => event_text(&self.event),
        }
    }

    /// `[VOIDED by #14: reason; ruling #13: text]`, or nothing.
    pub fn void_mark(&self) -> Option<String> {
        self.voided_by.as_ref().map(VoidNote::to_string)
    }
}

impl fmt::Display for VoidNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[VOIDED by #{}: {}", self.void_seq, self.reason)?;
        if let Some(ruling) = &self.ruling {
            write!(f, "; ruling #{}: {}", ruling.seq, ruling.text)?;
        }
        write!(f, "]")
    }
}

/// `#12 2024-05-01T10:00:00.000Z table-3 @0:40:00 ~~nation_dropped_out …~~ [VOIDED by …]`.
impl fmt::Display for TimelineEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = self.table_time_ms.map_or_else(|| "-".to_owned(), table_time_text);
        write!(f, "#{} {} {} @{} {}", self.seq, iso_utc(self.recorded_at_ms), self.actor, time, self.event_line())?;
        if let Some(mark) = self.void_mark() {
            write!(f, " {mark}")?;
        }
        Ok(())
    }
}
