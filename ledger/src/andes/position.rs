//! The position of one game and the laws of a single move (Andes laws, articles 2.2, 3, 4):
//! which moves are legal, what a move does (attacks with the centre empty, captures with it
//! occupied), and whether the game is over after it.
//!
//! The ledger's readings (docs/ANDES.md): the centre is looked at once the moved piece has
//! landed (4.2: the move is complete when the piece stands on its new square and its
//! consequences are evaluated); a capture takes an opposing piece that stands between the moved
//! piece and another of the mover's pieces, adjacent on both sides along a row or column
//! (3.7.1), in up to four directions at once (4.3.1, "captura múltiple"); a placement is a move
//! and captures too.

use super::board::{Colour, Side, Square};
use super::notation::Move;
use super::piece::{Piece, PieceKind};
use super::rejection::AndesRejection;
use crate::rejection::Arg;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many pieces each player has at the start, all off the board (2.2).
pub const PIECES_PER_PLAYER: u8 = 7;

/// The orthogonal steps along which captures are looked for (3.7.1).
const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Why a game ended, and the side the reason is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// After a move that attacked or captured, the mover's opponent, who had entered the
    /// continent, has no piece left on it (1.6). `side` is the opponent.
    ContinentEmptied,
    /// The side to move has no legal move: no piece in reserve and every piece on the board
    /// blocked (the ledger's reading of 1.3 and 1.7). `side` is the side that cannot move.
    NoLegalMove,
    /// The side's time ran out (5.1, 6.2, 8.3).
    FlagFell,
    /// The side resigned during its move (5.3).
    Resigned,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::ContinentEmptied => "continent_emptied",
            EndReason::NoLegalMove => "no_legal_move",
            EndReason::FlagFell => "flag_fell",
            EndReason::Resigned => "resigned",
        }
    }
}

/// What a legal move does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub side: Side,
    pub mv: Move,
    /// The opposing piece the move replaced (3.7.2, 4.3.2): gone for good.
    pub attacked: Option<(Square, Piece)>,
    /// The opposing pieces the move flanked (3.7.1, 4.3.1), in square order: they join the
    /// mover's reserve.
    pub captured: Vec<(Square, Piece)>,
}

/// One game's position: the pieces on the board, the reserves, and what each side has
/// attacked and captured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pieces: BTreeMap<Square, Piece>,
    /// Pieces off the board each side may still place, by [`Side::index`].
    reserve: [u8; 2],
    /// Opposing pieces each side attacked (removed for good, 4.3.2).
    attacked: [u8; 2],
    /// Opposing pieces each side captured (into its reserve, 4.3.1).
    captured: [u8; 2],
    /// Whether a side has ever had a piece on the continent.
    entered: [bool; 2],
    to_move: Side,
    moves: u32,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The start of a game: an empty board, seven pieces in each reserve, Sol to move (1.2, 2.2).
    pub fn new() -> Position {
        Position {
            pieces: BTreeMap::new(),
            reserve: [PIECES_PER_PLAYER; 2],
            attacked: [0; 2],
            captured: [0; 2],
            entered: [false; 2],
            to_move: Side::Sol,
            moves: 0,
        }
    }

    /// A position set up by hand, for tests and analysis: the pieces, the reserves, the side
    /// to move and how many moves have been played (0 means Sol's first move comes next).
    pub fn from_parts(pieces: &[(Square, Piece)], reserve: [u8; 2], to_move: Side, moves: u32) -> Position {
        let pieces: BTreeMap<Square, Piece> = pieces.iter().copied().collect();
        let mut entered = [false; 2];
        for (square, piece) in &pieces {
            if square.is_continent() {
                entered[piece.side.index()] = true;
            }
        }
        Position { pieces, reserve, attacked: [0; 2], captured: [0; 2], entered, to_move, moves }
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.pieces.get(&square).copied()
    }

    /// The pieces on the board, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces.iter().map(|(s, p)| (*s, *p))
    }

    pub fn on_board(&self, side: Side) -> u8 {
        let count = self.pieces.values().filter(|p| p.side == side).count();
        u8::try_from(count).unwrap_or(u8::MAX)
    }

    pub fn on_continent(&self, side: Side) -> u8 {
        let count = self.pieces.iter().filter(|(s, p)| p.side == side && s.is_continent()).count();
        u8::try_from(count).unwrap_or(u8::MAX)
    }

    pub fn reserve(&self, side: Side) -> u8 {
        self.reserve[side.index()]
    }

    /// Opposing pieces `side` has attacked.
    pub fn attacked_by(&self, side: Side) -> u8 {
        self.attacked[side.index()]
    }

    /// Opposing pieces `side` has captured.
    pub fn captured_by(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }

    pub fn has_entered_continent(&self, side: Side) -> bool {
        self.entered[side.index()]
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Moves played so far in this game.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    pub fn centre_occupied(&self) -> bool {
        self.pieces.contains_key(&Square::CENTRE)
    }

    /// The position notation from one side (6.5).
    pub fn notation(&self, side: Side) -> String {
        super::notation::position_notation(|square| self.piece_at(square), side)
    }

    /// Is the centre occupied once `mv` has landed (the moved piece on its destination, its
    /// origin vacated)?
    fn centre_occupied_after(&self, mv: Move) -> bool {
        match mv {
            Move::Place { square, .. } => square == Square::CENTRE || self.centre_occupied(),
            Move::Shift { from, to, .. } => to == Square::CENTRE || (self.centre_occupied() && from != Square::CENTRE),
        }
    }

    /// Checks a move by the side to move against articles 2.2, 3 and 4 and says what it does.
    ///
    /// # Errors
    /// A precondition [`AndesRejection`] naming the article the move breaks.
    pub fn check(&self, mv: Move) -> Result<Played, AndesRejection> {
        let side = self.to_move;
        let attacked = match mv {
            Move::Place { kind, square } => {
                self.check_placement(side, kind, square)?;
                None
            }
            Move::Shift { kind, from, to } => self.check_shift(side, kind, from, to)?,
        };
        let captured = if self.centre_occupied_after(mv) { self.captures(side, mv) } else { Vec::new() };
        Ok(Played { side, mv, attacked, captured })
    }

    fn check_placement(&self, side: Side, kind: PieceKind, square: Square) -> Result<(), AndesRejection> {
        if self.reserve(side) == 0 {
            return Err(AndesRejection::precondition("2.2", format!("{side} has no piece off the board to place"))
                .said("law-reserve-empty", [("side", Arg::name("record-side", side))]));
        }
        if self.moves == 0 {
            if kind != PieceKind::Persona {
                return Err(AndesRejection::precondition(
                    "3.4",
                    format!("sol's first move places a persona, not a {kind}"),
                )
                .said("law-first-persona", [("kind", Arg::name("record-kind", kind))]));
            }
            if !square.is_continent() {
                return Err(AndesRejection::precondition(
                    "3.4",
                    format!(
                        "sol's first move places a persona on the continent, and {square} is {}",
                        square.region().as_str()
                    ),
                )
                .said(
                    "law-first-continent",
                    [("square", Arg::text(square)), ("region", Arg::name("record-region", square.region().as_str()))],
                ));
            }
            return Ok(());
        }
        if !square.is_border() {
            return Err(AndesRejection::precondition(
                "3.5",
                format!("a new piece is placed on a border square (marcas a and g, escalas 0 and 6), and {square} is not one"),
            )
            .said("law-place-border", [("square", Arg::text(square))]));
        }
        if let Some(piece) = self.piece_at(square) {
            let article = if piece.side == side { "3.1" } else { "3.5" };
            return Err(AndesRejection::precondition(
                article,
                format!("a new piece is placed on a free square, and {square} holds {piece}"),
            )
            .said(
                "law-place-free",
                [
                    ("square", Arg::text(square)),
                    ("owner", Arg::name("record-side", piece.side)),
                    ("kind", Arg::name("record-kind", piece.kind)),
                ],
            ));
        }
        if square.colour() == Colour::Light && kind != PieceKind::Persona {
            return Err(AndesRejection::precondition(
                "3.6",
                format!("{square} is a light border square: only a persona is placed there, not a {kind}"),
            )
            .said("law-place-light", [("square", Arg::text(square)), ("kind", Arg::name("record-kind", kind))]));
        }
        Ok(())
    }

    fn check_shift(
        &self,
        side: Side,
        kind: PieceKind,
        from: Square,
        to: Square,
    ) -> Result<Option<(Square, Piece)>, AndesRejection> {
        let piece = match self.piece_at(from) {
            None => {
                return Err(AndesRejection::precondition("3.3", format!("there is no piece on {from} to move"))
                    .said("law-no-piece", [("square", Arg::text(from))]))
            }
            Some(piece) if piece.side != side => {
                return Err(AndesRejection::precondition(
                    "1.1",
                    format!("{from} holds {piece}: {side} moves only {side}'s pieces"),
                )
                .said(
                    "law-not-yours",
                    [
                        ("square", Arg::text(from)),
                        ("owner", Arg::name("record-side", piece.side)),
                        ("kind", Arg::name("record-kind", piece.kind)),
                        ("side", Arg::name("record-side", side)),
                    ],
                ))
            }
            Some(piece) => piece,
        };
        if piece.kind != kind {
            return Err(AndesRejection::precondition(
                "3.2",
                format!("the piece on {from} is a {}, not a {kind}: a piece keeps its type", piece.kind),
            )
            .said(
                "law-keeps-type",
                [
                    ("square", Arg::text(from)),
                    ("kind", Arg::name("record-kind", piece.kind)),
                    ("claimed", Arg::name("record-kind", kind)),
                ],
            ));
        }
        let Some((unit, steps)) = kind.path(from, to) else {
            return Err(AndesRejection::precondition(
                kind.article(),
                format!("{}; {from} to {to} is not such a move", kind.describe_move()),
            )
            .said("law-path", [("piece", Arg::text(kind)), ("from", Arg::text(from)), ("to", Arg::text(to))]));
        };
        for step in 1..steps {
            let Some(between) =
                from.offset(unit.0 * i8::try_from(step).unwrap_or(0), unit.1 * i8::try_from(step).unwrap_or(0))
            else {
                continue;
            };
            if let Some(blocker) = self.piece_at(between) {
                return Err(AndesRejection::precondition(
                    kind.article(),
                    format!("pieces move over free squares and do not jump: {between}, between {from} and {to}, holds {blocker}"),
                )
                .said(
                    "law-jump",
                    [
                        ("between", Arg::text(between)),
                        ("from", Arg::text(from)),
                        ("to", Arg::text(to)),
                        ("owner", Arg::name("record-side", blocker.side)),
                        ("kind", Arg::name("record-kind", blocker.kind)),
                    ],
                ));
            }
        }
        match self.piece_at(to) {
            None => Ok(None),
            Some(target) if target.side == side => Err(AndesRejection::precondition(
                "3.1",
                format!("{to} holds {target}: a piece never moves onto its own colour"),
            )
            .said("law-own-colour", [("square", Arg::text(to)), ("kind", Arg::name("record-kind", target.kind))])),
            Some(target) => {
                if self.centre_occupied_after(Move::Shift { kind, from, to }) {
                    // `from` is not the centre here: leaving it would empty it.
                    let holder = self.piece_at(Square::CENTRE).unwrap_or(target);
                    Err(AndesRejection::precondition(
                        "4.3",
                        format!("{to} holds {target}, and a piece is attacked only while the centre d3 is empty; it holds {holder}"),
                    )
                    .said(
                        "law-attack-centre",
                        [
                            ("square", Arg::text(to)),
                            ("owner", Arg::name("record-side", target.side)),
                            ("kind", Arg::name("record-kind", target.kind)),
                            ("holder_owner", Arg::name("record-side", holder.side)),
                            ("holder_kind", Arg::name("record-kind", holder.kind)),
                        ],
                    ))
                } else {
                    Ok(Some((to, target)))
                }
            }
        }
    }

    /// The opposing pieces flanked by the piece landing with `mv` and another of `side`'s
    /// pieces along a row or a column (3.7.1), in square order.
    fn captures(&self, side: Side, mv: Move) -> Vec<(Square, Piece)> {
        let landing = mv.destination();
        let vacated = match mv {
            Move::Place { .. } => None,
            Move::Shift { from, .. } => Some(from),
        };
        let mine = |square: Square| {
            square == landing || (Some(square) != vacated && self.piece_at(square).is_some_and(|p| p.side == side))
        };
        let mut captured: Vec<(Square, Piece)> = ORTHOGONAL
            .iter()
            .filter_map(|&(d_row, d_col)| {
                let middle = landing.offset(d_row, d_col)?;
                let beyond = landing.offset(2 * d_row, 2 * d_col)?;
                let target = self.piece_at(middle).filter(|p| p.side != side)?;
                mine(beyond).then_some((middle, target))
            })
            .collect();
        captured.sort_by_key(|(square, _)| *square);
        captured
    }

    /// Applies a move [`Position::check`] accepted.
    pub fn apply(&mut self, played: &Played) {
        let side = played.side;
        let i = side.index();
        let landed = match played.mv {
            Move::Place { kind, square } => {
                self.reserve[i] = self.reserve[i].saturating_sub(1);
                self.pieces.insert(square, Piece::new(side, kind));
                square
            }
            Move::Shift { kind, from, to } => {
                self.pieces.remove(&from);
                self.pieces.insert(to, Piece::new(side, kind));
                to
            }
        };
        if played.attacked.is_some() {
            self.attacked[i] = self.attacked[i].saturating_add(1);
        }
        for (square, _) in &played.captured {
            self.pieces.remove(square);
            self.reserve[i] = self.reserve[i].saturating_add(1);
            self.captured[i] = self.captured[i].saturating_add(1);
        }
        if landed.is_continent() {
            self.entered[i] = true;
        }
        self.moves = self.moves.saturating_add(1);
        self.to_move = side.other();
    }

    /// Checks and applies a move.
    ///
    /// # Errors
    /// As [`Position::check`]; the position is unchanged then.
    pub fn play(&mut self, mv: Move) -> Result<Played, AndesRejection> {
        let played = self.check(mv)?;
        self.apply(&played);
        Ok(played)
    }

    /// Whether the game is over once `played` has been applied: the mover's opponent lost the
    /// continent to an attack or a capture (1.6), or cannot move (1.3, 1.7).
    pub fn end_after(&self, played: &Played) -> Option<(EndReason, Side)> {
        let opponent = played.side.other();
        let struck = played.attacked.is_some() || !played.captured.is_empty();
        if struck && self.has_entered_continent(opponent) && self.on_continent(opponent) == 0 {
            return Some((EndReason::ContinentEmptied, opponent));
        }
        if !self.has_legal_move() {
            return Some((EndReason::NoLegalMove, self.to_move));
        }
        None
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.reserve(self.to_move) > 0 || !self.shifts().is_empty()
    }

    /// Every legal move of the side to move: placements first (by square, then type), then
    /// moves of the pieces on the board (by square, direction and distance).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = self.placements();
        moves.extend(self.shifts());
        moves
    }

    fn placements(&self) -> Vec<Move> {
        if self.reserve(self.to_move) == 0 {
            return Vec::new();
        }
        if self.moves == 0 {
            return Square::all()
                .filter(|s| s.is_continent() && self.piece_at(*s).is_none())
                .map(|square| Move::Place { kind: PieceKind::Persona, square })
                .collect();
        }
        let mut moves = Vec::new();
        for square in Square::all().filter(|s| s.is_border() && self.piece_at(*s).is_none()) {
            for kind in PieceKind::ALL {
                if square.colour() == Colour::Dark || kind == PieceKind::Persona {
                    moves.push(Move::Place { kind, square });
                }
            }
        }
        moves
    }

    fn shifts(&self) -> Vec<Move> {
        let side = self.to_move;
        let mut moves = Vec::new();
        for (from, piece) in self.pieces().filter(|(_, p)| p.side == side) {
            for &(d_row, d_col) in piece.kind.directions() {
                for step in 1..=piece.kind.range() {
                    let step = i8::try_from(step).unwrap_or(0);
                    let Some(to) = from.offset(d_row * step, d_col * step) else { break };
                    let mv = Move::Shift { kind: piece.kind, from, to };
                    match self.piece_at(to) {
                        None => moves.push(mv),
                        Some(target) => {
                            if target.side != side && !self.centre_occupied_after(mv) {
                                moves.push(mv);
                            }
                            break;
                        }
                    }
                }
            }
        }
        moves
    }
}
