//! Shared helpers: reading fixture files and comparing JSON by subset.

use ledger::check::{check_stream, parse_lines};
use ledger::{Event, StreamId};
use serde_json::Value;
use std::path::PathBuf;

/// `examples/` at the workspace root.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// Reads a JSON Lines game stream and validates it as the server would: fixtures are valid
/// streams. Returns `(seq, event)` pairs.
pub fn load_game(path: &std::path::Path) -> Vec<(u64, Event)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    checked_game(&text, &path.display().to_string())
}

/// Parses and validates JSON Lines text as one game stream.
pub fn checked_game(text: &str, label: &str) -> Vec<(u64, Event)> {
    let lines = parse_lines(text).unwrap_or_else(|e| panic!("{label}: {e}"));
    let stream = StreamId::game("fixture").expect("valid id");
    check_stream(&stream, None, &lines).unwrap_or_else(|e| panic!("{label}: {e}"));
    replay::sheet::with_seqs(lines.into_iter().map(|l| l.event))
}

/// Every key of `expected` must be in `actual` with the same value; keys starting with "//"
/// are comments. Arrays and scalars compare whole. Returns the differing paths.
pub fn subset_diff(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => {
            for (key, value) in want {
                if key.starts_with("//") {
                    continue;
                }
                let here = format!("{path}.{key}");
                match have.get(key) {
                    Some(got) => subset_diff(value, got, &here, out),
                    None => out.push(format!("{here}: missing, expected {value}")),
                }
            }
        }
        (Value::Array(want), Value::Array(have)) if want.len() == have.len() => {
            for (idx, (w, h)) in want.iter().zip(have).enumerate() {
                subset_diff(w, h, &format!("{path}[{idx}]"), out);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!("{path}: expected {expected}, got {actual}")),
    }
}
