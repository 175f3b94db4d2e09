//! Why the ledger refused an event: expected, shown to users, and mapped to one gRPC status.

use std::fmt;

/// Which kind of rule an event broke; each kind maps to exactly one gRPC status code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectionKind {
    /// The event is malformed whatever the game state (`INVALID_ARGUMENT`).
    Malformed,
    /// The event breaks a rule given the current state of the stream (`FAILED_PRECONDITION`).
    Precondition,
    /// The caller expected another stream version (`ABORTED`): re-read and retry.
    StaleVersion,
    /// An event id was already used for a different event (`ALREADY_EXISTS`).
    DuplicateId,
    /// The actor may not append this event (`PERMISSION_DENIED`).
    NotAllowed,
    /// The stream holds all the events its kind may ever need (`RESOURCE_EXHAUSTED`).
    Exhausted,
}

impl RejectionKind {
    pub const ALL: [RejectionKind; 6] = [
        RejectionKind::Malformed,
        RejectionKind::Precondition,
        RejectionKind::StaleVersion,
        RejectionKind::DuplicateId,
        RejectionKind::NotAllowed,
        RejectionKind::Exhausted,
    ];

    /// Its one wire name, sent with every refusal (`AppendError.refusal`, the `x-ledger-refusal`
    /// header of a unary refusal).
    pub fn as_str(self) -> &'static str {
        match self {
            RejectionKind::Malformed => "malformed",
            RejectionKind::Precondition => "precondition",
            RejectionKind::StaleVersion => "stale_version",
            RejectionKind::DuplicateId => "duplicate_id",
            RejectionKind::NotAllowed => "not_allowed",
            RejectionKind::Exhausted => "exhausted",
        }
    }
}

/// A refused event: the kind of rule and a sentence an organiser understands,
/// e.g. `russia already dropped out in turn 11`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub kind: RejectionKind,
    pub message: String,
    /// Which event of its append (1, 2, …) the refusal is about; `None`: the append as a whole
    /// (or its only event). Sent beside the message, so clients need not parse it.
    pub event: Option<u32>,
    /// What a person is told, in their language: a catalogue message and its typed arguments
    /// (`refusal-nation-out`, nation `russia`, turn 11). `None` only for refusals no person
    /// meets in a page (the store's own, an append's framing); the edge then says its kind.
    pub reason: Option<Reason>,
}

/// A refusal as a catalogue says it: the message id (the contract, stable: the catalogues of
/// `ledger-house` hold its text in each language) and its arguments, typed, so the edge can
/// word names (a nation, a role, an event type) and numbers (plural rules) in the reader's
/// language. The domain never formats it: the sentence is made where the reader is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub id: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// One argument of a [`Reason`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Said as it is: an id, a pseudonym, a notation, a quoted input.
    Text(String),
    /// A whole number: the catalogue chooses its plural by it.
    Number(i64),
    /// A word of the rules' vocabulary, said by the catalogue message `<family>-<key>`
    /// (`nation` `russia` → `nation-russia`; families: nation, role, side, outcome, ruleset,
    /// event, stop, stage).
    Name(&'static str, String),
    /// Several such words, said one after the other, joined by a comma.
    Names(&'static str, Vec<String>),
    /// Another refusal's sentence, said in the same language (why a void would break the game).
    Said(Box<Reason>),
}

impl Arg {
    pub fn text(value: impl fmt::Display) -> Arg {
        Arg::Text(value.to_string())
    }

    pub fn name(family: &'static str, key: impl fmt::Display) -> Arg {
        Arg::Name(family, key.to_string())
    }

    /// The plain English spelling the ledger's own message uses (names as their snake_case key).
    pub fn plain(&self) -> String {
        match self {
            Arg::Text(text) => text.clone(),
            Arg::Number(n) => n.to_string(),
            Arg::Name(_, key) => key.clone(),
            Arg::Names(_, keys) => keys.join(", "),
            Arg::Said(reason) => reason.id.to_owned(),
        }
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_owned())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

impl Reason {
    pub fn new(id: &'static str) -> Reason {
        Reason { id, args: Vec::new() }
    }

    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Reason {
        self.args.push((name, value.into()));
        self
    }
}

impl Rejection {
    /// The same rejection with the catalogue's words for it: `id` and its arguments.
    pub fn said<const N: usize>(mut self, id: &'static str, args: [(&'static str, Arg); N]) -> Self {
        self.reason = Some(Reason { id, args: args.into() });
        self
    }

    /// The same rejection with `reason` as its words.
    pub fn because(mut self, reason: Reason) -> Self {
        self.reason = Some(reason);
        self
    }
    pub fn malformed(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::Malformed, message: message.into(), event: None, reason: None }
    }

    pub fn precondition(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::Precondition, message: message.into(), event: None, reason: None }
    }

    pub fn stale_version(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::StaleVersion, message: message.into(), event: None, reason: None }
    }

    pub fn duplicate_id(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::DuplicateId, message: message.into(), event: None, reason: None }
    }

    pub fn not_allowed(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::NotAllowed, message: message.into(), event: None, reason: None }
    }

    pub fn exhausted(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::Exhausted, message: message.into(), event: None, reason: None }
    }

    /// The same rejection with context in front, e.g. the index of the event in a batch.
    pub fn context(self, prefix: impl fmt::Display) -> Self {
        Rejection { message: format!("{prefix}: {}", self.message), ..self }
    }

    /// The same rejection about event `index` (1-based) of an append of `of` events: the message
    /// starts `event 2 of 5: ` and [`Rejection::event`] says 2.
    pub fn in_event(self, index: usize, of: usize) -> Self {
        let event = u32::try_from(index).ok();
        Rejection { event, ..self.context(format_args!("event {index} of {of}")) }
    }
}

/// How many characters of bad input a message quotes at most.
pub const QUOTE_CHARS: usize = 64;

/// Bad input as a message may show it: at most [`QUOTE_CHARS`] characters, then `…`, with
/// control characters escaped (`\u{1b}`, `\n`). An error never echoes megabytes of a request,
/// nor terminal escapes, back to the caller's screen or the daemon's log.
pub fn quote(text: &str) -> String {
    quote_at_most(text, QUOTE_CHARS)
}

/// [`quote`] with another limit: at most `max_chars` characters, then `…`.
pub fn quote_at_most(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4).saturating_add(3)));
    for (idx, c) in text.chars().enumerate() {
        if idx == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rejection {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_distinct_wire_name() {
        let names: std::collections::BTreeSet<&str> = RejectionKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names.len(), RejectionKind::ALL.len());
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
    }

    #[test]
    fn a_refusal_in_a_batch_names_its_event_beside_the_message() {
        let refused = Rejection::precondition("turn 3 comes next").in_event(2, 5);
        assert_eq!(refused.message, "event 2 of 5: turn 3 comes next");
        assert_eq!((refused.event, refused.kind), (Some(2), RejectionKind::Precondition));
    }

    #[test]
    fn quotes_a_short_prefix_with_controls_escaped() {
        assert_eq!(quote("game/q1"), "game/q1");
        assert_eq!(quote("a\u{1b}[2J\nb\u{9b}"), "a\\u{1b}[2J\\nb\\u{9b}");
        let long = "x".repeat(4_000_000);
        let quoted = quote(&long);
        assert_eq!(quoted.chars().count(), QUOTE_CHARS + 1);
        assert!(quoted.ends_with("x…"));
        assert_eq!(quote(&"é".repeat(QUOTE_CHARS)), "é".repeat(QUOTE_CHARS), "exactly the limit is not cut");
    }
}
