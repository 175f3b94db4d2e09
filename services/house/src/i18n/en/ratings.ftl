# The analysts' ratings page (/analyst/ratings) and the balance by year and ruleset: the web's
# `ratings` module. Each message has its Spanish twin in es/ratings.ftl.
ratings-page = Ratings
ratings-title = Player ratings
ratings-lead = Weng-Lin ratings (Bradley-Terry, full pairing): one update per ended game, in the order the games ended, the four players ranked by their game scores. μ is the estimate, σ its uncertainty; players are listed by μ − 3σ.
ratings-model-plain = Players
ratings-model-role_aware = Players and roles
ratings-model-role_only = Roles alone
ratings-model = Model
# $games (Number); $share (String)
ratings-prediction = Before each game the model picked who scored most in { $share } of { $games } games.
ratings-none = No game has ended yet: nobody is rated.
ratings-col-player = Player
ratings-col-mu = μ
ratings-col-sigma = σ
ratings-col-ordinal = μ − 3σ
ratings-col-games = Games
ratings-col-roles = By role (wins / games)
ratings-col-role = Role
ratings-roles-title = The roles' terms
ratings-roles-lead = In the role-aware model each seat is the player's rating plus the role's: a strong role takes part of its player's win.
ratings-chart = μ after each game, the players with most games
ratings-csv = as CSV
ratings-json = as JSON
ratings-trends-title = Win rate by year and ruleset
ratings-trends-lead = Each role's win rate in the games of each year and ruleset, with its 95% (Wilson) interval.
ratings-col-year = Year
ratings-col-ruleset = Ruleset
ratings-trends-csv = these numbers as CSV
ratings-year-lead = { $year }: the players of that year, each as after their last game of it; games and results by role are that year's ({ $games ->
    [one] one game
   *[other] { $games } games
}). The roles' terms and the prediction cover every year.
ratings-link = Player ratings and the balance over time
