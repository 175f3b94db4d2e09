# El modo de registro de Andes (/andes/<match>/record, andes-table.js): la tableta del tercero
# que, según el artículo 9.1 de las leyes de Andes, registra cada jugada.

index-andes-record = la tableta del registro
record-title = Registro de { $match }
record-watch-only = Puede seguir este encuentro; para registrarlo, inicie sesión con el código de la mesa.
record-viewer-link = El tablero, las jugadas y los puntos (solo lectura)
record-no-match = el encuentro aún no se ha creado: lo crea un organizador
record-phase-not-started = no ha empezado ninguna partida
record-phase-turn = partida { $game } · juega { $side } · { $moves ->
    [one] 1 jugada
   *[other] { $moves } jugadas
}
record-phase-ended = partida { $game } terminada: { $reason } ({ $side })
record-phase-over = el encuentro ha terminado
record-start-game = Empezar la partida { $game }
record-flag-fell = Cayó la bandera de { $side }: registrarla
record-resign = { $side } abandona
record-flip = Tablero desde el lado de { $side }
record-points = { $points } puntos
record-reserve = Reserva de { $side }: { $count }
record-selected-piece = Elegida la pieza tipo { $kind } de { $square }: toque la casilla a la que va
record-selected-reserve = Elegida una pieza tipo { $kind } de la reserva: toque la casilla donde se coloca
record-pick-first = Toque una pieza de { $side }, o un tipo de pieza de la reserva, y luego una casilla
record-side-sol = Sol
record-side-luna = Luna
record-kind-persona = persona
record-kind-estatal_left = estatal a la izquierda
record-kind-militar = militar
record-kind-estatal_right = estatal a la derecha
record-region-centre = el gobierno
record-region-sierra = sierra
record-region-jungle = selva
record-region-coast = costa
record-region-island = una isla
record-region-ocean = océano
record-reason-continent_emptied = perdió el continente
record-reason-no_legal_move = sin jugada posible
record-reason-flag_fell = cayó la bandera
record-reason-resigned = abandonó
# Una caída de bandera o un abandono terminan la partida: un segundo toque lo confirma.
record-confirm-flag = ¿Registrar que cayó la bandera de { $side }? La partida termina y { $side } la pierde.
record-confirm-resign = ¿Registrar que { $side } ({ $player }) abandona? La partida termina y { $side } la pierde.
record-confirm-yes = Sí, registrarlo
record-confirm-no = Cancelar
# Los ganadores: $how es uno de record-won-by-*.
record-game-won = Partida { $game }: gana { $player } ({ $side }), { $how }
record-won-by-flag_fell = al caer la bandera del rival
record-won-by-resigned = por abandono del rival
record-won-by-points = por más puntos
record-won-by-pieces_on_board = empatados a puntos, por más piezas en el tablero
record-won-by-luna = empatados a puntos y piezas: gana Luna
record-match-won = Gana el encuentro { $player }: { $won } puntos a { $lost }, con las bonificaciones
record-match-drawn = El encuentro termina empatado: { $points } puntos cada uno y las mismas piezas en el tablero
record-match-pending = El encuentro ha terminado: el ganador se nombra cuando el ledger haya registrado el final

# Los eventos del encuentro como los lista la tableta y los lee el jurado: $time es la hora de
# mesa h:mm:ss; las casillas, como las escribe la notación.
record-event-match_created = El encuentro: { $sol } juega con Sol la partida 1 y { $luna } con Luna; { $minutes } minutos cada uno
record-event-game_started = Empezó la partida { $game } a las { $time }
record-event-placed = Pieza tipo { $kind } colocada en { $square } a las { $time }
record-event-moved = Pieza tipo { $kind } movida de { $from } a { $to } a las { $time }
record-event-move_played = La jugada { $notation } a las { $time }
record-event-piece_attacked = La pieza tipo { $kind } de { $owner } en { $square } fue atacada y salió del juego
record-event-piece_captured = La pieza tipo { $kind } de { $owner } en { $square } fue capturada
record-event-game_ended = Terminó la partida: { $side }, { $reason }
record-event-flag_fell = Cayó la bandera de { $side } a las { $time }
record-event-resigned = { $side } abandonó a las { $time }
record-event-name-match_created = la creación del encuentro
record-event-name-game_started = el inicio de una partida
record-event-name-move_played = una jugada
record-event-name-piece_attacked = un ataque
record-event-name-piece_captured = una captura
record-event-name-game_ended = el final de una partida
record-event-name-flag_fell = una caída de bandera
record-event-name-resigned = un abandono
record-seat-first_sol = Sol en la partida 1
record-seat-first_luna = Luna en la partida 1
