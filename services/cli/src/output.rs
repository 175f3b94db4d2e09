//! How events and projections look to a person: one line an event, with the envelope's
//! essentials.
//!
//! Control characters are escaped on output (`\u{1b}`, `\n`), whatever the log holds: the
//! ledger refuses them in new events, but an old log (or another server) may still carry a
//! terminal escape or a line break that would forge lines on a juror's screen.

use ledger::event::to_canonical_json;
use ledger::Recorded;
use serde_json::Value;
use std::borrow::Cow;
use std::time::{Duration, UNIX_EPOCH};

/// `game/g1  #12  2026-11-21T23:50:01.123Z  table-1  nation_dropped_out nation=russia …`,
/// with every control character escaped: one event is always exactly one line.
pub fn record_line(record: &Recorded) -> String {
    let e = &record.envelope;
    let at = humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(e.recorded_at_ms));
    let line = format!("{}  #{:<4} {at}  {:<12} {}", e.stream, e.seq, e.actor, event_text(&record.event));
    printable(&line).into_owned()
}

/// `text` with its control characters escaped (`char::escape_default`), everything else as is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A JSON value on one line with no control character in it: serde_json escapes U+0000–U+001F
/// but writes DEL and the C1 controls (U+007F–U+009F) raw, so those become `\u00XX` here (they
/// can only occur inside strings, so the JSON means the same).
pub fn json_line(value: &Value) -> String {
    let text = value.to_string();
    if !text.chars().any(char::is_control) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
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

/// A projection (a score sheet, standings, statistics) as ledgerd or an offline fold gives it:
/// its JSON under `--json`, else its text.
pub fn print_projection(as_json: bool, json: &str, text: &str) {
    if as_json {
        say!("{json}");
    } else {
        say!("{}", text.strip_suffix('\n').unwrap_or(text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(printable("Anna Müller – 3rd"), "Anna Müller – 3rd");
        assert_eq!(printable("a\u{1b}[2J\r\nb\u{9b}\u{7f}\t"), "a\\u{1b}[2J\\r\\nb\\u{9b}\\u{7f}\\t");
        let value = serde_json::json!({"text": "a\u{1b}\n\u{7f}\u{85}\u{9f}b"});
        let line = json_line(&value);
        assert!(!line.chars().any(char::is_control), "{line}");
        assert_eq!(serde_json::from_str::<Value>(&line).unwrap(), value, "the same JSON");
    }
}
