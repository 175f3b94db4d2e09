//! docs/EVENTS.md stays true to the .proto files: every event's `Event.body` field, message and
//! fields, every nested message and every enum value of `events.proto`, read from the descriptor
//! set the build compiles (`FILE_DESCRIPTOR_SET`), must appear in the doc's "gRPC names" section
//! as the row this test renders. A new event, field or enum value fails here until documented.

use protox::prost_reflect::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};

const EVENTS_FILE: &str = "tournament_ledger/v1/events.proto";

fn doc() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/EVENTS.md");
    std::fs::read_to_string(path).expect("docs/EVENTS.md")
}

fn pool() -> DescriptorPool {
    DescriptorPool::decode(ledger_proto::FILE_DESCRIPTOR_SET).expect("the build's descriptor set decodes")
}

/// `name` = number: type, as the doc writes a field.
fn field(field: &FieldDescriptor) -> String {
    let kind = match field.kind() {
        Kind::Message(m) => format!("`{}`", m.name()),
        Kind::Enum(e) => format!("`{}`", e.name()),
        other => format!("{other:?}").to_lowercase(),
    };
    let label = if field.is_list() {
        "repeated "
    } else if field.field_descriptor_proto().proto3_optional() {
        "optional "
    } else {
        ""
    };
    format!("`{}` = {}: {label}{kind}", field.name(), field.number())
}

fn fields(message: &MessageDescriptor) -> String {
    let fields: Vec<String> = message.fields().map(|f| field(&f)).collect();
    if fields.is_empty() {
        "(none)".to_owned()
    } else {
        fields.join(", ")
    }
}

/// The JSON `type` of an `Event.body` field: the same name, without `andes_` for an Andes event
/// (whose stream says which game it is).
fn json_type(body_field: &str) -> String {
    match body_field.strip_prefix("andes_") {
        Some(andes) => format!("`{andes}` (andes)"),
        None => format!("`{body_field}`"),
    }
}

/// Every row the doc must hold.
fn rows() -> Vec<String> {
    let pool = pool();
    let file = pool.get_file_by_name(EVENTS_FILE).expect("events.proto is compiled");
    let event = pool.get_message_by_name("tournament_ledger.v1.Event").expect("the Event message");
    let mut rows = Vec::new();
    let mut in_body = std::collections::BTreeSet::new();
    for body in event.fields() {
        let Kind::Message(message) = body.kind() else { panic!("Event.body holds messages") };
        in_body.insert(message.full_name().to_owned());
        rows.push(format!(
            "| {} | `{}` = {} | `{}` | {} |",
            json_type(body.name()),
            body.name(),
            body.number(),
            message.name(),
            fields(&message)
        ));
    }
    for message in file.messages() {
        if message.full_name() != event.full_name() && !in_body.contains(message.full_name()) {
            rows.push(format!("| `{}` | {} |", message.name(), fields(&message)));
        }
    }
    for e in file.enums() {
        let values: Vec<String> = e.values().map(|v| format!("`{}` = {}", v.name(), v.number())).collect();
        rows.push(format!("| `{}` | {} |", e.name(), values.join(", ")));
    }
    rows
}

#[test]
fn every_event_message_field_and_enum_value_of_the_proto_is_in_events_md() {
    let doc = doc();
    let section = doc.split("\n## gRPC names").nth(1).expect("docs/EVENTS.md has a section `## gRPC names`");
    let section = section.split("\n## ").next().unwrap_or(section);
    let missing: Vec<String> = rows().into_iter().filter(|row| !section.lines().any(|l| l == row)).collect();
    assert!(missing.is_empty(), "docs/EVENTS.md, section \"gRPC names\", lacks these rows:\n{}", missing.join("\n"));
}

#[test]
fn the_descriptor_holds_every_andes_event() {
    // The rows come from the descriptor: this pins that it is the whole events.proto.
    let rows = rows();
    for name in ["tournament_created", "event_voided", "andes_match_created", "andes_resigned"] {
        assert!(rows.iter().any(|r| r.contains(&format!("| `{name}` = "))), "{name}");
    }
}
