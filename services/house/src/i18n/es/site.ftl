# Las páginas del sitio en español: el inicio, el inicio de sesión, la clasificación, el visor
# del jurado, la página de analistas y cada rechazo que muestra una página. Cada mensaje tiene
# su gemelo inglés en en/site.ftl. Los nombres de naciones, papeles, bandos, resultados y
# reglamentos están en rules.ftl. Los números llegan ya escritos para el idioma (coma decimal).

## Autorizaciones (los papeles del fichero de autenticación).

## El inicio
index-title = Inicio
index-tournaments = Torneos
index-andes = Encuentros de Andes
index-none = ninguno todavía
index-board = clasificación
index-andes-board = tablero
index-andes-luna = lado de Luna
index-open = Abrir una página
open-board = Clasificación del torneo
open-table = Página de mesa de la partida
open-jury = Repetición del jurado de la partida
open-andes = Tablero de Andes del encuentro
open-button = Abrir
index-analyst = Estadísticas de papeles y naciones

## La temporada en el inicio (la misma lista que ledgerctl tournament list), lo más nuevo primero
season-lead = Cada torneo y encuentro de Andes de este libro de registro, lo más nuevo primero.
season-games-hint = Se llega a una partida desde la clasificación y el papel de su torneo, o aquí por su id.
season-col-tournament = Torneo
season-col-ruleset = Reglamento
season-col-year = Año
season-col-players = Jugadores
season-col-state = Estado
season-col-paper = Papel
# $count (Number) - jugadores inscritos; $withdrawn (Number) - de ellos, retirados
season-players-withdrawn = { $count } ({ $withdrawn } { $withdrawn ->
    [one] retirado
   *[other] retirados
})
season-state-registering = inscripción
season-state-drawn = sorteado, sin empezar
# $round (Number)
season-state-round = ronda { $round }
season-state-final = final
season-state-ended = terminado
season-col-andes-match = Encuentro
season-col-andes-players = Jugadores (Sol – Luna)
season-col-andes-games = Partidas terminadas
season-col-andes-won = Partidas ganadas
season-col-andes-state = Estado
season-andes-playing = en juego
# $winner (String) - el id de un jugador
season-andes-won = terminado: ganó { $winner }
season-andes-tied = terminado: empate

## Inicio de sesión
signin-title = Iniciar sesión
signin-token = Código de acceso
signin-button = Entrar
signin-token-hint = El código de acceso que le dio la organización (creado con ledgerctl new-token). Se guarda en una cookie que solo recibe este sitio y que los scripts de la página no pueden leer.
signin-open-hint = Este ledgerd funciona abierto (sin fichero de autenticación): elija quién es y su autorización, como harían ledgerctl --actor … --clearance ….
signin-actor = Actor
signin-clearance = Autorización
signin-use = Usar esta autorización
signin-actor-invalid = Un actor tiene de 1 a 64 caracteres imprimibles.
signout = Cerrar sesión

## Rechazos, tal como los muestra una página (el código de máquina queda en data-code y en las rutas JSON).
error-title = No se puede mostrar esta página
error-unknown-token = Código desconocido: vuelva a iniciar sesión.
signin-code-spent = Con el código de esta mesa ya entró su tableta. Pida a la organización que deje entrar a un dispositivo más o que dé otro código a la mesa.
error-needs-signin = Esta página necesita un código de acceso: inicie sesión.
error-not-cleared = Su autorización no abre esta página.
error-not-found = No hay nada registrado con este nombre: revise la dirección.
# $id (String)
error-no-tournament = No existe el torneo { $id }.
# $id (String)
error-no-game = No existe la partida { $id }.
# $id (String)
error-no-match = No existe el encuentro de Andes { $id }.
error-no-page = Esa página no existe.
error-no-language = Las páginas están solo en español y en inglés.
error-invalid = El ledger no puede leer lo que pide esta dirección.
error-precondition = El ledger no puede mostrar esto con los eventos registrados.
error-unavailable = El ledger está ocupado: inténtelo de nuevo en un momento.
error-internal = Algo ha fallado dentro de ledgerd.
error-signin = Iniciar sesión con un código de acceso que pueda ver esta página
error-home = Volver al inicio
error-cross-site = Se rechaza un formulario enviado desde otro sitio.
error-jury-signin = El visor de repetición necesita el código del jurado: inicie sesión.
# $actor (String); $clearance (String)
error-jury-only = El visor de repetición es para el jurado; { $actor } tiene autorización de { $clearance ->
    [public] público
    [analyst] analista
    [table] mesa
    [organiser] organizador
   *[other] { $clearance }
}.
# $year (String)
error-bad-year = «{ $year }» no es un año.
error-bad-ruleset = «{ $ruleset }» no es un reglamento: wm2015, cafe2019 o cafe2023.
# $max (String)
error-too-many-live = Este ledgerd ya sirve { $max } páginas en directo: recargue más tarde.
error-too-many-live-yours = Ya sigue { $max } páginas en directo: cierre alguna o recargue más tarde.

## La línea de estado de las páginas en directo
live-now = en directo
# $time (String)
live-updated = en directo · actualizado a las { $time }
live-reconnecting = reconectando…

## La clasificación
# $tournament (String)
board-title = Clasificación { $tournament }
board-player = Jugador
board-games = Partidas
board-total = Total
board-tie-breakers = Desempates
board-decided-total = por total
# $index (String); $name (String)
board-decided-tie-breaker = por el desempate { $index } ({ $name })
board-decided-unresolved = empatados: aún sin sorteo
# $players (String)
board-finalists = finalistas: { $players }
# $players (String)
board-finalists-so-far = finalistas por ahora: { $players }
# $after (Number) - la última ronda que jugó antes de retirarse, 0 antes de la primera
board-withdrawn = { $after ->
    [0] se retiró antes de la ronda 1
   *[other] se retiró tras la ronda { NUMBER($after, useGrouping: 0) }
}
# $n (Number) - el orden de inscripción del suplente
board-stand-in = suplente { NUMBER($n, useGrouping: 0) }
# $players (String)
board-stand-ins = suplentes, sin clasificar: { $players }
board-running = Partidas en juego
board-none = ninguna
# $turn (Number)
board-turn = turno { NUMBER($turn, useGrouping: 0) }
board-no-clock = aún sin reloj
board-final = La final
board-checkpoint = Checkpoint firmado del registro
board-checkpoint-help = Fotografíelo: con la clave pública del ledger, `ledgerctl verify-proof` comprueba sin conexión que los eventos de una partida están en el registro que firmó.
board-checkpoint-witnesses = cofirmado por los testigos { $witnesses }
board-winner = Ganador
# Las palabras del valor de un desempate.
board-tb-game = partida
board-tb-variance = varianza
board-tb-drawn = n.º

tiebreak-second_best_sum = suma de segundos mejores
tiebreak-stcc = sTCC
tiebreak-tcc = TCC
tiebreak-opponents_quality = calidad de los rivales
tiebreak-not_used_points = puntos no usados
tiebreak-attacker_spread = dispersión de los atacantes
tiebreak-frederick_points = puntos con Federico
tiebreak-lot = sorteo

final-decided-not_ended = aún sin decidir
final-decided-only_winner = único ganador
final-decided-most_winning_nations = más naciones ganadoras
final-decided-fewest_qualifying_wins = menos victorias clasificatorias con el papel
final-decided-cafe_role_order = orden de papeles de CAFE
final-decided-lot = por sorteo
final-decided-unresolved = empatados: aún sin sorteo

## El visor de repetición del jurado
# $game (String)
jury-title = Jurado { $game }
# $game (String)
jury-heading = Repetición del jurado: partida { $game }
# $last (Number)
jury-digest = Tras el evento { NUMBER($last, useGrouping: 0) }: resumen
jury-chain-ok = la cadena se verifica
# $seq (Number)
jury-chain-broken = la cadena se rompe en el evento { NUMBER($seq, useGrouping: 0) }:
jury-report = el informe (Markdown, en inglés)
jury-chain-head = cabeza de la cadena
jury-first = « primero
jury-back = ◀ atrás
jury-next = siguiente ▶
jury-last = último »
jury-slider = evento
jury-ledger-text = El estado de la partida, cada evento y cada anulación se dicen a partir de lo que registró el ledger; las diferencias nombran las rutas de ledgerctl audit --json. El informe guarda el texto del propio ledger, tal como lo imprime ledgerctl audit.
# $at (Number)
jury-point = La partida tras el evento { NUMBER($at, useGrouping: 0) }
jury-compare = Comparar con el evento
jury-show-diff = Mostrar las diferencias
# $from (Number); $to (Number)
jury-diff-title = Del evento { NUMBER($from, useGrouping: 0) } al evento { NUMBER($to, useGrouping: 0) }
jury-no-difference = ninguna diferencia
jury-every-event = Todos los eventos

## La página de analistas
analyst-page = Estadísticas
analyst-title = Estadísticas de papeles y naciones
filter-ruleset = Reglamento
filter-tournament = Torneo
filter-stage = Fase
filter-year = Año
filter-any = cualquiera
filter-go = Filtrar
stage-qualifying = clasificatoria
stage-final = final
# $count (Number)
analyst-games = { $count ->
    [one] 1 partida
   *[other] { NUMBER($count, useGrouping: 0) } partidas
}
analyst-csv = estas cifras en CSV
# $count (Number) - torneos cuyas partidas se contaron
analyst-covers = { $count ->
    [one] Estas cifras cubren las partidas de 1 torneo:
   *[other] Estas cifras cubren las partidas de { $count } torneos:
}
analyst-covers-none = Estas cifras no cubren partidas de ningún torneo.
analyst-chart-role-rate = Porcentaje de victorias por papel, con el intervalo del 95 % (Wilson)
analyst-chart-nation-rate = Porcentaje de victorias por nación, con el intervalo del 95 % (Wilson)
analyst-chart-role-score = Puntuación media por papel
analyst-chart-nation-score = Puntuación media por nación
# $value (Number)
analyst-percent = { NUMBER($value, useGrouping: 0) } %
# $wins (String); $games (String); $rate (String)
analyst-bar = { $wins } victorias de { $games } partidas: { $rate }
analyst-col-role = Papel
analyst-col-nation = Nación
analyst-col-games = Partidas
analyst-col-wins = Victorias
analyst-col-rate = Porcentaje de victorias
analyst-col-interval = Intervalo del 95 %
analyst-col-score = Puntuación media

# HELPER BOARD — la clasificación en un proyector y un móvil (web/board.rs, board_sections.rs)
board-champion = Gana el torneo:
# $how (String): cómo se decidió la final (final-decided-*)
board-champion-how = La final se decidió: { $how }
board-lineup = Participantes
# $count (Number)
board-lineup-count = { $count ->
    [one] 1 jugador inscrito
   *[other] { $count } jugadores inscritos
}
# $round (Number)
board-lineup-table = Mesa en la ronda { NUMBER($round, useGrouping: 0) }
board-lineup-not-drawn = Mesa (aún sin sorteo)
# $round (Number)
board-next-round = Próxima: ronda { NUMBER($round, useGrouping: 0) }
board-next-final = Próxima: la final
# $table (Number)
board-table = Mesa { NUMBER($table, useGrouping: 0) }
board-projector-link = Mostrar en un proyector
## Cada jugador tiene su página (issue 33): mi torneo, los emparejamientos públicos
# $tournament (String) - el id del torneo
me-unknown-link = Este enlace personal no es de ningún jugador del torneo { $tournament }. Revisa el enlace o el código QR que te dio la organización.
# $table (Number)
me-table = Mesa { NUMBER($table, useGrouping: 0) }
me-now = Mi partida ahora
me-next = Mis próximas partidas
me-nothing-left = No te queda ninguna partida por jugar.
me-not-drawn = Aún no se ha sorteado ninguna partida tuya: vuelve después del sorteo.
me-playing = en juego
me-not-started = aún sin empezar
me-ended = terminada
me-follow = Síguela en el marcador
# $role (String) - el nombre del rol
me-as = como { $role }
me-against = con
me-scores = Mis puntuaciones
# $rank (Number), $of (Number) - cuántos se clasifican
me-rank = Puesto { NUMBER($rank, useGrouping: 0) } de { NUMBER($of, useGrouping: 0) }
me-stand-in-unranked = Los suplentes no se clasifican.
me-finalist = Estás entre los finalistas.
# $role (String) - el nombre del rol
me-final-role = Juegas la final como { $role }.
me-tournament-over = El torneo ha terminado: no queda ninguna partida por jugar.
me-final-next = Tu próxima partida es la final, cuando la organización la programe.
# $role (String) - the role's name
me-final-played = Jugaste la final como { $role }.
# $champion (String) - the champion's public name
me-champion = La final ha terminado: { $champion } es quien gana el torneo.
me-champion-you = La final ha terminado: ¡has ganado el torneo!
me-champion-undecided = La final ha terminado; falta el sorteo que decide quién gana.
me-board = La clasificación en directo
pairings-all = Todos los emparejamientos
# $round (String) - the round's name
pairings-previous = ← { $round }
# $round (String) - the round's name
pairings-next = { $round } →
# $tournament (String) - el nombre del torneo
pairings-title = Emparejamientos · { $tournament }
pairings-col-player = Jugador
pairings-none = Aún no se ha sorteado ninguna ronda.
# --- La página de códigos de la organización (web::codes, issue 33) ---
# $tournament (String)
codes-title = Códigos de { $tournament }
codes-lead = Los códigos con los que entran las tabletas, el jurado y la organización. Imprimir una hoja o dar un código no saca a nadie; anularlo sí, al momento.
codes-tables = Mesas
codes-people = Jurado y organización
codes-print-sheet = Imprimir la hoja de las tabletas
codes-print-hint = Un código nuevo para cada mesa: las tabletas que ya entraron siguen dentro.
codes-col-codes = Códigos
codes-col-devices = Dispositivos dentro
# $time (String) - cuándo entró el dispositivo, HH:MM UTC
codes-device-since = entró a las { $time }
codes-device-end = Sacar este dispositivo
codes-no-devices = Aún no ha entrado ningún dispositivo.
codes-device-admit = Dejar entrar a un dispositivo más
# $count (Number)
codes-held = { $count ->
    [0] ningún código
    [one] 1 código
   *[other] { $count } códigos
}
codes-reissue = Dar otro código a esta mesa
codes-revoke = Anular
codes-no-tables = Aún no hay partidas en las mesas: sortea primero las rondas clasificatorias.
codes-no-people = Aún nadie del jurado ni de la organización tiene un código de esta página.
codes-name = Nombre
codes-limit-here = Solo para este torneo
codes-scoped-only = Tu código gestiona solo este torneo: los códigos que des registran solo en él.
codes-issue = Dar un código
codes-everywhere = todos los torneos
codes-this-tournament = este torneo
# $name (String)
codes-person-title = El código de { $name }
codes-shown-once = Este código se muestra solo ahora: da el enlace o el código QR a quien lo va a usar, que entra al abrirlo. Nadie puede volver a mostrarlo; si se pierde, anúlalo y da otro.
codes-back = Volver a los códigos
codes-refused = Solo la organización gestiona los códigos de este torneo.
codes-cannot = El registro no puede cambiar sus códigos.
codes-full = El registro ya guarda tantos códigos como admite: anula algunos antes de dar más.
codes-name-invalid = Un nombre tiene de 1 a 64 caracteres imprimibles y no es el nombre de una mesa.
# $table (String)
codes-no-such-table = Ninguna partida de este torneo está en la mesa { $table }.
codes-no-such-person = En esta página no se gestiona ningún código con ese nombre.

# $table (Number)
codes-reissue-title = Mesa { $table }: un código nuevo
# $table (Number), $actor (String), $codes (Number), $signed_in (Number)
codes-reissue-cancels = Un código nuevo para la mesa { $table } anula { $codes ->
    [0] los códigos que tiene (ahora ninguno)
    [one] el código que tiene
   *[other] los { $codes } códigos que tiene
} como { $actor } y saca al momento { $signed_in ->
    [0] a las tabletas que entraron con ellos (ahora ninguna)
    [one] a la tableta que entró con ellos
   *[other] a las { $signed_in } tabletas que entraron con ellos
}. Sus tabletas vuelven a entrar con la hoja nueva.
codes-reissue-confirm = Anularlos e imprimir el código nuevo
