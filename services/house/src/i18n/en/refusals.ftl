# Every refusal of the rules that rules.ftl and andes-rules.ftl do not hold: the tournament's
# (ledger/src/rules/tournament.rs), voids and streams, the writer's, the checks across streams
# (replay/src/standings/checks.rs), the organiser's commands, and shapes of bad input
# (ledger_house::words::input). The ledger gives the id and typed arguments (ledger::Reason);
# the page words it here. Names arrive worded; players by their registered names.

## How any refusal is framed.

# $event (Number) - which event of an append; $sentence (String) - the refusal
refusal-in-event = Event { $event }: { $sentence }
refusal-kind-malformed = The ledger cannot record this as it is written.
refusal-kind-precondition = The ledger cannot record this now.
refusal-kind-duplicate = This event's id was already used for another event.
refusal-kind-not-allowed = Your sign-in may not record this.

## The game's refusals that the table's script does not meet.

# $at_ms (Number); $last_at_ms (Number); $hours (Number)
refusal-time-leaps = The table time { NUMBER($at_ms, useGrouping: 0) } leaps { $hours } hours past the table clock's last reading { NUMBER($last_at_ms, useGrouping: 0) }: a game's table time moves on by at most 24 hours at once
# $current (Number); $turn (Number)
refusal-fate-horizon-past = The fate horizon cannot come before the current turn { $current } (turn { $turn } was given)
# $turn (Number)
refusal-fate-horizon-twice = The fate horizon was already recorded (turn { $turn }): void it to record another
# $at_ms (Number); $max (Number)
refusal-at-ms-too-large = The table time { NUMBER($at_ms, useGrouping: 0) } is past any table clock: at most { NUMBER($max, useGrouping: 0) } milliseconds
refusal-clock-zero = A side's clock must hold more than 0 minutes
refusal-seq-zero = Events are numbered from 1
refusal-lot-empty = A lot names at least one player
# $field (String); $code (String); $position (Number)
refusal-direction-character = { $field } must not contain characters that change the text's direction: found U+{ $code } at character { NUMBER($position, useGrouping: 0) }

## Voids and streams.

# $seq (Number); $count (Number)
refusal-void-none = There is no event { $seq } to void: the game holds { $count ->
    [one] one event
   *[other] { $count } events
}
# $seq (Number)
refusal-void-twice = Event { $seq } is already voided
# $seq (Number)
refusal-void-of-void = Event { $seq } is itself a void: record a new ruling instead of voiding a void
# $seq (Number); $type (String); $bad_seq (Number); $why (String)
refusal-void-breaks = Voiding event { $seq } ({ $type }) would leave event { $bad_seq } invalid: { $why }
# $type (String); $kind (String)
refusal-wrong-stream = { $type } is not recorded in { $kind }
stream-kind-game = a game
stream-kind-tournament = a tournament
stream-kind-andes = an Andes match
# $name (String)
refusal-stream-shape = { $name } is not the name of a game, a tournament or an Andes match
# $name (String); $max (Number)
refusal-stream-too-long = The name { $name } is too long: at most { $max } bytes
# $id (String); $max (Number)
refusal-id-shape = The id { $id } must be 1 to { $max } letters, digits, dots, dashes or underscores
# $id (String)
refusal-id-dot = The id { $id } must not start with a dot
# $type (String)
refusal-jury-only = Only the jury may record { $type }
# $type (String)
refusal-organiser-only = Only an organiser or the jury may record { $type }
# $type (String)
refusal-not-cleared = Your sign-in may not record { $type }

## The writer's limits.

# $count (Number); $max (Number)
refusal-append-too-many = With what the ledger derives, this would record { $count } events at once; at most { $max }: send fewer at once
# $type (String); $bytes (Number); $max (Number)
refusal-event-too-large = { $type } takes { NUMBER($bytes, useGrouping: 0) } bytes; the ledger stores at most { NUMBER($max, useGrouping: 0) }

# $count (Number); $max (Number)
refusal-send-too-many = The tablet sent { $count } events at once; at most { $max } are sent at once

## The tournament's rules.

# $type (String)
refusal-tournament-not-created = The tournament has not been created yet: create it before { $type }
# $ruleset (String)
refusal-tournament-exists = The tournament was already created, with { $ruleset }
refusal-draw-recorded = The qualifying draw was already recorded
# $seed (String); $players (Number)
refusal-draw-differs = This is not the draw of seed { $seed } for the { $players } registered players
# $role (String); $player (String)
refusal-role-taken = { $role } was already chosen by { $player }
# $player (String); $role (String)
refusal-role-chosen = { $player } already chose { $role }
# $purpose (String)
refusal-lot-drawn = A lot for “{ $purpose }” was already drawn: the jury voids it before another is drawn
refusal-lot-twice = A lot names each player once
# $seed (String); $order (String)
refusal-lot-differs = This is not the lot of seed { $seed }: for these players it gives { $order }
# $type (String)
refusal-not-a-tournament-event = { $type } is not recorded in a tournament
# $player (String); $role (String); $chosen (String)
refusal-final-seats-other = The final seats { $player } as { $role }, but { $chosen } chose { $role }
# $role (String)
refusal-final-role-unchosen = No finalist has chosen { $role } yet: the four choose first
# $id (String); $name (String)
refusal-id-taken = The id { $id } is already { $name }'s: choose another
# $id (String); $name (String)
refusal-id-taken-stand-in = The id { $id } is already the stand-in { $name }'s: choose another
# $pseudonym (String); $holder (String)
refusal-pseudonym-taken = The pseudonym { $pseudonym } is already { $holder }'s in this tournament: choose another
# $player (String)
refusal-not-registered = { $player } is not registered
# $player (String); $game (String)
refusal-unregister-seated = { $player } already sits at game { $game }: after the draw a registration stays, and { $player } withdraws instead
# $player (String)
refusal-unregister-drawn = The qualifying draw was recorded: a registration stays after it, and { $player } withdraws instead
# $player (String)
refusal-stand-in-not-ranked = { $player } is a stand-in: stand-ins are not ranked and never reach the final
refusal-round-zero = Rounds are numbered from 1
# $player (String); $round (Number)
refusal-withdrew-already = { $player } already withdrew (from round { $round })
# $player (String)
refusal-withdraw-before-draw = { $player } cannot withdraw before the qualifying draw, which seats every registered player: unregister { $player } instead
# $player (String); $game (String)
refusal-withdraw-finalist = The final { $game } seats { $player }: the jury voids its line-up before { $player } withdraws
# $player (String); $round (Number); $games (Number)
refusal-withdraw-needs-stand-in = { $player } still has { $games ->
    [one] a qualifying game
   *[other] { $games } qualifying games
} from round { $round } on: name the stand-in who takes the seat
# $player (String); $round (Number); $games (Number)
refusal-withdraw-no-free-stand-in = { $player } still has { $games ->
    [one] a qualifying game
   *[other] { $games } qualifying games
} from round { $round } on, and no registered stand-in is free in those rounds: register a stand-in first
# $player (String)
refusal-not-a-stand-in = { $player } is not a registered stand-in
# $player (String); $round (Number)
refusal-withdraw-no-games = { $player } has no qualifying game from round { $round } on: no stand-in takes a seat
# $stand_in (String); $round (Number); $player (String)
refusal-stand-in-busy = { $stand_in } already plays in round { $round }, where { $player }'s game needs a stand-in
# $player (String); $round (Number)
refusal-finalist-withdrew = { $player } withdrew (from round { $round }): the next in rank takes the place in the final
# $game (String)
refusal-game-scheduled = Game { $game } is already scheduled
# $game (String); $player (String)
refusal-two-roles = Game { $game } seats { $player } in two roles
refusal-draw-no-players = A qualifying draw needs players: none are registered
# $players (Number); $needed (Number); $registered (Number)
refusal-draw-stand-ins = A qualifying draw of { $players } players needs { $needed ->
    [one] one stand-in
   *[other] { $needed } stand-ins
} to fill its tables, but { $registered ->
    [0] none is registered
    [one] one is registered
   *[other] { $registered } are registered
}: register a stand-in first
# $players (Number); $needed (Number); $tables (Number)
refusal-draw-tables = A qualifying draw of { $players } players would need { $needed } stand-ins at { $tables ->
    [one] one table
   *[other] { $tables } tables
}: register more players (stand-ins never share a table)
# $player (String)
refusal-draw-twice = { $player } is listed twice for the qualifying draw

## Checks across streams.

# $game (String); $owner (String); $tournament (String)
refusal-game-of-another = Game { $game } belongs to { $owner }: each tournament schedules games of its own, named after it ({ $tournament }-…)
# $game (String); $count (Number)
refusal-game-played = Game { $game } already holds { $count ->
    [one] one event
   *[other] { $count } events
}: a tournament schedules only a game not yet played
# $game (String); $player (String)
refusal-withdraw-started = Game { $game } has already started: a withdrawal re-seats only games not started; withdraw { $player } from a later round
# $why (String)
refusal-standings-unknown = The standings cannot be computed yet
refusal-finalists-tied = The finalists are not settled yet: fourth and fifth place are tied, so draw a lot
# $count (Number)
refusal-finalists-open = The finalists are not settled yet: { $count ->
    [one] a qualifying game is still open
   *[other] { $count } qualifying games are still open
}
# $player (String); $finalists (String)
refusal-not-finalist = { $player } is not a finalist: the final is played by { $finalists }
# $player (String); $rank (Number)
refusal-finalists-rank-tied = { $player } shares rank { $rank } with the player above: draw a lot before the finalists choose
# $next (String); $rank (Number); $player (String)
refusal-finalists-order = The finalists choose in rank order: { $next } (rank { $rank }) chooses next, not { $player }
refusal-finalists-chosen = All finalists have chosen their roles

## Bad input: an event or a body that is not what the ledger reads.

input-not-object = An event is written as a JSON object
input-type-not-text = An event's type is written as text
input-not-json = This is not JSON the ledger can read
input-other = The ledger cannot read this input
# $type (String)
input-unknown-type = { $type } is not an event the ledger knows
# $field (String)
input-missing = The field { $field } is missing
# $field (String)
input-unknown-field = The ledger knows no field { $field } here
# $field (String); $given (String); $expected (String)
input-invalid-value = { $given } is not allowed here: { $expected } is expected
# $field (String); $given (String); $expected (String)
input-invalid-type = { $given } is not allowed here: { $expected } is expected
# $field (String); $given (String)
input-unknown-value = { $given } is not one of the values allowed here
# $field (String)
input-invalid-length = A list has the wrong number of entries
# $type (String); $given (String); $expected (String); $field (String)
input-event-invalid-value = In { $type }, { $given } is not allowed: { $expected } is expected
# $type (String); $given (String); $expected (String); $field (String)
input-event-invalid-type = In { $type }, { $given } is not allowed: { $expected } is expected
# $type (String); $field (String)
input-event-missing = { $type } needs the field { $field }
# $type (String); $field (String)
input-event-unknown-field = { $type } has no field { $field }
# $type (String); $given (String); $field (String)
input-event-unknown-value = In { $type }, { $given } is not one of the values allowed
input-kind-map = an object
input-kind-sequence = a list
input-kind-null = nothing
input-kind-unit = nothing
input-expected-whole_from_zero = a whole number from 0
input-expected-whole = a whole number
input-expected-text = text
input-expected-yes_no = true or false
input-expected-list = a list
input-expected-number = a number
input-expected-object = an object
input-expected-valid = a valid value
input-body-syntax = The request is not JSON the ledger can read
input-body-content-type = The request must be sent as JSON
input-body-too-large = The request is too large for the ledger to read
# $detail (String) - an input-* sentence
input-body-shape = The request does not have the shape the ledger reads: { $detail }
