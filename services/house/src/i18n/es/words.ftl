# Los valores tipados del jurado en palabras (ledger_house::words::sheet): la hoja de puntos de
# una partida y la partida en un punto de la auditoría, como los muestran la mesa del jurado y
# el visor.

## La hoja de puntos.

sheet-in-progress = { $ruleset }: turno { $turn }, la partida sigue en juego
sheet-ended = { $ruleset }: { $turns } turnos, { $outcome }; ganadoras: { $winners }
sheet-pending = aún no
sheet-won = ganó
sheet-out-in = fuera en el turno { $turn }
sheet-col-role = Papel
sheet-col-score = Puntos
sheet-col-nations = Naciones
sheet-col-used = Cuenta
sheet-entry-at-switch = Ejército Imperial al cambiar de manos
sheet-tcc = TCC { $value }
sheet-tcc-none = Aún sin TCC
sheet-stcc = sTCC { $value }
sheet-stcc-none = Sin sTCC: { $why }
sheet-horizon = Horizonte del destino: turno { $turn }
sheet-stcc-not-in-ruleset = { $ruleset } no usa sTCC
sheet-stcc-not-ended = la partida no ha terminado
sheet-stcc-no-tcc = no hay TCC
sheet-stcc-no-horizon = el jurado no ha registrado el horizonte del destino
sheet-error-not-started = No hay hoja de puntos: la partida no ha empezado.
sheet-error-no-ruleset = No hay hoja de puntos: la partida no indica reglamento y ningún torneo la programó.
sheet-error-not-a-game = No hay hoja de puntos: el flujo contiene eventos de otro tipo.
sheet-error-inconsistent = No hay hoja de puntos: los eventos no forman una partida que se pueda puntuar.

## La partida en un punto.

point-after = Tras el evento { $seq } (hora de mesa { $time }): { $event }
point-no-time = aún ninguna
point-voids = Anulados por el jurado hasta aquí:
point-voided-by = anulado por el evento { $seq }: { $reason }
point-no-ruleset = aún sin reglamento
point-not-started = sin empezar
point-ended = terminó en el turno { $turn }: { $outcome }
point-no-turn = empezada, aún sin turno
point-turn = turno { $turn }, en juego
point-game = Partida: { $ruleset }, { $standing }
point-imperial-army = El Ejército Imperial lo lleva { $role }
point-offensive-none = Ofensiva prusiana: sin lanzar
point-offensive-active = Ofensiva prusiana: en curso desde el turno { $turn }
point-offensive-called-off = Ofensiva prusiana: lanzada en el turno { $launched }, suspendida en el turno { $called_off }
point-austria-claimed = Austria reclamó sus objetivos
point-set-aside-picked-up = Se recogió la carta apartada
point-stage = Fase de acción abierta: { $nation }
point-stage-none = Ninguna fase de acción abierta
point-retreat = Hay una retirada en curso
point-clock-running = corre el reloj de { $side }
point-clock-stopped = el reloj está parado ({ $reason })
point-clock-idle = el reloj no está en marcha
point-clock = Reloj: { $running }; a Prusia le quedan { $prussia }, a los Atacantes { $attackers }
point-in-game = en la partida
point-col-nation = Nación
point-col-status = Situación
point-col-controller = La lleva
point-col-tc = Cartas tácticas

## La cronología.

timeline-voided = anulado por el evento { $seq }: { $reason }
timeline-ruling = resolución { $seq }: { $text }
