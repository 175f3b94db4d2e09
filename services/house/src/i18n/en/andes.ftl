# The Andes board viewer in English (web/andes.rs); its Spanish twin is es/andes.ftl. The
# recording mode has its own andes-table.ftl and andes-rules.ftl.

# $match (String)
andes-title = Andes { $match }
andes-side-sol = Sol
andes-side-luna = Luna
# $match (String); $number (Number)
andes-game = { $match }, game { NUMBER($number, useGrouping: 0) }:
# $side (String) - the viewer's side; $moves (String); $to_move (String) - a side's name
andes-view = { $side }'s view · after { $moves } moves · { $to_move } to move
andes-kind-persona = persona
andes-kind-estatal_left = left estatal
andes-kind-militar = militar
andes-kind-estatal_right = right estatal
# $owner (String) - a side's name; $kind (String) - a piece's name
andes-piece = { $owner }'s { $kind }
andes-legend = a b c d: Sol's persona, left estatal, militar, right estatal; A B C D: Luna's · shaded: the continent, ringed: the centre d3, thick edge: the border
# $count (String)
andes-reserve = reserve { $count }
andes-moves = Moves
# $square (String)
andes-attacks = attacks { $square }
# $square (String)
andes-captures = captures { $square }
andes-points = Points and match
# $side (String) - a side's name
andes-flip = { $side }'s side
andes-now = now
# $seq (Number)
andes-as-after = as after event { NUMBER($seq, useGrouping: 0) }
# $side (String) - what was asked for
andes-error-side = A side is sol or luna, not “{ $side }”.

## The points, the match and the levels in words (the Andes board)
# $number (Number)
andes-summary-game = Game { NUMBER($number, useGrouping: 0) }:
# $player, $side (String); $points, $on_board, $attacked, $reserve (Number)
andes-game-points = { $player } ({ $side }) { $points } points ({ $on_board } on the board, { $attacked } attacked, { $reserve } in reserve)
# $player, $how, $bonus (String)
andes-game-won = { $player } wins { $how }, with a bonus of { $bonus }.
andes-game-running = Still being played.
andes-decided-points = on points
andes-decided-pieces_on_board = with more pieces on the board
andes-decided-luna = as Luna (level on points and pieces)
andes-decided-flag_fell = when the other's flag fell
andes-decided-resigned = when the other resigned
# $player (String), $total (String: a number in the reader's form)
andes-total = { $player }: { $total }
andes-match-won = { $player } wins the match
andes-match-drawn = The match is drawn
andes-match-running = The match goes on
# $player, $value, $band (String)
andes-level = Level of { $player }: { $value }, { $band } (from the games won)
andes-no-level = { $player } has no level yet: no game won
andes-band-copper = copper
andes-band-silver = silver
andes-band-gold = gold
