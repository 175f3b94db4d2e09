# What the organiser prints: English. Every message here has its Spanish twin in es/paper.ftl
# (a test checks that both name the same messages). Role and nation names are in rules.ftl.

## The tablets' sign-in sheet (ledgerctl tournament tables)
paper-tables-title = Tablets of { $tournament }
paper-tables-intro = Scan a table's code with that table's tablet: it signs in as the table and opens the game the table plays now, round after round.
paper-tables-secret = This sheet holds the tables' sign-in tokens: keep it with the organisers and destroy it after the tournament. Printing the sheet again adds new codes and revokes none: revoke a table's code on the codes page.
paper-table = Table { $table }
paper-table-actor = signs in as { $actor }

## The day's paper (served by ledgerd)
paper-index-title = Paper for { $tournament }
paper-index-lead = Print each page from the browser (A4). The pages are made from the ledger as it stands now.
paper-index-link = paper to print
paper-round = Round { $round }
paper-final = Final
paper-pairings = Pairings
paper-sheets = Game report sheets
paper-standings = Final standings
paper-pairings-title = Pairings, round { $round }
paper-col-table = Table
paper-col-game = Game
paper-col-player = Player
paper-col-nations = Nations
paper-col-role = Role
paper-col-nation = Nation
paper-col-left-turn = Left in turn
paper-col-score = Score
paper-col-final-score = Game score
paper-col-rank = #
paper-col-games = Games
paper-col-total = Total
paper-col-decided = Decided by
paper-sheet-title = Game report: { $game }
paper-sheet-where = { $tournament } · round { $round } · table { $table }
paper-sheet-qr = Opens this game's table page
paper-sheet-pompadour = Pompadour notes down
paper-sheet-start = Start time
paper-sheet-first-fate = First Card of Fate
paper-sheet-fate-turn = in turn
paper-sheet-jury = The jury notes down the scores
paper-sheet-nations = Each nation's score when it leaves the game, by a Card of Fate or at the end
paper-sheet-players = Each player's game score
paper-sheet-signature = Jury member and signature
paper-sheet-digest = Ledger digest
paper-sheet-rule = Pompadour notes down the players' names, the start time and later the first Card of Fate; once the game ends she calls the jury, who notes down the scores.
paper-standings-title = Final standings: { $tournament }
paper-standings-provisional = Provisional: { $count } games have not ended ({ $games }).
paper-finalists = Finalists
paper-withdrawn = { $after ->
    [0] withdrew before round 1
   *[other] withdrew after round { $after }
}
paper-stand-in = stand-in { $n }
paper-stand-ins = Stand-ins (not ranked)
paper-winner = Winner: { $player }
paper-final-pending = The final has not been decided yet.
paper-decided-total = total
paper-decided-unresolved = unresolved (a lot is needed)
paper-decided-final = decided by: { $how }
paper-tb-second_best_sum = second best sum
paper-tb-stcc = sTCC
paper-tb-tcc = TCC
paper-tb-opponents_quality = opponents' quality
paper-tb-not_used_points = points not used
paper-tb-attacker_spread = attackers' spread
paper-tb-frederick_points = Frederick points
paper-tb-lot = lot
# Why a tie-breaker is unavailable (replay's reason, worded here; role names from rules.ftl).
paper-tb-unavailable = unavailable: { $why }
paper-tb-why-no-attacking-game = no { $elisabeth } or { $maria_theresa } game has ended
paper-tb-why-no-frederick-game = no { $frederick } game has ended
paper-tb-why-no-attacker-scores = the { $frederick } game has no attacker scores
paper-tb-why-no-lot = no lot drawn
paper-tb-why-game = game { $game }: { $why }
paper-tb-why-no-tactical-card = no tactical card was dealt to an attacking nation
paper-tb-why-no-tcc = there is no TCC
paper-tb-why-not-ended = the game has not ended
paper-tb-why-no-fate-horizon = no fate horizon was recorded and the game did not end in a Prussian defensive victory
paper-tb-why-no-stcc-in-ruleset = { $ruleset } uses no sTCC
paper-no-round = Round { $round } has no games in this tournament.
paper-no-games = This tournament has no games scheduled yet: draw the qualifying rounds first.
paper-refused = Printing the day's paper needs the organiser's or the jury's token.
paper-no-table = Table { $table } has no game in tournament { $tournament }.
paper-final-by-only_winner = the only winner
paper-final-by-most_winning_nations = most winning nations
paper-final-by-fewest_qualifying_wins = fewest qualifying wins in the role
paper-final-by-cafe_role_order = the CAFE role order
paper-final-by-lot = the recorded lot
paper-final-by-unresolved = unresolved
paper-final-by-not_ended = not ended

# HELPER BOARD — the printed final standings (web/paper.rs)
paper-champion-mark = champion
## The players' personal links (issue 33)
# $tournament (String) - the tournament's name
links-title = Players' personal links · { $tournament }
links-lead = Hand each player their card, or mail the list: the link opens the player's own page (their table, next games and scores) without signing in. It names nobody but by pseudonym; keep the cards private all the same.
links-qr = my tournament
links-csv = The list as CSV, to mail
paper-player-links = Every player's personal link and QR code
paper-public-pairings = This round's public pairings (by pseudonym, for the wall)
# $table (Number), $count (Number)
paper-tables-reissued = This sheet holds table { $table }'s new sign-in token: keep it with the organisers. It replaced { $count ->
    [0] no earlier code
    [one] the table's earlier code, now revoked
   *[other] the table's { $count } earlier codes, now revoked
}: a tablet signed in with one of them must scan this one.
# $reason (String), $count (Number), $games (String) - the games' ids
paper-note-games = { $reason } — { $count ->
    [one] game
   *[other] games
} { $games }
