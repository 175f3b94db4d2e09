//! The canonical JSON form: one flat object tagged by `type`, e.g.
//! `{"type":"nation_dropped_out","nation":"russia","objectives_held":7,"objectives_total":10}`.
//!
//! The derived serde form is externally tagged (postcard needs that); this module moves the
//! tag in and out so that the same types serve both encodings. Absent optional fields are
//! left out of the output.
//!
//! Andes events ([`Event::Andes`]) are their own flat objects already (`ledger::andes::AndesEvent`
//! is tagged by `type`). Two type names are shared with Friedrich — `game_started` and
//! `game_ended` — and the fields tell them apart: an Andes `game_started` names its `game`, an
//! Andes `game_ended` its `reason`, which no Friedrich event has (unknown fields are refused on
//! both sides, so a line reads as one event at most).

use super::Event;
use crate::andes::AndesEvent;
use serde_json::{Map, Value};

/// Why a line is not a canonical event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Parses one canonical event. Unknown `type`s and unknown fields are refused.
///
/// # Errors
/// A [`ParseError`] that names the type or field that is wrong.
pub fn from_canonical_json(value: &Value) -> Result<Event, ParseError> {
    let Value::Object(map) = value else {
        return Err(ParseError("an event must be a JSON object".into()));
    };
    let mut fields = map.clone();
    let kind = match fields.remove("type") {
        Some(Value::String(kind)) => kind,
        Some(_) => return Err(ParseError("`type` must be a string".into())),
        None => return Err(ParseError("missing field `type`".into())),
    };
    if is_andes(&kind, &fields) {
        return serde_json::from_value::<AndesEvent>(value.clone())
            .map(Event::Andes)
            .map_err(|e| ParseError(format!("{kind}: {}", e.to_string().replace("unknown variant", "unknown value"))));
    }
    let mut tagged = Map::new();
    tagged.insert(kind.clone(), Value::Object(fields));
    serde_json::from_value(Value::Object(tagged)).map_err(|e| {
        let text = e.to_string();
        if text.starts_with(&format!("unknown variant `{kind}`")) {
            ParseError(format!("unknown event type `{kind}`"))
        } else {
            ParseError(format!("{kind}: {}", text.replace("unknown variant", "unknown value")))
        }
    })
}

/// Is this object an Andes event? See the module comment for the two shared type names.
fn is_andes(kind: &str, fields: &Map<String, Value>) -> bool {
    match kind {
        "match_created" | "move_played" | "piece_attacked" | "piece_captured" | "flag_fell" | "resigned" => true,
        "game_started" => fields.contains_key("game"),
        "game_ended" => fields.contains_key("reason"),
        _ => false,
    }
}

/// The canonical JSON object of an event.
pub fn to_canonical_json(event: &Event) -> Value {
    if let Event::Andes(andes) = event {
        return serde_json::to_value(andes).expect("events always serialise");
    }
    let tagged = serde_json::to_value(event).expect("events always serialise");
    let (kind, body) = match tagged {
        Value::Object(map) => map.into_iter().next().expect("externally tagged"),
        Value::String(unit) => (unit, Value::Object(Map::new())),
        other => unreachable!("unexpected serde form {other}"),
    };
    let mut out = Map::new();
    out.insert("type".into(), Value::String(kind));
    if let Value::Object(fields) = body {
        out.extend(fields.into_iter().filter(|(_, v)| !v.is_null()));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Nation;
    use serde_json::json;

    #[test]
    fn round_trips_a_flat_object() {
        let line =
            json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10});
        let event = from_canonical_json(&line).unwrap();
        assert_eq!(
            event,
            Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 7, objectives_total: 10, turn: None }
        );
        assert_eq!(to_canonical_json(&event), line);
    }

    #[test]
    fn empty_bodies_and_optional_fields() {
        let line = json!({"type": "set_aside_tc_picked_up"});
        assert_eq!(from_canonical_json(&line).unwrap(), Event::SetAsideTcPickedUp {});
        assert_eq!(to_canonical_json(&Event::SetAsideTcPickedUp {}), line);
        let turn = from_canonical_json(&json!({"type": "turn_started", "turn": 2})).unwrap();
        assert_eq!(to_canonical_json(&turn), json!({"type": "turn_started", "turn": 2}));
    }

    #[test]
    fn refuses_unknown_types_fields_and_nations() {
        let err = |v: Value| from_canonical_json(&v).unwrap_err().0;
        assert_eq!(err(json!({"type": "coup"})), "unknown event type `coup`");
        assert!(err(json!({"type": "turn_started", "turn": 1, "colour": "red"})).contains("unknown field `colour`"));
        assert!(err(json!({"type": "tc_dealt", "nation": "spain", "count": 1})).contains("unknown value `spain`"));
        assert!(err(json!({"turn": 1})).contains("missing field `type`"));
    }

    #[test]
    fn andes_events_are_their_own_flat_objects() {
        use crate::andes::{EndReason, Side};
        let line = json!({"type": "move_played", "notation": "2c3c5", "at_ms": 61250});
        let event = from_canonical_json(&line).unwrap();
        assert_eq!(event, Event::Andes(AndesEvent::MovePlayed { notation: "2c3c5".into(), at_ms: 61250 }));
        assert_eq!(to_canonical_json(&event).to_string(), r#"{"type":"move_played","notation":"2c3c5","at_ms":61250}"#);
        // The shared names: the fields decide.
        let andes_start = from_canonical_json(&json!({"type": "game_started", "game": 1, "at_ms": 0})).unwrap();
        assert_eq!(andes_start, Event::Andes(AndesEvent::GameStarted { game: 1, at_ms: 0 }));
        let friedrich_start = from_canonical_json(&json!({"type": "game_started", "at_ms": 0})).unwrap();
        assert_eq!(friedrich_start, Event::GameStarted { at_ms: 0, ruleset: None, tournament: None });
        let end = json!({"type": "game_ended", "reason": "continent_emptied", "side": "luna"});
        assert_eq!(
            from_canonical_json(&end).unwrap(),
            Event::Andes(AndesEvent::GameEnded { reason: EndReason::ContinentEmptied, side: Side::Luna })
        );
        let err = |v: Value| from_canonical_json(&v).unwrap_err().0;
        assert!(err(json!({"type": "move_played", "notation": "0d3"})).contains("missing field `at_ms`"));
        assert!(err(json!({"type": "resigned", "side": "moon", "at_ms": 1})).starts_with("resigned: "));
    }
}
