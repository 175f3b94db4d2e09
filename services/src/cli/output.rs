//! How events look to a person: one line each, with the envelope's essentials.

use ledger::event::to_canonical_json;
use ledger::Recorded;
use serde_json::Value;
use std::time::{Duration, UNIX_EPOCH};

/// `game/g1  #12  2026-11-21T23:50:01.123Z  table-1  nation_dropped_out nation=russia …`
pub fn record_line(record: &Recorded) -> String {
    let e = &record.envelope;
    let at = humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(e.recorded_at_ms));
    format!("{}  #{:<4} {at}  {:<12} {}", e.stream, e.seq, e.actor, event_text(&record.event))
}

/// `nation_dropped_out nation=russia objectives_held=7 objectives_total=10`
pub fn event_text(event: &ledger::Event) -> String {
    let Value::Object(fields) = to_canonical_json(event) else { unreachable!("events are objects") };
    let mut text = event.type_name().to_owned();
    for (key, value) in fields.iter().filter(|(k, _)| *k != "type") {
        let shown = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text.push_str(&format!(" {key}={shown}"));
    }
    text
}
