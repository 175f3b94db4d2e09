# The organiser's console (/organise): running the day from a browser.
organise-season-title = Tournaments to run
organise-season-none = No tournament yet: create the first one below.
organise-section-create = A new tournament
organise-id-hint = The id names the tournament in addresses and on the ledger (letters, digits, - and _), e.g. cafe26. It cannot be changed.
organise-title = Running { $tournament }
organise-count = { $players ->
    [one] 1 player
   *[other] { $players } players
}{ $stand_ins ->
    [0] {""}
    [one] {" "}and 1 stand-in
   *[other] {" "}and { $stand_ins } stand-ins
}
organise-link-board = Board
organise-link-paper = Paper to print
organise-link-codes = Tablet and jury codes
organise-link-pairings = Public pairings
organise-link-season = All tournaments
organise-section-players = Players
organise-section-draw = The draw
organise-section-withdraw = A player withdraws
organise-section-lots = Lots for ties
organise-section-final = The final
organise-players-none = Nobody is registered yet.
organise-players-closed = The draw is recorded: registrations stay as they are; a player who leaves withdraws below.
organise-register-one = Register one
organise-register-list = Paste a list
organise-register-file = Or upload a file
organise-list-hint = One person a line: name, pseudonym, id — the last two may be empty. Columns split by tabs (pasted from a spreadsheet), semicolons or commas; a first line of column names is skipped. Nothing is recorded if any line is refused.
organise-list-example = Ana García, Loba
organise-field-id = Tournament id
organise-field-name = Name
organise-field-pseudonym = Pseudonym
organise-field-player = Id
organise-field-new_player = New id (empty: keep it)
organise-field-stand_in = Stand-in (fills a table, never ranked)
organise-field-list = The list
organise-field-file = A CSV or text file
organise-field-ruleset = Ruleset
organise-field-clock_minutes = Minutes on each side of the clock (empty: 130)
organise-field-seed = Seed
organise-field-from_round = First round not played
organise-field-stand_in_choice = Stand-in
organise-field-purpose = What the lot decides
organise-field-players = Tied players
organise-field-role = Role
organise-field-table = Table
organise-stand-in = stand-in
organise-stand-in-first-free = The first free stand-in
organise-fix = Correct
organise-unregister = Remove
organise-withdrawn = withdrew before round { $round }
organise-seed-hint = Anyone can recompute the draw from this number: draw it in public (dice, a spectator) before you record it.
organise-draw-first-register = Register the players first.
organise-drawn = The qualifying rounds are drawn. The pairings to print:
organise-round = Round { $round }
organise-table = Table
organise-lot-none = No players are tied with nothing to separate them.
organise-lot-needed = Nothing separates { $players }: draw a lot among them.
organise-lot-tied = The tied players
organise-lot-qualifying = The qualifying ranking
organise-lot-final = The final's ranking
organise-final-unsettled = The finalists are not settled yet: games are still running, or a tie at the fourth place needs a lot.
organise-final-to-choose = to choose
organise-final-scheduled = The final is scheduled: { $game }.
organise-preview = Preview
organise-preview-title = Check before recording
organise-record = Record it
organise-change = Change it
organise-back = Back to the console
organise-changed = Something was recorded in this tournament since this preview: this is what the action records now. Check it again.
organise-refused-title = Not recorded
organise-nothing-recorded = Nothing was recorded.
organise-refused-lines = { $count ->
    [one] 1 line is refused by the tournament's rules:
   *[other] { $count } lines are refused by the tournament's rules:
}
organise-refused = The console is the organiser's: sign in with an organiser's code.
organise-error-form = This form cannot be read.
organise-error-required = A required field is empty.
organise-error-number = A whole number is expected, not “{ $value }”.
organise-error-lines = { $count ->
    [one] Line { $lines } of the list cannot be read
   *[other] Lines { $lines } of the list cannot be read
} (the first: “{ $first }”). Nothing was recorded.
organise-error-empty-list = The list has nobody in it.
organise-error-file = The file cannot be read: it must be a text or CSV file in UTF-8, at most 256 KB.
organise-error-id = A tournament id is letters, digits, “-” or “_”, up to 64.
organise-error-lot-players = A lot is drawn among two players or more: tick them.
organise-will-create = Create the tournament { $name }, played under { $ruleset }, with { $minutes } minutes on each side of the clock.
organise-will-register-count = { $count ->
    [one] 1 person will be registered:
   *[other] { $count } people will be registered:
}
organise-will-register = Register { $name } (id { $id }) as { $pseudonym }.
organise-will-unregister = Remove the registration of { $player } ({ $id }).
organise-will-draw = The four qualifying rounds drawn with seed { $seed }:
organise-draw-stand-ins = The stand-ins seated to fill the tables: { $stand_ins }.
organise-draw-repeats = { $pairs ->
    [one] 1 pair of players meets twice (unavoidable with this many players).
   *[other] { $pairs } pairs of players meet twice (unavoidable with this many players).
}
organise-will-lot = The lot's order, first to last:
organise-will-withdraw = { $player } leaves the tournament from round { $round } on; the games played keep counting.
organise-will-stand-in = { $stand_in } takes the seat in { $games ->
    [one] the game left
   *[other] the { $games } games left
}.
organise-will-choose = { $player } chooses { $role } for the final.
organise-will-schedule = The final, { $game }, on table { $table }: { $seats }.
organise-done-create = The tournament is created.
organise-done-register = Registered.
organise-done-list = The list is registered.
organise-done-unregister = The registration is removed.
organise-done-fix = The registration is corrected.
organise-done-draw = The draw is recorded.
organise-done-withdraw = The withdrawal is recorded.
organise-done-lot = The lot is recorded.
organise-done-choose = The role is recorded.
organise-done-final = The final is scheduled.
organise-register-stand-in = A stand-in joins
organise-field-who = Player
organise-field-finalist = Finalist
index-organise = The organiser's console: run a tournament, or create one
index-organise-one = run it
organise-refused-rules = The rules do not allow this; the ledger says why:
# $count (Number)
organise-lot-wait = { $count ->
    [one] One qualifying game is still to play: it can still separate tied players, so a lot waits for it.
   *[other] { $count } qualifying games are still to play: they can still separate tied players, so a lot waits for them.
}
# $count (Number)
organise-final-wait = The finalists are known once the qualifying rounds end: { $count ->
    [one] one game is still to play.
   *[other] { $count } games are still to play.
}
