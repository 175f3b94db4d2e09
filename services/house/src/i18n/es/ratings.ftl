# La página de clasificaciones de los analistas (/analyst/ratings) y el equilibrio por año y
# reglamento: el módulo `ratings` de la web. Cada mensaje tiene su gemelo inglés en en/ratings.ftl.
ratings-page = Clasificaciones
ratings-title = Clasificación de los jugadores
ratings-lead = Clasificaciones Weng-Lin (Bradley-Terry, emparejamiento completo): una actualización por partida terminada, en el orden en que terminaron, los cuatro jugadores ordenados por su puntuación. μ es la estimación, σ su incertidumbre; los jugadores se ordenan por μ − 3σ.
ratings-model-plain = Jugadores
ratings-model-role_aware = Jugadores y papeles
ratings-model-role_only = Solo los papeles
ratings-model = Modelo
# $games (Number); $share (String)
ratings-prediction = Antes de cada partida el modelo acertó quién puntuaría más en { $share } de { $games } partidas.
ratings-none = Ninguna partida ha terminado aún: nadie tiene clasificación.
ratings-col-player = Jugador
ratings-col-mu = μ
ratings-col-sigma = σ
ratings-col-ordinal = μ − 3σ
ratings-col-games = Partidas
ratings-col-roles = Por papel (victorias / partidas)
ratings-col-role = Papel
ratings-roles-title = Los términos de los papeles
ratings-roles-lead = En el modelo con papeles cada asiento es la clasificación del jugador más la del papel: un papel fuerte se lleva parte de la victoria de su jugador.
ratings-chart = μ tras cada partida, los jugadores con más partidas
ratings-csv = en CSV
ratings-json = en JSON
ratings-trends-title = Porcentaje de victorias por año y reglamento
ratings-trends-lead = El porcentaje de victorias de cada papel en las partidas de cada año y reglamento, con su intervalo del 95 % (Wilson).
ratings-col-year = Año
ratings-col-ruleset = Reglamento
ratings-trends-csv = estos números en CSV
ratings-year-lead = { $year }: los jugadores de ese año, cada uno como quedó tras su última partida del año; partidas y resultados por papel son de ese año ({ $games ->
    [one] una partida
   *[other] { $games } partidas
}). Los términos de los papeles y la predicción abarcan todos los años.
ratings-link = Clasificación de los jugadores y el equilibrio a lo largo del tiempo
