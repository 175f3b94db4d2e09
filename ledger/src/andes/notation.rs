//! Move and position notation exactly as the Andes laws write them (articles 6.5 and 6.6).
//!
//! A move is the piece's digit (6.6.1: 0 persona, 1 estatal-left, 2 militar, 3 estatal-right),
//! the square it starts from and, for a piece already on the board, the square it goes to
//! (6.6.2): `0d3` places a persona on d3, `2c3c5` moves a militar from c3 to c5. Squares are
//! written from one side (6.6.1: "la marca según el jugador"): lowercase `a`–`g` from Sol's,
//! uppercase `A`–`G` from Luna's; one move does not mix them.
//!
//! A position is written row by row from the writer's top left (6.5.1), digits for runs of
//! free squares, `a`–`d` for Sol's pieces and `A`–`D` for Luna's (6.5.2), rows separated by `/`
//! (6.5.3). From Sol's side the first row is g, read g6 … g0.

use super::board::{Side, Square, SIDE};
use super::piece::{Piece, PieceKind};
use super::rejection::AndesRejection;
use crate::rejection::quote;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One move as notation writes it, with its squares in Sol's coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece from the reserve placed on `square` with the type `kind` (3.4–3.6).
    Place { kind: PieceKind, square: Square },
    /// A piece of type `kind` moved from `from` to `to` (3.3).
    Shift { kind: PieceKind, from: Square, to: Square },
}

/// Why a move's notation was not understood; the message names the article.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("article 6.6: `{0}` is not a move: write the piece's digit and a square to place (`0d3`), or a digit and two squares to move (`2c3c5`)")]
    Shape(String),
    #[error(
        "article 6.6.1: `{0}` does not start with a piece digit: 0 persona, 1 estatal-left, 2 militar, 3 estatal-right"
    )]
    Digit(String),
    #[error("article 6.6.1: `{text}`: `{square}` is not a square: a marca a–g (Sol) or A–G (Luna) then an escala 0–6")]
    Square { text: String, square: String },
    #[error(
        "article 6.6.1: `{0}` mixes Sol's lowercase and Luna's uppercase marcas: write both squares from one side"
    )]
    MixedSides(String),
    #[error("article 6.6.2: `{0}` moves a piece to the square it stands on")]
    SameSquare(String),
}

impl NotationError {
    /// The article the notation breaks.
    pub fn article(&self) -> &'static str {
        match self {
            NotationError::Shape(_) => "6.6",
            NotationError::Digit(_) | NotationError::Square { .. } | NotationError::MixedSides(_) => "6.6.1",
            NotationError::SameSquare(_) => "6.6.2",
        }
    }
}

impl From<NotationError> for AndesRejection {
    fn from(error: NotationError) -> AndesRejection {
        let text = error.to_string();
        let prefix = format!("article {}: ", error.article());
        let reason = text.strip_prefix(&prefix).unwrap_or(&text).to_owned();
        let said = |()| AndesRejection::malformed(error.article(), reason.clone());
        let text_arg = |t: &String| crate::rejection::Arg::Text(t.clone());
        match &error {
            NotationError::Shape(t) => said(()).said("law-notation-shape", [("text", text_arg(t))]),
            NotationError::Digit(t) => said(()).said("law-notation-digit", [("text", text_arg(t))]),
            NotationError::Square { text, square } => {
                said(()).said("law-notation-square", [("text", text_arg(text)), ("part", text_arg(square))])
            }
            NotationError::MixedSides(t) => said(()).said("law-notation-mixed", [("text", text_arg(t))]),
            NotationError::SameSquare(t) => said(()).said("law-notation-same", [("text", text_arg(t))]),
        }
    }
}

/// A parsed move and the side whose coordinates it was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub mv: Move,
    pub coordinates: Side,
}

impl Move {
    /// Parses `0d3`, `2c3c5`, or the same from Luna's side (`0D3`, `2E3E1`).
    ///
    /// # Errors
    /// A [`NotationError`] naming what is wrong and the article.
    pub fn parse(text: &str) -> Result<Move, NotationError> {
        Move::parse_written(text).map(|written| written.mv)
    }

    /// [`Move::parse`], also saying whose coordinates the text used.
    ///
    /// # Errors
    /// A [`NotationError`] naming what is wrong and the article.
    pub fn parse_written(text: &str) -> Result<Written, NotationError> {
        let quoted = || quote(text);
        if !text.is_ascii() || !(text.len() == 3 || text.len() == 5) {
            return Err(NotationError::Shape(quoted()));
        }
        let digit = char::from(text.as_bytes()[0]);
        let kind = PieceKind::from_digit(digit).ok_or_else(|| NotationError::Digit(quoted()))?;
        let square = |part: &str| {
            Square::parse_with_side(part).map_err(|_| NotationError::Square { text: quoted(), square: part.to_owned() })
        };
        let (first, first_side) = square(&text[1..3])?;
        if text.len() == 3 {
            return Ok(Written { mv: Move::Place { kind, square: first }, coordinates: first_side });
        }
        let (second, second_side) = square(&text[3..5])?;
        if first_side != second_side {
            return Err(NotationError::MixedSides(quoted()));
        }
        if first == second {
            return Err(NotationError::SameSquare(quoted()));
        }
        Ok(Written { mv: Move::Shift { kind, from: first, to: second }, coordinates: first_side })
    }

    pub fn kind(self) -> PieceKind {
        match self {
            Move::Place { kind, .. } | Move::Shift { kind, .. } => kind,
        }
    }

    /// Where the piece ends up.
    pub fn destination(self) -> Square {
        match self {
            Move::Place { square, .. } => square,
            Move::Shift { to, .. } => to,
        }
    }

    /// The notation written from one side: Sol's `2c3c5` is Luna's `2E3E1`.
    pub fn notation(self, coordinates: Side) -> String {
        match self {
            Move::Place { kind, square } => format!("{}{}", kind.digit(), square.name_for(coordinates)),
            Move::Shift { kind, from, to } => {
                format!("{}{}{}", kind.digit(), from.name_for(coordinates), to.name_for(coordinates))
            }
        }
    }
}

/// Sol's notation, the one the ledger shows.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation(Side::Sol))
    }
}

/// A move is stored and shown as its notation from Sol's side, `"2c3c5"`.
impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.notation(Side::Sol))
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Move::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The squares in the order a position is written from one side (6.5.1): from the writer's
/// top left, row by row. Sol's top left is g6; Luna's is Sol's a0.
pub fn reading_order(side: Side) -> Vec<Vec<Square>> {
    (0..SIDE)
        .map(|line| {
            (0..SIDE)
                .map(|column| {
                    let (row, col) = match side {
                        Side::Sol => (SIDE - 1 - line, SIDE - 1 - column),
                        Side::Luna => (line, column),
                    };
                    Square::new(row, col).expect("0–6 is on the board")
                })
                .collect()
        })
        .collect()
}

/// The position notation of a board (6.5) written from one side, e.g. the empty board is
/// `7/7/7/7/7/7/7` and a Sol persona alone on d3 is `7/7/7/3a3/7/7/7`.
pub fn position_notation(piece_at: impl Fn(Square) -> Option<Piece>, side: Side) -> String {
    let rows: Vec<String> = reading_order(side)
        .into_iter()
        .map(|row| {
            let mut text = String::new();
            let mut free = 0u8;
            for square in row {
                match piece_at(square) {
                    Some(piece) => {
                        if free > 0 {
                            text.push(char::from(b'0' + free));
                            free = 0;
                        }
                        text.push(piece.letter());
                    }
                    None => free += 1,
                }
            }
            if free > 0 {
                text.push(char::from(b'0' + free));
            }
            text
        })
        .collect();
    rows.join("/")
}

/// Why a position notation was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("article 6.5: `{text}` is not a position: {reason}")]
pub struct PositionError {
    pub text: String,
    pub reason: String,
}

/// Parses a position notation written from `side` into its pieces, in Sol's coordinates.
///
/// # Errors
/// A [`PositionError`] when a row does not add up to 7 squares, a letter is not a piece, or
/// there are not 7 rows.
pub fn parse_position(text: &str, side: Side) -> Result<Vec<(Square, Piece)>, PositionError> {
    let error = |reason: String| PositionError { text: quote(text), reason };
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != usize::from(SIDE) {
        return Err(error(format!("it has {} rows separated by `/`, not 7", rows.len())));
    }
    let mut pieces = Vec::new();
    for (row_text, squares) in rows.iter().zip(reading_order(side)) {
        let mut at = 0usize;
        for c in row_text.chars() {
            if let Some(free) = c.to_digit(10).filter(|d| (1..=7).contains(d)) {
                at += usize::try_from(free).unwrap_or(usize::MAX);
            } else if let Some(piece) = PieceKind::from_letter(c) {
                if let Some(&square) = squares.get(at) {
                    pieces.push((square, piece));
                }
                at += 1;
            } else {
                return Err(error(format!(
                    "`{}` is neither a count of free squares 1–7 nor a piece a–d/A–D",
                    quote(&c.to_string())
                )));
            }
        }
        if at != usize::from(SIDE) {
            return Err(error(format!("row `{}` covers {at} squares, not 7", quote(row_text))));
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn parses_and_prints_the_laws_examples() {
        assert_eq!(Move::parse("0d3").unwrap(), Move::Place { kind: PieceKind::Persona, square: sq("d3") });
        assert_eq!(
            Move::parse("2c3c5").unwrap(),
            Move::Shift { kind: PieceKind::Militar, from: sq("c3"), to: sq("c5") }
        );
        for text in ["0d3", "2c3c5", "1a0b1", "3g0f1"] {
            assert_eq!(Move::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn luna_writes_from_her_side() {
        let written = Move::parse_written("2E3E1").unwrap();
        assert_eq!(written.coordinates, Side::Luna);
        assert_eq!(written.mv, Move::parse("2c3c5").unwrap());
        assert_eq!(written.mv.notation(Side::Luna), "2E3E1");
        assert_eq!(Move::parse("0A0").unwrap(), Move::parse("0g6").unwrap());
    }

    #[test]
    fn refusals_name_the_article() {
        let err = |text: &str| Move::parse(text).unwrap_err().to_string();
        assert!(err("").starts_with("article 6.6: `` is not a move"));
        assert!(err("0d").starts_with("article 6.6:"));
        assert!(err("0d3d").starts_with("article 6.6:"));
        assert!(err("4d3").starts_with("article 6.6.1: `4d3` does not start with a piece digit"));
        assert!(err("0h3").starts_with("article 6.6.1: `0h3`: `h3` is not a square"));
        assert!(err("0d7").contains("`d7` is not a square"));
        assert!(err("2c3C5").starts_with("article 6.6.1: `2c3C5` mixes"));
        assert!(err("2c3c3").starts_with("article 6.6.2:"));
        assert!(err("0dé").starts_with("article 6.6:"));
        assert!(err(" 0d3").starts_with("article 6.6:"));
    }

    #[test]
    fn positions_from_both_sides() {
        let pieces = [
            (sq("d3"), Piece::new(Side::Sol, PieceKind::Persona)),
            (sq("a0"), Piece::new(Side::Luna, PieceKind::Militar)),
        ];
        let at = |s: Square| pieces.iter().find(|(q, _)| *q == s).map(|(_, p)| *p);
        assert_eq!(position_notation(at, Side::Sol), "7/7/7/3a3/7/7/6C");
        assert_eq!(position_notation(at, Side::Luna), "C6/7/7/3a3/7/7/7");
        let mut parsed = parse_position("7/7/7/3a3/7/7/6C", Side::Sol).unwrap();
        parsed.sort_by_key(|(s, _)| *s);
        assert_eq!(parsed, vec![pieces[1], pieces[0]]);
        assert_eq!(position_notation(|_| None, Side::Sol), "7/7/7/7/7/7/7");
        assert!(parse_position("7/7/7", Side::Sol).unwrap_err().to_string().contains("3 rows"));
        assert!(parse_position("7/7/7/4a3/7/7/7", Side::Sol).unwrap_err().to_string().contains("8 squares"));
        assert!(parse_position("7/7/7/3x3/7/7/7", Side::Sol).is_err());
    }
}
