# Lo que imprime la organización: español. Cada mensaje tiene su gemelo inglés en en/paper.ftl
# (una prueba comprueba que ambos nombran los mismos mensajes). Los roles y naciones están en rules.ftl.

## La hoja de acceso de las tabletas (ledgerctl tournament tables)
paper-tables-title = Tabletas de { $tournament }
paper-tables-intro = Escanea el código de cada mesa con la tableta de esa mesa: entra como la mesa y abre la partida que la mesa juega ahora, ronda tras ronda.
paper-tables-secret = Esta hoja contiene los códigos de acceso de las mesas: guárdala la organización y destrúyela al acabar el torneo. Imprimir la hoja de nuevo añade códigos nuevos y no anula ninguno: el código de una mesa se anula en la página de códigos.
paper-table = Mesa { $table }
paper-table-actor = entra como { $actor }

## El papel del día (lo sirve ledgerd)
paper-index-title = Papel de { $tournament }
paper-index-lead = Imprime cada página desde el navegador (A4). Las páginas salen del libro de registro tal como está ahora.
paper-index-link = papel para imprimir
paper-round = Ronda { $round }
paper-final = Final
paper-pairings = Emparejamientos
paper-sheets = Plantillas de reporte de la partida
paper-standings = Clasificación final
paper-pairings-title = Emparejamientos, ronda { $round }
paper-col-table = Mesa
paper-col-game = Partida
paper-col-player = Jugador
paper-col-nations = Naciones
paper-col-role = Rol
paper-col-nation = Nación
paper-col-left-turn = Abandona en el turno
paper-col-score = Puntuación
paper-col-final-score = Puntuación de la partida
paper-col-rank = #
paper-col-games = Partidas
paper-col-total = Total
paper-col-decided = Decidido por
paper-sheet-title = Reporte de la partida: { $game }
paper-sheet-where = { $tournament } · ronda { $round } · mesa { $table }
paper-sheet-qr = Abre la página de mesa de esta partida
paper-sheet-pompadour = Pompadour anota
paper-sheet-start = Hora de inicio
paper-sheet-first-fate = Primera Carta del Destino
paper-sheet-fate-turn = en el turno
paper-sheet-jury = El jurado anota las puntuaciones
paper-sheet-nations = La puntuación de cada nación cuando abandona el juego, por una Carta del Destino o al final
paper-sheet-players = La puntuación de la partida de cada jugador
paper-sheet-signature = Miembro del jurado y firma
paper-sheet-digest = Huella del registro
paper-sheet-rule = Pompadour anota los nombres de los jugadores, la hora de inicio de la partida y más tarde la primera Carta del Destino; una vez la partida concluye llama a un jurado, quien anota las puntuaciones.
paper-standings-title = Clasificación final: { $tournament }
paper-standings-provisional = Provisional: { $count } partidas no han terminado ({ $games }).
paper-finalists = Finalistas
paper-withdrawn = { $after ->
    [0] se retiró antes de la ronda 1
   *[other] se retiró tras la ronda { $after }
}
paper-stand-in = suplente { $n }
paper-stand-ins = Suplentes (sin clasificar)
paper-winner = Ganador: { $player }
paper-final-pending = La final aún no está decidida.
paper-decided-total = total
paper-decided-unresolved = sin resolver (hace falta un sorteo)
paper-decided-final = decidido por: { $how }
paper-tb-second_best_sum = suma de las segundas mejores
paper-tb-stcc = sTCC
paper-tb-tcc = TCC
paper-tb-opponents_quality = calidad de los rivales
paper-tb-not_used_points = puntos no usados
paper-tb-attacker_spread = dispersión de los atacantes
paper-tb-frederick_points = puntos con Federico
paper-tb-lot = sorteo
# Por qué un desempate no está disponible (la razón de replay, dicha aquí; los roles, de rules.ftl).
paper-tb-unavailable = no disponible: { $why }
paper-tb-why-no-attacking-game = ninguna partida de { $elisabeth } o { $maria_theresa } ha terminado
paper-tb-why-no-frederick-game = ninguna partida de { $frederick } ha terminado
paper-tb-why-no-attacker-scores = la partida de { $frederick } no tiene puntuaciones de los atacantes
paper-tb-why-no-lot = no se ha sorteado
paper-tb-why-game = partida { $game }: { $why }
paper-tb-why-no-tactical-card = no se repartió ninguna carta táctica a una nación atacante
paper-tb-why-no-tcc = no hay TCC
paper-tb-why-not-ended = la partida no ha terminado
paper-tb-why-no-fate-horizon = no se registró el horizonte del destino y la partida no acabó en victoria defensiva prusiana
paper-tb-why-no-stcc-in-ruleset = { $ruleset } no usa sTCC
paper-no-round = La ronda { $round } no tiene partidas en este torneo.
paper-no-games = Este torneo aún no tiene partidas: sortea primero las rondas clasificatorias.
paper-refused = Imprimir el papel del día requiere el código de la organización o del jurado.
paper-no-table = La mesa { $table } no tiene partida en el torneo { $tournament }.
paper-final-by-only_winner = el único ganador
paper-final-by-most_winning_nations = más naciones ganadoras
paper-final-by-fewest_qualifying_wins = menos victorias clasificatorias con el rol
paper-final-by-cafe_role_order = el orden de roles CAFE
paper-final-by-lot = el sorteo registrado
paper-final-by-unresolved = sin resolver
paper-final-by-not_ended = sin terminar

# HELPER BOARD — la clasificación final impresa (web/paper.rs)
paper-champion-mark = gana el torneo
## Los enlaces personales de los jugadores (issue 33)
# $tournament (String) - el nombre del torneo
links-title = Enlaces personales de los jugadores · { $tournament }
links-lead = Entrega a cada jugador su tarjeta, o envía la lista por correo: el enlace abre la página del jugador (su mesa, sus próximas partidas y sus puntuaciones) sin iniciar sesión. Solo nombra a la gente por seudónimo; aun así, guarda las tarjetas en privado.
links-qr = mi torneo
links-csv = La lista en CSV, para enviarla
paper-player-links = El enlace personal y el código QR de cada jugador
paper-public-pairings = Los emparejamientos públicos de esta ronda (por seudónimo, para la pared)
# $table (Number), $count (Number)
paper-tables-reissued = Esta hoja contiene el código nuevo de la mesa { $table }: guárdala la organización. Sustituye { $count ->
    [0] a ningún código anterior
    [one] al código anterior de la mesa, ya anulado
   *[other] a los { $count } códigos anteriores de la mesa, ya anulados
}: una tableta que entró con uno de ellos debe escanear este.
# $reason (String), $count (Number), $games (String) - the games' ids
paper-note-games = { $reason } — { $count ->
    [one] partida
   *[other] partidas
} { $games }
