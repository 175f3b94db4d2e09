//! What changed between two audit points: both JSON forms are walked side by side and every
//! difference is named by its dotted path (`state.turn`, `sheet.roles.elisabeth`,
//! `clock.overruns[0].overrun_ms`). Working on the JSON keeps the diff in step with the JSON
//! form, and every path a jury reads in a diff can be found in the JSON.

use super::point::AuditPoint;
use super::text::value_text;
use serde_json::Value;
use std::fmt;

/// One value that differs. `None` means the path does not exist on that side (a list grew,
/// or a key appeared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// Every value that differs from `a` to `b`, in document order (`a`'s keys first, then the
/// keys only `b` has). Objects and lists are compared member by member; where one side has a
/// scalar or nothing and the other a whole object or list, the change carries the whole of it.
pub fn diff(a: &AuditPoint, b: &AuditPoint) -> Vec<Change> {
    diff_values(&a.to_json(), &b.to_json())
}

/// [`diff`] of two JSON values.
pub fn diff_values(a: &Value, b: &Value) -> Vec<Change> {
    let mut changes = Vec::new();
    compare(Some(a), Some(b), "", &mut changes);
    changes
}

fn compare(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<Change>) {
    let child = |key: &str| if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
    match (a, b) {
        (Some(Value::Object(before)), Some(Value::Object(after))) => {
            for (key, value) in before {
                compare(Some(value), after.get(key), &child(key), out);
            }
            for (key, value) in after.iter().filter(|(key, _)| !before.contains_key(*key)) {
                compare(None, Some(value), &child(key), out);
            }
        }
        (Some(Value::Array(before)), Some(Value::Array(after))) => {
            for idx in 0..before.len().max(after.len()) {
                compare(before.get(idx), after.get(idx), &format!("{path}[{idx}]"), out);
            }
        }
        _ if a == b => {}
        _ => out.push(Change { path: path.to_owned(), before: a.cloned(), after: b.cloned() }),
    }
}

impl Change {
    /// A side of the change as text: on the score sheet `null` is a score not yet fixed
    /// ("pending"), elsewhere "none"; a missing path is "—".
    fn side(&self, value: Option<&Value>) -> String {
        match value {
            None => "—".to_owned(),
            Some(Value::Null) if self.path.starts_with("sheet.") => "pending".to_owned(),
            Some(Value::Null) => "none".to_owned(),
            Some(other) => value_text(other),
        }
    }
}

/// `state.turn: 11 → 12`, `sheet.roles.elisabeth: pending → 7.5`.
impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} → {}", self.path, self.side(self.before.as_ref()), self.side(self.after.as_ref()))
    }
}
