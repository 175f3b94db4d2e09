# El tablero de Andes en español (web/andes.rs); su gemelo inglés es en/andes.ftl. El modo de
# registro tiene sus propios andes-table.ftl y andes-rules.ftl.

# $match (String)
andes-title = Andes { $match }
andes-side-sol = Sol
andes-side-luna = Luna
# $match (String); $number (Number)
andes-game = { $match }, partida { NUMBER($number, useGrouping: 0) }:
# $side (String); $moves (String); $to_move (String)
andes-view = vista de { $side } · tras { $moves } jugadas · juega { $to_move }
andes-kind-persona = persona
andes-kind-estatal_left = estatal izquierdo
andes-kind-militar = militar
andes-kind-estatal_right = estatal derecho
# $owner (String); $kind (String)
andes-piece = { $kind } de { $owner }
andes-legend = a b c d: persona, estatal izquierdo, militar y estatal derecho de Sol; A B C D: los de Luna · sombreado: el continente, con anillo: el centro d3, borde grueso: la frontera
# $count (String)
andes-reserve = reserva { $count }
andes-moves = Jugadas
# $square (String)
andes-attacks = ataca { $square }
# $square (String)
andes-captures = captura { $square }
andes-points = Puntos y encuentro
# $side (String)
andes-flip = Lado de { $side }
andes-now = ahora
# $seq (Number)
andes-as-after = tal como tras el evento { NUMBER($seq, useGrouping: 0) }
# $side (String)
andes-error-side = Un bando es sol o luna, no «{ $side }».
