# Los rechazos de la mesa (table-rules.js), en español. Los nombres (naciones, papeles, bandos,
# tipos de evento, reglamentos) llegan en los argumentos con su nombre interno en snake_case,
# como los escribe el registro (p. ej. imperial_army); los mensajes nation-*, role-*, side-*,
# stop-*, outcome-* y ruleset-* dan su nombre en español para etiquetas y botones.

## Nombres.

nation-prussia = Prusia
nation-hanover = Hannover
nation-russia = Rusia
nation-sweden = Suecia
nation-austria = Austria
nation-imperial_army = Ejército Imperial
nation-france = Francia

role-frederick = Federico
role-elisabeth = Isabel
role-maria_theresa = María Teresa
role-pompadour = Pompadour

side-prussia = Prusia
side-attackers = Atacantes

stop-combat = Combate
stop-jury = Jurado
stop-discussion = Consulta de reglas
stop-break = Descanso
stop-turn_end = Fin de turno

outcome-prussian_defensive_victory = Victoria defensiva prusiana
outcome-prussian_offensive_victory = Victoria ofensiva prusiana
outcome-allied_victory = Victoria aliada

ruleset-wm2015 = Campeonato del Mundo 2015 (WM)
ruleset-cafe2019 = CAFE 2019
ruleset-cafe2023 = CAFE 2023

## Un evento que la mesa no puede leer o no registra.

# $detail (String): el error del analizador, en inglés
refusal-unreadable = No se puede leer el evento: { $detail }
# $type (String)
refusal-not-at-the-table = { $type } no se registra desde la mesa

## Eventos mal formados, sea cual sea la partida.

# $field (String); $code (String), hexadecimal; $position (Number), desde 1
refusal-control-character = { $field } no puede contener caracteres de control: hay un U+{ $code } en la posición { NUMBER($position, useGrouping: 0) }
# $field (String); $length (Number); $max (Number)
refusal-too-long = { $field } tiene { NUMBER($length, useGrouping: 0) } caracteres; se admiten { NUMBER($max, useGrouping: 0) } como máximo
# $field (String)
refusal-blank = { $field } no puede quedar en blanco
refusal-turn-zero = Los turnos se cuentan desde el 1
# $count (Number)
refusal-tc-count-negative = El número de cartas tácticas repartidas no puede ser negativo (se indicó { $count })
# $total (Number)
refusal-objectives-total = El total de objetivos debe ser mayor que 0 (se indicó { $total })
# $held (Number); $total (Number)
refusal-objectives-held = Objetivos en poder: entre 0 y { $total }, no { $held }
# $nation (String); $total (Number)
refusal-nation-objectives-total = { $nation }: el total de objetivos debe ser mayor que 0 (se indicó { $total })
# $nation (String); $held (Number); $total (Number)
refusal-nation-objectives-held = { $nation }: los objetivos en su poder deben estar entre 0 y el total, { $total } (se { $held ->
        [one] indicó { $held }
       *[other] indicaron { $held }
    })
# $value (Number)
refusal-set-aside-tc-below-one = La carta táctica apartada para la ofensiva vale al menos 1 (se indicó { $value })
# $count (Number)
refusal-austria-count-negative = El número de objetivos que reclama Austria no puede ser negativo (se indicó { $count })
# $held (Number); $max (Number), 14
refusal-bohemian-range = Los objetivos de Bohemia en poder de Prusia deben estar entre 0 y { $max } (se { $held ->
        [one] indicó { $held }
       *[other] indicaron { $held }
    })
# $nation (String)
refusal-objectives-not-attacking = Solo se indican los objetivos de las naciones atacantes, no los de { $nation }
# $nation (String)
refusal-winner-twice = { $nation } aparece dos veces entre los ganadores
# $role (String)
refusal-imperial-army-role = El Ejército Imperial solo puede pasar a elisabeth o a pompadour, no a { $role }

## Rechazos según el estado de la partida.

# $type (String)
refusal-not-started = La partida no ha empezado: su inicio tiene que ir antes que { $type }
refusal-already-started = La partida ya ha empezado
# $turn (Number); $outcome (String); $type (String)
refusal-game-over = La partida terminó en el turno { $turn } ({ $outcome }); a partir de ahora solo el jurado puede registrar eventos, y no { $type }
# $type (String); $turn (Number); $current (Number)
refusal-turn-ahead = { $type } se registra para el turno { $turn }, pero la partida va por el turno { $current }
# $at_ms (Number); $last_at_ms (Number)
refusal-time-goes-back = La hora de mesa { NUMBER($at_ms, useGrouping: 0) } va hacia atrás: el reloj de la mesa ya marcaba { NUMBER($last_at_ms, useGrouping: 0) }
# $given (String); $scheduled (String)
refusal-ruleset-differs = La partida indica el reglamento { $given }, pero el torneo se juega con { $scheduled }
refusal-ruleset-missing = Esta partida no está programada en ningún torneo: elige su reglamento al empezarla
# $turn (Number); $next (Number)
refusal-turn-repeats = El turno { $turn } repite un turno: el siguiente es el turno { $next }
# $turn (Number); $next (Number)
refusal-turn-skips = El turno { $turn } se salta un turno: el siguiente es el turno { $next }
# $turn (Number); $max (Number), 23
refusal-turn-past-last = El turno { $turn } pasa del último turno: una partida dura como mucho { $max } turnos (el máximo de Federico, 23/2 = 11,5 puntos)
refusal-no-turn-yet = Todavía no ha empezado ningún turno: primero va el turno 1
# $nation (String); $turn (Number)
refusal-nation-out = { $nation } ya salió de la partida en el turno { $turn }
# $side (String)
refusal-clock-already-runs = El reloj ya está en marcha para { $side }
refusal-no-clock-to-press = No hay ningún reloj en marcha que pulsar
refusal-no-clock-to-stop = No hay ningún reloj en marcha que parar
# $nation (String)
refusal-stage-open = La fase de acción de { $nation } no ha terminado
# $nation (String); $acting (String)
refusal-stage-other-acting = La fase de acción de { $nation } no había empezado: ahora actúa { $acting }
# $nation (String)
refusal-stage-not-started = La fase de acción de { $nation } no había empezado
refusal-retreat-open = Ya hay una retirada en curso
refusal-no-retreat = No se ha iniciado ninguna retirada
# $nation (String)
refusal-cannot-drop-out = { $nation } no puede salir de la partida: solo Rusia, Suecia y Francia salen por una Carta del Destino
# $role (String)
refusal-imperial-army-already = El Ejército Imperial ya lo controla { $role }
# $turn (Number)
refusal-offensive-already-launched = La ofensiva prusiana ya se lanzó en el turno { $turn }
# $ruleset (String); $min (Number), 10; $value (Number)
refusal-set-aside-tc-too-low = { $ruleset }: la carta táctica apartada para la ofensiva debe valer al menos { $min } (vale { $value })
refusal-claim-no-offensive = Austria solo puede reclamar objetivos durante una ofensiva prusiana, y no se ha lanzado ninguna
# $turn (Number)
refusal-claim-offensive-called-off = Austria solo puede reclamar objetivos durante una ofensiva prusiana, y la ofensiva se suspendió en el turno { $turn }
refusal-pick-up-no-offensive = La carta táctica apartada solo se puede recoger durante una ofensiva prusiana, y no se ha lanzado ninguna
# $turn (Number)
refusal-pick-up-offensive-called-off = La carta táctica apartada solo se puede recoger durante una ofensiva prusiana, y la ofensiva se suspendió en el turno { $turn }
refusal-call-off-no-offensive = Solo se puede suspender una ofensiva prusiana en curso, y no se ha lanzado ninguna
# $turn (Number)
refusal-call-off-offensive-called-off = Solo se puede suspender una ofensiva prusiana en curso, y esta ya se suspendió en el turno { $turn }
refusal-austria-already-claimed = Austria ya reclamó sus objetivos
# $ruleset (String); $expected (Number), 4; $count (Number)
refusal-austria-claims-four = { $ruleset }: Austria reclama exactamente { $expected } objetivos ({ $count ->
        [one] se indicó { $count }
       *[other] se indicaron { $count }
    })
refusal-set-aside-already-picked-up = La carta táctica apartada ya se recogió
# $earliest (Number), 3; $turn (Number)
refusal-set-aside-too-early = La carta táctica apartada se puede recoger a partir del turno { $earliest }, y la partida está en el turno { $turn }
# $turn (Number); $launched_in (Number)
refusal-call-off-before-launch = La ofensiva no se puede suspender en el turno { $turn }: se lanzó en el turno { $launched_in }
# $outcome (String); $winners (String): los ganadores indicados, separados por comas
refusal-prussian-winners = Con el resultado { $outcome }, Prusia es la única ganadora, no [{ $winners }]
refusal-allied-no-winner = Una victoria aliada necesita al menos una nación atacante ganadora
# $nation (String)
refusal-winner-not-attacking = { $nation } no puede conseguir una victoria aliada
# $nation (String); $turn (Number)
refusal-winner-out = Ganadora: { $nation } ya salió de la partida en el turno { $turn }
# $nation (String)
refusal-objectives-missing = El final de la partida debe indicar los objetivos de { $nation }, que sigue en la partida
# $nation (String); $turn (Number)
refusal-objectives-fixed = { $nation } salió de la partida en el turno { $turn }: sus objetivos quedaron fijados entonces
refusal-bohemian-missing = La ofensiva prusiana sigue en curso: el final de la partida debe indicar cuántos objetivos de Bohemia tiene Prusia
refusal-bohemian-not-active = Los objetivos de Bohemia en poder de Prusia solo se indican mientras la ofensiva prusiana está en curso
refusal-offensive-victory-not-active = Una victoria ofensiva prusiana requiere una ofensiva prusiana en curso
# $max (Number), 14; $held (Number)
refusal-offensive-victory-bohemian = Una victoria ofensiva prusiana exige que Prusia tenga los { $max } objetivos de Bohemia ({ $held ->
        [one] se indicó { $held }
       *[other] se indicaron { $held }
    })

# A public hall is hostile (issue 35): a tactical-card count beyond any deal
# $count (Number); $max (Number)
refusal-tc-count-above-deal = Se indicaron { NUMBER($count, useGrouping: 0) } cartas tácticas: a una nación se le reparten como mucho { NUMBER($max, useGrouping: 0) } en un turno
# $nation (String); $before (Number); $turn (Number); $count (Number); $max (Number)
refusal-tc-turn-above-deal = A { $nation } ya se le repartieron { NUMBER($before, useGrouping: 0) } cartas tácticas en el turno { NUMBER($turn, useGrouping: 0) }; { NUMBER($count, useGrouping: 0) } más superan un reparto: como mucho { NUMBER($max, useGrouping: 0) } por turno
