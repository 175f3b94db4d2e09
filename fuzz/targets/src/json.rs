//! Target `json_events`: the JSON Lines parser that `ledgerctl append --file`, `check`, `import`
//! and `verify --file` share (`ledger::check::parse_lines`), fed any text. It answers `Ok` or
//! the first bad line and never panics. Every line it accepts round-trips: the event written
//! back as canonical JSON parses to the same event, its canonical text is stable, and the line
//! rebuilt with its stream and event id parses to the same line. Accepted lines then go through
//! the rules of a game and of a tournament stream, which may refuse them but must not panic.

use ledger::check::{check_stream, parse_lines, Line};
use ledger::event::{from_canonical_json, to_canonical_json};
use ledger::{Ruleset, StreamId};
use serde_json::Value;

/// Parses `data` (as UTF-8, invalid sequences replaced) as JSON Lines.
pub fn json_events(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(lines) = parse_lines(&text) else { return };
    for line in &lines {
        line_round_trips(line);
    }
    for stream in [StreamId::game("fuzz"), StreamId::tournament("fuzz")] {
        let stream = stream.expect("a valid stream id");
        let _verdict = check_stream(&stream, Some(Ruleset::Cafe2023), &lines);
    }
}

fn line_round_trips(line: &Line) {
    let canonical = to_canonical_json(&line.event);
    let reparsed = from_canonical_json(&canonical)
        .unwrap_or_else(|e| panic!("the canonical form of an accepted event is refused: {e}\n{canonical}"));
    assert_eq!(reparsed, line.event, "event → canonical JSON → event");
    assert_eq!(to_canonical_json(&reparsed).to_string(), canonical.to_string(), "canonical text is stable");

    let mut rebuilt = canonical;
    let map = rebuilt.as_object_mut().expect("canonical events are objects");
    if let Some(stream) = &line.stream {
        map.insert("stream".into(), Value::String(stream.clone()));
    }
    if let Some(event_id) = &line.event_id {
        map.insert("event_id".into(), Value::String(event_id.clone()));
    }
    let text = rebuilt.to_string();
    let again = parse_lines(&text).unwrap_or_else(|e| panic!("a rebuilt line is refused: {e}\n{text}"));
    let [again] = again.as_slice() else { panic!("one rebuilt line gave {} lines:\n{text}", again.len()) };
    assert_eq!(
        (&again.stream, &again.event_id, &again.event),
        (&line.stream, &line.event_id, &line.event),
        "line → canonical line → line"
    );
}
