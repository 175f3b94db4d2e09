//! Stream names: `tournament/<id>`, `game/<id>` and `andes/<id>`. The kind of a stream decides
//! which rules apply to its events.

use crate::rejection::{quote, Rejection};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a stream records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StreamKind {
    Tournament,
    Game,
    /// One match of Andes (`ledger::andes`), two games. Stored by position: new kinds go last.
    Andes,
}

impl StreamKind {
    pub fn prefix(self) -> &'static str {
        match self {
            StreamKind::Tournament => "tournament",
            StreamKind::Game => "game",
            StreamKind::Andes => crate::andes::STREAM_PREFIX,
        }
    }

    /// The longest id a stream of this kind may have: 64 characters, and a game's 16 more, so
    /// that every tournament's games can carry its id (`<tournament>-q4-t12`, `<tournament>-final`).
    pub fn max_id_len(self) -> usize {
        match self {
            StreamKind::Tournament | StreamKind::Andes => MAX_ID_LEN,
            StreamKind::Game => MAX_ID_LEN + 16,
        }
    }

    /// The most events the ledger derives from one event of this kind of stream and appends
    /// after it: an Andes move's attack or (up to four) captures, then the end of the game.
    pub fn max_derived_per_event(self) -> usize {
        match self {
            StreamKind::Tournament | StreamKind::Game => 0,
            StreamKind::Andes => 5,
        }
    }
}

/// The longest tournament or Andes match id, in characters.
pub const MAX_ID_LEN: usize = 64;

/// The longest stream name a request may carry, in bytes (`tournament/` and a 64-character id
/// fit easily); a longer one is refused before it is looked at any further.
pub const MAX_NAME_BYTES: usize = 200;

/// A validated stream name. Ids are 1–64 characters of ASCII letters, digits, `.`, `_`, `-`
/// (a game's up to 80: its tournament's id and its name in the tournament, `open27-q1-t3`),
/// not `.` or `..` and not starting with `.`, so that a stream name is also a safe NATS subject
/// token and file name.
///
/// Deserializing validates too (a stored or sent id that `parse` would refuse does not decode);
/// the encoding is the derived one, `kind` then `id`, so storage bytes do not change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedStreamId")]
pub struct StreamId {
    kind: StreamKind,
    id: String,
}

/// The same fields, as decoded before they are checked.
#[derive(Deserialize)]
#[serde(rename = "StreamId")]
struct UncheckedStreamId {
    kind: StreamKind,
    id: String,
}

impl TryFrom<UncheckedStreamId> for StreamId {
    type Error = String;

    fn try_from(unchecked: UncheckedStreamId) -> Result<Self, String> {
        StreamId::new(unchecked.kind, &unchecked.id).map_err(|r| r.message)
    }
}

impl StreamId {
    /// # Errors
    /// A malformed rejection naming what is wrong with the id.
    pub fn new(kind: StreamKind, id: &str) -> Result<Self, Rejection> {
        check_id(id, kind.max_id_len())?;
        Ok(StreamId { kind, id: id.to_owned() })
    }

    pub fn game(id: &str) -> Result<Self, Rejection> {
        Self::new(StreamKind::Game, id)
    }

    pub fn tournament(id: &str) -> Result<Self, Rejection> {
        Self::new(StreamKind::Tournament, id)
    }

    /// An Andes match, `andes/<id>`.
    pub fn andes(id: &str) -> Result<Self, Rejection> {
        Self::new(StreamKind::Andes, id)
    }

    /// Parses `tournament/<id>`, `game/<id>` or `andes/<id>`.
    ///
    /// # Errors
    /// A malformed rejection when the prefix is unknown or the id is not allowed.
    pub fn parse(name: &str) -> Result<Self, Rejection> {
        if name.len() > MAX_NAME_BYTES {
            return Err(Rejection::malformed(format!(
                "stream `{}` is {} bytes long; a stream name is at most {MAX_NAME_BYTES} bytes",
                quote(name),
                name.len()
            ))
            .said("refusal-stream-too-long", [("name", quote(name).into()), ("max", MAX_NAME_BYTES.into())]));
        }
        let (prefix, id) = name.split_once('/').ok_or_else(|| {
            Rejection::malformed(format!(
                "stream `{}` must look like `game/<id>`, `tournament/<id>` or `andes/<id>`",
                quote(name)
            ))
            .said("refusal-stream-shape", [("name", quote(name).into())])
        })?;
        let kind = match prefix {
            "tournament" => StreamKind::Tournament,
            "game" => StreamKind::Game,
            crate::andes::STREAM_PREFIX => StreamKind::Andes,
            other => {
                return Err(Rejection::malformed(format!(
                    "unknown stream kind `{}` in `{}`: use `game/<id>`, `tournament/<id>` or `andes/<id>`",
                    quote(other),
                    quote(name)
                ))
                .said("refusal-stream-shape", [("name", quote(name).into())]))
            }
        };
        Self::new(kind, id)
    }

    pub fn kind(&self) -> StreamKind {
        self.kind
    }

    pub fn id(&self) -> &str {
        &self.id
    }
}

fn check_id(id: &str, max_len: usize) -> Result<(), Rejection> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if id.is_empty() || id.len() > max_len || !id.chars().all(allowed) {
        return Err(Rejection::malformed(format!(
            "id `{}` must be 1 to {max_len} characters of letters, digits, `.`, `_` or `-`",
            quote(id)
        ))
        .said("refusal-id-shape", [("id", quote(id).into()), ("max", max_len.into())]));
    }
    // `.` and `..` name directories and a leading dot hides a file: no file or subject is named so.
    if id.starts_with('.') {
        return Err(Rejection::malformed(format!("id `{id}` must not start with `.` (nor be `.` or `..`)"))
            .said("refusal-id-dot", [("id", quote(id).into())]));
    }
    Ok(())
}

impl fmt::Display for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.kind.prefix(), self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_kinds_and_refuses_others() {
        assert_eq!(StreamId::parse("game/q1-t3").unwrap().to_string(), "game/q1-t3");
        assert_eq!(StreamId::parse("tournament/wm26").unwrap().kind(), StreamKind::Tournament);
        assert!(StreamId::parse("match/1").unwrap_err().message.contains("unknown stream kind"));
        assert_eq!(StreamId::parse("andes/m1").unwrap(), StreamId::andes("m1").unwrap());
        assert_eq!(StreamId::andes("m1").unwrap().to_string(), "andes/m1");
        assert!(StreamId::parse("game/a b").is_err());
        assert!(StreamId::parse("game/").is_err());
        assert!(StreamId::parse("game").is_err());
    }

    #[test]
    fn refuses_dot_ids_that_are_unsafe_as_subjects_and_file_names() {
        for name in ["game/.", "game/..", "tournament/.hidden", "game/.q1"] {
            let refused = StreamId::parse(name).expect_err(name);
            assert_eq!(refused.kind, crate::RejectionKind::Malformed, "{name}");
            assert!(refused.message.contains("must not start with `.`"), "{name}: {}", refused.message);
        }
        assert!(StreamId::game("..").is_err());
        assert_eq!(StreamId::parse("game/q1.t3").unwrap().id(), "q1.t3", "a dot inside is fine");
        assert_eq!(StreamId::parse("game/q1.").unwrap().id(), "q1.");
    }

    #[test]
    fn deserializing_validates_like_parse() {
        let from_json =
            |kind: &str, id: &str| serde_json::from_value::<StreamId>(serde_json::json!({"kind": kind, "id": id}));
        assert_eq!(from_json("Game", "q1").unwrap(), StreamId::game("q1").unwrap());
        for bad in ["..", ".", ".x", "", "a b", "a\u{1b}b", &"x".repeat(81)] {
            assert!(from_json("Game", bad).is_err(), "{bad:?} deserialized");
        }
        // A game's id may carry a 64-character tournament id and its name in the tournament.
        assert!(from_json("Game", &"x".repeat(80)).is_ok());
        assert!(from_json("Tournament", &"x".repeat(65)).is_err());
        assert!(from_json("Andes", &"x".repeat(65)).is_err());
        // The storage encoding (postcard) is unchanged, and refuses the same ids.
        let good = StreamId::game("q1").unwrap();
        let bytes = postcard::to_stdvec(&good).unwrap();
        assert_eq!(bytes, [1, 2, b'q', b'1'], "kind as a varint, then the id as a string");
        assert_eq!(postcard::from_bytes::<StreamId>(&bytes).unwrap(), good);
        assert!(postcard::from_bytes::<StreamId>(&[1, 2, b'.', b'.']).is_err());
        assert!(postcard::from_bytes::<StreamId>(&[1, 1, b'.']).is_err());
        // New kinds go last, so the bytes of the older ones never change.
        assert_eq!(postcard::to_stdvec(&StreamId::andes("m").unwrap()).unwrap(), [2, 1, b'm']);
    }

    #[test]
    fn a_huge_name_is_refused_quoting_only_its_start() {
        let huge = format!("game/{}", "a".repeat(3_900_000));
        let refused = StreamId::parse(&huge).unwrap_err();
        assert!(refused.message.len() < 300, "{} bytes of message", refused.message.len());
        assert!(refused.message.contains("at most 200 bytes"), "{}", refused.message);
        let unknown = StreamId::parse(&format!("{}/x", "m".repeat(150))).unwrap_err();
        assert!(unknown.message.len() < 300, "{}", unknown.message);
        let escaped = StreamId::parse("game/a\u{1b}[2Jb").unwrap_err();
        assert!(!escaped.message.contains('\u{1b}'), "{}", escaped.message);
        assert!(escaped.message.contains("a\\u{1b}[2Jb"), "{}", escaped.message);
    }
}
