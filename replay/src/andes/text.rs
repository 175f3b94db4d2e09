//! The board as text for a terminal, from Sol's side or from Luna's (Andes laws, articles 2.3,
//! 2.4, 6.5): each row labelled with the viewer's marca, the columns with the viewer's escalas,
//! pieces by their letters (a–d Sol's, A–D Luna's), empty squares by colour.

use ledger::andes::notation::reading_order;
use ledger::andes::{Colour, Position, Side, Square};
use std::fmt::Write;

/// The key printed under every board.
pub const LEGEND: &str = "a b c d: Sol's persona, estatal-left, militar, estatal-right; A B C D: Luna's; \
                          . light, : dark, + the centre (d3)";

fn empty_mark(square: Square) -> char {
    if square == Square::CENTRE {
        '+'
    } else {
        match square.colour() {
            Colour::Light => '.',
            Colour::Dark => ':',
        }
    }
}

/// The board as `side` sees it, with the reserves, whose move it is and the position notation.
pub fn board_text(position: &Position, side: Side) -> String {
    let rows = reading_order(side);
    let header = {
        let first_row = rows.first().map(Vec::as_slice).unwrap_or_default();
        let escalas: Vec<String> =
            first_row.iter().map(|s| s.name_for(side).chars().nth(1).unwrap_or(' ').to_string()).collect();
        format!("    {}", escalas.join(" "))
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}'s view", side.as_str());
    let _ = writeln!(out, "{header}");
    for row in &rows {
        let marca = row.first().and_then(|s| s.name_for(side).chars().next()).unwrap_or(' ');
        let cells: Vec<String> = row
            .iter()
            .map(|&square| position.piece_at(square).map_or(empty_mark(square), |p| p.letter()).to_string())
            .collect();
        let _ = writeln!(out, "  {marca} {}  {marca}", cells.join(" "));
    }
    let _ = writeln!(out, "{header}");
    let _ = writeln!(
        out,
        "reserve: sol {}, luna {}; {} to move; {}",
        position.reserve(Side::Sol),
        position.reserve(Side::Luna),
        position.to_move(),
        position.notation(side)
    );
    let _ = writeln!(out, "{LEGEND}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::andes::Move;

    #[test]
    fn both_views_of_one_position() {
        let mut position = Position::new();
        position.play(Move::parse("0c3").unwrap()).unwrap();
        position.play(Move::parse("2g6").unwrap()).unwrap();
        let sol = board_text(&position, Side::Sol);
        let expected_sol = "sol's view
    6 5 4 3 2 1 0
  g C : . : . : :  g
  f : . : . : . :  f
  e . : . : . : .  e
  d : . : + : . :  d
  c . : . a . : .  c
  b : . : . : . :  b
  a : : . : . : :  a
    6 5 4 3 2 1 0
reserve: sol 6, luna 6; sol to move; C6/7/7/7/3a3/7/7
";
        assert_eq!(sol, format!("{expected_sol}{LEGEND}\n"));
        let luna = board_text(&position, Side::Luna);
        assert!(luna.starts_with("luna's view\n    6 5 4 3 2 1 0\n  G : : . : . : :  G\n"), "{luna}");
        assert!(luna.contains("  A : : . : . : C  A\n"), "{luna}");
        assert!(luna.contains("  E . : . a . : .  E\n"), "{luna}");
    }
}
