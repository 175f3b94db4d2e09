# The Andes laws' refusals on the recording tablet (andes-rules.js), each naming its article.
# Squares are named from the side the board is seen from; sides and piece types come worded
# from andes-table.ftl (`$piece` is the piece type as the notation names it, for choosing).

law-notation-shape = Article { $article }: `{ $text }` is not a move: the piece's digit and a square to place it (`0d3`), or a digit and two squares to move it (`2c3c5`)
law-notation-digit = Article { $article }: `{ $text }` does not start with a piece digit: 0 persona, 1 estatal-left, 2 militar, 3 estatal-right
law-notation-square = Article { $article }: in `{ $text }`, `{ $part }` is not a square: a marca a–g (Sol) or A–G (Luna), then an escala 0–6
law-notation-mixed = Article { $article }: `{ $text }` mixes Sol's and Luna's marcas: write both squares from one side
law-notation-same = Article { $article }: `{ $text }` moves a piece to the square it stands on
law-reserve-empty = Article { $article }: { $side } has no piece off the board to place
law-first-persona = Article { $article }: Sol's first move places a persona, not a { $kind }
law-first-continent = Article { $article }: Sol's first move places a persona on the continent, and { $square } is { $region }
law-place-border = Article { $article }: a new piece is placed on a border square (marcas a and g, escalas 0 and 6), and { $square } is not one
law-place-free = Article { $article }: a new piece is placed on a free square, and { $square } holds { $owner }'s { $kind }
law-place-light = Article { $article }: { $square } is a light border square: only a persona is placed there, not a { $kind }
law-no-piece = Article { $article }: there is no piece on { $square } to move
law-not-yours = Article { $article }: { $square } holds { $owner }'s { $kind }: { $side } moves only their own pieces
law-keeps-type = Article { $article }: the piece on { $square } is a { $kind }, not a { $claimed }: a piece keeps its type
law-path = { $piece ->
    [persona] Article { $article }: a persona moves one square in any direction; { $from } to { $to } is not such a move
    [militar] Article { $article }: a militar moves at most 2 squares along a row or a column; { $from } to { $to } is not such a move
    [estatal_left] Article { $article }: an estatal-left moves at most 2 squares along an a0–g6 diagonal; { $from } to { $to } is not such a move
   *[estatal_right] Article { $article }: an estatal-right moves at most 2 squares along an a6–g0 diagonal; { $from } to { $to } is not such a move
}
law-jump = Article { $article }: pieces move over free squares and do not jump: { $between }, between { $from } and { $to }, holds { $owner }'s { $kind }
law-own-colour = Article { $article }: { $square } holds your own { $kind }: a piece never moves onto its own colour
law-attack-centre = Article { $article }: { $square } holds { $owner }'s { $kind }, and a piece is attacked only while the centre d3 is empty; it holds { $holder_owner }'s { $holder_kind }
law-time-ran-out = Article { $article }: { $side }'s time has run out: record the fallen flag instead
law-pending = Article { $article }: the move { $move } is complete only once its consequences are recorded
law-match-over = Article { $article }: the match is over: both games have ended
law-time-back = Article { $article }: table time { NUMBER($at, useGrouping: 0) } goes back: the table clock already read { NUMBER($last, useGrouping: 0) }
law-game-running = Article { $article }: game { $current } is still being played: game { $game } cannot start
law-game-next = Article { $article }: game { $game } cannot start: game { $expected } comes next
law-no-game = Article { $article }: no game has started: start the game first
law-game-over = Article { $article }: game { $game } is over ({ $reason }, { $side }): start game { $next }
law-derived = Article { $article }: the ledger derives { $type } from the move that causes it
law-flag-not-running = Article { $article }: only the clock of the side to move runs: it is { $to_move }'s move, so { $side }'s flag cannot fall
law-flag-standing = Article { $article }: { $side }'s flag has not fallen: { NUMBER($left, useGrouping: 0) } ms are left
law-resign-own-move = Article { $article }: a player resigns during their own move: it is { $to_move }'s move, not { $side }'s
law-unknown = Article { $article }: { $type } is not an Andes event
law-player = Article { $article }: { $seat } must name a player in 1–64 printable characters
law-adversaries = Article { $article }: a game is played between two adversaries
law-clock = Article { $article }: each player's time must be more than 0 ms
law-match-exists = Article { $article }: the match was already created: one stream holds one match
law-no-match = Article { $article }: the match has not been created: an organiser creates it first
law-game-number = Article { $article }: a match has games 1 and 2, not game { $game }
law-jury-no-match = The match has not been created: there is no match to call the jury to
