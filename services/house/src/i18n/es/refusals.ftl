# Todos los rechazos de las reglas que no están en rules.ftl ni en andes-rules.ftl: los del
# torneo, las anulaciones y los flujos, los del escritor, las comprobaciones entre flujos, las
# órdenes del organizador y las formas de entrada incorrecta. El ledger da el id y los
# argumentos tipados; la página los dice aquí. Los nombres llegan ya traducidos; los
# jugadores, por su nombre registrado.

## El marco de cualquier rechazo.

refusal-in-event = Evento { $event }: { $sentence }
refusal-kind-malformed = El ledger no puede registrarlo tal como está escrito.
refusal-kind-precondition = El ledger no puede registrarlo ahora.
refusal-kind-duplicate = El identificador de este evento ya se usó para otro evento.
refusal-kind-not-allowed = Su sesión no permite registrarlo.

## Rechazos de la partida que el guion de la mesa no encuentra.

refusal-time-leaps = La hora de mesa { NUMBER($at_ms, useGrouping: 0) } salta { $hours } horas por delante de la última lectura del reloj de la mesa, { NUMBER($last_at_ms, useGrouping: 0) }: la hora de una partida avanza como mucho 24 horas de una vez
refusal-fate-horizon-past = El horizonte del destino no puede ser anterior al turno actual, { $current } (se indicó el turno { $turn })
refusal-fate-horizon-twice = El horizonte del destino ya se registró (turno { $turn }): anúlelo para registrar otro
refusal-at-ms-too-large = La hora de mesa { NUMBER($at_ms, useGrouping: 0) } supera cualquier reloj de mesa: como mucho { NUMBER($max, useGrouping: 0) } milisegundos
refusal-clock-zero = El reloj de cada bando debe tener más de 0 minutos
refusal-seq-zero = Los eventos se numeran desde el 1
refusal-lot-empty = Un sorteo nombra al menos a un jugador
refusal-direction-character = { $field } no puede contener caracteres que cambian la dirección del texto: hay un U+{ $code } en la posición { NUMBER($position, useGrouping: 0) }

## Anulaciones y flujos.

refusal-void-none = No hay ningún evento { $seq } que anular: la partida tiene { $count ->
    [one] un evento
   *[other] { $count } eventos
}
refusal-void-twice = El evento { $seq } ya está anulado
refusal-void-of-void = El evento { $seq } es a su vez una anulación: registre una nueva resolución en lugar de anular una anulación
refusal-void-breaks = Anular el evento { $seq } ({ $type }) dejaría inválido el evento { $bad_seq }: { $why }
refusal-wrong-stream = { $type } no se registra en { $kind }
stream-kind-game = una partida
stream-kind-tournament = un torneo
stream-kind-andes = un encuentro de Andes
refusal-stream-shape = { $name } no es el nombre de una partida, de un torneo ni de un encuentro de Andes
refusal-stream-too-long = El nombre { $name } es demasiado largo: como mucho { $max } bytes
refusal-id-shape = El identificador { $id } debe tener de 1 a { $max } letras, cifras, puntos, guiones o guiones bajos
refusal-id-dot = El identificador { $id } no puede empezar por un punto
refusal-jury-only = Solo el jurado puede registrar { $type }
refusal-organiser-only = Solo un organizador o el jurado pueden registrar { $type }
refusal-not-cleared = Su sesión no permite registrar { $type }

## Los límites del escritor.

refusal-append-too-many = Con lo que deriva el ledger, se registrarían { $count } eventos a la vez; como mucho { $max }: envíe menos de una vez
refusal-event-too-large = { $type } ocupa { NUMBER($bytes, useGrouping: 0) } bytes; el ledger guarda como mucho { NUMBER($max, useGrouping: 0) }

refusal-send-too-many = La tableta envió { $count } eventos a la vez; se envían como mucho { $max } de una vez

## Las reglas del torneo.

refusal-tournament-not-created = El torneo aún no se ha creado: créelo antes de { $type }
refusal-tournament-exists = El torneo ya se creó, con { $ruleset }
refusal-draw-recorded = El sorteo de las rondas clasificatorias ya se registró
refusal-draw-differs = Este no es el sorteo de la semilla { $seed } para los { $players } jugadores inscritos
refusal-role-taken = { $player } ya eligió a { $role }
refusal-role-chosen = { $player } ya eligió a { $role }
refusal-lot-drawn = Ya se sorteó «{ $purpose }»: el jurado anula ese sorteo antes de hacer otro
refusal-lot-twice = Un sorteo nombra a cada jugador una sola vez
refusal-lot-differs = Este no es el sorteo de la semilla { $seed }: para estos jugadores da { $order }
refusal-not-a-tournament-event = { $type } no se registra en un torneo
refusal-final-seats-other = La final sienta a { $player } como { $role }, pero fue { $chosen } quien eligió a { $role }
refusal-final-role-unchosen = Ningún finalista ha elegido todavía a { $role }: primero eligen los cuatro
refusal-id-taken = El identificador { $id } ya es de { $name }: elija otro
refusal-id-taken-stand-in = El identificador { $id } ya es del suplente { $name }: elija otro
refusal-pseudonym-taken = El seudónimo { $pseudonym } ya es de { $holder } en este torneo: elija otro
refusal-not-registered = { $player } no está inscrito
refusal-unregister-seated = { $player } ya tiene asiento en la partida { $game }: tras el sorteo la inscripción se mantiene y { $player } se retira
refusal-unregister-drawn = El sorteo ya se registró: la inscripción se mantiene y { $player } se retira
refusal-stand-in-not-ranked = { $player } es suplente: los suplentes no entran en la clasificación ni llegan a la final
refusal-round-zero = Las rondas se numeran desde el 1
refusal-withdrew-already = { $player } ya se retiró (desde la ronda { $round })
refusal-withdraw-before-draw = { $player } no puede retirarse antes del sorteo, que sienta a todos los inscritos: anule su inscripción
refusal-withdraw-finalist = La final { $game } sienta a { $player }: el jurado anula su composición antes de que { $player } se retire
refusal-withdraw-needs-stand-in = A { $player } le { $games ->
    [one] queda una partida clasificatoria
   *[other] quedan { $games } partidas clasificatorias
} desde la ronda { $round }: indique el suplente que ocupa su asiento
refusal-withdraw-no-free-stand-in = A { $player } le { $games ->
    [one] queda una partida clasificatoria
   *[other] quedan { $games } partidas clasificatorias
} desde la ronda { $round }, y ningún suplente inscrito está libre en esas rondas: inscriba antes a un suplente
refusal-not-a-stand-in = { $player } no es un suplente inscrito
refusal-withdraw-no-games = A { $player } no le queda ninguna partida clasificatoria desde la ronda { $round }: ningún suplente ocupa su asiento
refusal-stand-in-busy = { $stand_in } ya juega en la ronda { $round }, donde la partida de { $player } necesita un suplente
refusal-finalist-withdrew = { $player } se retiró (desde la ronda { $round }): su plaza en la final pasa al siguiente de la clasificación
refusal-game-scheduled = La partida { $game } ya está programada
refusal-two-roles = La partida { $game } sienta a { $player } en dos papeles
refusal-draw-no-players = Un sorteo necesita jugadores: no hay ninguno inscrito
refusal-draw-stand-ins = Un sorteo de { $players } jugadores necesita { $needed ->
    [one] un suplente
   *[other] { $needed } suplentes
} para completar sus mesas, pero { $registered ->
    [0] no hay ninguno inscrito
    [one] hay uno inscrito
   *[other] hay { $registered } inscritos
}: inscriba antes a un suplente
refusal-draw-tables = Un sorteo de { $players } jugadores necesitaría { $needed } suplentes en { $tables ->
    [one] una mesa
   *[other] { $tables } mesas
}: inscriba más jugadores (los suplentes nunca comparten mesa)
refusal-draw-twice = { $player } aparece dos veces para el sorteo

## Comprobaciones entre flujos.

refusal-game-of-another = La partida { $game } es de { $owner }: cada torneo programa sus propias partidas, con su nombre delante ({ $tournament }-…)
refusal-game-played = La partida { $game } ya tiene { $count ->
    [one] un evento
   *[other] { $count } eventos
}: un torneo solo programa partidas sin jugar
refusal-withdraw-started = La partida { $game } ya ha empezado: una retirada solo vuelve a sentar partidas sin empezar; retire a { $player } desde una ronda posterior
refusal-standings-unknown = Todavía no se puede calcular la clasificación
refusal-finalists-tied = Los finalistas aún no están decididos: el cuarto y el quinto puesto están empatados, así que haga un sorteo
refusal-finalists-open = Los finalistas aún no están decididos: { $count ->
    [one] queda una partida clasificatoria abierta
   *[other] quedan { $count } partidas clasificatorias abiertas
}
refusal-not-finalist = { $player } no es finalista: juegan la final { $finalists }
refusal-finalists-rank-tied = { $player } comparte el puesto { $rank } con el jugador de arriba: haga un sorteo antes de que elijan los finalistas
refusal-finalists-order = Los finalistas eligen por orden de clasificación: ahora elige { $next } (puesto { $rank }), no { $player }
refusal-finalists-chosen = Todos los finalistas ya han elegido su papel

## Entrada incorrecta: un evento o una petición que el ledger no lee.

input-not-object = Un evento se escribe como un objeto JSON
input-type-not-text = El tipo de un evento se escribe como texto
input-not-json = Esto no es un JSON que el ledger pueda leer
input-other = El ledger no puede leer estos datos
input-unknown-type = { $type } no es un evento que el ledger conozca
input-missing = Falta el campo { $field }
input-unknown-field = El ledger no conoce ningún campo { $field } aquí
input-invalid-value = { $given } no vale aquí: se espera { $expected }
input-invalid-type = { $given } no vale aquí: se espera { $expected }
input-unknown-value = { $given } no es uno de los valores admitidos aquí
input-invalid-length = Una lista no tiene el número de elementos debido
input-event-invalid-value = En { $type }, { $given } no vale: se espera { $expected }
input-event-invalid-type = En { $type }, { $given } no vale: se espera { $expected }
input-event-missing = A { $type } le falta el campo { $field }
input-event-unknown-field = { $type } no tiene ningún campo { $field }
input-event-unknown-value = En { $type }, { $given } no es uno de los valores admitidos
input-kind-map = un objeto
input-kind-sequence = una lista
input-kind-null = nada
input-kind-unit = nada
input-expected-whole_from_zero = un número entero desde 0
input-expected-whole = un número entero
input-expected-text = un texto
input-expected-yes_no = verdadero o falso
input-expected-list = una lista
input-expected-number = un número
input-expected-object = un objeto
input-expected-valid = un valor válido
input-body-syntax = La petición no es un JSON que el ledger pueda leer
input-body-content-type = La petición debe enviarse como JSON
input-body-too-large = La petición es demasiado grande para que el ledger la lea
input-body-shape = La petición no tiene la forma que lee el ledger: { $detail }
