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

## Los puntos, el encuentro y los niveles en palabras (el tablero de Andes)
# $number (Number)
andes-summary-game = Partida { NUMBER($number, useGrouping: 0) }:
# $player, $side (String); $points, $on_board, $attacked, $reserve (Number)
andes-game-points = { $player } ({ $side }) { $points } puntos ({ $on_board } en el tablero, { $attacked } atacadas, { $reserve } en reserva)
# $player, $how, $bonus (String)
andes-game-won = Gana { $player } { $how }, con una bonificación de { $bonus }.
andes-game-running = Aún en juego.
andes-decided-points = por puntos
andes-decided-pieces_on_board = con más piezas en el tablero
andes-decided-luna = como Luna (empate a puntos y a piezas)
andes-decided-flag_fell = al caer la bandera del rival
andes-decided-resigned = por abandono del rival
# $player (String), $total (String: un número en la forma del lector)
andes-total = { $player }: { $total }
andes-match-won = { $player } gana el encuentro
andes-match-drawn = El encuentro termina en empate
andes-match-running = El encuentro sigue
# $player, $value, $band (String)
andes-level = Nivel de { $player }: { $value }, { $band } (de las partidas ganadas)
andes-no-level = { $player } aún no tiene nivel: ninguna partida ganada
andes-band-copper = cobre
andes-band-silver = plata
andes-band-gold = oro
