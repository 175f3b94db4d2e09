# Páginas del Tournament Ledger: español. Cada mensaje tiene su gemelo inglés en en/pages.ftl
# (una prueba comprueba que ambos nombran los mismos mensajes). Los nombres de naciones, papeles,
# bandos, motivos de parada y resultados, y los rechazos de las reglas, están en rules.ftl.

site-name = Tournament Ledger
nav-signin = Iniciar sesión
nav-signout = Cerrar sesión
lang-other = English
who-public = público
who-unknown = código desconocido: vuelva a iniciar sesión
who-open = ledgerd abierto
who-table = mesa { $table } de { $tournament }

## La página de la mesa
table-title = Partida { $game }
table-no-ruleset = aún sin reglamento
table-phase-not-started = sin empezar
table-phase-turn = turno { $turn }
table-phase-ended = terminada en el turno { $turn }: { $outcome }
table-watch-only = Puedes seguir esta partida; para registrar, entra con el código de la mesa.
table-noscript = La página de la mesa necesita JavaScript: guarda cada toque en esta tableta hasta que el ledger lo tiene.
table-loading = Cargando la partida…
table-never-seen = Esta tableta aún no ha abierto esta partida y el ledger no responde. Ábrela una vez con conexión.
table-start-failed = Esta página no pudo arrancar en esta tableta: no se pudo leer su almacenamiento o sus textos. Recárgala; si vuelve a fallar, anota la partida en papel y avisa al jurado.
table-tap-hand-over = toca para pasar el reloj
table-tap-start = toca para ponerlo en marcha
table-time-ran-out = tiempo agotado
table-stop = Parar: { $reason }
table-clock-stopped = Reloj parado: { $reason }
table-stopwatch = Cronómetro ({ $who }): quedan { $left } de { $allowance }
table-stopwatch-over = excedido en { $over }
table-start-game = Empezar la partida
table-ruleset = Reglamento
table-start-turn = Empezar el turno { $turn }
table-nation = Nación
table-start-stage = Empezar fase de acción
table-end-stage = Terminar la fase de acción de { $nation }
table-retreat-length = Longitud de la retirada
table-start-retreat = Empezar retirada
table-end-retreat = Terminar retirada
table-cards = Cartas
table-record-tc = Anotar cartas tácticas repartidas
table-objectives-held = Objetivos en poder
table-objectives-of = de
table-record-drop = Anotar la salida
table-switch-to = Pasa a
table-switch-ia = Cambiar el Ejército Imperial
table-set-aside = Carta táctica apartada (valor)
table-launch-offensive = Lanzar la ofensiva
table-austria-claims = Objetivos que reclama Austria
table-record-claim = Anotar la reclamación de Austria
table-pick-up = Austria recoge la carta táctica apartada
table-bohemian = Objetivos bohemios en poder de Prusia
table-call-off = Suspender la ofensiva
table-outcome = Resultado
table-winners = Ganadores
table-end-game = Terminar la partida
table-reason = Motivo
table-call-jury = Llamar al jurado
table-score-sheet = Hoja de puntuación
table-last-events = Últimos eventos
table-waiting-events = Pendientes en esta tableta
table-not-a-number = { $field } debe ser un número entero
table-at = Mesa { $table }, ronda { $round }
table-at-final = Mesa { $table }, la final
table-deal = Repartir las cartas de siempre del turno { $turn }
table-deal-changed = Repartir estas cartas
table-deal-legend = Cartas tácticas de este turno: cambia una nación solo si una Carta del Destino reduce su reparto.
table-dealt-all = Cartas tácticas repartidas en el turno { $turn }.
table-more-stage = Fase de acción o retirada
table-more-drop = Una nación abandona
table-more-switch = El Ejército Imperial cambia de manos
table-more-offensive = La ofensiva prusiana
table-more-end = Terminar la partida
table-more-jury = Llamar al jurado
table-close = Cerrar
table-take-back = Deshacer
table-taken-back = Deshecha: nunca llegó al ledger.
table-take-back-too-late = Esa acción ya va camino del ledger: cuando quede registrada, pide al jurado que la corrija.
table-correct = Corregir…
table-correct-title = Pedir al jurado que corrija este evento
table-correcting = Pedir al jurado que corrija el evento { $seq }: { $event }
table-correct-should = Cómo debería ser
table-correct-send = Pedir al jurado que lo corrija
table-correct-empty = Di cómo debería ser.
table-correction-reason = La mesa pide corregir el evento { $seq } ({ $event }): debería ser: { $should }
table-score-pending = pendiente
table-score-running = Turno { $turn }, la partida sigue:
table-score-ended = Terminada en el turno { $turn }: { $outcome }
table-score-in-game = sigue en la partida
table-score-won = ganó, { $score } puntos
table-score-lost = { $score } puntos
table-score-out = abandonó en el turno { $turn } con { $held } de { $total } objetivos, { $score } puntos
table-score-held = { $held } de { $total } objetivos, { $score } puntos
table-event-unknown = Un evento que la mesa no registra
table-event-objectives-of = { $nation } { $held } de { $total }
table-event-game_started = La partida empezó a las { $time }
table-event-turn_started = Empezó el turno { $turn }
table-event-tc_dealt = { $count ->
    [one] { $nation } recibió 1 carta táctica
   *[other] { $nation } recibió { $count } cartas tácticas
}
table-event-clock_started = El reloj de { $side } se puso en marcha a las { $time }
table-event-clock_pressed = Se pasó el reloj a las { $time }
table-event-clock_stopped = Se paró el reloj ({ $reason }) a las { $time }
table-event-action_stage_started = Empezó la fase de acción de { $nation } a las { $time }
table-event-action_stage_ended = Terminó la fase de acción de { $nation } a las { $time }
table-event-retreat_started = Empezó una retirada de { $length } a las { $time }
table-event-retreat_ended = Terminó la retirada a las { $time }
table-event-fate_card_drawn = Carta del Destino robada: { $card }
table-event-nation_dropped_out = { $nation } abandonó con { $objectives_held } de { $objectives_total } objetivos
table-event-imperial_army_switched = El Ejército Imperial pasó a { $to } con { $objectives_held } de { $objectives_total } objetivos
table-event-offensive_launched = Federico lanzó la ofensiva y apartó una carta de { $set_aside_tc }
table-event-austria_claimed_objectives = Austria reclamó { $count } objetivos
table-event-set_aside_tc_picked_up = Austria recogió la carta que apartó Federico
table-event-offensive_called_off = Se suspendió la ofensiva, con { $bohemian_held_by_prussia } objetivos de Bohemia en manos de Prusia
table-event-game_ended = La partida terminó: { $outcome }; ganadores { $winners }; objetivos { $objectives }
table-event-fate_horizon_recorded = El jurado leyó el Reloj del Destino: turno { $turn }
table-event-jury_called = Se llamó al jurado: { $reason }
table-event-jury_ruling = El jurado resolvió: { $text }
table-event-event_voided = El jurado anuló el evento { $seq }: { $reason }
table-event-name-game_started = el inicio de la partida
table-event-name-turn_started = el inicio de un turno
table-event-name-tc_dealt = el reparto de cartas tácticas
table-event-name-clock_started = la puesta en marcha del reloj
table-event-name-clock_pressed = un paso del reloj
table-event-name-clock_stopped = la parada del reloj
table-event-name-action_stage_started = el inicio de una fase de acción
table-event-name-action_stage_ended = el final de una fase de acción
table-event-name-retreat_started = el inicio de una retirada
table-event-name-retreat_ended = el final de una retirada
table-event-name-nation_dropped_out = el abandono de una nación
table-event-name-imperial_army_switched = el cambio de manos del Ejército Imperial
table-event-name-offensive_launched = el lanzamiento de la ofensiva
table-event-name-austria_claimed_objectives = la reclamación de Austria
table-event-name-set_aside_tc_picked_up = la recogida de la carta apartada
table-event-name-offensive_called_off = la suspensión de la ofensiva
table-event-name-game_ended = el final de la partida
table-event-name-jury_called = una llamada al jurado

## Cómo está la mesa con el ledger
sync-all-recorded = Todo registrado
sync-waiting = { $count ->
    [one] 1 acción pendiente: aún no está en el ledger
   *[other] { $count } acciones pendientes: aún no están en el ledger
}
sync-offline = sin conexión: se guardan en esta tableta y se envían en cuanto el ledger responda
sync-sending = enviando…
sync-refused = { $count ->
    [one] 1 acción rechazada: mira abajo
   *[other] { $count } acciones rechazadas: mira abajo
}
sync-conflict = { $count ->
    [one] Otro dispositivo registró 1 evento entretanto: tus acciones pendientes se han vuelto a decidir.
   *[other] Otro dispositivo registró { $count } eventos entretanto: tus acciones pendientes se han vuelto a decidir.
}
sync-signin = El ledger pide que esta tableta vuelva a entrar: tus acciones siguen aquí hasta entonces.
sync-not-kept = Esta tableta no pudo guardar esa acción: NO está registrada y no se enviará. Vuelve a hacerla.
refused-title = Rechazadas: se conservan en esta tableta
refused-tapped-at = tocada a las { $time }
refused-hand-to-jury = Entregarlas al jurado
refused-export = Exportar
refused-handed = Entregadas al jurado como evento { $seq }.
refused-jury-text = Acciones rechazadas por el ledger, conservadas por la mesa { $actor }: { $actions }
refusal-by-ledger = El ledger lo rechazó: { $message }
refusal-stale = La partida siguió: otro dispositivo registró antes.
refusal-exhausted = Esta partida ya tiene todos los eventos que una partida puede necesitar: llama al jurado, que revisará qué la llenó.
refusal-unreachable = El ledger no responde.
manifest-table = Mesa

# The plain-HTTP port's redirect to HTTPS (issue 34, ledgerd --http-redirect-listen).
redirect-unknown-host = Esta dirección no es de este registro. Abra la dirección que le dio la organización, la que empieza por https://.
# Clearances, as the header names who is signed in (the table's script rewords it).
clearance-public = público
clearance-analyst = analista
clearance-table = mesa
clearance-organiser = organizador
clearance-jury = jurado

# Un jugador sin seudónimo, numerado por el ledger.
alias-player = jugador { $n }
alias-stand-in = suplente { $n }
