//! The pieces (Andes laws, articles 3.2, 3.3, 6.5.2, 6.6.1): four types, how far and in which
//! directions each moves, and their letters and digits in the notation.
//!
//! A piece off the board has no type (6.3: the first seven pieces and the captured ones are
//! all alike); it takes one when it is placed and keeps it (3.2) until it leaves the board.

use super::board::{Side, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of a piece on the board, with its digit in move notation (6.6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// 0: one free square in any direction (3.3.1).
    Persona,
    /// 1: up to two free squares diagonally, leaning left: along the a0–g6 diagonals (3.3.3).
    EstatalLeft,
    /// 2: up to two free squares along a row or a column (3.3.2).
    Militar,
    /// 3: up to two free squares diagonally, leaning right: along the a6–g0 diagonals (3.3.3).
    EstatalRight,
}

impl PieceKind {
    pub const ALL: [PieceKind; 4] =
        [PieceKind::Persona, PieceKind::EstatalLeft, PieceKind::Militar, PieceKind::EstatalRight];

    /// The digit of move notation (6.6.1).
    pub fn digit(self) -> char {
        match self {
            PieceKind::Persona => '0',
            PieceKind::EstatalLeft => '1',
            PieceKind::Militar => '2',
            PieceKind::EstatalRight => '3',
        }
    }

    pub fn from_digit(digit: char) -> Option<PieceKind> {
        match digit {
            '0' => Some(PieceKind::Persona),
            '1' => Some(PieceKind::EstatalLeft),
            '2' => Some(PieceKind::Militar),
            '3' => Some(PieceKind::EstatalRight),
            _ => None,
        }
    }

    /// The letter of position notation (6.5.2): a–d for Sol's light pieces, A–D for Luna's.
    pub fn letter(self, side: Side) -> char {
        let lower = match self {
            PieceKind::Persona => 'a',
            PieceKind::EstatalLeft => 'b',
            PieceKind::Militar => 'c',
            PieceKind::EstatalRight => 'd',
        };
        match side {
            Side::Sol => lower,
            Side::Luna => lower.to_ascii_uppercase(),
        }
    }

    /// The piece a position letter stands for.
    pub fn from_letter(letter: char) -> Option<Piece> {
        let side = if letter.is_ascii_uppercase() { Side::Luna } else { Side::Sol };
        let kind = match letter.to_ascii_lowercase() {
            'a' => PieceKind::Persona,
            'b' => PieceKind::EstatalLeft,
            'c' => PieceKind::Militar,
            'd' => PieceKind::EstatalRight,
            _ => return None,
        };
        Some(Piece { side, kind })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PieceKind::Persona => "persona",
            PieceKind::EstatalLeft => "estatal_left",
            PieceKind::Militar => "militar",
            PieceKind::EstatalRight => "estatal_right",
        }
    }

    /// The article that gives the piece its move.
    pub fn article(self) -> &'static str {
        match self {
            PieceKind::Persona => "3.3.1",
            PieceKind::Militar => "3.3.2",
            PieceKind::EstatalLeft | PieceKind::EstatalRight => "3.3.3",
        }
    }

    /// How many squares it may move at most.
    pub fn range(self) -> u8 {
        match self {
            PieceKind::Persona => 1,
            PieceKind::EstatalLeft | PieceKind::Militar | PieceKind::EstatalRight => 2,
        }
    }

    /// The unit steps (rows, columns) it may move along, in Sol's coordinates.
    pub fn directions(self) -> &'static [(i8, i8)] {
        match self {
            PieceKind::Persona => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
            PieceKind::Militar => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            // a0 → g6: marca and escala grow together.
            PieceKind::EstatalLeft => &[(1, 1), (-1, -1)],
            // a6 → g0: marca grows as escala falls.
            PieceKind::EstatalRight => &[(1, -1), (-1, 1)],
        }
    }

    /// How the piece moves, in words, for refusals.
    pub fn describe_move(self) -> &'static str {
        match self {
            PieceKind::Persona => "a persona moves one square in any direction",
            PieceKind::Militar => "a militar moves at most 2 squares along a row or column",
            PieceKind::EstatalLeft => "an estatal-left moves at most 2 squares along an a0–g6 diagonal",
            PieceKind::EstatalRight => "an estatal-right moves at most 2 squares along an a6–g0 diagonal",
        }
    }

    /// The unit step and the number of steps from `from` to `to`, when this piece can make that
    /// trip on an empty board.
    pub fn path(self, from: Square, to: Square) -> Option<((i8, i8), u8)> {
        let d_row = i16::from(to.row()) - i16::from(from.row());
        let d_col = i16::from(to.col()) - i16::from(from.col());
        let steps = d_row.abs().max(d_col.abs());
        if steps == 0 || (d_row != 0 && d_col != 0 && d_row.abs() != d_col.abs()) {
            return None;
        }
        let unit = (i8::try_from(d_row.signum()).ok()?, i8::try_from(d_col.signum()).ok()?);
        let steps = u8::try_from(steps).ok()?;
        (self.directions().contains(&unit) && steps <= self.range()).then_some((unit, steps))
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A piece on the board: whose it is and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    pub side: Side,
    pub kind: PieceKind,
}

impl Piece {
    pub fn new(side: Side, kind: PieceKind) -> Piece {
        Piece { side, kind }
    }

    /// Its letter in position notation (6.5.2).
    pub fn letter(self) -> char {
        self.kind.letter(self.side)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s {}", self.side, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn digits_and_letters_round_trip() {
        for kind in PieceKind::ALL {
            assert_eq!(PieceKind::from_digit(kind.digit()), Some(kind));
            for side in Side::BOTH {
                assert_eq!(PieceKind::from_letter(kind.letter(side)), Some(Piece::new(side, kind)));
            }
        }
        assert_eq!(PieceKind::from_digit('4'), None);
        assert_eq!(PieceKind::from_letter('e'), None);
    }

    #[test]
    fn paths_follow_the_piece_types() {
        assert_eq!(PieceKind::Persona.path(sq("d3"), sq("e4")), Some(((1, 1), 1)));
        assert_eq!(PieceKind::Persona.path(sq("d3"), sq("f3")), None);
        assert_eq!(PieceKind::Militar.path(sq("c3"), sq("c5")), Some(((0, 1), 2)));
        assert_eq!(PieceKind::Militar.path(sq("c3"), sq("c6")), None);
        assert_eq!(PieceKind::Militar.path(sq("c3"), sq("d4")), None);
        assert_eq!(PieceKind::EstatalLeft.path(sq("a0"), sq("c2")), Some(((1, 1), 2)));
        assert_eq!(PieceKind::EstatalLeft.path(sq("c2"), sq("b1")), Some(((-1, -1), 1)));
        assert_eq!(PieceKind::EstatalLeft.path(sq("c2"), sq("b3")), None);
        assert_eq!(PieceKind::EstatalRight.path(sq("a6"), sq("c4")), Some(((1, -1), 2)));
        assert_eq!(PieceKind::EstatalRight.path(sq("c2"), sq("d3")), None);
        assert_eq!(PieceKind::EstatalRight.path(sq("c2"), sq("c2")), None);
    }
}
