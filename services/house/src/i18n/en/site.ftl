# The site's pages in English: the index, sign-in, the standings board, the jury's viewer, the
# analysts' page and every refusal a page shows. Each message has its Spanish twin in
# es/site.ftl (a test checks both name the same messages). Names of nations, roles, sides,
# outcomes and rulesets are in rules.ftl; the frame (site name, switch) in pages.ftl.
# Numbers arrive already written for the language (an exact decimal's own digits).


## The index
index-title = Home
index-tournaments = Tournaments
index-andes = Andes matches
index-none = none yet
index-board = standings board
index-andes-board = board
index-andes-luna = Luna's side
index-open = Open a page
open-board = Standings board of tournament
open-table = Table page of game
open-jury = Jury replay of game
open-andes = Andes board of match
open-button = Open
index-analyst = Role and nation statistics

## The season on the index (the same list as ledgerctl tournament list), newest first
season-lead = Every tournament and Andes match on this ledger, newest first.
season-games-hint = A game is reached from its tournament's standings board and paper, or by its id here.
season-col-tournament = Tournament
season-col-ruleset = Ruleset
season-col-year = Year
season-col-players = Players
season-col-state = State
season-col-paper = Paper
# $count (Number) - registered players; $withdrawn (Number) - of whom withdrew
season-players-withdrawn = { $count } ({ $withdrawn } withdrew)
season-state-registering = registering
season-state-drawn = drawn, not started
# $round (Number)
season-state-round = round { $round }
season-state-final = final
season-state-ended = ended
season-col-andes-match = Match
season-col-andes-players = Players (Sol – Luna)
season-col-andes-games = Games ended
season-col-andes-won = Games won
season-col-andes-state = State
season-andes-playing = in play
# $winner (String) - a player's id
season-andes-won = ended: { $winner } won
season-andes-tied = ended: tied

## Signing in
signin-title = Sign in
signin-token = Token
signin-button = Sign in
signin-token-hint = The token your organiser gave you (made with ledgerctl new-token). It is kept in a cookie that only this site receives and that page scripts cannot read.
signin-open-hint = This ledgerd runs open (no auth file): choose who you are and your clearance, as ledgerctl --actor … --clearance … would.
signin-actor = Actor
signin-clearance = Clearance
signin-use = Use this clearance
signin-actor-invalid = An actor is 1 to 64 printable characters.
signout = Sign out

## Refusals, as a page shows them (the machine code stays in data-code and in JSON routes).
error-title = This page cannot be shown
error-unknown-token = Unknown token: sign in again.
signin-code-spent = This table's code has already signed in its tablet. Ask the organiser to let one more device sign in, or to re-issue the code.
error-needs-signin = This page needs a token: sign in.
error-not-cleared = Your clearance does not open this page.
error-not-found = Nothing is recorded under this name: check the address.
# $id (String)
error-no-tournament = There is no tournament { $id }.
# $id (String)
error-no-game = There is no game { $id }.
# $id (String)
error-no-match = There is no Andes match { $id }.
error-no-page = There is no such page.
error-no-language = The pages are written in English and Spanish only.
error-invalid = The ledger cannot read what this address asks for.
error-precondition = The ledger cannot show this as the recorded events stand.
error-unavailable = The ledger is busy: try again in a moment.
error-internal = Something went wrong inside ledgerd.
error-signin = Sign in with a token that may see this page
error-home = Back to the start
error-cross-site = A form sent from another site is refused.
error-jury-signin = The replay viewer needs the jury's token: sign in.
# $actor (String); $clearance (String) - public, analyst, table, organiser or jury
error-jury-only = The replay viewer is for the jury; { $actor } is cleared as { $clearance }.
# $year (String) - what was typed
error-bad-year = “{ $year }” is not a year.
error-bad-ruleset = “{ $ruleset }” is not a ruleset: wm2015, cafe2019 or cafe2023.
# $max (String)
error-too-many-live = This ledgerd already serves { $max } live pages: reload later.
error-too-many-live-yours = You already follow { $max } live pages: close some, or reload later.

## Live pages' status line
live-now = live
# $time (String) - the browser's clock
live-updated = live · updated { $time }
live-reconnecting = reconnecting…

## The standings board
# $tournament (String)
board-title = Standings { $tournament }
board-player = Player
board-games = Games
board-total = Total
board-tie-breakers = Tie-breakers
board-decided-total = by total
# $index (String) - 1-based; $name (String) - the tie-breaker's name
board-decided-tie-breaker = by tie-breaker { $index } ({ $name })
board-decided-unresolved = tied: no lot drawn yet
# $players (String) - joined by ", "
board-finalists = finalists: { $players }
# $players (String)
board-finalists-so-far = finalists so far: { $players }
# $after (Number) - the last round the player played before leaving, 0 before the first
board-withdrawn = { $after ->
    [0] withdrew before round 1
   *[other] withdrew after round { NUMBER($after, useGrouping: 0) }
}
# $n (Number) - the stand-in's place in registration order
board-stand-in = stand-in { NUMBER($n, useGrouping: 0) }
# $players (String) - joined by ", "
board-stand-ins = stand-ins, not ranked: { $players }
board-running = Games running
board-none = none
# $turn (Number)
board-turn = turn { NUMBER($turn, useGrouping: 0) }
board-no-clock = no clock yet
board-final = The final
board-checkpoint = Signed checkpoint of the log
board-checkpoint-help = Photograph it: with the ledger's public key, `ledgerctl verify-proof` checks offline that a game's events are in the log it signed.
board-checkpoint-witnesses = cosigned by the witnesses { $witnesses }
board-winner = Winner
# The words of a tie-breaker's value (13.1 (elisabeth 6.7 + …), 0.654 (game q3-t1), drawn 3).
board-tb-game = game
board-tb-variance = variance
board-tb-drawn = drawn

tiebreak-second_best_sum = second best sum
tiebreak-stcc = sTCC
tiebreak-tcc = TCC
tiebreak-opponents_quality = opponents' quality
tiebreak-not_used_points = points not used
tiebreak-attacker_spread = attackers' spread
tiebreak-frederick_points = Frederick points
tiebreak-lot = lot

final-decided-not_ended = not decided yet
final-decided-only_winner = the only winner
final-decided-most_winning_nations = most winning nations
final-decided-fewest_qualifying_wins = fewest qualifying wins in the role
final-decided-cafe_role_order = CAFE's order of roles
final-decided-lot = by lot
final-decided-unresolved = tied: no lot drawn yet

## The jury's replay viewer
# $game (String)
jury-title = Jury { $game }
# $game (String)
jury-heading = Jury replay: game { $game }
# $last (Number)
jury-digest = After event { NUMBER($last, useGrouping: 0) }: digest
jury-chain-ok = the chain verifies
# $seq (Number)
jury-chain-broken = the chain breaks at event { NUMBER($seq, useGrouping: 0) }:
jury-report = the report (Markdown, in English)
jury-chain-head = chain head
jury-first = « first
jury-back = ◀ back
jury-next = next ▶
jury-last = last »
jury-slider = event
jury-ledger-text = The game's state, each event and each void are worded from what the ledger recorded; the differences name the paths of ledgerctl audit --json. The report keeps the ledger's own text, as ledgerctl audit prints it.
# $at (Number)
jury-point = The game after event { NUMBER($at, useGrouping: 0) }
jury-compare = Compare with event
jury-show-diff = Show the differences
# $from (Number); $to (Number)
jury-diff-title = From event { NUMBER($from, useGrouping: 0) } to event { NUMBER($to, useGrouping: 0) }
jury-no-difference = no difference
jury-every-event = Every event

## The analysts' page
analyst-page = Statistics
analyst-title = Role and nation statistics
filter-ruleset = Ruleset
filter-tournament = Tournament
filter-stage = Stage
filter-year = Year
filter-any = any
filter-go = Filter
stage-qualifying = qualifying
stage-final = final
# $count (Number)
analyst-games = { $count ->
    [one] 1 game
   *[other] { NUMBER($count, useGrouping: 0) } games
}
analyst-csv = these numbers as CSV
# $count (Number) - tournaments whose games were counted
analyst-covers = { $count ->
    [one] These numbers cover the games of 1 tournament:
   *[other] These numbers cover the games of { $count } tournaments:
}
analyst-covers-none = These numbers cover no tournament's games.
analyst-chart-role-rate = Win rate by role, with the 95% (Wilson) interval
analyst-chart-nation-rate = Win rate by nation, with the 95% (Wilson) interval
analyst-chart-role-score = Average score by role
analyst-chart-nation-score = Average score by nation
# $value (Number) - a whole percentage
analyst-percent = { NUMBER($value, useGrouping: 0) }%
# $wins (String); $games (String); $rate (String) - written for the language
analyst-bar = { $wins } wins of { $games } games: { $rate }
analyst-col-role = Role
analyst-col-nation = Nation
analyst-col-games = Games
analyst-col-wins = Wins
analyst-col-rate = Win rate
analyst-col-interval = 95% interval
analyst-col-score = Average score

# HELPER BOARD — the board on a projector and a phone (web/board.rs, board_sections.rs)
board-champion = Champion:
# $how (String): how the final was decided (final-decided-*)
board-champion-how = The final was decided: { $how }
board-lineup = Line-up
# $count (Number)
board-lineup-count = { $count ->
    [one] 1 player registered
   *[other] { $count } players registered
}
# $round (Number)
board-lineup-table = Table in round { NUMBER($round, useGrouping: 0) }
board-lineup-not-drawn = Table (not drawn yet)
# $round (Number)
board-next-round = Next: round { NUMBER($round, useGrouping: 0) }
board-next-final = Next: the final
# $table (Number)
board-table = Table { NUMBER($table, useGrouping: 0) }
board-projector-link = Show on a projector
## Every player has a page (issue 33): my tournament, the public pairings
# $tournament (String) - the tournament's id
me-unknown-link = This personal link does not belong to any player of tournament { $tournament }. Check the link or the QR code the organiser gave you.
# $table (Number)
me-table = Table { NUMBER($table, useGrouping: 0) }
me-now = My game now
me-next = My next games
me-nothing-left = No game of yours is left to play.
me-not-drawn = No game of yours has been drawn yet: come back after the draw.
me-playing = being played
me-not-started = not started yet
me-ended = ended
me-follow = Follow it on the board
# $role (String) - the role's name
me-as = as { $role }
me-against = with
me-scores = My scores
# $rank (Number), $of (Number) - how many are ranked
me-rank = Rank { NUMBER($rank, useGrouping: 0) } of { NUMBER($of, useGrouping: 0) }
me-stand-in-unranked = Stand-ins are not ranked.
me-finalist = You are among the finalists.
# $role (String) - the role's name
me-final-role = You play the final as { $role }.
me-tournament-over = The tournament is over: no game is left to play.
me-final-next = Your next game is the final, once the organiser schedules it.
# $role (String) - the role's name
me-final-played = You played the final as { $role }.
# $champion (String) - the champion's public name
me-champion = The final is over: { $champion } is the champion.
me-champion-you = The final is over: you are the champion!
me-champion-undecided = The final is over; a lot still decides its champion.
me-board = The standings board
pairings-all = All the pairings
# $round (String) - the round's name
pairings-previous = ← { $round }
# $round (String) - the round's name
pairings-next = { $round } →
# $tournament (String) - the tournament's name
pairings-title = Pairings · { $tournament }
pairings-col-player = Player
pairings-none = No round has been drawn yet.
# --- The organiser's codes page (web::codes, issue 33) ---
# $tournament (String)
codes-title = Codes of { $tournament }
codes-lead = The codes that sign tablets, the jury and organisers in. Printing a sheet or issuing a code signs no one out; revoking does, at once.
codes-tables = Tables
codes-people = Jury and organisers
codes-print-sheet = Print the tablets' sheet
codes-print-hint = A fresh code for every table: the tablets signed in already stay signed in.
codes-col-codes = Codes
codes-col-devices = Signed-in devices
# $time (String) - when the device signed in, HH:MM UTC
codes-device-since = signed in at { $time }
codes-device-end = Sign this device out
codes-no-devices = No device signed in yet.
codes-device-admit = Let one more device sign in
# $count (Number)
codes-held = { $count ->
    [0] no code
    [one] 1 code
   *[other] { $count } codes
}
codes-reissue = Re-issue this table's code
codes-revoke = Revoke
codes-no-tables = No game is on a table yet: draw the qualifying rounds first.
codes-no-people = No jury member or organiser holds a code of this page yet.
codes-name = Name
codes-limit-here = Only for this tournament
codes-scoped-only = Your code manages this tournament only: the codes you issue record in it only.
codes-issue = Issue a code
codes-everywhere = every tournament
codes-this-tournament = this tournament
# $name (String)
codes-person-title = The code of { $name }
codes-shown-once = This code is shown only now: give the link or the QR code to its holder, who signs in by opening it. Nobody can show it again; if it is lost, revoke it and issue another.
codes-back = Back to the codes
codes-refused = Only an organiser manages this tournament's codes.
codes-cannot = The ledger cannot change its codes.
codes-full = The ledger holds as many codes as it keeps: revoke some before issuing more.
codes-name-invalid = A name is 1 to 64 printable characters, and not a table's name.
# $table (String)
codes-no-such-table = No game of this tournament is on table { $table }.
codes-no-such-person = No code of that name is managed on this page.

# $table (Number)
codes-reissue-title = Table { $table }: a new code
# $table (Number), $actor (String), $codes (Number), $signed_in (Number)
codes-reissue-cancels = A new code for table { $table } cancels the { $codes ->
    [0] codes it holds (none now)
    [one] one code it holds
   *[other] { $codes } codes it holds
} as { $actor }, and signs out at once { $signed_in ->
    [0] every tablet signed in with them (none now)
    [one] the one tablet signed in with them
   *[other] the { $signed_in } tablets signed in with them
}. Its tablets then sign in again with the new sheet.
codes-reissue-confirm = Cancel them and print the new code
