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
use serde::Serialize;
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

/// The canonical JSON text of an event, written directly: the same text as
/// `to_canonical_json(event).to_string()` (tested for every event a game can hold), without the
/// intermediate `Value` tree. The chain hash reads it for every event the writer seals.
pub fn canonical_json_text(event: &Event) -> String {
    let mut out = Vec::with_capacity(256);
    match event {
        Event::Andes(andes) => serde_json::to_writer(&mut out, andes).expect("events always serialise"),
        _ => event.serialize(Flat { out: &mut out }).expect("events always serialise"),
    }
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A serializer for the one shape a Friedrich event has at its top: a struct variant, written as
/// `{"type":<variant>,<field>:<value>,…}` with `null` fields left out. Anything else is an error
/// (no event has another shape; `to_canonical_json` would panic on one too).
struct Flat<'a> {
    out: &'a mut Vec<u8>,
}

/// The fields of [`Flat`]'s one object.
struct FlatFields<'a> {
    out: &'a mut Vec<u8>,
    value: Vec<u8>,
}

#[derive(Debug)]
struct NotAnEvent;

impl std::fmt::Display for NotAnEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not the shape of an event")
    }
}

impl std::error::Error for NotAnEvent {}

impl serde::ser::Error for NotAnEvent {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotAnEvent
    }
}

macro_rules! not_an_event {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)+) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret, NotAnEvent> {
            Err(NotAnEvent)
        }
    )+};
}

impl<'a> serde::Serializer for Flat<'a> {
    type Ok = ();
    type Error = NotAnEvent;
    type SerializeSeq = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeTuple = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeTupleStruct = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeTupleVariant = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeMap = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeStruct = serde::ser::Impossible<(), NotAnEvent>;
    type SerializeStructVariant = FlatFields<'a>;

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<FlatFields<'a>, NotAnEvent> {
        self.out.extend_from_slice(b"{\"type\":");
        serde_json::to_writer(&mut *self.out, variant).map_err(|_| NotAnEvent)?;
        Ok(FlatFields { out: self.out, value: Vec::new() })
    }

    not_an_event! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), NotAnEvent> {
        Err(NotAnEvent)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<(), NotAnEvent> {
        Err(NotAnEvent)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAnEvent> {
        Err(NotAnEvent)
    }
}

impl serde::ser::SerializeStructVariant for FlatFields<'_> {
    type Ok = ();
    type Error = NotAnEvent;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), NotAnEvent> {
        self.value.clear();
        serde_json::to_writer(&mut self.value, value).map_err(|_| NotAnEvent)?;
        // An absent optional field is left out, as `to_canonical_json` drops its `null`.
        if self.value != b"null" {
            self.out.push(b',');
            serde_json::to_writer(&mut *self.out, key).map_err(|_| NotAnEvent)?;
            self.out.push(b':');
            self.out.extend_from_slice(&self.value);
        }
        Ok(())
    }

    fn end(self) -> Result<(), NotAnEvent> {
        self.out.push(b'}');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Nation;
    use serde_json::json;

    #[test]
    fn the_direct_text_is_the_canonical_json_of_every_event() {
        use crate::testing::{refusal_cases, simple_tournament, simulate_game};
        let mut events: Vec<Event> = simulate_game(crate::Ruleset::Wm2015, &(0..600).collect::<Vec<u32>>());
        events.extend(simple_tournament(crate::Ruleset::Cafe2023, 8));
        events.extend(crate::andes::testing::seeded_match(3, 40).into_iter().map(Event::Andes));
        for case in refusal_cases() {
            events.extend(case.setup.iter().chain([&case.refused]).filter_map(|v| from_canonical_json(v).ok()));
        }
        events.push(Event::JuryCalled { reason: "a \"quoted\" line\nand é".into() });
        let kinds: std::collections::BTreeSet<&str> = events.iter().map(Event::type_name).collect();
        assert!(kinds.len() >= 25, "{} kinds: {kinds:?}", kinds.len());
        for event in &events {
            assert_eq!(canonical_json_text(event), to_canonical_json(event).to_string(), "{event:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_direct_text_is_the_canonical_json_of_any_game((_, events) in crate::testing::arb_game()) {
            for event in &events {
                proptest::prop_assert_eq!(canonical_json_text(event), to_canonical_json(event).to_string());
            }
        }
    }

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
