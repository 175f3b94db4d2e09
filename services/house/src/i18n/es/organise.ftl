# La consola del organizador (/organise): la jornada desde el navegador.
organise-season-title = Torneos que organizar
organise-season-none = Aún no hay torneos: cree el primero aquí abajo.
organise-section-create = Un torneo nuevo
organise-id-hint = El identificador nombra el torneo en las direcciones y en el registro (letras, cifras, - y _), p. ej. cafe26. No se puede cambiar.
organise-title = Organizar { $tournament }
organise-count = { $players ->
    [one] 1 jugador
   *[other] { $players } jugadores
}{ $stand_ins ->
    [0] {""}
    [one] {" "}y 1 suplente
   *[other] {" "}y { $stand_ins } suplentes
}
organise-link-board = Clasificación
organise-link-paper = Papeles para imprimir
organise-link-codes = Códigos de tabletas y jurado
organise-link-pairings = Emparejamientos públicos
organise-link-season = Todos los torneos
organise-section-players = Jugadores
organise-section-draw = El sorteo
organise-section-withdraw = Un jugador se retira
organise-section-lots = Sorteos de desempate
organise-section-final = La final
organise-players-none = Aún no hay nadie inscrito.
organise-players-closed = El sorteo está registrado: las inscripciones quedan como están; quien se vaya se retira más abajo.
organise-register-one = Inscribir a una persona
organise-register-list = Pegar una lista
organise-register-file = O subir un archivo
organise-list-hint = Una persona por línea: nombre, seudónimo, identificador; los dos últimos pueden quedar vacíos. Columnas separadas por tabuladores (pegadas de una hoja de cálculo), puntos y coma o comas; se omite una primera línea con los nombres de las columnas. No se registra nada si se rechaza alguna línea.
organise-list-example = Ana García, Loba
organise-field-id = Identificador del torneo
organise-field-name = Nombre
organise-field-pseudonym = Seudónimo
organise-field-player = Identificador
organise-field-new_player = Nuevo identificador (vacío: se conserva)
organise-field-stand_in = Suplente (completa una mesa, nunca clasifica)
organise-field-list = La lista
organise-field-file = Un archivo CSV o de texto
organise-field-ruleset = Reglamento
organise-field-clock_minutes = Minutos por bando en el reloj (vacío: 130)
organise-field-seed = Semilla
organise-field-from_round = Primera ronda que no juega
organise-field-stand_in_choice = Suplente
organise-field-purpose = Qué decide el sorteo
organise-field-players = Jugadores empatados
organise-field-role = Papel
organise-field-table = Mesa
organise-stand-in = suplente
organise-stand-in-first-free = El primer suplente libre
organise-fix = Corregir
organise-unregister = Quitar
organise-withdrawn = se retiró antes de la ronda { $round }
organise-seed-hint = Cualquiera puede recalcular el sorteo con este número: elíjalo en público (dados, un espectador) antes de registrarlo.
organise-draw-first-register = Inscriba primero a los jugadores.
organise-drawn = Las rondas clasificatorias están sorteadas. Los emparejamientos para imprimir:
organise-round = Ronda { $round }
organise-table = Mesa
organise-lot-none = No hay jugadores empatados sin nada que los separe.
organise-lot-needed = Nada separa a { $players }: sortee entre ellos.
organise-lot-tied = Los jugadores empatados
organise-lot-qualifying = La clasificación de las rondas
organise-lot-final = La clasificación de la final
organise-final-unsettled = Los finalistas aún no están decididos: quedan partidas en juego, o un empate en el cuarto puesto necesita un sorteo.
organise-final-to-choose = por elegir
organise-final-scheduled = La final está programada: { $game }.
organise-preview = Ver antes de registrar
organise-preview-title = Compruebe antes de registrar
organise-record = Registrarlo
organise-change = Cambiarlo
organise-back = Volver a la consola
organise-changed = Se ha registrado algo en este torneo desde esta vista previa: esto es lo que la acción registra ahora. Compruébelo de nuevo.
organise-refused-title = No se ha registrado
organise-nothing-recorded = No se ha registrado nada.
organise-refused-lines = { $count ->
    [one] Las reglas del torneo rechazan 1 línea:
   *[other] Las reglas del torneo rechazan { $count } líneas:
}
organise-refused = La consola es del organizador: inicie sesión con un código de organizador.
organise-error-form = No se puede leer este formulario.
organise-error-required = Falta un campo obligatorio.
organise-error-number = Se espera un número entero, no «{ $value }».
organise-error-lines = { $count ->
    [one] No se puede leer la línea { $lines } de la lista
   *[other] No se pueden leer las líneas { $lines } de la lista
} (la primera: «{ $first }»). No se ha registrado nada.
organise-error-empty-list = La lista no tiene a nadie.
organise-error-file = No se puede leer el archivo: debe ser de texto o CSV en UTF-8, de 256 KB como mucho.
organise-error-id = El identificador de un torneo son letras, cifras, «-» o «_», hasta 64.
organise-error-lot-players = Un sorteo se hace entre dos jugadores o más: márquelos.
organise-will-create = Crear el torneo { $name }, con el reglamento { $ruleset } y { $minutes } minutos por bando en el reloj.
organise-will-register-count = { $count ->
    [one] Se inscribirá a 1 persona:
   *[other] Se inscribirá a { $count } personas:
}
organise-will-register = Inscribir a { $name } (identificador { $id }) como { $pseudonym }.
organise-will-unregister = Quitar la inscripción de { $player } ({ $id }).
organise-will-draw = Las cuatro rondas clasificatorias sorteadas con la semilla { $seed }:
organise-draw-stand-ins = Los suplentes que completan las mesas: { $stand_ins }.
organise-draw-repeats = { $pairs ->
    [one] 1 pareja de jugadores coincide dos veces (inevitable con tantos jugadores).
   *[other] { $pairs } parejas de jugadores coinciden dos veces (inevitable con tantos jugadores).
}
organise-will-lot = El orden del sorteo, del primero al último:
organise-will-withdraw = { $player } deja el torneo a partir de la ronda { $round }; las partidas jugadas siguen contando.
organise-will-stand-in = { $stand_in } ocupa su puesto en { $games ->
    [one] la partida que queda
   *[other] las { $games } partidas que quedan
}.
organise-will-choose = { $player } elige { $role } para la final.
organise-will-schedule = La final, { $game }, en la mesa { $table }: { $seats }.
organise-done-create = El torneo está creado.
organise-done-register = Inscrito.
organise-done-list = La lista está inscrita.
organise-done-unregister = La inscripción está quitada.
organise-done-fix = La inscripción está corregida.
organise-done-draw = El sorteo está registrado.
organise-done-withdraw = La retirada está registrada.
organise-done-lot = El sorteo de desempate está registrado.
organise-done-choose = El papel está registrado.
organise-done-final = La final está programada.
organise-register-stand-in = Se suma un suplente
organise-field-who = Jugador
organise-field-finalist = Finalista
index-organise = La consola del organizador: organizar un torneo, o crear uno
index-organise-one = organizarlo
organise-refused-rules = Las reglas no lo permiten; el registro dice por qué:
# $count (Number)
organise-lot-wait = { $count ->
    [one] Queda una partida de clasificación por jugar: aún puede desempatar, así que el sorteo la espera.
   *[other] Quedan { $count } partidas de clasificación por jugar: aún pueden desempatar, así que el sorteo las espera.
}
# $count (Number)
organise-final-wait = Los finalistas se conocen al acabar las rondas de clasificación: { $count ->
    [one] queda una partida por jugar.
   *[other] quedan { $count } partidas por jugar.
}
