# Los rechazos de las leyes de Andes en la tableta del registro (andes-rules.js), cada uno con
# su artículo. Las casillas se nombran desde el lado desde el que se ve el tablero; los lados
# y los tipos de pieza llegan ya nombrados desde andes-table.ftl (`$piece` es el tipo tal como lo
# nombra la notación, para elegir la frase).

law-notation-shape = Artículo { $article }: `{ $text }` no es una jugada: se escribe el dígito de la pieza y la casilla donde se coloca (`0d3`), o el dígito y las dos casillas del movimiento (`2c3c5`)
law-notation-digit = Artículo { $article }: `{ $text }` no empieza con el dígito de una pieza: 0 persona, 1 estatal a la izquierda, 2 militar, 3 estatal a la derecha
law-notation-square = Artículo { $article }: en `{ $text }`, `{ $part }` no es una casilla: una marca a–g (Sol) o A–G (Luna) y una escala 0–6
law-notation-mixed = Artículo { $article }: `{ $text }` mezcla marcas de Sol y de Luna: ambas casillas se escriben desde el mismo lado
law-notation-same = Artículo { $article }: `{ $text }` mueve una pieza a la casilla en la que ya está
law-reserve-empty = Artículo { $article }: { $side } no tiene piezas fuera del tablero para colocar
law-first-persona = Artículo { $article }: la primera jugada de Sol coloca una pieza tipo persona, no tipo { $kind }
law-first-continent = Artículo { $article }: la primera jugada de Sol coloca una pieza tipo persona en el continente, y { $square } es { $region }
law-place-border = Artículo { $article }: una pieza nueva se coloca en una casilla de la frontera (marcas a y g, escalas 0 y 6), y { $square } no lo es
law-place-free = Artículo { $article }: una pieza nueva se coloca en una casilla libre, y en { $square } está la pieza tipo { $kind } de { $owner }
law-place-light = Artículo { $article }: { $square } es una casilla clara de la frontera: allí solo se colocan piezas tipo persona, no tipo { $kind }
law-no-piece = Artículo { $article }: no hay ninguna pieza en { $square } para mover
law-not-yours = Artículo { $article }: en { $square } está la pieza tipo { $kind } de { $owner }: { $side } solo mueve sus propias piezas
law-keeps-type = Artículo { $article }: la pieza de { $square } es tipo { $kind }, no tipo { $claimed }: una pieza conserva su tipo
law-path = { $piece ->
    [persona] Artículo { $article }: la pieza tipo persona se mueve una casilla libre en cualquier dirección; de { $from } a { $to } no es un movimiento así
    [militar] Artículo { $article }: la pieza tipo militar se mueve hasta dos casillas libres en horizontal o vertical; de { $from } a { $to } no es un movimiento así
    [estatal_left] Artículo { $article }: la pieza tipo estatal a la izquierda se mueve hasta dos casillas libres en la diagonal a0–g6; de { $from } a { $to } no es un movimiento así
   *[estatal_right] Artículo { $article }: la pieza tipo estatal a la derecha se mueve hasta dos casillas libres en la diagonal a6–g0; de { $from } a { $to } no es un movimiento así
}
law-jump = Artículo { $article }: las piezas avanzan por casillas libres y no saltan: en { $between }, entre { $from } y { $to }, está la pieza tipo { $kind } de { $owner }
law-own-colour = Artículo { $article }: en { $square } está su propia pieza tipo { $kind }: una pieza nunca ocupa una casilla de su mismo color
law-attack-centre = Artículo { $article }: en { $square } está la pieza tipo { $kind } de { $owner }, y solo se ataca mientras el gobierno d3 está vacío; ahora lo ocupa la pieza tipo { $holder_kind } de { $holder_owner }
law-time-ran-out = Artículo { $article }: a { $side } se le acabó el tiempo: registre la caída de bandera
law-pending = Artículo { $article }: la jugada { $move } no está completa hasta que se registran sus consecuencias
law-match-over = Artículo { $article }: el encuentro ha terminado: ya se jugaron las dos partidas
law-time-back = Artículo { $article }: la hora de mesa { NUMBER($at, useGrouping: 0) } va hacia atrás: el reloj de la mesa ya marcaba { NUMBER($last, useGrouping: 0) }
law-game-running = Artículo { $article }: la partida { $current } aún se está jugando: la partida { $game } no puede empezar
law-game-next = Artículo { $article }: la partida { $game } no puede empezar: antes va la partida { $expected }
law-no-game = Artículo { $article }: no ha empezado ninguna partida: primero empiece la partida
law-game-over = Artículo { $article }: la partida { $game } ha terminado ({ $reason }, { $side }): empiece la partida { $next }
law-derived = Artículo { $article }: el registro deduce { $type } de la jugada que lo causa
law-flag-not-running = Artículo { $article }: solo corre el reloj de quien tiene el turno: juega { $to_move }, así que la bandera de { $side } no puede caer
law-flag-standing = Artículo { $article }: la bandera de { $side } no ha caído: le quedan { NUMBER($left, useGrouping: 0) } ms
law-resign-own-move = Artículo { $article }: se abandona durante el propio turno: juega { $to_move }, no { $side }
law-unknown = Artículo { $article }: { $type } no es un evento de Andes
law-player = Artículo { $article }: { $seat } debe nombrar a un jugador con 1 a 64 caracteres imprimibles
law-adversaries = Artículo { $article }: una partida se juega entre dos adversarios
law-clock = Artículo { $article }: el tiempo de cada jugador debe ser mayor que 0 ms
law-match-exists = Artículo { $article }: el encuentro ya se creó: un flujo contiene un solo encuentro
law-no-match = Artículo { $article }: el encuentro no se ha creado: primero lo crea un organizador
law-game-number = Artículo { $article }: un encuentro tiene las partidas 1 y 2, no la partida { $game }
law-jury-no-match = El encuentro no se ha creado: no hay encuentro al que llamar al jurado
