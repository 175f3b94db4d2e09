# The Andes recording mode (/andes/<match>/record, andes-table.js): the tablet of the recorder
# article 9.1 of the Andes laws requires.

index-andes-record = the recording tablet
record-title = Recording { $match }
record-watch-only = You may watch this match; to record it, sign in with a table token.
record-viewer-link = The board, moves and points (read only)
record-no-match = the match has not been created yet: an organiser creates it
record-phase-not-started = no game has started
record-phase-turn = game { $game } · { $side } to move · { $moves ->
    [one] 1 move played
   *[other] { $moves } moves played
}
record-phase-ended = game { $game } over: { $reason } ({ $side })
record-phase-over = the match is over
record-start-game = Start game { $game }
record-flag-fell = { $side }'s flag fell: record it
record-resign = { $side } resigns
record-flip = Board from { $side }'s side
record-points = { $points } points
record-reserve = { $side }'s reserve: { $count }
record-selected-piece = { $kind } on { $square } chosen: tap the square it goes to
record-selected-reserve = A { $kind } from the reserve chosen: tap the square to place it on
record-pick-first = Tap one of { $side }'s pieces, or a piece type of the reserve, then a square
record-side-sol = Sol
record-side-luna = Luna
record-kind-persona = persona
record-kind-estatal_left = estatal-left
record-kind-militar = militar
record-kind-estatal_right = estatal-right
record-region-centre = the centre
record-region-sierra = sierra
record-region-jungle = jungle
record-region-coast = coast
record-region-island = an island
record-region-ocean = ocean
record-reason-continent_emptied = the continent was lost
record-reason-no_legal_move = no legal move
record-reason-flag_fell = the flag fell
record-reason-resigned = resigned
# A flag fall or a resignation ends the game: a second tap confirms it.
record-confirm-flag = Record that { $side }'s flag fell? The game ends and { $side } loses it.
record-confirm-resign = Record that { $side } ({ $player }) resigns? The game ends and { $side } loses it.
record-confirm-yes = Yes, record it
record-confirm-no = Cancel
# The winners: $how is one of record-won-by-*.
record-game-won = Game { $game } won by { $player } ({ $side }): { $how }
record-won-by-flag_fell = the opponent's flag fell
record-won-by-resigned = the opponent resigned
record-won-by-points = more points
record-won-by-pieces_on_board = level on points, more pieces on the board
record-won-by-luna = level on points and pieces: Luna wins
record-match-won = Match won by { $player }: { $won } points to { $lost }, bonuses included
record-match-drawn = The match is drawn: { $points } points each and as many pieces on the board
record-match-pending = The match is over: its winner is named once the ledger has recorded the end

# The match's events as the tablet lists them (andes-table.js) and the jury reads them
# (ledger_house::words::events): $time the table time h:mm:ss; squares as the notation writes them.
# $sol (String); $luna (String); $minutes (Number)
record-event-match_created = The match: { $sol } plays Sol in game 1, { $luna } Luna; { $minutes } minutes each
# $game (Number); $time (String)
record-event-game_started = Game { $game } started at { $time }
# $kind (String); $square (String); $time (String)
record-event-placed = A { $kind } placed on { $square } at { $time }
# $kind (String); $from (String); $to (String); $time (String)
record-event-moved = A { $kind } moved from { $from } to { $to } at { $time }
# $notation (String); $time (String)
record-event-move_played = The move { $notation } at { $time }
# $owner (String); $kind (String); $square (String)
record-event-piece_attacked = { $owner }'s { $kind } on { $square } was attacked and left the game
# $owner (String); $kind (String); $square (String)
record-event-piece_captured = { $owner }'s { $kind } on { $square } was captured
# $reason (String); $side (String)
record-event-game_ended = The game ended: { $side } { $reason }
# $side (String); $time (String)
record-event-flag_fell = { $side }'s flag fell at { $time }
# $side (String); $time (String)
record-event-resigned = { $side } resigned at { $time }
record-event-name-match_created = the match's creation
record-event-name-game_started = the start of a game
record-event-name-move_played = a move
record-event-name-piece_attacked = an attack
record-event-name-piece_captured = a capture
record-event-name-game_ended = the end of a game
record-event-name-flag_fell = a fallen flag
record-event-name-resigned = a resignation
record-seat-first_sol = Sol in game 1
record-seat-first_luna = Luna in game 1
