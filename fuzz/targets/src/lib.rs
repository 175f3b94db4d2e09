//! The bodies of the ledger's fuzz targets, as plain functions of the fuzzer's bytes.
//!
//! `fuzz/` (cargo-fuzz, libFuzzer, a sanitizer) calls each of them from a one-line target;
//! `tests/corpus.rs` calls them over the committed corpora and a few thousand seeded inputs, so
//! that an ordinary `cargo test` on stable runs every target briefly. Each function returns
//! normally for every input and panics when a property it checks breaks: the fuzzer reports
//! that panic as a crash and keeps the input.
//!
//! - [`stored_record`]: the decoders of what the sled backend stores.
//! - [`json_events`]: the JSON Lines parser of files and exports.
//! - [`proto_conversion`]: protobuf decoding and its conversion to domain types.
//! - [`rules_sequence`]: the rules' state machine, fed sequences of events.

pub mod choices;
mod json;
mod proto;
mod record;
mod rules;

pub use json::json_events;
pub use proto::{proto_conversion, APPEND_REQUEST, EVENT, RECORDED_EVENT};
pub use record::stored_record;
pub use rules::rules_sequence;

/// A target: a function of the fuzzer's bytes that panics when a property breaks.
pub type Target = fn(&[u8]);

/// Every target by the name of its `fuzz/fuzz_targets/<name>.rs` and `fuzz/corpus/<name>/`.
pub const TARGETS: [(&str, Target); 4] = [
    ("stored_record", stored_record),
    ("json_events", json_events),
    ("proto_conversion", proto_conversion),
    ("rules_sequence", rules_sequence),
];
