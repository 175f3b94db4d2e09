# La mesa del jurado (/jury) y una resolución registrada desde el visor de una partida.
desk-title = La mesa del jurado
desk-lead = { $count ->
    [0] Ninguna llamada espera al jurado.
    [one] 1 llamada espera una resolución, la más antigua primero. La página se actualiza sola.
   *[other] { $count } llamadas esperan una resolución, la más antigua primero. La página se actualiza sola.
}
desk-none = Nada que resolver.
desk-col-game = Partida
desk-col-event = Evento
desk-col-when = Llamada a las
desk-col-reason = Motivo
desk-rule-title = Resolver
desk-field-ruling = La resolución
desk-field-void = Corregir un evento registrado por error
desk-field-voids = Eventos que anular (sus números; también el final de la partida posterior, para juzgar la resolución entera de una vez)
desk-void-none = ninguno
desk-field-corrected = Registrar en su lugar (un evento por línea, en JSON; al elegir un evento arriba se rellenan todos sus campos, para editarlos)
desk-rule-hint = La resolución, sus anulaciones y lo que registra se registran juntos o no se registra nada, y se juzgan en conjunto: la partida tras la resolución debe ser válida. Los eventos anulados siguen en la partida, tachados, con la resolución al lado.
desk-preview-title = Compruebe la resolución antes de registrarla
desk-preview-lead = La resolución registra estos eventos en la partida { $game }, en este orden:
desk-sheet-before = La hoja de puntuación ahora
desk-sheet-after = La hoja de puntuación tras la resolución
desk-back = Volver a la partida
desk-ruled = La resolución está registrada.
desk-error-void = El evento que se anula es un número de los eventos de la partida.
desk-error-corrected = No se puede leer el evento corregido: es un solo evento en JSON, como los muestra la lista.
index-jury = La mesa del jurado: cada llamada que espera una resolución
desk-horizons-title = Partidas terminadas sin el horizonte del destino
desk-horizons-hint = El desempate sTCC de CAFE 2023 necesita, en una partida que Prusia no ganó a la defensiva, el turno en que las cartas del destino la habrían terminado. Regístrelo mientras la mesa lo recuerda: sin él, el desempate no está disponible para estos jugadores.
desk-horizon-turn = Turno
desk-horizons-more = Se muestran las { $shown } primeras de { $count } partidas; cada una que se registre trae la siguiente.
jury-proof-title = En el registro firmado del ledger
jury-proof-lead = Los { $seq } eventos de la partida, del primero al último (cabeza de la cadena { $digest }), están en el punto de control firmado del ledger de { $size } eventos, que fija el último evento de la partida como su cabeza: el fichero de prueba muestra la partida entera, sin nada omitido en ninguno de sus extremos. Guárdelo y compruébelo sin conexión con la clave pública del ledger.
jury-proof-download = Descargar el fichero de prueba
jury-proof-pending = Ningún punto de control firmado contiene aún el último evento de esta partida: ledgerd firma uno al terminar cada ronda y a su intervalo de puntos de control. Vuelva a cargar la página más tarde.
jury-proof-unsigned = Este ledgerd no firma puntos de control (se arrancó sin --signing-key), así que no puede probar la partida a quien no confíe en él.
