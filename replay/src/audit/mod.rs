//! The jury's audit (issue 5): replay one game to any point and see what the ledger knew at
//! that moment — the rules' state, the tactical cards, the clocks and the score sheet — step
//! through it, compare two points, and write the whole stream out as a timeline and a Markdown
//! report with the jury's rulings and the hash chain's digest.
//!
//! "What the ledger knew at seq N" means the first N events with only the voids recorded at or
//! before N applied: a void recorded later is not yet known at N. Every point is recomputed from
//! the start of the stream (correctness first; a game has a few hundred events), through the
//! same code the ledger and the projections use: `ledger::StreamState` for the rules' state
//! (it honours voids itself), [`crate::sheet::score_without`] for the sheet and
//! [`crate::clock::ClockFold`] for the clocks.
//!
//! Like the rest of the crate: no I/O, no clock, no `f64`. Dates in the report are computed
//! from the envelope's `recorded_at_ms` with integer arithmetic ([`iso_utc`]).

mod diff;
mod point;
mod render;
mod report;
mod step;
mod text;
mod timeline;

pub use diff::{diff, diff_values, Change};
pub use point::{AuditPoint, EndedView, KnownVoid, NationView, OffensiveStatus, OffensiveView, StateView};
pub use report::report;
pub use step::Auditor;
pub use text::{event_text, iso_utc, table_time_text};
pub use timeline::{timeline, RulingNote, TimelineEntry, VoidNote};

use crate::clock::ClockFold;
use crate::sheet::{score_without, voided_seqs, ScoreError};
use ledger::rules::{GameState, Rules};
use ledger::{Event, Ruleset, StreamId, StreamState};

/// Why a point of a stream cannot be audited.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    #[error("the stream has no events")]
    Empty,
    #[error("there is no event {seq}: the stream has events 1 to {last}")]
    NoSuchEvent { seq: u64, last: u64 },
    #[error("no event had happened by table time {at_ms} ms")]
    NothingByThen { at_ms: u64 },
    #[error(
        "events must be numbered 1, 2, 3 … from the start of the stream: found seq {found} where {expected} was due"
    )]
    OutOfSequence { expected: u64, found: u64 },
    #[error("event {seq} ({event}) does not replay through the ledger's rules: {message}")]
    Refused { seq: u64, event: &'static str, message: String },
    #[error("{0} is not a game stream")]
    NotAGame(String),
    #[error("no records of {0} were given")]
    NoRecords(String),
    #[error(transparent)]
    Score(#[from] ScoreError),
}

/// The game as the ledger knew it after event `seq`: the first `seq` events, with the voids
/// recorded among them. `events` are the whole stream's `(seq, event)` pairs, numbered 1, 2, 3 …;
/// `scheduled` is the ruleset of the tournament that scheduled the game; `ms_per_side` is the
/// tournament's clock setting (else [`crate::clock::DEFAULT_MS_PER_SIDE`]).
///
/// # Errors
/// [`AuditError::NoSuchEvent`] when the stream has no event `seq`,
/// [`AuditError::OutOfSequence`] when the events are not numbered from 1 without gaps,
/// [`AuditError::Refused`] when the prefix does not replay through the ledger's rules, and
/// [`AuditError::Score`] when it cannot be scored.
pub fn audit_at(
    scheduled: Option<Ruleset>,
    events: &[(u64, Event)],
    seq: u64,
    ms_per_side: u64,
) -> Result<AuditPoint, AuditError> {
    check_numbering(events)?;
    let last = events.len() as u64;
    if seq == 0 || seq > last {
        return Err(AuditError::NoSuchEvent { seq, last });
    }
    let end = usize::try_from(seq).map_err(|_| AuditError::NoSuchEvent { seq, last })?;
    replay_prefix(scheduled, events, end, ms_per_side, None)
}

/// The game at table time `at_ms`: the point of the last event whose table time (the latest
/// `at_ms` recorded so far, as the ledger knew it then) is at or before `at_ms`. Events before
/// any table time was recorded count as before every time. The clocks are carried forward to
/// `at_ms` (the running side keeps losing time), so they show what the table's clock showed.
///
/// # Errors
/// [`AuditError::NothingByThen`] when every event came later; otherwise as [`audit_at`] for the
/// whole stream.
pub fn audit_at_time(
    scheduled: Option<Ruleset>,
    events: &[(u64, Event)],
    at_ms: u64,
    ms_per_side: u64,
) -> Result<AuditPoint, AuditError> {
    seq_at_time(scheduled, events, at_ms).and_then(|seq| {
        let end = usize::try_from(seq).unwrap_or(usize::MAX).min(events.len());
        replay_prefix(scheduled, events, end, ms_per_side, Some(at_ms))
    })
}

/// The seq [`audit_at_time`] stops at.
///
/// # Errors
/// As [`audit_at_time`].
pub fn seq_at_time(scheduled: Option<Ruleset>, events: &[(u64, Event)], at_ms: u64) -> Result<u64, AuditError> {
    check_numbering(events)?;
    let mut state = StreamState::new(&audit_stream(), scheduled);
    let mut found = None;
    for (index, (seq, _)) in events.iter().enumerate() {
        apply_at(&mut state, events, index)?;
        if game_state(&state).last_at_ms.is_none_or(|time| time <= at_ms) {
            found = Some(*seq);
        }
    }
    found.ok_or(AuditError::NothingByThen { at_ms })
}

/// Events are `(seq, event)` pairs numbered 1, 2, 3 … without gaps: voids name seqs, and the
/// ledger's rules count them by position.
fn check_numbering(events: &[(u64, Event)]) -> Result<(), AuditError> {
    if events.is_empty() {
        return Err(AuditError::Empty);
    }
    for (expected, (found, _)) in (1u64..).zip(events) {
        if *found != expected {
            return Err(AuditError::OutOfSequence { expected, found: *found });
        }
    }
    Ok(())
}

/// A game stream's name for the rules; the audit never shows it.
fn audit_stream() -> StreamId {
    StreamId::game("audit").expect("a valid stream id")
}

/// Applies the event at `index` of the whole stream `events` as the writer judged it: a run of
/// voids (one ruling's) together, at its first — so a point inside a ruling shows the stream as
/// recorded there, the run having been judged whole (`ledger::rules::void_run`).
pub(crate) fn apply_at(state: &mut StreamState, events: &[(u64, Event)], index: usize) -> Result<(), AuditError> {
    let (seq, event) = &events[index];
    let refused = |rejection: ledger::Rejection| AuditError::Refused {
        seq: *seq,
        event: event.type_name(),
        message: rejection.message,
    };
    let is_void = |e: &Event| matches!(e, Event::EventVoided { .. });
    if !is_void(event) {
        return state.apply(event).map_err(refused);
    }
    if index > 0 && is_void(&events[index - 1].1) {
        // Judged with the run's first.
        state.evolve(event);
        return Ok(());
    }
    let run: Vec<Event> = events[index..].iter().map(|(_, e)| e).take_while(|e| is_void(e)).cloned().collect();
    state.decide_voids(&run).map_err(refused)?;
    state.evolve(event);
    Ok(())
}

fn game_state(state: &StreamState) -> &GameState {
    match state.rules() {
        Rules::Game(game) => game,
        Rules::Tournament(_) | Rules::Andes(_) => unreachable!("the audit stream is a game stream"),
    }
}

/// Everything after the first `end` of the stream's `events`, with the voids recorded by then.
fn replay_prefix(
    scheduled: Option<Ruleset>,
    events: &[(u64, Event)],
    end: usize,
    ms_per_side: u64,
    asked_at_ms: Option<u64>,
) -> Result<AuditPoint, AuditError> {
    let mut state = StreamState::new(&audit_stream(), scheduled);
    for index in 0..end {
        apply_at(&mut state, events, index)?;
    }
    let prefix = &events[..end];
    let game = game_state(&state).clone();
    let voided = voided_seqs(prefix);
    let live = || prefix.iter().filter(|(seq, _)| !voided.contains(seq));
    let mut tc_dealt: std::collections::BTreeMap<_, i64> = ledger::Nation::ALL.iter().map(|&n| (n, 0)).collect();
    for (_, event) in live() {
        // Counts one named event: a lookup, not a fold over every event.
        if let Event::TcDealt { nation, count } = event {
            *tc_dealt.entry(*nation).or_default() += i64::from(*count);
        }
    }
    let clock = game.ruleset.map(|ruleset| {
        let mut fold = ClockFold::new(ruleset, ms_per_side);
        for (seq, event) in live() {
            fold.apply(*seq, event);
        }
        fold.view(asked_at_ms)
    });
    let sheet = if game.started { Some(score_without(scheduled, prefix, &voided)?) } else { None };
    let (seq, event) = prefix.last().cloned().expect("a prefix holds at least one event");
    Ok(AuditPoint::new(point::Parts {
        seq,
        event,
        asked_at_ms,
        voids: point::known_voids(prefix),
        game,
        tc_dealt,
        clock,
        sheet,
    }))
}
