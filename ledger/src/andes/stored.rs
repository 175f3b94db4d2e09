//! The storage form of [`AndesEvent`]: postcard encodes an enum by variant position and cannot
//! decode serde's internally tagged (`"type"`) form, so storage goes through this externally
//! tagged twin with the same variants in the same order.
//!
//! Use [`to_postcard`]/[`from_postcard`], or `#[serde(with = "ledger::andes::stored")]` on a
//! field holding an [`AndesEvent`] inside another stored type: human-readable formats (JSON)
//! then get the canonical tagged object, binary ones (postcard) the positional form.

use super::board::{Side, Square};
use super::event::AndesEvent;
use super::piece::PieceKind;
use super::position::EndReason;
use crate::event::PlayerId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Same variants, same order, same fields as [`AndesEvent`]; only the tagging differs. The
/// names (which postcard does not store) are the canonical types, for tools that read the shape.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Stored {
    MatchCreated { first_sol: PlayerId, first_luna: PlayerId, clock_ms: u64 },
    GameStarted { game: u8, at_ms: u64 },
    MovePlayed { notation: String, at_ms: u64 },
    PieceAttacked { square: Square, owner: Side, kind: PieceKind },
    PieceCaptured { square: Square, owner: Side, kind: PieceKind },
    GameEnded { reason: EndReason, side: Side },
    FlagFell { side: Side, at_ms: u64 },
    Resigned { side: Side, at_ms: u64 },
}

impl From<AndesEvent> for Stored {
    fn from(event: AndesEvent) -> Stored {
        match event {
            AndesEvent::MatchCreated { first_sol, first_luna, clock_ms } => {
                Stored::MatchCreated { first_sol, first_luna, clock_ms }
            }
            AndesEvent::GameStarted { game, at_ms } => Stored::GameStarted { game, at_ms },
            AndesEvent::MovePlayed { notation, at_ms } => Stored::MovePlayed { notation, at_ms },
            AndesEvent::PieceAttacked { square, owner, kind } => Stored::PieceAttacked { square, owner, kind },
            AndesEvent::PieceCaptured { square, owner, kind } => Stored::PieceCaptured { square, owner, kind },
            AndesEvent::GameEnded { reason, side } => Stored::GameEnded { reason, side },
            AndesEvent::FlagFell { side, at_ms } => Stored::FlagFell { side, at_ms },
            AndesEvent::Resigned { side, at_ms } => Stored::Resigned { side, at_ms },
        }
    }
}

impl From<Stored> for AndesEvent {
    fn from(stored: Stored) -> AndesEvent {
        match stored {
            Stored::MatchCreated { first_sol, first_luna, clock_ms } => {
                AndesEvent::MatchCreated { first_sol, first_luna, clock_ms }
            }
            Stored::GameStarted { game, at_ms } => AndesEvent::GameStarted { game, at_ms },
            Stored::MovePlayed { notation, at_ms } => AndesEvent::MovePlayed { notation, at_ms },
            Stored::PieceAttacked { square, owner, kind } => AndesEvent::PieceAttacked { square, owner, kind },
            Stored::PieceCaptured { square, owner, kind } => AndesEvent::PieceCaptured { square, owner, kind },
            Stored::GameEnded { reason, side } => AndesEvent::GameEnded { reason, side },
            Stored::FlagFell { side, at_ms } => AndesEvent::FlagFell { side, at_ms },
            Stored::Resigned { side, at_ms } => AndesEvent::Resigned { side, at_ms },
        }
    }
}

/// The postcard bytes of an event.
pub fn to_postcard(event: &AndesEvent) -> Vec<u8> {
    postcard::to_stdvec(&Stored::from(event.clone())).expect("events always encode")
}

/// Decodes [`to_postcard`].
///
/// # Errors
/// The bytes are not an Andes event of this version.
pub fn from_postcard(bytes: &[u8]) -> Result<AndesEvent, String> {
    postcard::from_bytes::<Stored>(bytes).map(AndesEvent::from).map_err(|e| e.to_string())
}

/// For `#[serde(with = "ledger::andes::stored")]`: the tagged object in human-readable formats,
/// the positional twin in binary ones.
///
/// # Errors
/// Whatever the serializer reports.
pub fn serialize<S: Serializer>(event: &AndesEvent, serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        event.serialize(serializer)
    } else {
        Stored::from(event.clone()).serialize(serializer)
    }
}

/// The other half of [`serialize`].
///
/// # Errors
/// The input is not an Andes event.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<AndesEvent, D::Error> {
    if deserializer.is_human_readable() {
        AndesEvent::deserialize(deserializer)
    } else {
        Stored::deserialize(deserializer).map(AndesEvent::from)
    }
}
