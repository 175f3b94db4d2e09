# Páginas del Tournament Ledger: español. Cada mensaje tiene su gemelo inglés en en/pages.ftl
# (una prueba comprueba que ambos nombran los mismos mensajes). Los nombres de naciones, papeles,
# bandos, motivos de parada y resultados, y los rechazos de las reglas, están en rules.ftl.

site-name = Tournament Ledger
nav-signin = Iniciar sesión
lang-other = English
who-public = público
who-unknown = token desconocido: vuelva a iniciar sesión
who-open = ledgerd abierto

## La página de la mesa
table-title = Partida { $game }
table-no-ruleset = aún sin reglamento
table-phase-not-started = sin empezar
table-phase-turn = turno { $turn }
table-phase-ended = terminada en el turno { $turn }: { $outcome }
table-watch-only = Puedes seguir esta partida; para registrar, entra con el token de la mesa.
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
