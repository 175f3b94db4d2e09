//! Stream names: `tournament/<id>` and `game/<id>`. The kind of a stream decides which rules
//! apply to its events.

use crate::rejection::Rejection;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a stream records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StreamKind {
    Tournament,
    Game,
}

impl StreamKind {
    pub fn prefix(self) -> &'static str {
        match self {
            StreamKind::Tournament => "tournament",
            StreamKind::Game => "game",
        }
    }
}

/// A validated stream name. Ids are 1–64 characters of ASCII letters, digits, `.`, `_`, `-`,
/// so that a stream name is also a safe NATS subject token and file name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StreamId {
    kind: StreamKind,
    id: String,
}

impl StreamId {
    /// # Errors
    /// A malformed rejection naming what is wrong with the id.
    pub fn new(kind: StreamKind, id: &str) -> Result<Self, Rejection> {
        check_id(id)?;
        Ok(StreamId { kind, id: id.to_owned() })
    }

    pub fn game(id: &str) -> Result<Self, Rejection> {
        Self::new(StreamKind::Game, id)
    }

    pub fn tournament(id: &str) -> Result<Self, Rejection> {
        Self::new(StreamKind::Tournament, id)
    }

    /// Parses `tournament/<id>` or `game/<id>`.
    ///
    /// # Errors
    /// A malformed rejection when the prefix is unknown or the id is not allowed.
    pub fn parse(name: &str) -> Result<Self, Rejection> {
        let (prefix, id) = name.split_once('/').ok_or_else(|| {
            Rejection::malformed(format!("stream `{name}` must look like `game/<id>` or `tournament/<id>`"))
        })?;
        let kind = match prefix {
            "tournament" => StreamKind::Tournament,
            "game" => StreamKind::Game,
            other => {
                return Err(Rejection::malformed(format!(
                    "unknown stream kind `{other}` in `{name}`: use `game/<id>` or `tournament/<id>`"
                )))
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

fn check_id(id: &str) -> Result<(), Rejection> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if id.is_empty() || id.len() > 64 || !id.chars().all(allowed) {
        return Err(Rejection::malformed(format!(
            "id `{id}` must be 1 to 64 characters of letters, digits, `.`, `_` or `-`"
        )));
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
        assert!(StreamId::parse("game/a b").is_err());
        assert!(StreamId::parse("game/").is_err());
        assert!(StreamId::parse("game").is_err());
    }
}
