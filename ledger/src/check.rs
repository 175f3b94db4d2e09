//! JSON Lines input as the CLI and the jury use it: one event a line, in the canonical form
//! (optionally with `event_id` and `stream` fields) or in the export form with its envelope.
//! `check_stream` validates a whole file with the same rules the server applies.

use crate::envelope::Recorded;
use crate::event::{from_canonical_json, Event};
use crate::names::Ruleset;
use crate::rejection::{Rejection, RejectionKind};
use crate::rules::StreamState;
use crate::stream::StreamId;
use serde_json::Value;

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    pub stream: Option<String>,
    pub event_id: Option<String>,
    /// When the ledger recorded it, for lines of an export.
    pub recorded_at_ms: Option<u64>,
    pub event: Event,
}

/// A line that was refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    pub line: usize,
    pub kind: RejectionKind,
    pub message: String,
}

/// Parses JSON Lines; blank lines are skipped.
///
/// # Errors
/// The first line that is not JSON or not a canonical event.
pub fn parse_lines(text: &str) -> Result<Vec<Line>, LineError> {
    let mut lines = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let number = idx + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let malformed = |message: String| LineError { line: number, kind: RejectionKind::Malformed, message };
        let value: Value = serde_json::from_str(raw).map_err(|e| malformed(format!("not JSON: {e}")))?;
        lines.push(parse_value(number, value).map_err(malformed)?);
    }
    Ok(lines)
}

fn parse_value(number: usize, mut value: Value) -> Result<Line, String> {
    if value.get("event").is_some_and(Value::is_object) {
        let record = Recorded::from_json(&value)?;
        return Ok(Line {
            number,
            stream: Some(record.envelope.stream.to_string()),
            event_id: Some(record.envelope.event_id),
            recorded_at_ms: Some(record.envelope.recorded_at_ms),
            event: record.event,
        });
    }
    let map = value.as_object_mut().ok_or("an event must be a JSON object")?;
    let mut take = |key: &str| -> Result<Option<String>, String> {
        match map.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("`{key}` must be a string")),
        }
    };
    let stream = take("stream")?;
    let event_id = take("event_id")?;
    let event = from_canonical_json(&value).map_err(|e| e.0)?;
    Ok(Line { number, stream, event_id, recorded_at_ms: None, event })
}

/// Validates lines as one stream, the way the server would (a run of voids together, as one
/// ruling's), and returns the final state.
/// `ruleset` plays the part of the scheduling tournament for a game stream.
///
/// # Errors
/// The first refused line, with the rule it broke.
pub fn check_stream(stream: &StreamId, ruleset: Option<Ruleset>, lines: &[Line]) -> Result<StreamState, LineError> {
    let mut state = StreamState::new(stream, ruleset);
    let mut index = 0;
    while index < lines.len() {
        let refused = |line: &Line| {
            let number = line.number;
            move |Rejection { kind, message, .. }| LineError { line: number, kind, message }
        };
        // A run of voids is one ruling's, judged together as the writer judges it.
        let events: Vec<Event> = lines[index..]
            .iter()
            .take_while(|l| matches!(l.event, Event::EventVoided { .. }))
            .map(|l| l.event.clone())
            .collect();
        if events.len() > 1 {
            state.apply_voids(&events).map_err(refused(&lines[index]))?;
            index += events.len();
        } else {
            state.apply(&lines[index].event).map_err(refused(&lines[index]))?;
            index += 1;
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_the_first_refused_line_with_its_number() {
        let text = "{\"type\":\"game_started\",\"at_ms\":0}\n\n{\"type\":\"turn_started\",\"turn\":1}\n{\"type\":\"turn_started\",\"turn\":3}\n";
        let lines = parse_lines(text).unwrap();
        let err = check_stream(&StreamId::game("g").unwrap(), Some(Ruleset::Cafe2019), &lines).unwrap_err();
        assert_eq!(err.line, 4);
        assert_eq!(err.to_string(), "line 4: turn_started 3 skips a turn: turn 2 comes next");
    }

    #[test]
    fn keeps_event_ids_and_streams_apart_from_the_event() {
        let lines =
            parse_lines("{\"type\":\"jury_called\",\"reason\":\"x\",\"event_id\":\"e1\",\"stream\":\"game/g\"}")
                .unwrap();
        assert_eq!(lines[0].event_id.as_deref(), Some("e1"));
        assert_eq!(lines[0].stream.as_deref(), Some("game/g"));
        let err = parse_lines("{\"type\":1}").unwrap_err();
        assert_eq!((err.line, err.kind), (1, RejectionKind::Malformed));
    }
}
