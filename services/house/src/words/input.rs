//! Bad input as a person reads it. An event that is not a canonical event
//! (`ledger::event::ParseError`) and a JSON body that does not fit its route carry serde's
//! English (`invalid value: integer `-5`, expected u64`); serde gives no typed error, so its
//! few sentence shapes are read here into a [`Reason`] of `refusals.ftl` (`input-*`): what was
//! given, what was expected, which field. A shape not known is said by `input-other`, with
//! nothing of serde's English.

use ledger::{Arg, Reason};

/// The reason of a canonical event that does not parse (`ParseError`'s text).
pub fn of_event(text: &str) -> Reason {
    match text {
        "an event must be a JSON object" => return Reason::new("input-not-object"),
        "`type` must be a string" => return Reason::new("input-type-not-text"),
        "missing field `type`" => return Reason::new("input-missing").arg("field", "type"),
        _ => {}
    }
    if let Some(kind) = text.strip_prefix("unknown event type `").and_then(|rest| rest.strip_suffix('`')) {
        return Reason::new("input-unknown-type").arg("type", kind);
    }
    match text.split_once(": ") {
        Some((kind, serde)) if is_word(kind) => {
            let mut reason = of_serde(serde);
            reason.args.push(("type", Arg::name("table-event-name", kind)));
            reason.id = match reason.id {
                "input-invalid-value" => "input-event-invalid-value",
                "input-invalid-type" => "input-event-invalid-type",
                "input-missing" => "input-event-missing",
                "input-unknown-field" => "input-event-unknown-field",
                "input-unknown-value" => "input-event-unknown-value",
                other => other,
            };
            reason
        }
        _ => of_serde(text),
    }
}

/// The reason of one of serde's messages (serde_json's, without its `at line … column …`).
pub fn of_serde(text: &str) -> Reason {
    let text = strip_position(text);
    // A path in front (`events[0].at_ms: …`), as axum's body errors write it.
    let (field, text) = match text.split_once(": ") {
        Some((path, rest)) if is_path(path) => (Some(path), rest),
        _ => (None, text),
    };
    let with_field = |reason: Reason| match field {
        Some(path) => reason.arg("field", path),
        None => reason.arg("field", "—"),
    };
    for (prefix, id) in [("invalid value: ", "input-invalid-value"), ("invalid type: ", "input-invalid-type")] {
        if let Some((given, expected)) = text.strip_prefix(prefix).and_then(|rest| rest.split_once(", expected ")) {
            return with_field(
                Reason::new(id).arg("given", given_value(given)).arg("expected", expected_name(expected)),
            );
        }
    }
    if let Some(name) = quoted_after(text, "missing field `") {
        return Reason::new("input-missing").arg("field", name);
    }
    if let Some(name) = quoted_after(text, "unknown field `") {
        return Reason::new("input-unknown-field").arg("field", name);
    }
    for prefix in ["unknown variant `", "unknown value `"] {
        if let Some(value) = quoted_after(text, prefix) {
            return with_field(Reason::new("input-unknown-value").arg("given", value));
        }
    }
    if text.starts_with("invalid length") {
        return with_field(Reason::new("input-invalid-length"));
    }
    if text.starts_with("EOF while parsing") || text.starts_with("expected") || text.starts_with("trailing") {
        return Reason::new("input-not-json");
    }
    Reason::new("input-other")
}

/// What was given, as serde names it (`integer `-5``, `string "x"`, `map`): the value itself
/// when serde quotes it, else the kind of value, worded by the catalogue (`input-kind-*`).
fn given_value(given: &str) -> Arg {
    if let Some((_, rest)) = given.split_once('`') {
        return Arg::Text(rest.trim_end_matches('`').to_owned());
    }
    if let Some((_, rest)) = given.split_once('"') {
        return Arg::Text(format!("\"{}", rest));
    }
    Arg::name("input-kind", given.replace(' ', "_"))
}

/// What was expected, as serde's Rust names it (`u64`, `a string`, `i32`), worded by the
/// catalogue (`input-expected-*`): whole numbers from 0, whole numbers, text, a yes or no, a
/// list, an object; anything else as one of the values it lists or "a valid value".
fn expected_name(expected: &str) -> Arg {
    let key = match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => "whole_from_zero",
        "i8" | "i16" | "i32" | "i64" | "isize" => "whole",
        "a string" | "a borrowed string" | "a character" => "text",
        "a boolean" => "yes_no",
        "a sequence" => "list",
        "f32" | "f64" => "number",
        other if other.starts_with("struct") || other.starts_with("a map") || other.starts_with("a tuple") => "object",
        other if other.starts_with("one of") => {
            return Arg::Text(other.trim_start_matches("one of ").to_owned());
        }
        _ => "valid",
    };
    Arg::name("input-expected", key)
}

fn quoted_after<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(prefix)?;
    rest.split_once('`').map(|(name, _)| name)
}

fn strip_position(text: &str) -> &str {
    match text.rfind(" at line ") {
        Some(at) if text[at..].contains(" column ") => &text[..at],
        _ => text,
    }
}

/// An event type or a field's name: lowercase letters, digits and `_`.
fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// A field path as serde_path_to_error writes it (`events[0].at_ms`, `.`).
fn is_path(text: &str) -> bool {
    !text.is_empty()
        && !text.contains(' ')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn serde_shapes_read_as_reasons() {
        let bad = of_event("nation_dropped_out: invalid value: integer `-5`, expected u64");
        assert_eq!(bad.id, "input-event-invalid-value");
        assert_eq!(
            crate::words::reason(Lang::Es, &bad),
            "En el abandono de una nación, -5 no vale: se espera un número entero desde 0"
        );
        assert_eq!(
            crate::words::reason(Lang::En, &bad),
            "In a nation's drop-out, -5 is not allowed: a whole number from 0 is expected"
        );
        assert_eq!(of_event("unknown event type `foo`").id, "input-unknown-type");
        assert_eq!(of_event("tc_dealt: missing field `nation`").id, "input-event-missing");
        assert_eq!(
            of_serde("events[0].at_ms: invalid type: string \"x\", expected u64 at line 1 column 9").id,
            "input-invalid-type"
        );
        assert_eq!(of_serde("something new").id, "input-other");
    }
}
