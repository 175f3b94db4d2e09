//! Stepping through a game event by event, as a jury does at the table: forward, back, or
//! straight to a seq or a table time. Each step recomputes its point from the start of the
//! stream with [`super::audit_at`], so a point never depends on how the caller got there.

use super::{audit_at, audit_at_time, check_numbering, AuditError, AuditPoint};
use ledger::{Event, Recorded, Ruleset};

/// A cursor over one game stream. It starts before the first event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Auditor {
    scheduled: Option<Ruleset>,
    events: Vec<(u64, Event)>,
    ms_per_side: u64,
    /// The seq of the current point; 0 before the first event.
    at: u64,
}

impl Auditor {
    /// An auditor of `events`, numbered 1, 2, 3 … (see [`super::audit_at`] for the rest).
    ///
    /// # Errors
    /// [`AuditError::Empty`] or [`AuditError::OutOfSequence`].
    pub fn new(scheduled: Option<Ruleset>, events: Vec<(u64, Event)>, ms_per_side: u64) -> Result<Self, AuditError> {
        check_numbering(&events)?;
        Ok(Auditor { scheduled, events, ms_per_side, at: 0 })
    }

    /// An auditor of one stream's stored records, in seq order.
    ///
    /// # Errors
    /// As [`Auditor::new`].
    pub fn from_records(
        scheduled: Option<Ruleset>,
        records: &[Recorded],
        ms_per_side: u64,
    ) -> Result<Self, AuditError> {
        let events = records.iter().map(|record| (record.envelope.seq, record.event.clone())).collect();
        Auditor::new(scheduled, events, ms_per_side)
    }

    /// The number of events (the last seq).
    pub fn len(&self) -> u64 {
        self.events.len() as u64
    }

    /// Never true: an auditor holds at least one event.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The seq of the current point; 0 before the first step.
    pub fn position(&self) -> u64 {
        self.at
    }

    /// The point after event `seq`, which becomes the current one.
    ///
    /// # Errors
    /// As [`super::audit_at`]; the position is unchanged then.
    pub fn goto(&mut self, seq: u64) -> Result<AuditPoint, AuditError> {
        let point = audit_at(self.scheduled, &self.events, seq, self.ms_per_side)?;
        self.at = seq;
        Ok(point)
    }

    /// The point at table time `at_ms` (see [`super::audit_at_time`]), which becomes the
    /// current one.
    ///
    /// # Errors
    /// As [`super::audit_at_time`]; the position is unchanged then.
    pub fn goto_time(&mut self, at_ms: u64) -> Result<AuditPoint, AuditError> {
        let point = audit_at_time(self.scheduled, &self.events, at_ms, self.ms_per_side)?;
        self.at = point.seq;
        Ok(point)
    }

    /// The point after the next event; `None` at the last one (the position stays).
    ///
    /// # Errors
    /// As [`super::audit_at`].
    pub fn forward(&mut self) -> Result<Option<AuditPoint>, AuditError> {
        if self.at >= self.len() {
            return Ok(None);
        }
        self.goto(self.at + 1).map(Some)
    }

    /// The point after the previous event; `None` at the first one (the position stays).
    ///
    /// # Errors
    /// As [`super::audit_at`].
    pub fn back(&mut self) -> Result<Option<AuditPoint>, AuditError> {
        if self.at <= 1 {
            return Ok(None);
        }
        self.goto(self.at - 1).map(Some)
    }
}
