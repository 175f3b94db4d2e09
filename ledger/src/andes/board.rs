//! The board of Andes (Andes laws, articles 2 and 7): the 49 squares, their colours, the
//! sectors, the continent with its centre, sierra, jungle and coast, the islands, the ocean and
//! the border, and the square notation from Sol's side (`a0`–`g6`) and from Luna's (`A0`–`G6`).
//!
//! The ledger keeps every square in Sol's coordinates. Row ("marca") `a` is the row nearest to
//! Sol and column ("escala") `0` is on Sol's right, so `a0` is Sol's bottom-right square
//! (article 2.3). Luna sits opposite: her `A0` is Sol's `g6`, and in general
//! Luna `(X, s)` = Sol `(g − (X − A), 6 − s)`.

use crate::rejection::quote;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The number of rows and of columns (article 2.1).
pub const SIDE: u8 = 7;

/// One of the two players of a game (articles 1.2, 1.4, 1.5): Sol plays the light pieces and
/// moves first, Luna the dark ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Sol,
    Luna,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Sol, Side::Luna];

    pub fn other(self) -> Side {
        match self {
            Side::Sol => Side::Luna,
            Side::Luna => Side::Sol,
        }
    }

    /// 0 for Sol, 1 for Luna: an index into per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::Sol => 0,
            Side::Luna => 1,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Sol => "sol",
            Side::Luna => "luna",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The colour of a square (articles 2.1, 7.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Light,
    Dark,
}

/// The territory a square represents (article 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    /// d3, the government sector (7.1.5).
    Centre,
    /// The eight squares around the centre (7.3.4).
    Sierra,
    /// Twelve squares (7.3.3).
    Jungle,
    /// a3, d0, d6, g3: continent on the border (7.2.2, 7.3.2).
    Coast,
    /// The four corners (7.2.1).
    Island,
    /// Everything else (7.4).
    Ocean,
}

impl Region {
    /// Centre, sierra, jungle and coast make the continent (7.3).
    pub fn is_continent(self) -> bool {
        match self {
            Region::Centre | Region::Sierra | Region::Jungle | Region::Coast => true,
            Region::Island | Region::Ocean => false,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Region::Centre => "centre",
            Region::Sierra => "sierra",
            Region::Jungle => "jungle",
            Region::Coast => "coast",
            Region::Island => "island",
            Region::Ocean => "ocean",
        }
    }
}

/// One of the 49 squares, held in Sol's coordinates: `row` 0–6 is Sol's marca a–g, `col`
/// 0–6 his escala.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    row: u8,
    col: u8,
}

/// Why a square name was not understood (article 6.5, 6.6).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("article 6.6: `{text}` is not a square: a square is a marca a–g (Sol) or A–G (Luna) then an escala 0–6")]
pub struct SquareError {
    pub text: String,
}

/// Squares listed by the laws, read in Sol's coordinates. The text lists the sierra square
/// `c2` twice and the jungle square `a2`; the ledger reads them as `c3` and `b2`, the only
/// readings that keep the listed colours and the four-fold symmetry (docs/ANDES.md).
pub const SIERRA: [&str; 8] = ["c3", "d2", "d4", "e3", "c2", "c4", "e2", "e4"];
/// Article 7.3.3 (dark first, then light).
pub const JUNGLE: [&str; 12] = ["b2", "b4", "c1", "c5", "e1", "e5", "f2", "f4", "b3", "d1", "d5", "f3"];
/// Article 7.3.2.
pub const COAST: [&str; 4] = ["a3", "d0", "d6", "g3"];
/// Article 7.2.1.
pub const ISLANDS: [&str; 4] = ["a0", "a6", "g0", "g6"];

impl Square {
    /// d3 (article 7.1.5).
    pub const CENTRE: Square = Square { row: 3, col: 3 };

    /// The square at Sol's `row` (0 = a) and `col` (0–6), if on the board.
    pub fn new(row: u8, col: u8) -> Option<Square> {
        (row < SIDE && col < SIDE).then_some(Square { row, col })
    }

    /// The square from an index 0–48 (row-major from a0).
    pub fn from_index(index: usize) -> Option<Square> {
        let index = u8::try_from(index).ok()?;
        Square::new(index / SIDE, index % SIDE)
    }

    pub fn index(self) -> usize {
        usize::from(self.row) * usize::from(SIDE) + usize::from(self.col)
    }

    /// All 49 squares, a0, a1, … g6.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIDE).flat_map(|row| (0..SIDE).map(move |col| Square { row, col }))
    }

    /// Sol's marca, 0 for a.
    pub fn row(self) -> u8 {
        self.row
    }

    /// Sol's escala.
    pub fn col(self) -> u8 {
        self.col
    }

    /// The square `d_row` rows and `d_col` columns away, if on the board.
    pub fn offset(self, d_row: i8, d_col: i8) -> Option<Square> {
        let row = i8::try_from(self.row).ok()?.checked_add(d_row)?;
        let col = i8::try_from(self.col).ok()?.checked_add(d_col)?;
        Square::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?)
    }

    /// The same square as Luna sees it: her marca (0 = A) and escala.
    pub fn luna_coordinates(self) -> (u8, u8) {
        (SIDE - 1 - self.row, SIDE - 1 - self.col)
    }

    /// The square Luna calls (`marca`, `escala`), both 0–6.
    pub fn from_luna(marca: u8, escala: u8) -> Option<Square> {
        if marca >= SIDE || escala >= SIDE {
            return None;
        }
        Square::new(SIDE - 1 - marca, SIDE - 1 - escala)
    }

    /// Sol's name, e.g. `d3`.
    pub fn sol_name(self) -> String {
        format!("{}{}", char::from(b'a' + self.row), self.col)
    }

    /// Luna's name, e.g. Sol's `g6` is Luna's `A0`.
    pub fn luna_name(self) -> String {
        let (marca, escala) = self.luna_coordinates();
        format!("{}{}", char::from(b'A' + marca), escala)
    }

    /// The name from one side.
    pub fn name_for(self, side: Side) -> String {
        match side {
            Side::Sol => self.sol_name(),
            Side::Luna => self.luna_name(),
        }
    }

    /// Parses a square from either side: lowercase `a`–`g` is Sol's marca, uppercase `A`–`G`
    /// Luna's (article 2.4). Returns the square and whose coordinates the text used.
    ///
    /// # Errors
    /// A [`SquareError`] when the text is not exactly a marca and an escala.
    pub fn parse_with_side(text: &str) -> Result<(Square, Side), SquareError> {
        let error = || SquareError { text: quote(text) };
        let bytes = text.as_bytes();
        let [marca, escala] = bytes else {
            return Err(error());
        };
        if !(b'0'..=b'6').contains(escala) {
            return Err(error());
        }
        let escala = escala - b'0';
        match marca {
            b'a'..=b'g' => Ok((Square { row: marca - b'a', col: escala }, Side::Sol)),
            b'A'..=b'G' => Square::from_luna(marca - b'A', escala).map(|sq| (sq, Side::Luna)).ok_or_else(error),
            _ => Err(error()),
        }
    }

    /// [`Square::parse_with_side`] without saying whose coordinates were used.
    ///
    /// # Errors
    /// A [`SquareError`] when the text is not a square.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        Square::parse_with_side(text).map(|(square, _)| square)
    }

    /// Dark when marca + escala is odd, and the four corner islands (7.2.1); light otherwise.
    pub fn colour(self) -> Colour {
        if (self.row + self.col) % 2 == 1 || self.is_corner() {
            Colour::Dark
        } else {
            Colour::Light
        }
    }

    fn is_corner(self) -> bool {
        (self.row == 0 || self.row == SIDE - 1) && (self.col == 0 || self.col == SIDE - 1)
    }

    /// The border ("frontera", 7.2): rows a and g, columns 0 and 6.
    pub fn is_border(self) -> bool {
        self.row == 0 || self.row == SIDE - 1 || self.col == 0 || self.col == SIDE - 1
    }

    /// The territory of the square (7.2–7.4), from the lists of article 7.3 as the ledger reads
    /// them ([`SIERRA`], [`JUNGLE`], [`COAST`], [`ISLANDS`]).
    pub fn region(self) -> Region {
        let name = self.sol_name();
        let listed = |list: &[&str]| list.contains(&name.as_str());
        if self == Square::CENTRE {
            Region::Centre
        } else if listed(&SIERRA) {
            Region::Sierra
        } else if listed(&JUNGLE) {
            Region::Jungle
        } else if listed(&COAST) {
            Region::Coast
        } else if listed(&ISLANDS) {
            Region::Island
        } else {
            Region::Ocean
        }
    }

    pub fn is_continent(self) -> bool {
        self.region().is_continent()
    }

    /// The sector of article 7.1 from Sol's side: 1 (a0–d2), 2 (e0–g3), 3 (g4–d6), 4 (c6–a3),
    /// or 0 for the government sector d3.
    pub fn sector(self) -> u8 {
        match (self.row, self.col) {
            (3, 3) => 0,
            (0..=3, 0..=2) => 1,
            (4..=6, 0..=3) => 2,
            (3..=6, 4..=6) => 3,
            _ => 4,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sol_name())
    }
}

/// A square is stored and shown as its Sol name, `"c4"`.
impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.sol_name())
    }
}

/// Only Sol names are accepted in stored form, so that one square has one spelling.
impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        match Square::parse_with_side(&text) {
            Ok((square, Side::Sol)) => Ok(square),
            _ => Err(serde::de::Error::custom(format!("`{}` is not a square in Sol's coordinates", quote(&text)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips_through_both_sides() {
        assert_eq!(Square::all().count(), 49);
        for square in Square::all() {
            assert_eq!(Square::parse_with_side(&square.sol_name()).unwrap(), (square, Side::Sol));
            assert_eq!(Square::parse_with_side(&square.luna_name()).unwrap(), (square, Side::Luna));
            assert_eq!(Square::from_index(square.index()), Some(square));
        }
        assert_eq!(Square::parse("A0").unwrap().sol_name(), "g6");
        assert_eq!(Square::parse("G6").unwrap().sol_name(), "a0");
        assert_eq!(Square::parse("D3").unwrap(), Square::CENTRE);
    }

    #[test]
    fn continent_is_the_diamond_of_25_with_the_listed_colours() {
        let continent: Vec<Square> = Square::all().filter(|s| s.is_continent()).collect();
        assert_eq!(continent.len(), 25);
        for square in Square::all() {
            let distance = square.row.abs_diff(3) + square.col.abs_diff(3);
            assert_eq!(square.is_continent(), distance <= 3, "{square}");
        }
        for (list, dark) in [(&SIERRA[..4], true), (&SIERRA[4..], false), (&JUNGLE[..8], true), (&JUNGLE[8..], false)] {
            for name in list {
                let expected = if dark { Colour::Dark } else { Colour::Light };
                assert_eq!(Square::parse(name).unwrap().colour(), expected, "{name}");
            }
        }
        for name in COAST.iter().chain(ISLANDS.iter()) {
            assert_eq!(Square::parse(name).unwrap().colour(), Colour::Dark, "{name}");
        }
        assert_eq!(Square::CENTRE.colour(), Colour::Light);
        assert_eq!(Square::all().filter(|s| s.region() == Region::Ocean).count(), 20);
    }

    #[test]
    fn sectors_hold_twelve_squares_and_six_of_the_continent() {
        for sector in 1..=4 {
            let squares: Vec<Square> = Square::all().filter(|s| s.sector() == sector).collect();
            assert_eq!(squares.len(), 12, "sector {sector}");
            assert_eq!(squares.iter().filter(|s| s.is_continent()).count(), 6, "sector {sector}");
        }
        assert_eq!(Square::CENTRE.sector(), 0);
        let corner = |name: &str| Square::parse(name).unwrap().sector();
        assert_eq!((corner("a0"), corner("d2")), (1, 1));
        assert_eq!((corner("e0"), corner("g3")), (2, 2));
        assert_eq!((corner("g4"), corner("d6")), (3, 3));
        assert_eq!((corner("c6"), corner("a3")), (4, 4));
    }

    #[test]
    fn border_has_sixteen_dark_and_eight_light_squares() {
        let border: Vec<Square> = Square::all().filter(|s| s.is_border()).collect();
        assert_eq!(border.len(), 24);
        assert_eq!(border.iter().filter(|s| s.colour() == Colour::Dark).count(), 16);
        let light: Vec<String> = border.iter().filter(|s| s.colour() == Colour::Light).map(|s| s.sol_name()).collect();
        assert_eq!(light, ["a2", "a4", "c0", "c6", "e0", "e6", "g2", "g4"]);
    }

    #[test]
    fn bad_square_names_are_refused() {
        for text in ["", "d", "h3", "d7", "D9", "d33", "3d", "é3"] {
            assert!(Square::parse(text).is_err(), "{text}");
        }
        assert!(serde_json::from_str::<Square>("\"D3\"").is_err(), "stored squares are Sol names");
        assert_eq!(serde_json::from_str::<Square>("\"d3\"").unwrap(), Square::CENTRE);
    }
}
